package dev.mnestic.planner.select;

import dev.mnestic.planner.memo.Guarantee;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.physical.Lifetime;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.rules.History;
import dev.mnestic.planner.workload.Budget;
import dev.mnestic.planner.workload.Query;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One query at a time, as a tree: dynamic programming over (candidate v, history M asked of v)
 * giving, for each error level v can have, the cheapest sub-plan below v. Two uses:
 *
 * <ul>
 *   <li>{@link #costWithoutSharing}: the no-sharing baseline, Σ_q of q's cheapest plan with every
 *       result it reads computed for it alone (read twice, paid twice), exactly;</li>
 *   <li>{@link #greedy}: a plan with sharing, grown query by query, each query reusing what the
 *       earlier ones keep across evaluations (a kept result asks only its lookback of its inputs
 *       however far back it is read, so reusing it changes nothing below it). Its cost bounds
 *       the optimum from above ({@link Pruning}) and it is the MILP's starting point.</li>
 * </ul>
 *
 * <p>A tree asks of a candidate only the histories of one path, so the largest, M, decides
 * (R): M ≤ what v keeps; v passes its lookback down, and M + lookback too when recomputed on
 * demand. (K) is the level at the answer; a ratio composes its operands' levels.
 */
public final class TreePlans {
  private final PlanSpace space;
  private final List<List<List<PhysicalEdge>>> inputs;
  /** For {@link #greedy}: the candidates of the plan grown so far; empty for the baseline. */
  private final Map<Integer, Placed> placed = new HashMap<>();
  private final Map<Key, Map<Guarantee, Option>> best = new HashMap<>();
  private final List<PhysicalEdge> edges = new ArrayList<>();
  private int query;
  /** Whether a result may stream into its one consumer (lifetime none) below an answer. */
  private boolean streams = true;

  /** Candidate v asked history M (ZERO when nothing is asked). */
  private record Key(int v, Duration asked) {
  }

  /** A sub-plan: its cost, and per input the edge chosen and the level its producer gives. */
  private record Option(double cost, PhysicalEdge[] edges, Guarantee[] levels) {
  }

  /** A candidate of the plan: its level there, the history asked of it, the query that placed it. */
  private record Placed(Guarantee level, Duration asked, int query) {
  }

  private TreePlans(PlanSpace space) {
    this.space = space;
    this.inputs = space.feasibleInputs();
  }

  /**
   * The cost of the plan without sharing: each query planned alone, every result it reads
   * computed for it (two readers of one result each pay for their own; the store's rows cost
   * nothing). Budgets are not applied: they bound a plan, and this is a reference cost.
   */
  public static double costWithoutSharing(PlanSpace space) {
    final TreePlans trees = new TreePlans(space);
    double total = 0;
    for (Query q : space.workload().queries()) {
      final Option o = trees.cheapest(space.answers().get(q.name()), q.retention());
      if (o == null) {
        throw new PlanningException("no plan meets the target and retention of query " + q.name());
      }
      total += o.cost();
    }
    return total;
  }

  /**
   * A plan with sharing, query by query in workload order, each reusing what earlier ones keep;
   * null when some query finds no plan this way, or the plan breaks a budget.
   */
  static Plan greedy(PlanSpace space) {
    final TreePlans trees = new TreePlans(space);
    for (Query q : space.workload().queries()) {
      if (!trees.add(space.answers().get(q.name()), q.retention())) {
        // Its tree reads one result twice in ways a plan cannot hold (two operands of a ratio
        // streaming from one candidate): plan it again without streamed results.
        trees.streams = false;
        final boolean added = trees.add(space.answers().get(q.name()), q.retention());
        trees.streams = true;
        if (!added) {
          return null;
        }
      }
      trees.query++;
    }
    double cost = 0;
    for (int v : trees.placed.keySet()) {
      cost += space.weight(v);
    }
    for (Budget b : space.workload().budgets()) {
      double total = 0;
      for (int v : trees.placed.keySet()) {
        total += space.costs().get(v).of(b.resource());
      }
      if (total > b.limit()) {
        return null;
      }
    }
    return new Plan(new ArrayList<>(trees.placed.keySet()), trees.edges, cost, 0, "GREEDY", 0, 0, 0);
  }

  /** Adds the cheapest tree of the answer {@code answer} to the plan, or nothing and false. */
  private boolean add(int answer, Duration rho) {
    best.clear();
    final int edgeCount = edges.size();
    final Option o = cheapest(answer, rho);
    if (o != null && place(answer, rho, levelOf(answer, rho, o))) {
      return true;
    }
    placed.values().removeIf(p -> p.query() == query);
    edges.subList(edgeCount, edges.size()).clear();
    return false;
  }

  private Option cheapest(int v, Duration asked) {
    Option min = null;
    for (Option o : options(v, asked).values()) {
      if (min == null || o.cost() < min.cost()) {
        min = o;
      }
    }
    return min;
  }

  private Guarantee levelOf(int v, Duration asked, Option o) {
    for (Map.Entry<Guarantee, Option> e : options(v, asked).entrySet()) {
      if (e.getValue() == o) {
        return e.getKey();
      }
    }
    throw new IllegalStateException("option not among " + v + "'s");
  }

  /** For each level v can have when asked {@code asked}, the cheapest sub-plan below it. */
  private Map<Guarantee, Option> options(int v, Duration asked) {
    final Key key = new Key(v, asked);
    final Map<Guarantee, Option> known = best.get(key);
    if (known != null) {
      return known;
    }
    final Map<Guarantee, Option> out = compute(v, asked);
    best.put(key, out);
    return out;
  }

  private Map<Guarantee, Option> compute(int v, Duration asked) {
    final PhysicalCandidate c = space.candidates().get(v);
    final Duration capacity = c.properties().history();
    final Map<Guarantee, Option> out = new LinkedHashMap<>();
    if (capacity != null && asked.compareTo(capacity) > 0) {
      return out;
    }
    final Placed there = placed.get(v);
    if (there != null) {
      // An earlier query's candidate: reused when kept (it asks nothing more of its inputs).
      if (reusable(c)) {
        out.put(there.level(), new Option(0, null, null));
      }
      return out;
    }
    final LogicalCandidate logical = space.memo().candidate(c.logical());
    if (!streams && c.properties().lifetime() instanceof Lifetime.None
        && !(logical.operator() instanceof Operator.Answer)) {
      return out;
    }
    final Duration down = childAsked(c, asked);
    final double w = space.weight(v);
    final List<List<PhysicalEdge>> in = inputs.get(v);
    if (logical.properties().parameters() instanceof Parameters.Fixed fixed) {
      final PhysicalEdge[] chosen = new PhysicalEdge[in.size()];
      final Guarantee[] levels = new Guarantee[in.size()];
      double cost = w;
      for (int i = 0; i < in.size(); i++) {
        double min = Double.POSITIVE_INFINITY;
        for (PhysicalEdge e : in.get(i)) {
          for (Map.Entry<Guarantee, Option> o : options(e.producer(), down).entrySet()) {
            if (o.getValue().cost() < min) {
              min = o.getValue().cost();
              chosen[i] = e;
              levels[i] = o.getKey();
            }
          }
        }
        cost += min;
      }
      if (cost < Double.POSITIVE_INFINITY) {
        out.put(fixed.guarantee(), new Option(cost, chosen, levels));
      }
      return out;
    }
    if (logical.operator() instanceof Operator.Divide) {
      for (PhysicalEdge n : in.get(0)) {
        for (Map.Entry<Guarantee, Option> a : options(n.producer(), down).entrySet()) {
          for (PhysicalEdge d : in.get(1)) {
            for (Map.Entry<Guarantee, Option> b : options(d.producer(), down).entrySet()) {
              offer(out, Guarantee.ratio(a.getKey(), b.getKey()), new Option(
                  w + a.getValue().cost() + b.getValue().cost(), new PhysicalEdge[] {n, d},
                  new Guarantee[] {a.getKey(), b.getKey()}));
            }
          }
        }
      }
      return out;
    }
    // A readout or an answer: the level of the one producer it reads.
    for (PhysicalEdge e : in.get(0)) {
      for (Map.Entry<Guarantee, Option> o : options(e.producer(), down).entrySet()) {
        if (logical.operator() instanceof Operator.Answer a
            && !o.getKey().meets(a.target())) {
          continue;
        }
        offer(out, o.getKey(), new Option(w + o.getValue().cost(), new PhysicalEdge[] {e},
            new Guarantee[] {o.getKey()}));
      }
    }
    return out;
  }

  private static void offer(Map<Guarantee, Option> out, Guarantee level, Option o) {
    final Option had = out.get(level);
    if (had == null || o.cost() < had.cost()) {
      out.put(level, o);
    }
  }

  /** The history v asks of its inputs when asked {@code asked}: (R) pushed down one edge. */
  private Duration childAsked(PhysicalCandidate c, Duration asked) {
    final Duration lookback = History.lookback(space.memo(), c.logical(), c.properties().timing());
    return c.properties().recomputedOnDemand() ? asked.plus(lookback) : lookback;
  }

  /** Kept results ask only their lookback of their inputs, however far back they are read. */
  private static boolean reusable(PhysicalCandidate c) {
    return !(c.properties().lifetime() instanceof Lifetime.None)
        && !c.properties().recomputedOnDemand();
  }

  /**
   * Adds v's chosen sub-plan at {@code level} to the plan; false when the query's tree reaches a
   * candidate twice in ways one plan cannot hold (a streamed result read twice, or one
   * candidate at two levels or histories).
   */
  private boolean place(int v, Duration asked, Guarantee level) {
    final Placed there = placed.get(v);
    if (there != null) {
      return there.query() < query || there.level().equals(level) && there.asked().equals(asked)
          && !(space.candidates().get(v).properties().lifetime() instanceof Lifetime.None);
    }
    final Option o = options(v, asked).get(level);
    placed.put(v, new Placed(level, asked, query));
    if (o.edges() == null) {
      throw new IllegalStateException("a reused candidate " + v + " was not placed");
    }
    final Duration down = childAsked(space.candidates().get(v), asked);
    for (int i = 0; i < o.edges().length; i++) {
      edges.add(o.edges()[i]);
      if (!place(o.edges()[i].producer(), down, o.levels()[i])) {
        return false;
      }
    }
    return true;
  }
}
