package dev.mnestic.planner.select;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.Workloads;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.workload.Dashboards;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Lagrangian bound of Stage 3, against the reference enumerator's optimum. */
class LagrangianBoundTest {
  /**
   * On random small workloads: the bound never exceeds the optimum, the candidates and edges it
   * leaves for a plan no dearer than the optimum include every candidate and edge of the
   * enumerator's optimal plan, the candidates it calls needed by every such plan are in it, and
   * on most workloads the bound reaches the optimum (a proof without CP-SAT).
   */
  @Test void boundIsAtMostTheOptimumAndKeepsAnOptimalPlan() {
    final Random random = new Random(20261130);
    final ParameterLists lists = new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
    int checked = 0;
    int tight = 0;
    int fixed = 0;
    int withNeeded = 0;
    int differs = 0;
    for (int n = 0; n < 200; n++) {
      final String text = Workloads.random(random);
      final PlanSpace space = Planner.space(WorkloadParser.parse(text), lists);
      final Plan optimum;
      try {
        optimum = new ReferenceEnumerator(space).solve();
      } catch (PlanningException e) {
        continue;
      }
      // The whole space as one part (the bound ignores budgets, so it is one with them too).
      final List<PhysicalCandidate> members = Components.of(space, true).get(0);
      final LagrangianBound lagrange = new LagrangianBound(space, members, space.feasibleInputs());
      final double bound = lagrange.improve(optimum.cost(), () -> true);
      assertTrue(bound <= optimum.cost() * (1 + 1e-9), bound + " > " + optimum.cost() + "\n" + text);
      final LagrangianBound.Kept kept = lagrange.alive(optimum.cost());
      final boolean[] alive = kept.candidates();
      for (int v : optimum.candidates()) {
        assertTrue(alive[v], "candidate " + v + " of the optimal plan left out\n" + text);
      }
      for (PhysicalEdge e : optimum.edges()) {
        assertTrue(kept.keeps(e), "edge " + e + " of the optimal plan left out\n" + text);
      }
      // What every plan as cheap as the optimum needs, among the query-by-query plan's
      // candidates, is in the enumerator's optimal plan.
      final Plan greedy = TreePlans.greedy(space);
      if (greedy != null) {
        final List<Integer> needed = lagrange.needed(greedy.candidates(), optimum.cost(), () -> true);
        for (int v : needed) {
          assertTrue(optimum.candidates().contains(v), "candidate " + v + " called needed\n" + text);
        }
        withNeeded += needed.isEmpty() ? 0 : 1;
        differs += optimum.candidates().containsAll(greedy.candidates()) ? 0 : 1;
      }
      checked++;
      tight += bound >= optimum.cost() * (1 - LagrangianBound.TOLERANCE) ? 1 : 0;
      fixed += members.stream().filter(v -> !alive[v.id()]).count() > members.size() / 2 ? 1 : 0;
    }
    assertTrue(checked > 150, checked + " workloads with a plan");
    assertTrue(tight > checked / 2, tight + " of " + checked + " bounds reach the optimum");
    assertTrue(fixed > checked / 2, fixed + " of " + checked + " leave out most candidates");
    assertTrue(withNeeded > checked / 2, withNeeded + " of " + checked + " find a candidate needed");
    // The query-by-query plan uses a candidate the optimum does not on many, so that check bites.
    assertTrue(differs > checked / 4, differs + " of " + checked + " query-by-query plans differ");
  }

  /**
   * A generated dashboard: the selector proves its plan optimal, and the bound of the whole
   * space, run to convergence, comes within 0.01% of that optimum without exceeding it.
   */
  @Test void provesAGeneratedDashboard() {
    final PlanSpace space = Planner.space(WorkloadParser.parse(Dashboards.generate(12, 3)), ParameterLists.DEFAULT);
    final Plan plan = new MilpSelector(space, Solver.CP_SAT, Duration.ofSeconds(60)).solve();
    assertEquals(Plan.Status.OPTIMAL, plan.status());
    assertEquals(plan.cost(), plan.bound(), 0);
    final List<PhysicalCandidate> members = Components.of(space, true).get(0);
    final LagrangianBound lagrange = new LagrangianBound(space, members, space.feasibleInputs());
    final double bound = lagrange.improve(plan.cost(), () -> true);
    assertTrue(bound <= plan.cost() * (1 + 1e-9), bound + " > " + plan.cost());
    assertTrue(bound >= plan.cost() * (1 - 1e-4), bound + " below " + plan.cost());
  }
}
