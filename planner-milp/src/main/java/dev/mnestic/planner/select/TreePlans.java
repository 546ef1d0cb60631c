package dev.mnestic.planner.select;

import dev.mnestic.planner.memo.Guarantee;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.physical.Timing;
import dev.mnestic.planner.workload.Budget;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.Target;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * One query at a time, as a tree: dynamic programming over (candidate v, history M asked of v)
 * giving, for each error level v can have, the cheapest sub-plan below v. Three uses:
 *
 * <ul>
 *   <li>{@link #costWithoutSharing}: the no-sharing baseline, Σ_q of q's cheapest plan with every
 *       result it reads computed for it alone (read twice, paid twice), exactly;</li>
 *   <li>{@link #greedy}: a plan with sharing, grown query by query, each query reusing what the
 *       earlier ones keep across evaluations (a kept result asks only its lookback of its inputs
 *       however far back it is read, so reusing it changes nothing below it);</li>
 *   <li>{@link #improved}: that plan improved by local search, taking queries out and putting
 *       them back. Its cost bounds the optimum from above ({@link Pruning}) and it is the MILP's
 *       starting point.</li>
 * </ul>
 *
 * <p>A tree asks of a candidate only the histories of one path, so the largest, M, decides
 * (R): M ≤ what v keeps; v passes its lookback down, and M + lookback too when recomputed on
 * demand. (K) is the level at the answer; a ratio composes its operands' levels, and pays once
 * for a summary both its operands read ({@link #offerShared}).
 */
public final class TreePlans {
  /** Rounds of re-planning every query (each round stops early when nothing improves). */
  private static final int ROUNDS = 8;

  private final PlanSpace space;
  private final List<List<List<PhysicalEdge>>> inputs;
  /** The candidates of the plan grown so far, with their chosen inputs; empty for the baseline. */
  private final Map<Integer, Placed> placed = new HashMap<>();
  /** {@link #placed} by place in the tables ({@link #at}), unboxed. */
  private final Placed[] placedAt;
  /** The dynamic programme's tables: with streamed results, and without. */
  private final Table streaming;
  private final Table kept;
  /** The table in use ({@link #streaming} or {@link #kept}). */
  private Table table;
  /** By place in the tables ({@link #at}), v's shape. */
  private final int[] shapes;
  /** The candidates planned over, by place in the tables; null: all, each at its id. */
  private final int[] ids;
  /** By candidate id, its place in {@link #ids}. */
  private final int[] slot;
  /** By logical candidate and timing ({@link #shape}), the first candidate met. */
  private final Map<Long, Integer> firstOfShape = new HashMap<>();
  /** Which insertion is under way: what an earlier one placed is reused, not placed again. */
  private int stamp;
  /** Whether a result may stream into its one consumer (lifetime none) below an answer. */
  private boolean streams = true;
  /** What the insertion under way placed. */
  private final List<Integer> fresh = new ArrayList<>();
  /** A candidate the trees may not use (-1: none). */
  private int barred = -1;
  /** Whether a ratio's two operands may read one summary, paid once (not in the baseline). */
  private final boolean shares;
  /**
   * Whether an insertion leaves the tables as they were ({@link #grown} past its deadline): the entries
   * computed before a placement do not see it, so a tree may meet a candidate of the plan where
   * the tables did not price it as reused ({@link #place} checks one plan can hold it).
   */
  private boolean lazy;
  /** Whether some query was inserted {@link #lazy}. */
  private boolean grownAlone;
  /** By readout, the producers it may share with another readout ({@link #summaries}). */
  private final int[][] summaries;

  /**
   * A table entry for history {@code asked} (ZERO when nothing is asked); {@code next} is the
   * entry for another history.
   */
  private record Memo<T>(Duration asked, T value, Memo<T> next) {
  }

  /**
   * A sub-plan below a candidate: its cost, and per input the producer chosen and the level it
   * gives (null producers: a candidate of the plan, reused); for a ratio whose two operands read
   * one summary, that summary ({@code shared}, else -1), which both producers read.
   */
  private record Option(double cost, int[] producers, Guarantee[] levels, int shared) {
    Option(double cost, int[] producers, Guarantee[] levels) {
      this(cost, producers, levels, -1);
    }
  }

  private static final Option REUSED = new Option(0, null, null);

  /** A candidate asked some history: its own weight (0 when reused) and the options below it. */
  private record Node(double own, Levels below) {
  }

  /** A candidate that cannot serve what is asked. */
  private static final Node NONE = new Node(0, Levels.EMPTY);

  /**
   * The cheapest option per level, in the order the levels were first offered: a few levels at
   * most (one per θ reaching a candidate), so arrays searched in order. Iterating a map's entries
   * for every edge of the dynamic programme was a fifth of what growing the plans allocated.
   * Not changed once in a table.
   */
  private static final class Levels {
    static final Levels EMPTY = new Levels();

    private Guarantee[] levels = new Guarantee[2];
    private Option[] options = new Option[2];
    private int size;

    static Levels of(Guarantee level, Option option) {
      final Levels l = new Levels();
      l.put(level, option);
      return l;
    }

    int size() {
      return size;
    }

    boolean isEmpty() {
      return size == 0;
    }

    Guarantee level(int i) {
      return levels[i];
    }

    Option option(int i) {
      return options[i];
    }

    private int indexOf(Guarantee level) {
      for (int i = 0; i < size; i++) {
        if (levels[i] == level || levels[i].equals(level)) {
          return i;
        }
      }
      return -1;
    }

    /** The option at {@code level}, or null. */
    Option get(Guarantee level) {
      final int i = indexOf(level);
      return i < 0 ? null : options[i];
    }

    /** Whether an option at {@code level} costing {@code cost} is cheaper than the one held. */
    boolean cheaper(Guarantee level, double cost) {
      final int i = indexOf(level);
      return i < 0 || cost < options[i].cost();
    }

    /** Sets the option at {@code level}, in its place when held, else last. */
    void put(Guarantee level, Option option) {
      final int i = indexOf(level);
      if (i >= 0) {
        options[i] = option;
        return;
      }
      if (size == levels.length) {
        levels = Arrays.copyOf(levels, size * 2);
        options = Arrays.copyOf(options, size * 2);
      }
      levels[size] = level;
      options[size++] = option;
    }
  }

  /**
   * A candidate of the plan: its level there, the history asked of it, the insertion that
   * placed it, and the edge chosen into each of its inputs.
   */
  private record Placed(Guarantee level, Duration asked, int stamp, PhysicalEdge[] edges) {
  }

  /** Trees over the whole space. */
  private TreePlans(PlanSpace space, List<List<List<PhysicalEdge>>> inputs, boolean shares) {
    this(space, inputs, shares, null, null);
  }

  /**
   * Trees over the candidates {@code ids} only (null: all of them), {@code slot[v]} being v's
   * place in {@code ids}: a part's trees reach only its own candidates, so its tables are the
   * part's size, not the space's (52 parts of 81k candidates allocated 30 tables of 81k
   * entries each otherwise).
   */
  private TreePlans(PlanSpace space, List<List<List<PhysicalEdge>>> inputs, boolean shares, int[] ids, int[] slot) {
    this.space = space;
    this.inputs = inputs;
    this.shares = shares;
    this.ids = ids;
    this.slot = slot;
    final int n = ids == null ? space.candidates().size() : ids.length;
    this.summaries = new int[n][];
    this.streaming = new Table(n);
    this.kept = new Table(n);
    this.table = streaming;
    this.shapes = new int[n];
    Arrays.fill(shapes, -1);
    this.placedAt = new Placed[n];
  }

  /** v's place in the tables. */
  private int at(int v) {
    if (ids == null) {
      return v;
    }
    final int i = slot[v];
    if (i >= ids.length || ids[i] != v) {
      throw new IllegalStateException("candidate " + v + " is not in the part planned");
    }
    return i;
  }

  /**
   * A table of the dynamic programme, kept from one query to the next: by candidate, its entry
   * for each history asked. An entry depends on the plan only through the candidates below it,
   * so a change of the plan (a candidate placed or taken out, or barred) drops the entries of
   * that candidate and of what reads them, up to the answers ({@link #invalidate}).
   */
  private final class Table {
    final Memo<Node>[] nodes;
    /** The options below each shape ({@link #shape}), by the history it asks of its inputs. */
    final Memo<Levels>[] belows;
    /** By candidate: the shapes whose entries read its entries. */
    final Ints[] readBy;
    /** By shape: the candidates whose entries read its entries. */
    final Ints[] usedBy;

    @SuppressWarnings("unchecked")
    Table(int n) {
      nodes = (Memo<Node>[]) new Memo<?>[n];
      belows = (Memo<Levels>[]) new Memo<?>[n];
      readBy = new Ints[n];
      usedBy = new Ints[n];
    }

    /** Drops the entries of v and of everything read from them, up to the answers. */
    void invalidate(int v) {
      final int i = at(v);
      if (nodes[i] == null) {
        return;
      }
      nodes[i] = null;
      final Ints shapesReading = readBy[i];
      readBy[i] = null;
      if (shapesReading != null) {
        for (int k = 0; k < shapesReading.size(); k++) {
          final int s = at(shapesReading.get(k));
          if (belows[s] != null) {
            belows[s] = null;
            final Ints users = usedBy[s];
            usedBy[s] = null;
            if (users != null) {
              for (int j = 0; j < users.size(); j++) {
                invalidate(users.get(j));
              }
            }
          }
        }
      }
    }
  }

  /**
   * The cost of the plan without sharing: each query planned alone, every result it reads
   * computed for it (two readers of one result each pay for their own; the store's rows cost
   * nothing). Budgets are not applied: they bound a plan, and this is a reference cost.
   */
  public static double costWithoutSharing(PlanSpace space) {
    return costWithoutSharing(space, () -> false);
  }

  /**
   * {@link #costWithoutSharing(PlanSpace)}, or NaN when {@code late} says so before some
   * query ({@code mnestic plan --total}: the view then says it was not worked out in time).
   */
  public static double costWithoutSharing(PlanSpace space, BooleanSupplier late) {
    if (late.getAsBoolean()) {
      return Double.NaN;
    }
    final TreePlans trees = new TreePlans(space, space.feasibleInputs(), false);
    double total = 0;
    for (Query q : space.workload().queries()) {
      if (late.getAsBoolean()) {
        return Double.NaN;
      }
      final double cost = trees.cheapest(space.answers().get(q.name()), q.retention());
      if (cost == Double.POSITIVE_INFINITY) {
        throw new PlanningException("no plan meets the target and retention of query " + q.name());
      }
      total += cost;
    }
    return total;
  }

  /**
   * A plan with sharing, query by query in workload order, each reusing what earlier ones keep;
   * null when some query finds no plan this way, or the plan breaks a budget. {@code
   * Planner.plan}'s first plan under a total limit is this one in the space of each query's own
   * ways to compute: there it costs the queries' cheapest trees apart when no two meet, and
   * less when they share a summary (at 1,664 queries 366,586 against 519,109 without sharing,
   * and faster than growing on tables not updated after each query).
   */
  public static Plan greedy(PlanSpace space) {
    final TreePlans trees = grown(space, space.feasibleInputs(), space.workload().queries(), null, null);
    return trees == null || trees.excess() > 0 ? null : trees.plan();
  }

  /**
   * The plan of {@code queries} grown query by query in that order, for {@link #improved(List,
   * BooleanSupplier)}; null when one has no tree. {@code ids} and {@code slot} as in
   * {@link #improved(PlanSpace, List, List, int[], int[], BooleanSupplier)}.
   */
  static TreePlans grown(PlanSpace space, List<List<List<PhysicalEdge>>> inputs, List<Query> queries,
      int[] ids, int[] slot) {
    return grown(space, inputs, queries, ids, slot, () -> true);
  }

  /**
   * {@link #grown(PlanSpace, List, List, int[], int[])} while {@code full} (asked before each
   * query, until it first says no); the queries from there on are grown without updating the
   * dynamic programme's tables after each query (what a part past the growth's deadline gets,
   * from the query where it passed; {@code () -> false}: the whole part): each query takes its
   * cheapest tree as the tables say, priced as if it were planned alone except in the entries
   * first computed after a placement (which reuse what the plan keeps), and shares a candidate
   * of the plan it meets only where one plan can hold both (not streamed, at one level, not
   * recomputed further back than placed); a query whose tree cannot be joined so is planned
   * again on tables brought up to date (83 of 1,664 queries on the generated dashboard). Each
   * query thus adds at most its cheapest tree with nothing shared but a summary its ratio's
   * operands both read, so the plan costs no more than the plan without sharing
   * ({@link #costWithoutSharing}), for about four fifths of the work of a full growth. The
   * tables are brought up to date before it is returned, for
   * {@link #improved(List, BooleanSupplier)}; {@link #grownAlone()} says whether some query
   * was grown so. Null when one query has no tree.
   */
  static TreePlans grown(PlanSpace space, List<List<List<PhysicalEdge>>> inputs, List<Query> queries,
      int[] ids, int[] slot, BooleanSupplier full) {
    final TreePlans trees = new TreePlans(space, inputs, true, ids, slot);
    for (Query q : queries) {
      if (!trees.lazy && !full.getAsBoolean()) {
        trees.lazy = true;
        trees.grownAlone = true;
      }
      if (!trees.insert(q)) {
        return null;
      }
    }
    if (trees.lazy) {
      trees.lazy = false;
      trees.update();
    }
    return trees;
  }

  /** Whether some query of this plan was grown on tables not updated after each query ({@link #grown}). */
  boolean grownAlone() {
    return grownAlone;
  }

  /** Brings the tables up to date with the plan: drops every entry a candidate of it decides. */
  private void update() {
    for (int v : placed.keySet()) {
      invalidate(v);
    }
  }

  /**
   * A plan of {@code queries} (those of one part, or all), grown query by query and improved by
   * local search: each query in turn is taken out of the plan (with what no other query reads)
   * and planned again as its cheapest tree reusing what the rest of the plan keeps, which is
   * kept when the plan gets cheaper; rounds alternate the order until a round improves nothing
   * (at most {@link #ROUNDS}). Deterministic. Null when some query finds no plan this way, or
   * the plan breaks a budget.
   *
   * @param inputs the feasible edges into each candidate's inputs ({@link PlanSpace#feasibleInputs})
   */
  static Plan improved(PlanSpace space, List<List<List<PhysicalEdge>>> inputs, List<Query> queries) {
    return improved(space, inputs, queries, () -> true);
  }

  /**
   * {@link #improved(PlanSpace, List, List)} with a time limit: the plan is grown in full (a
   * plan of every query is the least a selector returns), then the local search tries another
   * move only while {@code goesOn} (the part's deadline not reached, the search not stopped).
   * The plan's {@link Plan#search} has one phase, "local search", cut when {@code goesOn} ended
   * it with moves untried; its plan is then a valid plan, as every kept move leaves one.
   */
  static Plan improved(PlanSpace space, List<List<List<PhysicalEdge>>> inputs, List<Query> queries,
      BooleanSupplier goesOn) {
    return improved(space, inputs, queries, null, null, goesOn);
  }

  /**
   * {@link #improved(PlanSpace, List, List, BooleanSupplier)} for the queries of one part
   * ({@link Components}), whose trees reach only its candidates: {@code ids}, with
   * {@code slot[v]} the place of v in {@code ids} (null, null: any candidate of the space).
   */
  static Plan improved(PlanSpace space, List<List<List<PhysicalEdge>>> inputs, List<Query> queries,
      int[] ids, int[] slot, BooleanSupplier goesOn) {
    final TreePlans trees = grown(space, inputs, queries, ids, slot);
    return trees == null ? null : trees.improved(queries, goesOn);
  }

  /**
   * This plan, grown from {@code queries} ({@link #grown}), improved by local search while
   * {@code goesOn}, as {@link #improved(PlanSpace, List, List, BooleanSupplier)} says; null when
   * it breaks a budget.
   */
  Plan improved(List<Query> queries, BooleanSupplier goesOn) {
    final boolean finished = improve(queries, goesOn);
    if (excess() > 0) {
      return null;
    }
    final Plan plan = plan();
    return new Plan(plan.candidates(), plan.edges(), plan.cost(), 0, Plan.Status.HEURISTIC, 0, 0, 0,
        new Search(List.of(new Search.Phase("local search", 0, !finished)), List.of(), List.of()));
  }

  /**
   * Local search: moves that take some queries out of the plan (with what only their trees
   * read) and put them back, each as its cheapest tree given the rest, kept when the plan gets
   * cheaper (or closer to its budgets). A round re-plans each query alone (in workload order,
   * reversed every other round), then, for each candidate of the plan from the dearest, every
   * query whose tree reads it together, with that candidate barred: a summary two queries
   * share goes only when both move. Rounds repeat until one improves nothing, or until
   * {@code goesOn} says no before a move.
   *
   * @return whether it ended by itself (false: {@code goesOn} stopped it with moves untried)
   */
  private boolean improve(List<Query> queries, BooleanSupplier goesOn) {
    double[] score = score();
    // Moves kept so far, and by move (a query, or a candidate barred) how many had been kept
    // when it last changed nothing: until another is kept, the plan is the same and so would be
    // its outcome.
    int kept = 0;
    final Map<Object, Integer> futile = new HashMap<>();
    for (int round = 0; round < ROUNDS; round++) {
      final int before = kept;
      final List<Query> order = new ArrayList<>(queries);
      if (round % 2 == 1) {
        Collections.reverse(order);
      }
      for (Query q : order) {
        if (futile.getOrDefault(q, -1) == kept) {
          continue;
        }
        if (!goesOn.getAsBoolean()) {
          return false;
        }
        final double[] now = move(List.of(q), -1, queries, score);
        if (now != null) {
          score = now;
          kept++;
        } else {
          futile.put(q, kept);
        }
      }
      final List<Integer> dearest = new ArrayList<>(placed.keySet());
      dearest.sort(Comparator.comparingDouble((Integer v) -> -space.weight(v)).thenComparing(v -> v));
      final Set<List<Query>> tried = new HashSet<>();
      Map<Integer, List<Query>> readers = readers(queries);
      int readersAt = kept;
      for (int u : dearest) {
        if (!placed.containsKey(u) || space.weight(u) <= 0 || futile.getOrDefault(u, -1) == kept) {
          continue;
        }
        if (readersAt != kept) {
          readers = readers(queries);
          readersAt = kept;
        }
        final List<Query> moved = readers.get(u);
        if (moved.size() < 2 || !tried.add(moved)) {
          continue;
        }
        if (!goesOn.getAsBoolean()) {
          return false;
        }
        final double[] now = move(moved, u, queries, score);
        if (now != null) {
          score = now;
          kept++;
        } else {
          futile.put(u, kept);
        }
      }
      if (kept == before) {
        return true;
      }
    }
    return true;
  }

  /**
   * Takes {@code moved} out of the plan and puts them back in that order, without candidate
   * {@code barred} (-1: none): the new score when better than {@code score}, else null and the
   * plan as it was.
   */
  private double[] move(List<Query> moved, int barred, List<Query> queries, double[] score) {
    final Map<Integer, Placed> before = new HashMap<>(placed);
    remove(moved, queries);
    bar(barred);
    boolean added = true;
    for (Query q : moved) {
      added = added && insert(q);
    }
    bar(-1);
    final double[] now = added ? score() : null;
    if (now != null && better(now, score)) {
      return now;
    }
    restore(before);
    return null;
  }

  /** Bars candidate v from the trees (-1: none). */
  private void bar(int v) {
    if (barred >= 0) {
      invalidate(barred);
    }
    barred = v;
    if (v >= 0) {
      invalidate(v);
    }
  }

  /** Puts the plan back as {@code before}. */
  private void restore(Map<Integer, Placed> before) {
    for (int v : new ArrayList<>(placed.keySet())) {
      if (!placed.get(v).equals(before.get(v))) {
        drop(v);
      }
    }
    before.forEach((v, p) -> {
      if (!p.equals(placed.get(v))) {
        put(v, p);
      }
    });
  }

  private void put(int v, Placed p) {
    placed.put(v, p);
    placedAt[at(v)] = p;
    invalidate(v);
  }

  private void drop(int v) {
    placed.remove(v);
    placedAt[at(v)] = null;
    invalidate(v);
  }

  /** Drops the table entries that v's place in the plan decides. */
  private void invalidate(int v) {
    streaming.invalidate(v);
    kept.invalidate(v);
  }

  /** By candidate of the plan, the queries whose trees read it, directly or not. */
  private Map<Integer, List<Query>> readers(List<Query> queries) {
    final Map<Integer, List<Query>> readers = new HashMap<>();
    for (Query q : queries) {
      for (int v : reach(List.of(space.answers().get(q.name())))) {
        readers.computeIfAbsent(v, k -> new ArrayList<>()).add(q);
      }
    }
    return readers;
  }

  /** What the plan's candidates {@code from} read, directly or not, and themselves. */
  private Set<Integer> reach(List<Integer> from) {
    final Set<Integer> read = new HashSet<>();
    final Deque<Integer> todo = new ArrayDeque<>(from);
    while (!todo.isEmpty()) {
      final int v = todo.pop();
      if (read.add(v)) {
        for (PhysicalEdge e : placed.get(v).edges()) {
          todo.push(e.producer());
        }
      }
    }
    return read;
  }

  /** (budget excess, cost): a plan within its budgets first, then the cheaper. */
  private double[] score() {
    return new double[] {excess(), cost()};
  }

  private static boolean better(double[] a, double[] b) {
    return a[0] < b[0] * (1 - 1e-9) || a[0] <= b[0] && a[1] < b[1] * (1 - 1e-9);
  }

  private double cost() {
    double cost = 0;
    for (int v : placed.keySet()) {
      cost += space.weight(v);
    }
    return cost;
  }

  /** How far the plan exceeds its budgets: Σ_b max(0, total_b / limit_b - 1). */
  private double excess() {
    double excess = 0;
    for (Budget b : space.workload().budgets()) {
      double total = 0;
      for (int v : placed.keySet()) {
        total += space.costs().get(v).of(b.resource());
      }
      excess += Math.max(0, total / b.limit() - 1);
    }
    return excess;
  }

  private Plan plan() {
    final List<Integer> candidates = new ArrayList<>(placed.keySet());
    Collections.sort(candidates);
    final List<PhysicalEdge> edges = new ArrayList<>();
    for (int v : candidates) {
      edges.addAll(Arrays.asList(placed.get(v).edges()));
    }
    return new Plan(candidates, edges, cost(), 0, Plan.Status.HEURISTIC, 0, 0, 0);
  }

  /**
   * Adds the cheapest tree of q's answer to the plan, reusing what is there; a query whose tree
   * would stream one result into two consumers is planned again without streamed results.
   * False, and the plan unchanged, when q finds no tree this way.
   */
  private boolean insert(Query q) {
    final int answer = space.answers().get(q.name());
    stamp++;
    if (add(answer, q.retention())) {
      return true;
    }
    if (lazy) {
      // Its tree met a candidate of the plan one plan cannot hold twice: plan it again on
      // tables that see the plan.
      update();
      if (add(answer, q.retention())) {
        return true;
      }
    }
    // Its tree reads one result twice in ways a plan cannot hold (two readouts, a ratio's
    // operands, streaming from one summary): plan it again without streamed results.
    streams = false;
    table = kept;
    final boolean added = add(answer, q.retention());
    streams = true;
    table = streaming;
    return added;
  }

  /** Takes {@code moved} out of the plan: their answers and what only their trees read. */
  private void remove(List<Query> moved, List<Query> queries) {
    final List<Integer> others = new ArrayList<>();
    for (Query q : queries) {
      if (!moved.contains(q)) {
        others.add(space.answers().get(q.name()));
      }
    }
    final Set<Integer> read = reach(others);
    for (int v : new ArrayList<>(placed.keySet())) {
      if (!read.contains(v)) {
        drop(v);
      }
    }
  }

  /** Adds the cheapest tree of the answer {@code answer} to the plan, or nothing and false. */
  private boolean add(int answer, Duration rho) {
    final Node root = options(answer, rho);
    Guarantee level = null;
    double least = 0;
    for (int l = 0; l < root.below().size(); l++) {
      if (level == null || root.below().option(l).cost() < least) {
        level = root.below().level(l);
        least = root.below().option(l).cost();
      }
    }
    // The table stays as computed while the tree is placed, then what was placed is
    // invalidated (or taken out again when the tree cannot be placed).
    fresh.clear();
    final boolean placedAll = level != null && place(answer, rho, level);
    for (int v : fresh) {
      if (placedAll) {
        if (!lazy) {
          invalidate(v);
        }
      } else {
        drop(v);
      }
    }
    return placedAll;
  }

  /** The cost of the cheapest tree below v asked {@code asked}, v included; infinite when none. */
  private double cheapest(int v, Duration asked) {
    final Node node = options(v, asked);
    double min = Double.POSITIVE_INFINITY;
    for (int l = 0; l < node.below().size(); l++) {
      min = Math.min(min, node.own() + node.below().option(l).cost());
    }
    return min;
  }

  /** What v offers when asked {@code asked}: its weight, over the cheapest sub-plan below it per level. */
  private Node options(int v, Duration asked) {
    final int i = at(v);
    final Memo<Node> first = table.nodes[i];
    for (Memo<Node> m = first; m != null; m = m.next()) {
      if (m.asked().equals(asked)) {
        return m.value();
      }
    }
    final Node out = compute(v, asked);
    table.nodes[i] = new Memo<>(asked, out, first);
    return out;
  }

  private Node compute(int v, Duration asked) {
    final PhysicalCandidate c = space.candidates().get(v);
    if (v == barred || !Constraints.keeps(c, asked)) {
      return NONE;
    }
    final Placed there = placedAt[at(v)];
    if (there != null) {
      // An earlier query's candidate: reused when kept (it asks nothing more of its inputs).
      return Constraints.reusable(c) ? new Node(0, Levels.of(there.level(), REUSED)) : NONE;
    }
    if (!streams && Constraints.streamed(c) && Constraints.levelRule(space, v) != Constraints.LevelRule.ANSWER) {
      return NONE;
    }
    final Levels below = below(v, Constraints.asksOfInputs(space, c, asked));
    depend(table.usedBy, shape(v), v);
    return below.isEmpty() ? NONE : new Node(space.weight(v), below);
  }

  /**
   * For each level v can have, the cheapest sub-plan below v when v asks {@code down} of its
   * inputs, v's own weight not included. Candidates of one shape (one logical candidate and
   * timing, reading the same producers: the members of a keep block, and alternatives that
   * differ only in lifetime) share it.
   */
  private Levels below(int v, Duration down) {
    final int s = shape(v);
    final Memo<Levels> first = table.belows[at(s)];
    for (Memo<Levels> m = first; m != null; m = m.next()) {
      if (m.asked().equals(down)) {
        return m.value();
      }
    }
    final Levels out = computeBelow(s, down);
    table.belows[at(s)] = new Memo<>(down, out, first);
    return out;
  }

  private Levels computeBelow(int v, Duration down) {
    final Constraints.LevelRule rule = Constraints.levelRule(space, v);
    final List<List<PhysicalEdge>> in = inputs.get(v);
    final Levels out = new Levels();
    if (rule == Constraints.LevelRule.FIXED) {
      final int[] chosen = new int[in.size()];
      final Guarantee[] levels = new Guarantee[in.size()];
      double cost = 0;
      for (int i = 0; i < in.size(); i++) {
        double min = Double.POSITIVE_INFINITY;
        for (PhysicalEdge e : in.get(i)) {
          final Node p = read(v, e.producer(), down);
          for (int l = 0; l < p.below().size(); l++) {
            if (p.own() + p.below().option(l).cost() < min) {
              min = p.own() + p.below().option(l).cost();
              chosen[i] = e.producer();
              levels[i] = p.below().level(l);
            }
          }
        }
        cost += min;
      }
      if (cost < Double.POSITIVE_INFINITY) {
        out.put(Constraints.fixedLevel(space, v), new Option(cost, chosen, levels));
      }
      return out;
    }
    if (rule == Constraints.LevelRule.RATIO) {
      for (PhysicalEdge n : in.get(0)) {
        final Node a = read(v, n.producer(), down);
        for (int i = 0; i < a.below().size(); i++) {
          final Guarantee la = a.below().level(i);
          for (PhysicalEdge d : in.get(1)) {
            final Node b = read(v, d.producer(), down);
            for (int j = 0; j < b.below().size(); j++) {
              final Guarantee lb = b.below().level(j);
              if (n.producer() == d.producer()
                  && (!la.equals(lb)
                      || shares && Constraints.streamed(space.candidates().get(n.producer())))) {
                // one candidate has one level, and in one plan a streamed result is read once
                continue;
              }
              final Guarantee level = Constraints.ratio(la, lb);
              // Both operands one candidate (a quantile over itself): one place in the plan, paid
              // once; the baseline computes what each operand reads for it alone.
              final double cost = shares && n.producer() == d.producer()
                  ? a.own() + a.below().option(i).cost()
                  : a.own() + a.below().option(i).cost() + b.own() + b.below().option(j).cost();
              if (out.cheaper(level, cost)) {
                out.put(level, new Option(cost, new int[] {n.producer(), d.producer()}, new Guarantee[] {la, lb}));
              }
            }
          }
        }
      }
      if (shares) {
        offerShared(v, in, down, out);
      }
      return out;
    }
    // A readout or an answer: the level of the one producer it reads.
    final Target target = rule == Constraints.LevelRule.ANSWER ? Constraints.target(space, v) : null;
    for (PhysicalEdge e : in.get(0)) {
      final Node p = read(v, e.producer(), down);
      for (int l = 0; l < p.below().size(); l++) {
        final Guarantee level = p.below().level(l);
        if (target != null && !Constraints.meets(level, target)) {
          continue;
        }
        final double cost = p.own() + p.below().option(l).cost();
        if (out.cheaper(level, cost)) {
          out.put(level, new Option(cost, new int[] {e.producer()}, new Guarantee[] {level}));
        }
      }
    }
    return out;
  }

  /**
   * A ratio's options whose two operands are readouts of one summary u, paid once: pricing the
   * operands apart counts u twice (one DDSketch whose two readouts give p99 and p50), so a
   * summary nothing else in the plan pays for yet would never be shared. For each u not in the
   * plan that a numerator and a denominator readout both read, asked the same history by both:
   * the cheapest of each reading u, over u's sub-plan per level.
   */
  private void offerShared(int v, List<List<PhysicalEdge>> in, Duration down, Levels out) {
    // By history asked and summary read, the cheapest numerator readout.
    final Map<Duration, Map<Integer, Integer>> numerators = new HashMap<>();
    for (PhysicalEdge e : in.get(0)) {
      final int n = e.producer();
      if (sharing(v, n, down)) {
        final Map<Integer, Integer> by = numerators.computeIfAbsent(
            Constraints.asksOfInputs(space, space.candidates().get(n), down), k -> new HashMap<>());
        for (int u : summaries(n)) {
          if (placedAt[at(u)] == null) {
            by.merge(u, n, (x, y) -> space.weight(y) < space.weight(x) ? y : x);
          }
        }
      }
    }
    for (PhysicalEdge e : in.get(1)) {
      final int d = e.producer();
      final Duration asked = Constraints.asksOfInputs(space, space.candidates().get(d), down);
      final Map<Integer, Integer> by = numerators.get(asked);
      if (by == null || !sharing(v, d, down)) {
        continue;
      }
      for (int u : summaries(d)) {
        final Integer n = by.get(u);
        if (n == null || n == d || placedAt[at(u)] != null) {
          continue;
        }
        // d's entry read u's (at this history), so v's entry already depends on it through d's.
        final Node s = options(u, asked);
        for (int l = 0; l < s.below().size(); l++) {
          final Guarantee at = s.below().level(l);
          final Guarantee level = Constraints.ratio(at, at);
          final double cost = space.weight(n) + space.weight(d) + s.own() + s.below().option(l).cost();
          if (out.cheaper(level, cost)) {
            out.put(level, new Option(cost, new int[] {n, d}, new Guarantee[] {at, at}, u));
          }
        }
      }
    }
  }

  /**
   * Whether operand r of ratio v may read a summary it shares with the other operand: a
   * readout, usable, and not in the plan (what a candidate of the plan reads is free already).
   */
  private boolean sharing(int v, int r, Duration down) {
    return space.memo().candidate(space.candidates().get(r).logical()).operator() instanceof Operator.Readout
        && placedAt[at(r)] == null && !read(v, r, down).below().isEmpty();
  }

  /** The producers readout r may read that two consumers may read: kept, not streamed. */
  private int[] summaries(int r) {
    final int i = at(r);
    if (summaries[i] == null) {
      summaries[i] = inputs.get(r).get(0).stream().mapToInt(PhysicalEdge::producer)
          .filter(u -> !Constraints.streamed(space.candidates().get(u))).toArray();
    }
    return summaries[i];
  }

  /** The options of {@code producer}, read by shape {@code shape}'s entry. */
  private Node read(int shape, int producer, Duration down) {
    final Node n = options(producer, down);
    depend(table.readBy, producer, shape);
    return n;
  }

  private void depend(Ints[] lists, int key, int value) {
    final int i = at(key);
    if (lists[i] == null) {
      lists[i] = new Ints();
    }
    final Ints l = lists[i];
    if (l.size() == 0 || l.get(l.size() - 1) != value) {
      l.add(value);
    }
  }

  /**
   * The first candidate of v's shape: same logical candidate and timing, and the same producers
   * on each input (feasibility depends on the consumer's timing and lookback, not its lifetime).
   */
  private int shape(int v) {
    final int i = at(v);
    if (shapes[i] < 0) {
      final PhysicalCandidate c = space.candidates().get(v);
      final long key = (long) c.logical() * Timing.values().length + c.properties().timing().ordinal();
      final int first = firstOfShape.computeIfAbsent(key, k -> v);
      shapes[i] = first == v || sameProducers(first, v) ? first : v;
    }
    return shapes[i];
  }

  /**
   * Whether a and b read the same producers on each input, in the same order. Compared in place:
   * listing them took a fifth of growing the plans at 1,664 queries.
   */
  private boolean sameProducers(int a, int b) {
    final List<List<PhysicalEdge>> x = inputs.get(a);
    final List<List<PhysicalEdge>> y = inputs.get(b);
    if (x.size() != y.size()) {
      return false;
    }
    for (int i = 0; i < x.size(); i++) {
      final List<PhysicalEdge> xi = x.get(i);
      final List<PhysicalEdge> yi = y.get(i);
      if (xi.size() != yi.size()) {
        return false;
      }
      for (int j = 0; j < xi.size(); j++) {
        if (xi.get(j).producer() != yi.get(j).producer()) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Adds v's chosen sub-plan at {@code level} to the plan; false when the query's tree reaches a
   * candidate twice in ways one plan cannot hold (a streamed result read twice, or one
   * candidate at two levels or histories), or meets one an earlier query placed that it cannot
   * share (streamed, at another level, or recomputed on demand further back than placed; only
   * with {@link #lazy} tables, as up-to-date ones price such a candidate as reused or not at all).
   */
  private boolean place(int v, Duration asked, Guarantee level) {
    final Placed there = placedAt[at(v)];
    if (there != null) {
      final PhysicalCandidate c = space.candidates().get(v);
      if (there.stamp() != stamp) {
        return !Constraints.streamed(c) && there.level().equals(level)
            && (Constraints.reusable(c) || asked.compareTo(there.asked()) <= 0);
      }
      return there.level().equals(level) && there.asked().equals(asked) && !Constraints.streamed(c);
    }
    final Option o = options(v, asked).below().get(level);
    if (o.producers() == null) {
      throw new IllegalStateException("a reused candidate " + v + " was not placed");
    }
    final Duration down = Constraints.asksOfInputs(space, space.candidates().get(v), asked);
    if (!put(v, asked, level, o)) {
      return false;
    }
    for (int i = 0; i < o.producers().length; i++) {
      if (o.shared() >= 0) {
        // Both operands read the shared summary at its one level.
        final Guarantee[] at = {o.levels()[i]};
        if (!put(o.producers()[i], down, o.levels()[i], new Option(0, new int[] {o.shared()}, at))
            || !place(o.shared(), Constraints.asksOfInputs(space, space.candidates().get(o.producers()[i]), down), at[0])) {
          return false;
        }
      } else if (!place(o.producers()[i], down, o.levels()[i])) {
        return false;
      }
    }
    return true;
  }

  /** Puts v into the plan reading the producers of {@code o}; false when v already is. */
  private boolean put(int v, Duration asked, Guarantee level, Option o) {
    if (placedAt[at(v)] != null) {
      return false;
    }
    final PhysicalEdge[] edges = new PhysicalEdge[o.producers().length];
    for (int i = 0; i < edges.length; i++) {
      final int producer = o.producers()[i];
      edges[i] = inputs.get(v).get(i).stream().filter(e -> e.producer() == producer).findFirst().orElseThrow();
    }
    final Placed p = new Placed(level, asked, stamp, edges);
    placed.put(v, p);
    placedAt[at(v)] = p;
    fresh.add(v);
    return true;
  }
}
