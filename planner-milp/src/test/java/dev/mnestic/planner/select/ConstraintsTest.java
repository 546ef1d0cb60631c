package dev.mnestic.planner.select;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.Workloads;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every selector's plan against the one definition of (K), (R) and sharing ({@link Constraints}),
 * as {@link ReferenceEnumerator#violation} applies it to a whole plan: on random small workloads
 * ({@link SelectionTest#randomWorkload}), the plans of {@link MilpSelector}, of
 * {@link TreePlans#greedy} and {@link TreePlans#improved}, and of the enumerator itself all meet
 * every target, retention, streamed result and budget, and the MILP's costs the enumerator's.
 */
class ConstraintsTest {
  @Test void everySelectorsPlanMeetsTheOneDefinition() {
    final Random random = new Random(20261202);
    final ParameterLists lists = new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
    int planned = 0;
    for (int n = 0; n < 60; n++) {
      final String text = Workloads.random(random);
      final PlanSpace space = Planner.space(WorkloadParser.parse(text), lists);
      final Plan reference;
      try {
        reference = new ReferenceEnumerator(space).solve();
      } catch (PlanningException e) {
        continue;
      }
      final Map<String, Plan> plans = new LinkedHashMap<>();
      plans.put("enumerator", reference);
      plans.put("milp", new MilpSelector(space, Solver.CP_SAT, Duration.ofSeconds(60)).solve());
      plans.put("greedy", TreePlans.greedy(space));
      plans.put("improved", TreePlans.improved(space, space.feasibleInputs(), space.workload().queries()));
      for (Map.Entry<String, Plan> p : plans.entrySet()) {
        if (p.getValue() != null) {
          assertEquals(null, ReferenceEnumerator.violation(space, p.getValue()), p.getKey() + "\n" + text);
        }
      }
      assertEquals(reference.cost(), plans.get("milp").cost(), LagrangianBound.TOLERANCE * reference.cost(), text);
      planned++;
    }
    assertTrue(planned > 40, planned + " workloads planned");
  }
}
