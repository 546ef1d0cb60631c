package dev.mnestic.planner.rules;

import dev.mnestic.planner.Workloads;
import dev.mnestic.planner.cost.CostModel;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.Cost;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.Lifetime;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalProperties;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.physical.Timing;
import dev.mnestic.planner.workload.Budget;
import dev.mnestic.planner.workload.Dashboards;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Stage2#dropDominated} against its rule applied pair by pair: alternative p goes when
 * the first alternative q of the same logical candidate (in the given order) has p's timing, or
 * is at ingest where p is at evaluation, both kept across evaluations and q reading its input no
 * further back; has p's history and recomputation; is not none where p is not; and is no dearer
 * in w_v (ties to the earlier) nor in any budgeted resource.
 */
class DominanceTest {
  @Test void generatedDashboardsAndBudgets() {
    final ParameterLists small = new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
    assertTrue(check(WorkloadParser.parse(Dashboards.generate(16, 1)), ParameterLists.DEFAULT) > 0);
    assertTrue(check(WorkloadParser.parse(Dashboards.generate(48, 5)), ParameterLists.DEFAULT) > 0);
    check(Workloads.specExample(), small);
    assertTrue(check(WorkloadParser.parse("metric m from t(ts, v) rate 100/s raw 10m\n"
        + "A: quantile_over_time(0.9, m[1m]) rank error 0.03 every 1m retain 1h\n"
        + "B: quantile_over_time(0.9, m[15m]) relative error 0.05 every 5m retain 2h\n"
        + "D: quantile_over_time(0.5, m[1h]) exact every 1h retain 1d\n"
        + "budget heap 1MiB\n"), small) > 0);
  }

  /** Checks the kept and dropped alternatives; returns how many were dropped. */
  private static int check(Workload workload, ParameterLists lists) {
    final Memo memo = new Memo();
    Pass1.insert(memo, workload.queries(), lists);
    Pass2.addMerges(memo, lists);
    final List<SortedSet<Duration>> history = History.levels(memo, workload.queries());
    final List<PhysicalCandidate> expanded = Stage2.expand(memo, workload, history, new ArrayList<>(),
        Execution.ANY);
    final CostModel model = new CostModel(workload, memo);
    final List<Cost> costs = new ArrayList<>();
    for (PhysicalCandidate v : expanded) {
      costs.add(model.cost(v.logical(), v.properties()));
    }
    final List<PlanSpace.Pruned> pruned = new ArrayList<>();
    final List<Cost> keptCosts = new ArrayList<>();
    final List<PhysicalCandidate> kept = Stage2.dropDominated(memo, expanded, costs,
        workload.budgets(), pruned, keptCosts);

    final List<PhysicalCandidate> expectKept = new ArrayList<>();
    final List<Cost> expectCosts = new ArrayList<>();
    final List<String> expectPruned = new ArrayList<>();
    for (PhysicalCandidate p : expanded) {
      PhysicalCandidate by = null;
      for (PhysicalCandidate q : expanded) {
        if (q.logical() == p.logical() && q != p
            && dominates(memo, q, costs.get(q.id()), p, costs.get(p.id()), workload.budgets())) {
          by = q;
          break;
        }
      }
      if (by == null) {
        expectKept.add(new PhysicalCandidate(expectKept.size(), p.logical(), p.group(), p.properties()));
        expectCosts.add(costs.get(p.id()));
      } else {
        expectPruned.add("G" + p.group() + " " + memo.candidate(p.logical()) + " @ " + p.properties()
            + ": dominated by " + by.properties());
      }
    }
    assertTrue(!expectKept.isEmpty());
    assertEquals(expectKept, kept);
    assertEquals(expectCosts, keptCosts);
    assertEquals(expectPruned, pruned.stream().map(p -> p.what() + ": " + p.reason()).toList());
    return expectPruned.size();
  }

  private static boolean dominates(Memo memo, PhysicalCandidate q, Cost qc, PhysicalCandidate p,
      Cost pc, List<Budget> budgets) {
    final PhysicalProperties a = q.properties();
    final PhysicalProperties b = p.properties();
    final boolean earlierAndKept = a.timing() == Timing.INGEST && b.timing() == Timing.EVALUATION
        && a.lifetime() instanceof Lifetime.AcrossEvaluations
        && b.lifetime() instanceof Lifetime.AcrossEvaluations
        && History.lookback(memo, q.logical(), Timing.INGEST)
            .compareTo(History.lookback(memo, p.logical(), Timing.EVALUATION)) <= 0;
    if (!(a.timing() == b.timing() || earlierAndKept)
        || a.recomputedOnDemand() != b.recomputedOnDemand()
        || !Objects.equals(a.history(), b.history())
        || a.lifetime() instanceof Lifetime.None && !(b.lifetime() instanceof Lifetime.None)) {
      return false;
    }
    for (Budget budget : budgets) {
      if (qc.of(budget.resource()) > pc.of(budget.resource())) {
        return false;
      }
    }
    return qc.weight() < pc.weight() || qc.weight() == pc.weight() && q.id() < p.id();
  }
}
