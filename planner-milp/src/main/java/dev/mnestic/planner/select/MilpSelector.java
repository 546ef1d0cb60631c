package dev.mnestic.planner.select;

import dev.mnestic.planner.memo.Guarantee;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.physical.Lifetime;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.workload.Budget;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.Target;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPSolverParameters;
import com.google.ortools.linearsolver.MPVariable;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Stage 3 as a MILP in OR-Tools: {@code buildModel} → {@code addConstraints} →
 * {@code extractSolution}. Candidates that differ only in how long they keep their results
 * are one {@link Block} U, used with the keep of member j or longer when s_{U,j} = 1 (so
 * x_{v_j} = s_{U,j} - s_{U,j+1}); y_{P,C,i} per arc between blocks stands for the feasible edges
 * between their members. Levels: [U has ℓ] as sums of variables, a ratio's operand arcs split by
 * level (q) and its operand levels paired (p); g_{U,h} (U must serve results h back, h ∈ H_G).
 * Objective: minimize Σ w_v x_v, so a shared producer is paid once. docs/planner.md states each
 * row and why its right-hand side is x rather than 1 (a tighter linear relaxation).
 *
 * <p>Acyclicity needs no variables: {@link dev.mnestic.planner.memo.Memo#add} refuses any
 * candidate that would close a cycle of groups, so every choice of y is a DAG;
 * {@code extractSolution} asserts it.
 *
 * <p>Every constraint is between binaries and integer constants, with error and history
 * levels compared in Java ({@link Guarantee#meets}), so no solver tolerance decides accuracy.
 */
public final class MilpSelector implements Selector {
  private static final System.Logger LOG = System.getLogger(MilpSelector.class.getName());

  /**
   * OR-Tools' native libraries, loading or loaded ({@link #startLoadingSolver}): unpacking and
   * linking them takes seconds the first time in a JVM on a busy machine (7 s of a 2 s limit at
   * load 16 on 2 cores, when it ran as this class was initialized, before the limit's clock).
   */
  private static final AtomicReference<CompletableFuture<Void>> NATIVES = new AtomicReference<>();

  /**
   * The parts searched at once by the Java phases (local search, pruning, Lagrangian bound): one
   * per core. CP-SAT runs one part at a time with a worker per core.
   */
  static final int THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());

  private final PlanSpace space;
  private final Solver solver;
  private final Duration timeLimit;
  private final Ticker ticker;
  private final StopSignal stop;
  /** Made when {@link #solve} starts. */
  private Schedule schedule;

  /**
   * @param timeLimit how long the search may take; past it the best plan found is returned with
   *     status {@link Plan.Status#FEASIBLE}
   */
  public MilpSelector(PlanSpace space, Solver solver, Duration timeLimit) {
    this(space, solver, timeLimit, Ticker.SYSTEM, new StopSignal());
  }

  /**
   * @param ticker the clock the time limit runs on
   * @param stop stops {@link #solve} from another thread: the solver searching now is
   *     interrupted, the Lagrangian bounds stop at their next step, no part or round starts, and
   *     {@code solve} throws a {@link PlanningException}
   */
  public MilpSelector(PlanSpace space, Solver solver, Duration timeLimit, Ticker ticker, StopSignal stop) {
    this.space = space;
    this.solver = solver;
    this.timeLimit = timeLimit;
    this.ticker = ticker;
    this.stop = stop;
  }

  private void checkStopped() {
    schedule.checkStopped();
  }

  /**
   * Starts loading OR-Tools' native libraries on a thread of their own, unless started before:
   * {@code Planner.plan} calls it first, so the loading overlaps building the plan space and the
   * phases before CP-SAT; a CP-SAT round that comes first waits for it out of its own time.
   */
  public static void startLoadingSolver() {
    if (NATIVES.get() == null) {
      NATIVES.compareAndSet(null, CompletableFuture.runAsync(Loader::loadNativeLibraries, r -> {
        final Thread t = new Thread(r, "mnestic-ortools-loader");
        t.setDaemon(true);
        t.start();
      }));
    }
  }

  /** Waits until OR-Tools' native libraries are loaded ({@link #startLoadingSolver}). */
  private static void awaitSolver() {
    startLoadingSolver();
    try {
      NATIVES.get().join();
    } catch (CompletionException e) {
      throw new PlanningException("OR-Tools' native libraries did not load: " + e.getCause());
    }
  }

  /**
   * Solves each component of the plan space on its own (see {@link Components}) and joins their
   * plans: the optimum of the whole is the sum of theirs, as no constraint spans two. First, one
   * part per core at a time ({@link #THREADS}): a plan of the part grown query by query in full
   * ({@link TreePlans#grown}), then improved by local search while its share of the time lasts
   * ({@link TreePlans#improved(List, java.util.function.BooleanSupplier)}), which bounds its
   * optimum from above, so
   * candidates that cannot be in a plan that cheap are left out ({@link Pruning}), and the
   * part's Lagrangian bound ({@link LagrangianBound}) towards that plan's cost, which proves
   * many parts optimal with no solver. Then the parts left, the widest gap first, one after the
   * other, with CP-SAT's workers on every core: each alternates CP-SAT on what its bound leaves
   * (started from the best known plan) with the bound, until the bound meets that plan's cost or
   * the part's time is up. How the time limit is shared among them is {@link Schedule}'s; the
   * plan's {@link Plan#search} says which phases it cut short and where each part ended.
   */
  @Override public Plan solve() {
    schedule = new Schedule(ticker, timeLimit, stop);
    final long start = schedule.now();
    final List<Search.Phase> phases = new ArrayList<>();
    final int n = space.candidates().size();
    final List<List<List<PhysicalEdge>>> feasible = space.feasibleInputs();
    final List<List<PhysicalCandidate>> parts = Components.of(space, feasible, !space.workload().budgets().isEmpty());
    // Each part's candidates, each candidate's place among them (a part's trees are tabled by
    // it) and its part (-1: none), and each part's queries, in workload order.
    final int[][] ids = new int[parts.size()][];
    final int[] slot = new int[n];
    final int[] partOf = new int[n];
    Arrays.fill(partOf, -1);
    final List<List<Query>> queries = new ArrayList<>();
    for (int k = 0; k < parts.size(); k++) {
      ids[k] = parts.get(k).stream().mapToInt(PhysicalCandidate::id).toArray();
      for (int j = 0; j < ids[k].length; j++) {
        slot[ids[k][j]] = j;
        partOf[ids[k][j]] = k;
      }
      queries.add(new ArrayList<>());
    }
    for (Query q : space.workload().queries()) {
      // Every answer is reached, so in a part.
      queries.get(partOf[space.answers().get(q.name())]).add(q);
    }
    long mark = phase(phases, "split into parts", start, false);
    // 1. A plan of each part grown query by query: a plan of every query is the least the
    // search returns, so the queries of a part met past the growth's deadline (the whole part
    // when it starts past it) are grown on tables not updated after each query (at most the
    // plan without sharing; where that finds no plan, the part is grown as before the deadline).
    final long growUntil = schedule.growthDeadline();
    final boolean[] alone = new boolean[parts.size()];
    final List<TreePlans> grown = inParallel(parts.size(), k -> {
      checkStopped();
      // Stopped, the search throws before the next query rather than grow the rest alone.
      final TreePlans trees = TreePlans.grown(space, feasible, queries.get(k), ids[k], slot, () -> {
        checkStopped();
        alone[k] = !schedule.goesOn(growUntil);
        return !alone[k];
      });
      if (trees != null || !alone[k]) {
        return trees;
      }
      alone[k] = false;
      return TreePlans.grown(space, feasible, queries.get(k), ids[k], slot);
    });
    checkStopped();
    boolean growthCut = false;
    for (boolean a : alone) {
      growthCut |= a;
    }
    mark = phase(phases, "grown plans", mark, growthCut);
    // 2. The known plans: each grown one improved while its share of the time lasts.
    final int threads = Math.max(1, Math.min(THREADS, parts.size()));
    schedule.startKnownPlans(parts.size());
    // The longest local search move so far, of any part (Schedule.steps).
    final AtomicLong moves = new AtomicLong();
    final List<Plan> known = inParallel(parts.size(), k -> {
      checkStopped();
      final long until = schedule.knownDeadline(threads);
      return grown.get(k) == null ? null : grown.get(k).improved(queries.get(k), schedule.steps(until, moves));
    });
    checkStopped();
    mark = phase(phases, "local search", mark, known.stream().anyMatch(p -> p != null && p.search().cut()));
    // 3. Pruning against each part's known plan.
    final double[] bound = new double[n];
    Arrays.fill(bound, Double.POSITIVE_INFINITY);
    for (int k = 0; k < parts.size(); k++) {
      for (PhysicalCandidate v : parts.get(k)) {
        bound[v.id()] = known.get(k) == null ? Double.POSITIVE_INFINITY : known.get(k).cost();
      }
    }
    final long pruneUntil = schedule.pruningDeadline();
    final Pruning.Alive pruning = Pruning.alive(space, feasible, bound, schedule.steps(pruneUntil));
    final boolean[] alive = pruning.alive();
    final List<List<List<PhysicalEdge>>> inputs = alive(feasible, alive);
    final List<List<PhysicalCandidate>> members = parts.stream()
        .map(part -> part.stream().filter(v -> alive[v.id()]).toList()).toList();
    final List<Search.Cut> cuts = cuts(partOf, alive, bound);
    checkStopped();
    mark = phase(phases, "pruning", mark, !pruning.complete());
    // 4. The Lagrangian bounds. Building one takes a while at scale, and comes out of its part's share.
    schedule.startBounds(parts.size());
    // The longest step so far of any part's bound, building or improving it (Schedule.steps).
    final AtomicLong boundSteps = new AtomicLong();
    final boolean[] noBound = new boolean[parts.size()];
    final List<LagrangianBound> lagranges = inParallel(parts.size(), k -> {
      checkStopped();
      final long until = schedule.boundDeadline(threads);
      if (known.get(k) == null) {
        return null;
      }
      if (until == Schedule.NO_BOUND) {
        noBound[k] = true;
        return null;
      }
      final long begin = schedule.now();
      final long buildBy = schedule.buildDeadline();
      final LagrangianBound lagrange = LagrangianBound.of(space, members.get(k), inputs,
          schedule.steps(buildBy, boundSteps));
      if (lagrange == null) {
        noBound[k] = true;
        return null;
      }
      schedule.built(schedule.now() - begin);
      lagrange.improve(known.get(k).cost(), schedule.steps(until, boundSteps));
      return lagrange;
    });
    checkStopped();
    boolean boundsCut = false;
    for (int k = 0; k < parts.size(); k++) {
      boundsCut |= noBound[k] || lagranges.get(k) != null && lagranges.get(k).stopped();
    }
    mark = phase(phases, "Lagrangian bounds", mark, boundsCut);
    // 5. CP-SAT on the parts still open, the widest gap first (no known plan: the widest).
    final Plan[] plans = new Plan[parts.size()];
    final Search.Part[] report = new Search.Part[parts.size()];
    final List<Integer> open = new ArrayList<>();
    final List<List<String>> names = queries.stream().map(qs -> qs.stream().map(Query::name).toList()).toList();
    for (int k = 0; k < parts.size(); k++) {
      if (proven(known.get(k), lagranges.get(k))) {
        plans[k] = proven(known.get(k), lagranges.get(k).bound());
        report[k] = part(names.get(k), parts.get(k), members.get(k), Search.Outcome.PROVEN_BY_BOUND, plans[k], 0,
            alone[k]);
      } else {
        open.add(k);
      }
    }
    // A part whose bound was not built in time has the gap of its whole cost.
    open.sort(Comparator.comparingDouble((Integer k) -> known.get(k) == null ? Double.NEGATIVE_INFINITY
        : (lagranges.get(k) == null ? 0 : lagranges.get(k).bound()) - known.get(k).cost()).thenComparing(k -> k));
    boolean searchCut = false;
    for (int i = 0; i < open.size(); i++) {
      checkStopped();
      final int k = open.get(i);
      final Duration share = schedule.partShare(open.size() - i);
      final Searched searched = known.get(k) == null
          ? fromScratch(members.get(k), inputs, share)
          : lagranges.get(k) == null ? withoutBound(members.get(k), inputs, known.get(k), share)
          : solve(members.get(k), inputs, known.get(k), lagranges.get(k), schedule.now() + share.toNanos());
      plans[k] = searched.plan();
      report[k] = part(names.get(k), parts.get(k), members.get(k), searched.outcome(), plans[k], searched.modelled(),
          alone[k]);
      cuts.addAll(searched.leftOut().stream().map(v -> new Search.Cut(v, k, Search.CutReason.LAGRANGIAN,
          searched.leftOutAbove())).toList());
      searchCut |= plans[k].status() != Plan.Status.OPTIMAL;
    }
    mark = phase(phases, "CP-SAT", mark, searchCut);
    final List<Integer> chosen = new ArrayList<>();
    final List<PhysicalEdge> edges = new ArrayList<>();
    double cost = 0;
    double lower = 0;
    Plan.Status status = Plan.Status.OPTIMAL;
    int variables = 0;
    int constraints = 0;
    for (Plan part : plans) {
      chosen.addAll(part.candidates());
      edges.addAll(part.edges());
      cost += part.cost();
      lower += part.bound();
      status = part.status() == Plan.Status.OPTIMAL ? status : part.status();
      variables += part.variables();
      constraints += part.constraints();
    }
    assertDag(chosen, edges);
    phase(phases, "join", mark, false);
    LOG.log(System.Logger.Level.DEBUG, "{0} parts ({1} open after the bounds): {2}", parts.size(), open.size(), phases);
    return new Plan(chosen, edges, cost, status == Plan.Status.OPTIMAL ? cost : lower, status,
        variables, constraints, (schedule.now() - start) / 1_000_000,
        new Search(phases, Arrays.asList(report), cuts));
  }

  /**
   * The edges of {@code feasible} from producers still {@code alive}: {@code feasible} itself when
   * all are, as filtering is a pass over every edge (millions at scale).
   */
  private static List<List<List<PhysicalEdge>>> alive(List<List<List<PhysicalEdge>>> feasible, boolean[] alive) {
    boolean all = true;
    for (boolean a : alive) {
      all &= a;
    }
    if (all) {
      return feasible;
    }
    final List<List<List<PhysicalEdge>>> inputs = new ArrayList<>();
    for (List<List<PhysicalEdge>> in : feasible) {
      final List<List<PhysicalEdge>> kept = new ArrayList<>();
      for (List<PhysicalEdge> edges : in) {
        kept.add(edges.stream().filter(e -> alive[e.producer()]).toList());
      }
      inputs.add(kept);
    }
    return inputs;
  }

  /** Adds the phase that ran from {@code since} until now to {@code phases}; returns now. */
  private long phase(List<Search.Phase> phases, String name, long since, boolean cut) {
    final long now = schedule.now();
    phases.add(new Search.Phase(name, (now - since) / 1_000_000, cut));
    return now;
  }

  /** How a part's search ended, for {@link Search}. */
  private Search.Part part(List<String> queries, List<PhysicalCandidate> reached, List<PhysicalCandidate> pruned,
      Search.Outcome outcome, Plan plan, int modelled, boolean alone) {
    return new Search.Part(queries, reached.size(), pruned.size(), outcome, plan.cost(), plan.bound(),
        plan.variables(), plan.constraints(), modelled, alone, space.narrowed().containsAll(queries));
  }

  /**
   * The candidates set aside before the bounds: those no answer reaches (in no part, -1 in
   * {@code partOf}), and those {@link Pruning} left out of their part, above its known plan's
   * cost {@code bound}.
   */
  private static List<Search.Cut> cuts(int[] partOf, boolean[] alive, double[] bound) {
    final List<Search.Cut> cuts = new ArrayList<>();
    for (int v = 0; v < partOf.length; v++) {
      if (partOf[v] < 0) {
        cuts.add(new Search.Cut(v, -1, Search.CutReason.UNREACHED, Double.NaN));
      } else if (!alive[v]) {
        cuts.add(new Search.Cut(v, partOf[v], Search.CutReason.PATHS, bound[v]));
      }
    }
    return cuts;
  }

  /**
   * A part's plan and how its search ended; {@code leftOut}: the candidates its last CP-SAT
   * model left out by the Lagrangian bound, as no plan costing at most {@code leftOutAbove} uses
   * them; {@code modelled}: the candidates that model held.
   */
  private record Searched(Plan plan, Search.Outcome outcome, int modelled, List<Integer> leftOut,
      double leftOutAbove) {
  }

  /** A part with no known plan: CP-SAT on all of it, for {@code share}. */
  private Searched fromScratch(List<PhysicalCandidate> members, List<List<List<PhysicalEdge>>> inputs,
      Duration share) {
    final Plan plan = solve(members, inputs, null, 0, Set.of(), share, schedule.now() + share.toNanos());
    return new Searched(plan, plan.status() == Plan.Status.OPTIMAL ? Search.Outcome.PROVEN_BY_CP_SAT
        : Search.Outcome.CP_SAT_STOPPED, members.size(), List.of(), Double.NaN);
  }

  /**
   * A part with a known plan whose Lagrangian bound was not built in time: CP-SAT on what
   * pruning kept, started from that plan, for {@code share}; with under
   * {@link Schedule#MIN_SEARCH} the known plan, with no bound.
   */
  private Searched withoutBound(List<PhysicalCandidate> members, List<List<List<PhysicalEdge>>> inputs, Plan known,
      Duration share) {
    final Plan plan = solve(members, inputs, known, 0, Set.of(), share, schedule.now() + share.toNanos());
    final boolean searched = plan.variables() > 0;
    return new Searched(plan, !searched ? Search.Outcome.NO_TIME_FOR_BOUND
        : plan.status() == Plan.Status.OPTIMAL ? Search.Outcome.PROVEN_BY_CP_SAT : Search.Outcome.CP_SAT_STOPPED,
        searched ? members.size() : 0, List.of(), Double.NaN);
  }

  /** Whether the bound already meets the known plan's cost (either may be null). */
  private static boolean proven(Plan known, LagrangianBound lagrange) {
    return known != null && lagrange != null && lagrange.bound() >= known.cost() * (1 - LagrangianBound.TOLERANCE);
  }

  /** The known plan, proven optimal by the bound {@code lower}. */
  private static Plan proven(Plan known, double lower) {
    return new Plan(known.candidates(), known.edges(), known.cost(), lower, Plan.Status.OPTIMAL, 0, 0, 0);
  }

  /**
   * {@code task} of each part 0 .. parts - 1, {@link #THREADS} at a time; their results by part.
   * The tasks share nothing but the (read-only) plan space, so the results do not depend on the
   * threads' timing beyond the tasks' own deadlines.
   */
  private static <T> List<T> inParallel(int parts, java.util.function.IntFunction<T> task) {
    final ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(THREADS, parts)), r -> {
      final Thread t = new Thread(r, "mnestic-planner");
      t.setDaemon(true);
      return t;
    });
    try {
      final List<Future<T>> futures = new ArrayList<>();
      for (int k = 0; k < parts; k++) {
        final int part = k;
        futures.add(pool.submit(() -> task.apply(part)));
      }
      final List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get());
      }
      return results;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PlanningException("interrupted while planning");
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * One part, from a known plan of it and its Lagrangian bound (improved towards that plan's
   * cost): CP-SAT on the candidates a plan no dearer than the best known may use
   * ({@link LagrangianBound#alive}), started from that plan: a first round of a quarter of the
   * time left, to find a cheaper plan, which sharpens the bound's steps (a quarter of the time
   * then left) and what is left out, then a round with all the time left. Proven optimal when
   * the bound reaches the best plan's cost (within {@link LagrangianBound#TOLERANCE}) or CP-SAT
   * proves its optimum of what is left, which holds every plan as cheap as the best known. The
   * bound reported is the larger of the two. Nothing runs past {@code deadline} but the round
   * under way's last step (CP-SAT's own limit is set from it once the model is built).
   */
  private Searched solve(List<PhysicalCandidate> members, List<List<List<PhysicalEdge>>> inputs, Plan known,
      LagrangianBound lagrange, long deadline) {
    final long start = schedule.now();
    Plan best = known;
    double lower = lagrange.bound();
    boolean first = true;
    boolean searched = false;
    int variables = 0;
    int constraints = 0;
    int modelled = 0;
    List<Integer> leftOut = List.of();
    double leftOutAbove = Double.NaN;
    while (true) {
      checkStopped();
      final long left = deadline - schedule.now();
      final Plan.Status status = lower >= best.cost() * (1 - LagrangianBound.TOLERANCE) ? Plan.Status.OPTIMAL
          : Schedule.tooShort(left) ? Plan.Status.FEASIBLE : null;
      if (status != null) {
        LOG.log(System.Logger.Level.DEBUG, "part of {0} candidates: {1}, cost {2}, bound {3} ({4} steps)",
            members.size(), status, best.cost(), lower, lagrange.iterations());
        final Search.Outcome outcome = status == Plan.Status.OPTIMAL
            ? searched ? Search.Outcome.PROVEN_BY_CP_SAT : Search.Outcome.PROVEN_BY_BOUND
            : searched ? Search.Outcome.CP_SAT_STOPPED : Search.Outcome.NO_TIME_FOR_CP_SAT;
        return new Searched(new Plan(best.candidates(), best.edges(), best.cost(), lower, status, variables,
            constraints, (schedule.now() - start) / 1_000_000), outcome, modelled, leftOut, leftOutAbove);
      }
      final long until = deadline;
      final Set<Integer> needed = new HashSet<>(lagrange.needed(best.candidates(), best.cost(),
          schedule.steps(until)));
      final LagrangianBound.Kept kept = lagrange.alive(best.cost());
      final Set<PhysicalEdge> bestEdges = new HashSet<>(best.edges());
      best.candidates().forEach(v -> kept.candidates()[v] = true);
      // An arc between two blocks stands for every edge between their members, so it stays
      // when one of them does.
      final Set<List<Object>> arcs = new HashSet<>();
      for (PhysicalCandidate c : members) {
        for (List<PhysicalEdge> edges : inputs.get(c.id())) {
          for (PhysicalEdge e : edges) {
            if (kept.keeps(e) || bestEdges.contains(e)) {
              arcs.add(arcKey(e));
            }
          }
        }
      }
      final List<List<List<PhysicalEdge>>> keptInputs = new ArrayList<>(Collections.nCopies(inputs.size(), null));
      for (PhysicalCandidate v : members) {
        keptInputs.set(v.id(), inputs.get(v.id()).stream()
            .map(edges -> edges.stream().filter(e -> arcs.contains(arcKey(e))).toList()).toList());
      }
      final List<PhysicalCandidate> model = members.stream().filter(v -> kept.candidates()[v.id()]).toList();
      final Plan found = solve(model, keptInputs, best, lower, needed,
          first ? Schedule.firstRound(left) : Duration.ofNanos(left), deadline);
      first = false;
      searched |= found.variables() > 0;
      variables = found.variables();
      constraints = found.constraints();
      modelled = model.size();
      leftOut = members.stream().filter(v -> !kept.candidates()[v.id()]).map(PhysicalCandidate::id).toList();
      leftOutAbove = best.cost();
      if (found.status() == Plan.Status.OPTIMAL) {
        return new Searched(new Plan(found.candidates(), found.edges(), found.cost(), found.cost(),
            Plan.Status.OPTIMAL, variables, constraints, (schedule.now() - start) / 1_000_000),
            Search.Outcome.PROVEN_BY_CP_SAT, modelled, leftOut, leftOutAbove);
      }
      lower = Math.max(lower, found.bound());
      if (found.cost() < best.cost() * (1 - LagrangianBound.TOLERANCE)) {
        best = found;
        final long refine = schedule.refineDeadline(deadline);
        lower = Math.max(lower, lagrange.improve(best.cost(), schedule.steps(refine)));
      }
    }
  }

  /**
   * CP-SAT (or the solver asked for) on {@code members}, started from {@code known} (a plan of
   * them, or null), for {@code limit}: its plan, or {@code known} with the solver's bound when
   * that is cheaper. {@code lower} (0 when none) bounds every plan's cost from below and is a
   * row of the model; the candidates {@code needed} are fixed in it (x_v = 1). With under
   * {@link Schedule#MIN_SEARCH} (CP-SAT's presolve alone could overrun it), {@code known} with
   * no bound. Waiting for OR-Tools' libraries ({@link #startLoadingSolver}) and
   * building the model come out of {@code limit}: CP-SAT gets what is left of it, to
   * end by {@code until} ({@link Schedule#searchLimit}); with nothing left, {@code known}.
   */
  private Plan solve(List<PhysicalCandidate> members, List<List<List<PhysicalEdge>>> inputs, Plan known,
      double lower, Set<Integer> needed, Duration limit, long until) {
    if (Schedule.tooShort(limit.toNanos()) && known != null) {
      return new Plan(known.candidates(), known.edges(), known.cost(), 0, Plan.Status.FEASIBLE, 0, 0, 0);
    }
    awaitSolver();
    final MPSolver solver = MPSolver.createSolver(this.solver.id());
    if (solver == null) {
      throw new PlanningException("OR-Tools has no solver " + this.solver.id());
    }
    try {
      final Model model = buildModel(solver, members, inputs);
      addConstraints(model);
      if (lower > 0) {
        // Σ w_v x_v >= L: every plan costs at least the bound, which CP-SAT's own relaxation
        // is far from (at 50 queries 44 where L is 92.2 and the best plan 94.3).
        final MPConstraint atLeast = solver.makeConstraint(lower * (1 - 1e-9), Double.POSITIVE_INFINITY);
        final MPObjective objective = solver.objective();
        for (Block b : model.blocks()) {
          for (MPVariable s : b.atLeast) {
            atLeast.setCoefficient(s, objective.getCoefficient(s));
          }
        }
      }
      for (Block b : model.blocks()) {
        final List<Integer> fixed = new ArrayList<>();
        for (int j = 0; j < b.byKeep.size(); j++) {
          if (needed.contains(b.byKeep.get(j).id())) {
            fixed.add(j);
          }
        }
        if (fixed.size() == 1) {
          // x_v = s_{U,j} - s_{U,j+1} = 1 (a block uses one member, so only one is fixed).
          final int j = fixed.get(0);
          b.atLeast.get(j).setBounds(1, 1);
          if (j + 1 < b.byKeep.size()) {
            b.atLeast.get(j + 1).setBounds(0, 0);
          }
        }
      }
      if (known != null) {
        hint(model, known);
      }
      final Duration left = schedule.searchLimit(limit, until);
      if (left.isZero() && known != null) {
        return new Plan(known.candidates(), known.edges(), known.cost(), 0, Plan.Status.FEASIBLE, 0, 0, 0);
      }
      solver.setTimeLimit(Math.max(1, left.toMillis()));
      if (this.solver == Solver.CP_SAT) {
        // Every core a worker: the default search with the linear relaxation beside large
        // neighbourhood searches proves far more than one worker (at 50 queries both parts
        // proven in 25 s where one worker each left a gap of 35% after 30 s).
        solver.setSolverSpecificParametersAsString("num_workers:"
            + Math.max(2, Runtime.getRuntime().availableProcessors()));
      }
      final MPSolverParameters params = new MPSolverParameters();
      params.setDoubleParam(MPSolverParameters.DoubleParam.RELATIVE_MIP_GAP, 0.0);
      final long start = System.nanoTime();
      final MPSolver.ResultStatus status = stop.interruptibly(solver::interruptSolve, () -> solver.solve(params));
      final long millis = (System.nanoTime() - start) / 1_000_000;
      LOG.log(System.Logger.Level.DEBUG, "{0}: {1} variables, {2} constraints, {3} in {4} ms, objective {5}, bound {6}",
          this.solver, solver.numVariables(), solver.numConstraints(), status, millis,
          solver.objective().value(), solver.objective().bestBound());
      if (status == MPSolver.ResultStatus.NOT_SOLVED && known != null) {
        return new Plan(known.candidates(), known.edges(), known.cost(), 0, Plan.Status.FEASIBLE,
            solver.numVariables(), solver.numConstraints(), millis);
      }
      if (status != MPSolver.ResultStatus.OPTIMAL && status != MPSolver.ResultStatus.FEASIBLE) {
        throw new PlanningException(status == MPSolver.ResultStatus.INFEASIBLE
            ? "no plan meets every query's target, retention and budget"
            : this.solver + " stopped with status " + status + " after " + millis + " ms");
      }
      final Plan found = extractSolution(model, status == MPSolver.ResultStatus.OPTIMAL
          ? Plan.Status.OPTIMAL : Plan.Status.FEASIBLE, millis);
      if (known != null && status == MPSolver.ResultStatus.FEASIBLE && known.cost() <= found.cost()) {
        // Stopped by the limit before reaching the known plan (CP-SAT completes a hint of x, s
        // and y only when time allows): the known plan, with the proven bound.
        return new Plan(known.candidates(), known.edges(), known.cost(), found.bound(), Plan.Status.FEASIBLE,
            found.variables(), found.constraints(), millis);
      }
      return status == MPSolver.ResultStatus.FEASIBLE ? reachable(found) : found;
    } finally {
      solver.delete();
    }
  }

  /**
   * What of {@code plan} its answers read, directly or not: a stopped search may leave a
   * candidate that nothing reads, which costs without serving (and every candidate of a plan
   * as cheap as the best known is on some query's tree, {@link LagrangianBound#alive}).
   */
  private Plan reachable(Plan plan) {
    final Map<Integer, List<PhysicalEdge>> into = new HashMap<>();
    for (PhysicalEdge e : plan.edges()) {
      into.computeIfAbsent(e.consumer(), k -> new ArrayList<>()).add(e);
    }
    final Set<Integer> answers = new HashSet<>(space.answers().values());
    final Set<Integer> seen = new HashSet<>();
    final Deque<Integer> todo = new ArrayDeque<>();
    plan.candidates().stream().filter(answers::contains).forEach(todo::add);
    final List<PhysicalEdge> edges = new ArrayList<>();
    double cost = 0;
    while (!todo.isEmpty()) {
      final int v = todo.pop();
      if (seen.add(v)) {
        cost += space.weight(v);
        for (PhysicalEdge e : into.getOrDefault(v, List.of())) {
          edges.add(e);
          todo.push(e.producer());
        }
      }
    }
    return new Plan(new ArrayList<>(seen), edges, cost, plan.bound(), plan.status(), plan.variables(),
        plan.constraints(), plan.millis());
  }

  /**
   * U: the members of one part that differ only in how long they keep their results (one
   * logical candidate, timing and medium, kept across evaluations), by keep ascending; any other
   * candidate is a block of its own. atLeast.get(j) is s_{U,j}, "U is used with the keep of
   * member j or a longer one", so s_{U,0} = x_U and member j is used when s_{U,j} - s_{U,j+1} = 1.
   */
  private static final class Block {
    final List<PhysicalCandidate> byKeep = new ArrayList<>();
    final List<MPVariable> atLeast = new ArrayList<>();
    /**
     * g_{U,h}: U must serve results h back, h ∈ H_G, when U is recomputed on demand (so it asks
     * h + lookback of its inputs). Any other U serves h exactly when it keeps h: g_{U,h} is then
     * s_{U,j} of the first member keeping h ({@link #serving}), and needs no variable.
     */
    final Map<Duration, MPVariable> history = new LinkedHashMap<>();
    /** The arcs into each input. */
    final List<List<Arc>> inputs = new ArrayList<>();
    /** The arcs out of it. */
    final List<Arc> readers = new ArrayList<>();
    /** [U has ℓ] as a sum of variables, for each level ℓ ∈ Λ_U it can have. */
    Map<Guarantee, List<MPVariable>> levels;

    PhysicalCandidate first() {
      return byKeep.get(0);
    }

    MPVariable x() {
      return atLeast.get(0);
    }
  }

  /** y_{P,C,i}: block P feeds input i of block C; the sum of the y_{u,c,i} between their members. */
  private record Arc(Block producer, Block consumer, int input, MPVariable y) {
  }

  /** The variables of one part's model, by block. */
  private record Model(MPSolver solver, List<Block> blocks, Map<Integer, Block> blockOf,
      List<List<List<PhysicalEdge>>> inputs, MPVariable none) {
  }

  /**
   * A known plan as CP-SAT's hint: x_U and s_{U,j} up to the longest keep it uses of U, y of
   * the arcs its edges lie on.
   */
  private static void hint(Model m, Plan known) {
    final Set<Integer> inKnown = new HashSet<>(known.candidates());
    final Map<MPVariable, Double> values = new LinkedHashMap<>();
    for (Block b : m.blocks()) {
      int longest = -1;
      for (int j = 0; j < b.byKeep.size(); j++) {
        longest = inKnown.contains(b.byKeep.get(j).id()) ? j : longest;
      }
      for (int j = 0; j < b.byKeep.size(); j++) {
        values.put(b.atLeast.get(j), j <= longest ? 1.0 : 0.0);
      }
      for (List<Arc> input : b.inputs) {
        for (Arc a : input) {
          values.put(a.y(), 0.0);
        }
      }
    }
    for (PhysicalEdge e : known.edges()) {
      final Block c = m.blockOf().get(e.consumer());
      if (c != null) {
        for (Arc a : c.inputs.get(e.input())) {
          if (a.producer() == m.blockOf().get(e.producer())) {
            values.put(a.y(), 1.0);
          }
        }
      }
    }
    m.solver().setHint(values.keySet().toArray(new MPVariable[0]),
        values.values().stream().mapToDouble(d -> d).toArray());
  }

  /** The arc (P, C, i) of edge (u, c, i). */
  private List<Object> arcKey(PhysicalEdge e) {
    return List.of(blockKey(space.candidates().get(e.producer())), blockKey(space.candidates().get(e.consumer())),
        e.input());
  }

  /**
   * Which block v is in: its logical candidate, timing and medium when kept across evaluations
   * and asking its inputs the same whatever its keep; a block of its own otherwise (a standing
   * {@link Constraints#keptMerge} asks its keep plus its lookback).
   */
  private List<Object> blockKey(PhysicalCandidate v) {
    return v.properties().lifetime() instanceof Lifetime.AcrossEvaluations a && !Constraints.keptMerge(space, v)
        ? List.of(v.logical(), v.properties().timing(), a.medium()) : List.of(-1 - v.id());
  }

  /** The blocks, x and s per block, y per arc, g histories, and Σ w_v x_v as telescoped by keep. */
  private Model buildModel(MPSolver solver, List<PhysicalCandidate> members,
      List<List<List<PhysicalEdge>>> inputs) {
    final Map<List<Object>, Block> byKey = new LinkedHashMap<>();
    for (PhysicalCandidate v : members) {
      byKey.computeIfAbsent(blockKey(v), k -> new Block()).byKeep.add(v);
    }
    final List<Block> blocks = new ArrayList<>(byKey.values());
    final Map<Integer, Block> blockOf = new HashMap<>();
    final MPObjective objective = solver.objective();
    for (Block b : blocks) {
      if (b.byKeep.size() > 1) {
        b.byKeep.sort(Comparator.comparing(v -> ((Lifetime.AcrossEvaluations) v.properties().lifetime()).keep()));
      }
      for (int j = 0; j < b.byKeep.size(); j++) {
        final PhysicalCandidate v = b.byKeep.get(j);
        blockOf.put(v.id(), b);
        final MPVariable s = solver.makeBoolVar((j == 0 ? "x_" : "s_") + v.id());
        // Σ w_v x_v with x_{v_j} = s_{U,j} - s_{U,j+1}: w_{v_0} s_{U,0} + Σ_j (w_{v_j} - w_{v_{j-1}}) s_{U,j}.
        objective.setCoefficient(s, space.weight(v.id()) - (j == 0 ? 0 : space.weight(b.byKeep.get(j - 1).id())));
        if (j > 0) {
          // s_{U,j} <= s_{U,j-1}: a keep at least member j's is at least member j-1's.
          lessOrEqual(solver, s, b.atLeast.get(j - 1));
        }
        b.atLeast.add(s);
      }
      final PhysicalCandidate v = b.first();
      if (v.properties().recomputedOnDemand()) {
        for (Duration h : space.history().get(v.group())) {
          // g_{U,h} <= x_U.
          final MPVariable g = solver.makeBoolVar("g_" + v.id() + "_" + h.getSeconds());
          lessOrEqual(solver, g, b.x());
          b.history.put(h, g);
        }
      }
    }
    objective.setMinimization();
    for (Block c : blocks) {
      final PhysicalCandidate v = c.first();
      for (List<PhysicalEdge> input : inputs.get(v.id())) {
        final Map<Block, Arc> arcs = new LinkedHashMap<>();
        for (PhysicalEdge e : input) {
          final Block p = blockOf.get(e.producer());
          if (p == null) {
            continue;
          }
          arcs.computeIfAbsent(p, k -> {
            final Arc arc = new Arc(p, c, c.inputs.size(), solver.makeBoolVar(
                "y_" + p.first().id() + "_" + v.id() + "_" + c.inputs.size()));
            p.readers.add(arc);
            return arc;
          });
        }
        c.inputs.add(new ArrayList<>(arcs.values()));
      }
    }
    return new Model(solver, blocks, blockOf, inputs, solver.makeIntVar(0, 0, "none"));
  }

  /**
   * g_{U,h} as a variable: U's own when recomputed on demand; otherwise s_{U,j} of the first
   * member j of U whose keep covers h, and {@code none} (fixed at 0) when no member keeps h: (R).
   */
  private static MPVariable serving(Model m, Block u, Duration h) {
    if (u.first().properties().recomputedOnDemand()) {
      final MPVariable g = u.history.get(h);
      if (g == null) {
        throw new IllegalStateException("history " + h + " missing from H of a producer");
      }
      return g;
    }
    for (int j = 0; j < u.byKeep.size(); j++) {
      if (Constraints.keeps(u.byKeep.get(j), h)) {
        return u.atLeast.get(j);
      }
    }
    return m.none();
  }

  private void addConstraints(Model m) {
    final MPSolver s = m.solver();
    for (Block c : m.blocks()) {
      for (List<Arc> input : c.inputs) {
        // (A) Σ_P y_{P,C,i} = x_C: a used consumer's input reads exactly one feasible producer.
        final MPConstraint one = s.makeConstraint(0, 0);
        one.setCoefficient(c.x(), -1);
        for (Arc a : input) {
          one.setCoefficient(a.y(), 1);
          // (B) y_{P,C,i} <= x_P: a producer is used whenever an edge reads it.
          lessOrEqual(s, a.y(), a.producer().x());
        }
      }
      if (Constraints.streamed(c.first())) {
        // (P) Σ_{C,i} y_{U,C,i} <= x_U: a result that is not kept streams into one consumer.
        final MPConstraint pipe = s.makeConstraint(Double.NEGATIVE_INFINITY, 0);
        pipe.setCoefficient(c.x(), -1);
        for (Arc a : c.readers) {
          pipe.setCoefficient(a.y(), 1);
        }
      }
    }
    for (Block c : m.blocks()) {
      // Producers before consumers: a ratio's levels need its operands'.
      addHistory(m, c);
    }
    for (int g : space.memo().topologicalOrder()) {
      for (int v : space.byGroup().get(g)) {
        final Block c = m.blockOf().get(v);
        if (c != null && c.first().id() == v) {
          addAccuracy(m, c);
        }
      }
    }
    for (Query q : space.workload().queries()) {
      final Block answer = m.blockOf().get(space.answers().get(q.name()));
      if (answer != null) {
        // (C) x_{a_q} = 1: each query's answer, and so its root group, is covered.
        answer.x().setBounds(1, 1);
      }
    }
    for (Budget b : space.workload().budgets()) {
      // (B) Σ_v r_v x_v <= budget, telescoped by keep as the objective.
      final MPConstraint budget = s.makeConstraint(Double.NEGATIVE_INFINITY, b.limit());
      for (Block u : m.blocks()) {
        for (int j = 0; j < u.byKeep.size(); j++) {
          budget.setCoefficient(u.atLeast.get(j), space.costs().get(u.byKeep.get(j).id()).of(b.resource())
              - (j == 0 ? 0 : space.costs().get(u.byKeep.get(j - 1).id()).of(b.resource())));
        }
      }
    }
  }

  /**
   * (K): the levels [U has ℓ] of every block, and at each answer no level beyond its query's
   * target. A fixed θ has its own level (x_U); a readout, whose producer is a state of fixed θ,
   * has level ℓ exactly when it reads a producer of level ℓ, a sum of y; a ratio splits each
   * operand arc by the level it carries (q_{P,C,i,ℓ}) and pairs its operands' levels
   * (p_{C,a,b}), its level being (a + b) / (1 - b) of the pair.
   */
  private void addAccuracy(Model m, Block c) {
    final MPSolver s = m.solver();
    final Constraints.LevelRule rule = Constraints.levelRule(space, c.first().id());
    c.levels = new LinkedHashMap<>();
    if (rule == Constraints.LevelRule.FIXED) {
      c.levels.put(Constraints.fixedLevel(space, c.first().id()), List.of(c.x()));
    } else if (rule == Constraints.LevelRule.RATIO) {
      final List<Map<Guarantee, List<MPVariable>>> operand = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        // w_{C,i,ℓ} = Σ_P q_{P,C,i,ℓ}: operand i has level ℓ.
        final Map<Guarantee, List<MPVariable>> w = new LinkedHashMap<>();
        for (Arc a : c.inputs.get(i)) {
          // Σ_ℓ q_{P,C,i,ℓ} = y_{P,C,i}; q_{P,C,i,ℓ} <= [P has ℓ]: the arc carries P's level.
          final MPConstraint split = s.makeConstraint(0, 0);
          split.setCoefficient(a.y(), -1);
          int n = 0;
          for (Map.Entry<Guarantee, List<MPVariable>> l : a.producer().levels.entrySet()) {
            final MPVariable q = s.makeBoolVar("q_" + a.producer().first().id() + "_" + c.first().id()
                + "_" + i + "_" + n++);
            split.setCoefficient(q, 1);
            final MPConstraint carries = s.makeConstraint(Double.NEGATIVE_INFINITY, 0);
            carries.setCoefficient(q, 1);
            l.getValue().forEach(v -> carries.setCoefficient(v, carries.getCoefficient(v) - 1));
            w.computeIfAbsent(l.getKey(), k -> new ArrayList<>()).add(q);
          }
        }
        operand.add(w);
      }
      // Σ_b p_{C,a,b} = w_{C,0,a}, Σ_a p_{C,a,b} = w_{C,1,b}; z_{C,ℓ} = Σ_{(a+b)/(1-b) = ℓ} p_{C,a,b}.
      final Map<Guarantee, MPConstraint> rows = new HashMap<>();
      final Map<Guarantee, MPConstraint> columns = new HashMap<>();
      for (Map.Entry<Guarantee, List<MPVariable>> a : operand.get(0).entrySet()) {
        for (Map.Entry<Guarantee, List<MPVariable>> b : operand.get(1).entrySet()) {
          final MPVariable p = s.makeBoolVar("p_" + c.first().id() + "_" + rows.size() + "_" + columns.size());
          sumOf(s, rows, a.getKey(), a.getValue()).setCoefficient(p, 1);
          sumOf(s, columns, b.getKey(), b.getValue()).setCoefficient(p, 1);
          c.levels.computeIfAbsent(Constraints.ratio(a.getKey(), b.getKey()), k -> new ArrayList<>()).add(p);
        }
      }
    } else if (rule == Constraints.LevelRule.PASS) {
      // A readout: its producer is a state of fixed θ, so its level is that of the edge it reads.
      for (Arc a : c.inputs.get(0)) {
        for (Map.Entry<Guarantee, List<MPVariable>> l : a.producer().levels.entrySet()) {
          if (l.getValue().size() != 1 || l.getValue().get(0) != a.producer().x()) {
            throw new IllegalStateException("candidate " + c.first().id() + " reads "
                + a.producer().first().id() + ", whose error its θ does not fix");
          }
          c.levels.computeIfAbsent(l.getKey(), k -> new ArrayList<>()).add(a.y());
        }
      }
    } else {
      final Target target = Constraints.target(space, c.first().id());
      for (Arc a : c.inputs.get(0)) {
        // (K) y_{U,a_q,0} + Σ_{ℓ beyond q's target} [U has ℓ] <= x_U.
        final MPConstraint k = s.makeConstraint(Double.NEGATIVE_INFINITY, 0);
        k.setCoefficient(a.y(), 1);
        final MPVariable xu = a.producer().x();
        for (Map.Entry<Guarantee, List<MPVariable>> l : a.producer().levels.entrySet()) {
          if (!Constraints.meets(l.getKey(), target)) {
            l.getValue().forEach(v -> k.setCoefficient(v, k.getCoefficient(v) + 1));
          }
        }
        k.setCoefficient(xu, k.getCoefficient(xu) - 1);
      }
    }
  }

  /** The row Σ p - Σ {@code terms} = 0 of {@code level}, made on first use. */
  private static MPConstraint sumOf(MPSolver s, Map<Guarantee, MPConstraint> rows, Guarantee level,
      List<MPVariable> terms) {
    return rows.computeIfAbsent(level, l -> {
      final MPConstraint row = s.makeConstraint(0, 0);
      terms.forEach(t -> row.setCoefficient(t, -1));
      return row;
    });
  }

  /**
   * (R) histories: each answer asks ρ_q of its root; a consumer recomputed on demand that must
   * serve h asks h + lookback of its producer, a kept one only the lookback; a producer serves h
   * by its g when recomputed on demand, else by keeping h ({@link #serving}).
   */
  private void addHistory(Model m, Block c) {
    final MPSolver s = m.solver();
    final PhysicalCandidate v = c.first();
    final LogicalCandidate logical = space.memo().candidate(v.logical());
    if (logical.operator() instanceof Operator.Answer answer) {
      final Duration rho = space.workload().queries().stream()
          .filter(q -> q.name().equals(answer.query())).findFirst().orElseThrow().retention();
      if (rho.compareTo(Duration.ZERO) > 0) {
        // g_{a_q,ρ_q} = 1
        c.history.get(rho).setBounds(1, 1);
      }
    }
    // What any use of v asks of its producers: its lookback.
    final Duration lookback = Constraints.asksOfInputs(space, v, Duration.ZERO);
    for (List<Arc> input : c.inputs) {
      for (Arc a : input) {
        if (lookback.compareTo(Duration.ZERO) > 0) {
          // g_{P,lookback} >= y_{P,C,i}
          lessOrEqual(s, a.y(), serving(m, a.producer(), lookback));
        }
        // g_{C,h} exists only when v is recomputed on demand (buildModel): a kept v serves from
        // what it keeps, and asks its producers no more than the lookback.
        for (Map.Entry<Duration, MPVariable> h : c.history.entrySet()) {
          // g_{P,h+lookback} >= g_{C,h} + y_{P,C,i} - x_C
          final MPConstraint r = s.makeConstraint(0, Double.POSITIVE_INFINITY);
          r.setCoefficient(serving(m, a.producer(), Constraints.asksOfInputs(space, v, h.getKey())), 1);
          r.setCoefficient(h.getValue(), -1);
          r.setCoefficient(a.y(), -1);
          r.setCoefficient(c.x(), 1);
        }
      }
    }
  }

  /** a <= b. */
  private static void lessOrEqual(MPSolver s, MPVariable a, MPVariable b) {
    final MPConstraint c = s.makeConstraint(Double.NEGATIVE_INFINITY, 0);
    c.setCoefficient(a, 1);
    c.setCoefficient(b, -1);
  }

  /**
   * The chosen member of each used block (the longest keep with s = 1) and, for each arc with
   * y = 1, the edge between the chosen members: x_v = 1, y_{u,c,i} = 1.
   */
  private Plan extractSolution(Model m, Plan.Status status, long millis) {
    final Map<Block, PhysicalCandidate> chosen = new LinkedHashMap<>();
    for (Block b : m.blocks()) {
      for (int j = 0; j < b.byKeep.size() && b.atLeast.get(j).solutionValue() > 0.5; j++) {
        chosen.put(b, b.byKeep.get(j));
      }
    }
    final List<PhysicalEdge> edges = new ArrayList<>();
    for (Map.Entry<Block, PhysicalCandidate> c : chosen.entrySet()) {
      for (List<Arc> input : c.getKey().inputs) {
        for (Arc a : input) {
          if (a.y().solutionValue() > 0.5) {
            edges.add(edge(m, chosen.get(a.producer()), c.getValue(), a.input()));
          }
        }
      }
    }
    double cost = 0;
    for (PhysicalCandidate v : chosen.values()) {
      cost += space.weight(v.id());
    }
    final double bound = status == Plan.Status.OPTIMAL ? cost : m.solver().objective().bestBound();
    return new Plan(chosen.values().stream().map(PhysicalCandidate::id).toList(), edges, cost, bound,
        status, m.solver().numVariables(), m.solver().numConstraints(), millis);
  }

  /** The feasible edge (u, c, i). */
  private static PhysicalEdge edge(Model m, PhysicalCandidate u, PhysicalCandidate c, int input) {
    if (u != null) {
      for (PhysicalEdge e : m.inputs().get(c.id()).get(input)) {
        if (e.producer() == u.id()) {
          return e;
        }
      }
    }
    throw new IllegalStateException("the plan reads " + u + " into input " + input + " of " + c
        + " with no feasible edge");
  }

  /**
   * Every chosen input has one chosen producer, itself chosen, and the chosen edges are acyclic
   * (by arrays over the candidates' ids: it runs after the time limit's stop).
   */
  private void assertDag(List<Integer> chosen, List<PhysicalEdge> edges) {
    final int n = space.candidates().size();
    // By chosen candidate, the producers read on each of its inputs (null: not chosen).
    final int[][] producers = new int[n][];
    for (int v : chosen) {
      if (producers[v] != null) {
        throw new IllegalStateException("candidate " + v + " chosen twice");
      }
      producers[v] = new int[space.memo().candidate(space.candidates().get(v).logical()).children().size()];
    }
    final int[] pending = new int[n];
    final int[] start = new int[n + 1];
    for (PhysicalEdge e : edges) {
      if (producers[e.producer()] == null || producers[e.consumer()] == null) {
        throw new IllegalStateException("edge " + e + " between unchosen candidates");
      }
      if (e.input() >= producers[e.consumer()].length) {
        throw new IllegalStateException("edge " + e + " into input " + e.input() + " of candidate " + e.consumer()
            + ", which has " + producers[e.consumer()].length);
      }
      producers[e.consumer()][e.input()]++;
      pending[e.consumer()]++;
      start[e.producer() + 1]++;
    }
    for (int v : chosen) {
      for (int i = 0; i < producers[v].length; i++) {
        if (producers[v][i] != 1) {
          throw new IllegalStateException("input " + i + " of candidate " + v + " has " + producers[v][i]
              + " producers");
        }
      }
    }
    // Each producer's consumers, by producer (CSR), then Kahn's order from the unread.
    for (int v = 0; v < n; v++) {
      start[v + 1] += start[v];
    }
    final int[] consumers = new int[edges.size()];
    final int[] filled = Arrays.copyOf(start, n);
    for (PhysicalEdge e : edges) {
      consumers[filled[e.producer()]++] = e.consumer();
    }
    final int[] ready = new int[chosen.size()];
    int top = 0;
    for (int v : chosen) {
      if (pending[v] == 0) {
        ready[top++] = v;
      }
    }
    int seen = 0;
    while (top > 0) {
      final int v = ready[--top];
      seen++;
      for (int k = start[v]; k < start[v + 1]; k++) {
        if (--pending[consumers[k]] == 0) {
          ready[top++] = consumers[k];
        }
      }
    }
    if (seen != chosen.size()) {
      throw new IllegalStateException("the chosen plan has a cycle");
    }
  }
}
