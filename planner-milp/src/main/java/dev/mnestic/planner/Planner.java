package dev.mnestic.planner;

import dev.mnestic.planner.cost.CostModel;
import dev.mnestic.planner.memo.GroupKey;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.Cost;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.rules.Edges;
import dev.mnestic.planner.rules.History;
import dev.mnestic.planner.rules.Pass1;
import dev.mnestic.planner.rules.Pass2;
import dev.mnestic.planner.rules.Stage2;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.Workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/** The planner's pass order, in one place. */
public final class Planner {
  private Planner() {
  }

  /**
   * Pass 1 (each query's ways to compute) → Pass 2 (merges over tumbling sub-windows) → Stage 2
   * (timing × lifetime alternatives, costs, dominated alternatives dropped) → edges, built once. Stage 3 then selects from the
   * result.
   */
  public static PlanSpace space(Workload workload, ParameterLists lists) {
    final Memo memo = new Memo();
    Pass1.insert(memo, workload.queries(), lists);
    Pass2.addMerges(memo, lists);
    memo.checkMemo();

    final List<SortedSet<Duration>> history = History.levels(memo, workload.queries());
    final List<PlanSpace.Pruned> pruned = new ArrayList<>();
    final List<PhysicalCandidate> expanded = Stage2.expand(memo, workload, history, pruned);
    final CostModel model = new CostModel(workload, memo);
    final List<Cost> expandedCosts = new ArrayList<>();
    for (PhysicalCandidate v : expanded) {
      expandedCosts.add(model.cost(v.logical(), v.properties()));
    }
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
