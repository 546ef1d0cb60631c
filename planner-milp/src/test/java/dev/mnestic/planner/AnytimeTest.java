package dev.mnestic.planner;

import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.select.ReferenceEnumerator;
import dev.mnestic.planner.select.TreePlans;
import dev.mnestic.planner.workload.Dashboards;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16, point 6: the anytime planner of a total limit ({@code Planner.anytime}).
 * Its first plan (each query's own ways to compute, each query's cheapest tree given the
 * earlier ones', {@link TreePlans#greedy}) is a plan by the reference enumerator's checks and
 * costs what the queries' cheapest plans cost apart, each found by the enumerator on a workload
 * of that query alone; with time to spare the plan returned is cheaper.
 */
class AnytimeTest {
  /** Each query's space with its own ways to compute only, as the first plan is built. */
  private static PlanSpace narrowed(Workload workload) {
    return Planner.space(workload, ParameterLists.DEFAULT, Execution.ANY, (queries, after) -> false);
  }

  /**
   * Random workloads of 2-6 queries, each over metrics of its own (so no two trees can meet):
   * the first plan is valid and costs exactly the sum of the enumerator's optima of the
   * queries planned one by one, and at most the cost without sharing (which pays twice for a
   * summary both operands of a ratio read). Among them ratios of a quantile over itself, whose
   * two operands are one candidate, in the plan once and paid once.
   */
  @Test void theFirstPlanCostsTheQueriesCheapestPlansApart() {
    final Random random = new Random(20261204);
    int selfRatios = 0;
    for (int w = 0; w < 12; w++) {
      final int n = 2 + random.nextInt(5);
      final StringBuilder text = new StringBuilder();
      for (int i = 0; i < n; i++) {
        final String one = Workloads.random(random);
        selfRatios += selfRatio(one) ? 1 : 0;
        // Its first query only: two queries of one random workload may read one metric.
        text.append(renamed(one, i, true).replaceAll("(?m)^W" + i + "q[1-9].*\n", ""));
      }
      final Workload workload = WorkloadParser.parse(text.toString());
      final PlanSpace space = narrowed(workload);
      final Plan plan = TreePlans.greedy(space);
      final String where = "workload " + w + ":\n" + text;
      assertNull(ReferenceEnumerator.violation(space, plan), where);
      double apart = 0;
      for (Query q : workload.queries()) {
        final Plan alone = new ReferenceEnumerator(narrowed(new Workload(workload.metrics(), List.of(q), List.of())))
            .solve();
        apart += alone.cost();
      }
      assertEquals(apart, plan.cost(), 1e-9 * apart, where);
      assertTrue(plan.cost() <= TreePlans.costWithoutSharing(space) * (1 + 1e-9), where);
    }
    assertTrue(selfRatios > 0, "no ratio of a quantile over itself among the workloads");
  }

  /**
   * Queries that share metrics: the first plan is valid, no dearer than the cost without
   * sharing (a query reuses what an earlier one keeps) and no cheaper than the enumerator's
   * optimum over the same space; with a generous total limit the planner's plan is valid and
   * cheaper than the first one (it shares), which the report's cost without sharing is of.
   */
  @Test void withTimeToSpareThePlanIsCheaperThanTheFirstOne() {
    final Random random = new Random(4);
    for (int w = 0; w < 12; w++) {
      final String text = renamed(Workloads.random(random), 0, false);
      final Workload workload = WorkloadParser.parse(text);
      final PlanSpace space = narrowed(workload);
      final Plan plan = TreePlans.greedy(space);
      final String where = "workload " + w + ":\n" + text;
      assertNull(ReferenceEnumerator.violation(space, plan), where);
      assertTrue(plan.cost() <= TreePlans.costWithoutSharing(space) * (1 + 1e-9), where);
      assertTrue(plan.cost() >= new ReferenceEnumerator(space).solve().cost() * (1 - 1e-9), where);
    }
    final Workload dashboard = WorkloadParser.parse(Dashboards.generate(64, 2));
    final Plan first = TreePlans.greedy(narrowed(dashboard));
    final Planner.Planned planned = Planner.plan(dashboard,
        Planner.Options.defaults().withTotalLimit(Duration.ofSeconds(20)));
    assertNull(ReferenceEnumerator.violation(planned.space(), planned.plan()));
    assertTrue(planned.plan().cost() < first.cost(), planned.plan().cost() + " vs " + first.cost());
    assertEquals("first plan", planned.plan().search().phases().get(0).name());
    assertEquals(TreePlans.costWithoutSharing(narrowed(dashboard)), planned.withoutSharing(), 0);
  }

  /** Whether the first query of {@code text} divides a quantile by itself. */
  private static boolean selfRatio(String text) {
    final java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^Q0: (quantile_over_time\\([^)]*\\))"
        + " / (quantile_over_time\\([^)]*\\))").matcher(text);
    return m.find() && m.group(1).equals(m.group(2));
  }

  /** {@code text} without budgets, its queries renamed apart by {@code i}, and its metrics too when {@code apart}. */
  private static String renamed(String text, int i, boolean apart) {
    final List<String> lines = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("budget")) {
        continue;
      }
      String l = line.replaceAll("^Q", "W" + i + "q");
      if (apart) {
        l = l.replaceAll("\\b([mn])\\b", "$1" + i).replaceAll("\\bt_([mn])\\(", "t_$1" + i + "(");
      }
      lines.add(l);
    }
    return String.join("\n", lines) + "\n";
  }
}
