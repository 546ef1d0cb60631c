package dev.mnestic.planner;

import dev.mnestic.planner.cost.CostModel;
import dev.mnestic.planner.memo.GroupKey;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.Cost;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.rules.Edges;
import dev.mnestic.planner.rules.History;
import dev.mnestic.planner.rules.Pass1;
import dev.mnestic.planner.rules.Pass2;
import dev.mnestic.planner.rules.Stage2;
import dev.mnestic.planner.select.MilpSelector;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.select.PlanningException;
import dev.mnestic.planner.select.Search;
import dev.mnestic.planner.select.Solver;
import dev.mnestic.planner.select.StopSignal;
import dev.mnestic.planner.select.Ticker;
import dev.mnestic.planner.select.TreePlans;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.QueryExpr;
import dev.mnestic.planner.workload.Workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The planner's pass order, in one place, and its one entry point, {@link #plan}, which the CLI
 * ({@code mnestic plan}), the standing-query executor and the bench call.
 */
public final class Planner {
  /**
   * Under a total limit, the part of it kept for what follows the selection's stop (joining the
   * parts' plans, checking the result is a DAG, the report): a fiftieth, 100 ms of 5 s.
   */
  private static final int MARGIN = 50;
  /**
   * Under a total limit, the share of it the plan space may take: a chunk of queries is built
   * whole only while the rest, narrowed, is still expected to end within a third of the limit
   * ({@link SpaceShare}); the others with each query's own ways to compute only
   * ({@link #space(Workload, ParameterLists, Execution, ChunkRule)}). Growing the plans of
   * what was built takes about as long again as building it (docs/planner.md, Scale).
   */
  private static final int SPACE_SHARE = 3;

  /**
   * Under a total limit, the most of what the first plan leaves that the plan with sharing does
   * not plan for, so that it ends by the limit: a tenth (else as long as the first plan took).
   */
  private static final int SHARING_RESERVE = 10;
  /** How long the anytime planner waits for the plan with sharing between looks at the stop signal: 20 ms. */
  private static final long WAIT_SLICE = 20_000_000L;

  private Planner() {
  }

  private static void checkStopped(StopSignal stop) {
    if (stop.isStopped()) {
      throw new PlanningException("the plan search was stopped");
    }
  }

  /**
   * How to plan a workload.
   *
   * @param lists the θ each summary family may take (Pass 1)
   * @param solver the MILP's backend (Stage 3)
   * @param timeLimit how long planning may take; past it Stage 3 returns the best plan found,
   *     {@link Plan.Status#FEASIBLE}
   * @param limitCoversSpace whether {@code timeLimit} counts building the plan space too (what is
   *     left of it, less a fiftieth kept for joining the plan, goes to Stage 3), or Stage 3 alone
   * @param ticker the clock the limit runs on
   * @param stop stops the search from another thread ({@link PlanningException})
   * @param execution which alternatives the plan space holds (Stage 2)
   */
  public record Options(ParameterLists lists, Solver solver, Duration timeLimit, boolean limitCoversSpace,
      Ticker ticker, StopSignal stop, Execution execution) {
    /**
     * The default θ lists, CP-SAT, 60 s for Stage 3, the system clock, a fresh stop signal,
     * every alternative.
     */
    public static Options defaults() {
      return new Options(ParameterLists.DEFAULT, Solver.CP_SAT, Duration.ofSeconds(60), false, Ticker.SYSTEM,
          new StopSignal(), Execution.ANY);
    }

    public Options {
      Objects.requireNonNull(lists, "lists");
      Objects.requireNonNull(solver, "solver");
      Objects.requireNonNull(ticker, "ticker");
      Objects.requireNonNull(stop, "stop");
      Objects.requireNonNull(execution, "execution");
      if (timeLimit == null || timeLimit.isNegative()) {
        throw new IllegalArgumentException("the time limit is a duration of at least 0, not " + timeLimit);
      }
    }

    public Options withSolver(Solver solver) {
      return new Options(lists, solver, timeLimit, limitCoversSpace, ticker, stop, execution);
    }

    /** {@code limit} for Stage 3 alone. */
    public Options withSelectionLimit(Duration limit) {
      return new Options(lists, solver, limit, false, ticker, stop, execution);
    }

    /** {@code limit} for building the plan space and Stage 3 together. */
    public Options withTotalLimit(Duration limit) {
      return new Options(lists, solver, limit, true, ticker, stop, execution);
    }

    /** The clock the limit runs on. */
    public Options withTicker(Ticker ticker) {
      return new Options(lists, solver, timeLimit, limitCoversSpace, ticker, stop, execution);
    }

    public Options withStop(StopSignal stop) {
      return new Options(lists, solver, timeLimit, limitCoversSpace, ticker, stop, execution);
    }

    public Options withExecution(Execution execution) {
      return new Options(lists, solver, timeLimit, limitCoversSpace, ticker, stop, execution);
    }
  }

  /**
   * A planned workload: the plan space and the plan Stage 3 chose from it.
   *
   * @param spaceNanos the time building the space took, on the options' ticker
   * @param withoutSharing the cost without sharing ({@link TreePlans#costWithoutSharing}) of the
   *     first plan's space (each query's own ways to compute), worked out beside the plan with
   *     sharing under a total limit; NaN when not (no total limit, budgets, or not done by then)
   */
  public record Planned(PlanSpace space, Plan plan, long spaceNanos, double withoutSharing) {
  }

  /**
   * Builds {@code workload}'s plan space ({@link #space}) and selects its cheapest plan with
   * {@link MilpSelector}, as {@code options} say. Under a total limit
   * ({@link Options#limitCoversSpace}) and without budgets it is an anytime planner
   * ({@link #anytime}).
   *
   * @throws PlanningException when no plan meets every constraint, the solver fails, or the
   *     search is stopped
   */
  public static Planned plan(Workload workload, Options options) {
    if (options.limitCoversSpace() && workload.budgets().isEmpty()) {
      return anytime(workload, options);
    }
    MilpSelector.startLoadingSolver();
    return shared(workload, options, options.ticker().read(), options.timeLimit(), options.stop(), List.of());
  }

  /**
   * The plan with sharing: the space built (under a total limit, chunk by chunk within a third
   * of {@code limit}, {@link SpaceShare}), then Stage 3 for what is left of {@code limit} from
   * {@code start}, less a fiftieth; {@code before} the phases already run, reported first.
   */
  private static Planned shared(Workload workload, Options options, long start, Duration limit, StopSignal stop,
      List<Search.Phase> before) {
    final SpaceShare share = new SpaceShare(options.ticker(), start + limit.toNanos() / SPACE_SHARE);
    // Each chunk looks at the stop first: the anytime path stops an abandoned plan with sharing
    // so, rather than let it build on beside the view.
    final PlanSpace space = space(workload, options.lists(), options.execution(), (queries, after) -> {
      checkStopped(stop);
      return !options.limitCoversSpace() || share.whole(queries, after);
    });
    final long builtNanos = options.ticker().read() - start;
    final Duration left = options.limitCoversSpace()
        ? limit.minusNanos(builtNanos).minus(limit.dividedBy(MARGIN)) : limit;
    final Plan selected = new MilpSelector(space, options.solver(), left.isNegative() ? Duration.ZERO : left,
        options.ticker(), stop).solve();
    // Building the space comes first among the phases the plan reports, cut when its deadline
    // narrowed some chunk.
    final List<Search.Phase> phases = new ArrayList<>(before);
    phases.add(new Search.Phase("plan space", builtNanos / 1_000_000, !space.narrowed().isEmpty()));
    phases.addAll(selected.search().phases());
    final Plan plan = new Plan(selected.candidates(), selected.edges(), selected.cost(), selected.bound(),
        selected.status(), selected.variables(), selected.constraints(), selected.millis(),
        new Search(phases, selected.search().parts(), selected.search().cuts()));
    return new Planned(space, plan, builtNanos, Double.NaN);
  }

  /**
   * The anytime planner of a total limit (#16, point 6), whose path that always finishes is
   * small. First a plan from each query's own ways to compute: the space with every chunk
   * narrowed ({@link #space(Workload, ParameterLists, Execution, ChunkRule)}: no merge over
   * another query's window), in it each query's cheapest tree given what the earlier ones keep
   * ({@link TreePlans#greedy}): a valid plan, at 1,664 queries about 0.35 s of process CPU warm
   * where the whole space and the plans grown in it took 1.1 s. Then two threads: the plan with
   * sharing ({@link #shared}: the space built whole chunk by chunk within its share, Stage 3 on
   * it) for what is left of the limit, and beside it the cost without sharing of the first
   * plan's space (neither takes a core from the first plan, nor does loading OR-Tools). The
   * plan with sharing replaces the first plan when it ends by the limit (less a fiftieth) and
   * is cheaper; past the limit both threads are stopped and the first plan returned, its search
   * saying the plan with sharing was cut. Not for budgets, which the first plan does not look at.
   */
  private static Planned anytime(Workload workload, Options options) {
    final Ticker ticker = options.ticker();
    final long start = ticker.read();
    final long end = start + options.timeLimit().toNanos() - options.timeLimit().toNanos() / MARGIN;
    final PlanSpace own = space(workload, options.lists(), options.execution(), (queries, after) -> false);
    final Plan first = TreePlans.greedy(own);
    if (first == null) {
      // Names the query with no plan.
      TreePlans.costWithoutSharing(own);
      throw new PlanningException("no plan meets every query's target and retention");
    }
    final long firstNanos = ticker.read() - start;
    final Search.Phase firstPhase = new Search.Phase("first plan", firstNanos / 1_000_000, false);
    checkStopped(options.stop());
    final long now = ticker.read();
    final StopSignal sharing = new StopSignal();
    final CompletableFuture<Double> withoutSharing = beside("cost without sharing",
        () -> TreePlans.costWithoutSharing(own, sharing::isStopped));
    final CompletableFuture<Planned> shared;
    if (now < end) {
      MilpSelector.startLoadingSolver();
      // Less what the first plan took, at most a tenth, so that what no limit cuts in it
      // (splitting, growing: about as much work again) still ends by the limit on a busy machine
      // rather than lose its whole work.
      final Duration left = Duration.ofNanos(end - now);
      final Duration reserve = Duration.ofNanos(Math.min(firstNanos, left.dividedBy(SHARING_RESERVE).toNanos()));
      shared = beside("sharing", () -> shared(workload, options, now, left.minus(reserve), sharing,
          List.of(firstPhase)));
    } else {
      shared = CompletableFuture.failedFuture(new PlanningException("no time left to share"));
    }
    final Planned better;
    final double alone;
    try {
      better = await(shared, ticker, end, options.stop(), sharing);
      alone = Objects.requireNonNullElse(await(withoutSharing, ticker, end, options.stop(), sharing), Double.NaN);
    } finally {
      sharing.stop();
    }
    if (better != null && better.plan().cost() < first.cost()) {
      return new Planned(better.space(), better.plan(), better.spaceNanos(), alone);
    }
    final List<Search.Phase> phases = List.of(firstPhase,
        new Search.Phase("plan with sharing", (ticker.read() - now) / 1_000_000, better == null));
    return new Planned(own, new Plan(first.candidates(), first.edges(), first.cost(), 0, Plan.Status.HEURISTIC, 0, 0,
        firstNanos / 1_000_000, new Search(phases, List.of(), List.of())), firstNanos, alone);
  }

  /** {@code work} on a daemon thread of its own, named {@code what}. */
  private static <T> CompletableFuture<T> beside(String what, Supplier<T> work) {
    final CompletableFuture<T> result = new CompletableFuture<>();
    final Thread thread = new Thread(() -> {
      try {
        result.complete(work.get());
      } catch (RuntimeException e) {
        result.completeExceptionally(e);
      }
    }, "mnestic plan: " + what);
    thread.setDaemon(true);
    thread.start();
    return result;
  }

  /**
   * {@code work}'s result, or null when it failed with a {@link PlanningException} (no plan that
   * way) or is not done by {@code end} on {@code ticker}. Waits in slices, so that the clock and
   * a stop of the whole search ({@code stop}, passed on to {@code sharing}) are seen meanwhile.
   */
  private static <T> T await(CompletableFuture<T> work, Ticker ticker, long end, StopSignal stop,
      StopSignal sharing) {
    while (true) {
      if (stop.isStopped()) {
        sharing.stop();
        checkStopped(stop);
      }
      final long left = end - ticker.read();
      try {
        return work.get(Math.max(0, Math.min(WAIT_SLICE, left)), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        if (left <= WAIT_SLICE) {
          return null;
        }
      } catch (ExecutionException e) {
        if (e.getCause() instanceof PlanningException) {
          return null;
        }
        throw new IllegalStateException("planning failed", e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new PlanningException("interrupted while planning");
      }
    }
  }

  /**
   * {@code workload}'s plan space of every alternative ({@link Execution#ANY}).
   */
  public static PlanSpace space(Workload workload, ParameterLists lists) {
    return space(workload, lists, Execution.ANY);
  }

  /**
   * Pass 1 (each query's ways to compute) → Pass 2 (merges over tumbling sub-windows) → Stage 2
   * (the timing × lifetime alternatives {@code execution} runs, costs, dominated alternatives
   * dropped) → edges, built once. Stage 3 then selects from the result.
   */
  public static PlanSpace space(Workload workload, ParameterLists lists, Execution execution) {
    return space(workload, lists, execution, (queries, after) -> true);
  }

  /** Decides, chunk by chunk, which chunks of the plan space are built whole. */
  @FunctionalInterface
  public interface ChunkRule {
    /**
     * Whether the chunk about to be built, of {@code queries} queries, with {@code after}
     * queries in the chunks after it, is built whole (else narrowed).
     */
    boolean whole(int queries, int after);
  }

  /**
   * The plan space's share of a total limit ({@link #SPACE_SHARE}), on its clock: the first
   * chunk is built whole when started before {@code until}; a later one only when, at the
   * build times per query measured so far, it and the chunks after it narrowed would end by
   * then. Until a narrowed chunk has been timed, a narrowed query is taken to cost a whole
   * one's (it is about half: at 1,664 queries 0.46-0.74 s of process CPU against 0.95-1.3 s),
   * so the rule errs towards narrowing a chunk early, never towards a space past its share; a
   * chunk after the timed ones is built whole again when the rest is seen to fit. So the space
   * ends within its share unless even the narrowed rest takes longer, rather than building
   * narrowed chunks for as long again once the share has passed (a check as each chunk starts
   * let the space take 4.8 s of a 5 s limit at load 10, `bench/RESULTS.md`).
   */
  static final class SpaceShare implements ChunkRule {
    private final Ticker ticker;
    private final long until;
    /** The chunk under way: when it started, its queries (0: none yet) and whether it is whole. */
    private long started;
    private int queries;
    private boolean whole;
    /** Nanoseconds and queries built so far, whole and narrowed. */
    private long wholeNanos;
    private long wholeQueries;
    private long narrowedNanos;
    private long narrowedQueries;

    SpaceShare(Ticker ticker, long until) {
      this.ticker = ticker;
      this.until = until;
    }

    @Override public boolean whole(int next, int after) {
      final long now = ticker.read();
      if (queries > 0 && whole) {
        wholeNanos += now - started;
        wholeQueries += queries;
      } else if (queries > 0) {
        narrowedNanos += now - started;
        narrowedQueries += queries;
      }
      started = now;
      queries = next;
      if (wholeQueries == 0) {
        whole = now < until;
      } else {
        final double perWhole = (double) wholeNanos / wholeQueries;
        final double perNarrowed = narrowedQueries > 0 ? (double) narrowedNanos / narrowedQueries : perWhole;
        whole = now + perWhole * next + perNarrowed * after <= until;
      }
      return whole;
    }
  }

  /**
   * {@link #space(Workload, ParameterLists, Execution)} built a chunk of queries at a time
   * ({@link #chunks}: queries over metrics no other chunk's query reads, so no group, candidate
   * or edge spans two chunks), each chunk's passes, Stage 2 and edges before the next's. A chunk
   * {@code rule} does not build whole is built with each query's own ways to compute
   * only: Pass 2 merges a sliding window from its own step, never from another query's tumbling
   * width ({@link Pass2#addMerges(Memo, ParameterLists, int, boolean)}), a space a fraction of
   * the size (its queries are in {@link PlanSpace#narrowed}).
   */
  public static PlanSpace space(Workload workload, ParameterLists lists, Execution execution,
      ChunkRule rule) {
    final Memo memo = new Memo();
    final List<SortedSet<Duration>> history = new ArrayList<>();
    final List<PlanSpace.Pruned> pruned = new ArrayList<>();
    final List<PhysicalCandidate> candidates = new ArrayList<>();
    final List<Cost> costs = new ArrayList<>();
    final List<List<Integer>> byGroup = new ArrayList<>();
    final List<PhysicalEdge> edges = new ArrayList<>();
    final Set<String> narrowed = new LinkedHashSet<>();
    int after = workload.queries().size();
    for (List<Query> chunk : chunks(workload)) {
      after -= chunk.size();
      final boolean whole = rule.whole(chunk.size(), after);
      final int fromGroup = memo.groupCount();
      final int fromCandidate = memo.candidateCount();
      final int firstId = candidates.size();
      Pass1.insert(memo, chunk, lists);
      Pass2.addMerges(memo, lists, fromGroup, whole);
      history.addAll(History.levels(memo, chunk, fromGroup));
      final List<PhysicalCandidate> expanded = Stage2.expand(memo, workload, chunk, fromGroup, fromCandidate,
          history, pruned, execution);
      final CostModel model = new CostModel(workload, memo);
      // On every core, as the edges below (CostModel.cost is safe to call from several threads).
      final List<Cost> expandedCosts = expanded.parallelStream().map(v -> model.cost(v.logical(), v.properties()))
          .toList();
      candidates.addAll(Stage2.dropDominated(memo, fromCandidate, firstId, expanded, expandedCosts,
          workload.budgets(), pruned, costs));
      for (int g = fromGroup; g < memo.groupCount(); g++) {
        byGroup.add(new ArrayList<>());
      }
      for (PhysicalCandidate v : candidates.subList(firstId, candidates.size())) {
        byGroup.get(v.group()).add(v.id());
      }
      edges.addAll(Edges.build(memo, candidates, byGroup, fromGroup, fromCandidate, firstId, execution));
      if (!whole) {
        chunk.forEach(q -> narrowed.add(q.name()));
      }
    }
    memo.checkMemo();
    final Map<String, Integer> answers = new LinkedHashMap<>();
    for (Query q : workload.queries()) {
      answers.put(q.name(), byGroup.get(memo.find(new GroupKey.Answer(q.name()))).get(0));
    }
    return new PlanSpace(workload, memo, candidates, byGroup, Collections.unmodifiableList(edges), costs, history,
        answers, pruned, narrowed, execution);
  }

  /**
   * The workload's queries in chunks that share no metric (a ratio joins its operands'), each
   * in workload order, the chunks in the order of their first query; with budgets, which span
   * every query, one chunk.
   */
  public static List<List<Query>> chunks(Workload workload) {
    if (!workload.budgets().isEmpty()) {
      return List.of(workload.queries());
    }
    final Map<String, String> root = new HashMap<>();
    for (Query q : workload.queries()) {
      final List<String> metrics = metrics(q);
      for (String m : metrics) {
        root.putIfAbsent(m, m);
      }
      final String a = find(root, metrics.get(0));
      for (String m : metrics) {
        final String b = find(root, m);
        if (!a.equals(b)) {
          root.put(b, a);
        }
      }
    }
    final Map<String, List<Query>> chunks = new LinkedHashMap<>();
    for (Query q : workload.queries()) {
      chunks.computeIfAbsent(find(root, metrics(q).get(0)), k -> new ArrayList<>()).add(q);
    }
    return new ArrayList<>(chunks.values());
  }

  private static List<String> metrics(Query q) {
    return q.expr() instanceof QueryExpr.Ratio r ? List.of(r.numerator().metric(), r.denominator().metric())
        : List.of(((QueryExpr.Quantile) q.expr()).metric());
  }

  private static String find(Map<String, String> root, String m) {
    String r = m;
    while (!root.get(r).equals(r)) {
      r = root.get(r);
    }
    return r;
  }
}
