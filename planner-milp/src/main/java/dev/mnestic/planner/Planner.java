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
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.Workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;

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

  private Planner() {
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
   */
  public record Planned(PlanSpace space, Plan plan, long spaceNanos) {
  }

  /**
   * Builds {@code workload}'s plan space ({@link #space}) and selects its cheapest plan with
   * {@link MilpSelector}, as {@code options} say.
   *
   * @throws PlanningException when no plan meets every constraint, the solver fails, or the
   *     search is stopped
   */
  public static Planned plan(Workload workload, Options options) {
    final long start = options.ticker().read();
    MilpSelector.startLoadingSolver();
    final PlanSpace space = space(workload, options.lists(), options.execution());
    final long built = options.ticker().read() - start;
    final Duration limit = options.limitCoversSpace()
        ? options.timeLimit().minusNanos(built).minus(options.timeLimit().dividedBy(MARGIN)) : options.timeLimit();
    final Plan selected = new MilpSelector(space, options.solver(), limit.isNegative() ? Duration.ZERO : limit,
        options.ticker(), options.stop()).solve();
    // Building the space comes first among the phases the plan reports; it is never cut short.
    final List<Search.Phase> phases = new ArrayList<>();
    phases.add(new Search.Phase("plan space", built / 1_000_000, false));
    phases.addAll(selected.search().phases());
    final Plan plan = new Plan(selected.candidates(), selected.edges(), selected.cost(), selected.bound(),
        selected.status(), selected.variables(), selected.constraints(), selected.millis(),
        new Search(phases, selected.search().parts(), selected.search().cuts()));
    return new Planned(space, plan, built);
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
    final Memo memo = new Memo();
    Pass1.insert(memo, workload.queries(), lists);
    Pass2.addMerges(memo, lists);
    memo.checkMemo();

    final List<SortedSet<Duration>> history = History.levels(memo, workload.queries());
    final List<PlanSpace.Pruned> pruned = new ArrayList<>();
    final List<PhysicalCandidate> expanded = Stage2.expand(memo, workload, history, pruned, execution);
    final CostModel model = new CostModel(workload, memo);
    // On every core, as the edges below (CostModel.cost is safe to call from several threads).
    final List<Cost> expandedCosts = expanded.parallelStream().map(v -> model.cost(v.logical(), v.properties()))
        .toList();
    final List<Cost> costs = new ArrayList<>();
    final List<PhysicalCandidate> candidates = Stage2.dropDominated(memo, expanded, expandedCosts,
        workload.budgets(), pruned, costs);
    final List<List<Integer>> byGroup = new ArrayList<>();
    for (int g = 0; g < memo.groupCount(); g++) {
      byGroup.add(new ArrayList<>());
    }
    for (PhysicalCandidate v : candidates) {
      byGroup.get(v.group()).add(v.id());
    }
    final List<PhysicalEdge> edges = Edges.build(memo, candidates, byGroup);
    final Map<String, Integer> answers = new LinkedHashMap<>();
    for (Query q : workload.queries()) {
      answers.put(q.name(), byGroup.get(memo.find(new GroupKey.Answer(q.name()))).get(0));
    }
    return new PlanSpace(workload, memo, candidates, byGroup, edges, costs, history, answers, pruned);
  }
}
