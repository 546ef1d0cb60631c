package dev.mnestic.planner.select;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.Workloads;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.Lifetime;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PhysicalProperties;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.physical.StorageMedium;
import dev.mnestic.planner.physical.Timing;
import dev.mnestic.planner.workload.Dashboards;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stage 3: the MILP's plans, checked against the reference enumerator. */
class SelectionTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final Solver SOLVER = Solver.CP_SAT;

  /** The spec's acceptance: A reads a KLL meeting 0.01; B's operands share one DDSketch. */
  @Test void specExample() {
    final PlanSpace space = Planner.space(Workloads.specExample(), ParameterLists.DEFAULT);
    final Plan plan = new MilpSelector(space, SOLVER, LIMIT).solve();
    assertEquals(Plan.Status.OPTIMAL, plan.status());

    final PhysicalEdge intoA = only(plan, space.answers().get("A"), 0);
    final int stateOfA = only(plan, intoA.producer(), 0).producer();
    final Parameters thetaA = theta(space, stateOfA);
    assertTrue(thetaA instanceof Parameters.Kll k && k.guarantee().epsilon() <= 0.01, thetaA.toString());

    final PhysicalEdge intoB = only(plan, space.answers().get("B"), 0);
    final int divide = intoB.producer();
    final int numeratorState = only(plan, only(plan, divide, 0).producer(), 0).producer();
    final int denominatorState = only(plan, only(plan, divide, 1).producer(), 0).producer();
    assertEquals(numeratorState, denominatorState, "B's operands read one DDSketch candidate");
    final Parameters.DdSketch dd = (Parameters.DdSketch) theta(space, numeratorState);
    assertTrue((2 * dd.alpha()) / (1 - dd.alpha()) <= 0.05, dd.toString());
    assertEquals(2, plan.edges().stream().filter(e -> e.producer() == numeratorState).count());
    // Paid once: the cost is the sum over distinct chosen candidates.
    assertEquals(plan.candidates().stream().mapToDouble(space::weight).sum(), plan.cost(), 1e-9);

    // Sharing pays: without it B's operands each build their own DDSketch, and A and B each
    // pay for their own plan, as when planned alone.
    final double unshared = TreePlans.costWithoutSharing(space);
    assertTrue(plan.cost() < unshared - 1, plan.cost() + " vs " + unshared);
    final double alone = new ReferenceEnumerator(Planner.space(WorkloadParser.parse(
        "metric latency from requests(ts, latency) rate 1000/s raw 1d range 0.1..100000\n"
        + "A: quantile_over_time(0.95, latency[1m]) rank error 0.01 every 1m retain 1h\n"),
        ParameterLists.DEFAULT)).solve().cost();
    final double stateOfB = space.weight(numeratorState);
    assertTrue(unshared >= alone + 2 * stateOfB, unshared + " vs " + alone + " + 2 × " + stateOfB);

    final Plan reference = new ReferenceEnumerator(space).solve();
    assertEquals(reference.cost(), plan.cost(), LagrangianBound.TOLERANCE * reference.cost());
  }

  @Test void solversAgree() {
    final PlanSpace space = Planner.space(Workloads.specExample(),
        new ParameterLists(List.of(200, 400), List.of(0.01, 0.02), false));
    final double cpSat = new MilpSelector(space, Solver.CP_SAT, LIMIT).solve().cost();
    for (Solver solver : List.of(Solver.SCIP, Solver.CBC)) {
      assertEquals(cpSat, new MilpSelector(space, solver, LIMIT).solve().cost(), LagrangianBound.TOLERANCE * cpSat, solver.name());
    }
    assertEquals(cpSat, new ReferenceEnumerator(space).solve().cost(), LagrangianBound.TOLERANCE * cpSat);
  }

  @Test void budgetsBindAndInfeasibilityIsReported() {
    final String base = "metric m from t(ts, v) rate 1000/s\n"
        + "A: quantile_over_time(0.9, m[1m]) rank error 0.01 every 1m retain 1h\n"
        + "B: quantile_over_time(0.9, m[1m]) / quantile_over_time(0.5, m[1m]) relative error 0.05 every 1m retain 1h\n";
    final ParameterLists lists = new ParameterLists(List.of(200, 400), List.of(0.01, 0.02), true);
    final PlanSpace free = Planner.space(WorkloadParser.parse(base), lists);
    final Plan unbounded = new MilpSelector(free, SOLVER, LIMIT).solve();
    final double heap = unbounded.candidates().stream().mapToDouble(v -> free.costs().get(v).heapBytes()).sum();
    assertTrue(heap > 0);
    // Half the heap the free plan holds: a dearer plan that meets the budget.
    final PlanSpace bounded = Planner.space(WorkloadParser.parse(base + "budget heap " + (long) (heap / 2) + "B\n"), lists);
    final Plan within = new MilpSelector(bounded, SOLVER, LIMIT).solve();
    assertTrue(within.candidates().stream().mapToDouble(v -> bounded.costs().get(v).heapBytes()).sum() <= heap / 2);
    assertTrue(within.cost() > unbounded.cost());
    assertEquals(new ReferenceEnumerator(bounded).solve().cost(), within.cost(), LagrangianBound.TOLERANCE * within.cost());

    final PlanSpace impossible = Planner.space(WorkloadParser.parse(base + "budget cpu 0.000000001\n"), lists);
    final PlanningException e = assertThrows(PlanningException.class,
        () -> new MilpSelector(impossible, SOLVER, LIMIT).solve());
    assertEquals("no plan meets every query's target, retention and budget", e.getMessage());
    assertThrows(PlanningException.class, () -> new ReferenceEnumerator(impossible).solve());
  }

  /**
   * (K) bounds δ as well as ε: a rank-error target that may fail at most once in a thousand
   * cannot read a KLL sketch (δ = 0.01), so it is answered exactly, at a higher cost.
   */
  @Test void failureProbabilityIsConstrained() {
    final String query = "metric m from t(ts, v) rate 1000/s\n"
        + "A: quantile_over_time(0.9, m[1m]) rank error 0.02";
    final ParameterLists lists = new ParameterLists(List.of(200, 400), List.of(0.01), true);
    final PlanSpace loose = Planner.space(WorkloadParser.parse(query + " every 1m retain 1h\n"), lists);
    final PlanSpace strict = Planner.space(WorkloadParser.parse(query
        + " with probability 0.999 every 1m retain 1h\n"), lists);
    final Plan anyFailure = new MilpSelector(loose, SOLVER, LIMIT).solve();
    final Plan rare = new MilpSelector(strict, SOLVER, LIMIT).solve();
    assertTrue(anyFailure.candidates().stream().anyMatch(v -> theta(loose, v) instanceof Parameters.Kll));
    assertTrue(rare.candidates().stream().noneMatch(v -> theta(strict, v) instanceof Parameters.Kll));
    assertTrue(rare.cost() > anyFailure.cost());
    for (PlanSpace space : List.of(loose, strict)) {
      final double reference = new ReferenceEnumerator(space).solve().cost();
      assertEquals(reference, new MilpSelector(space, SOLVER, LIMIT).solve().cost(), LagrangianBound.TOLERANCE * reference);
      assertEquals(reference, TreePlans.costWithoutSharing(space), 1e-6 * reference);
    }
  }

  /** Queries over different metrics are solved apart; a budget or a ratio across them joins them. */
  @Test void independentPartsAreSolvedApart() {
    final String two = "metric m from t(ts, v) rate 100/s\nmetric n from u(ts, v) rate 100/s\n"
        + "A: quantile_over_time(0.9, m[1m]) rank error 0.01 every 1m retain 1h\n"
        + "B: quantile_over_time(0.9, n[1m]) rank error 0.01 every 1m retain 1h\n";
    final ParameterLists lists = new ParameterLists(List.of(200, 400), List.of(0.01), false);
    final PlanSpace apart = Planner.space(WorkloadParser.parse(two), lists);
    assertEquals(2, Components.of(apart, false).size());
    assertEquals(1, Components.of(apart, true).size());
    final PlanSpace joined = Planner.space(WorkloadParser.parse(two + "C: quantile_over_time(0.9, m[1m]) / "
        + "quantile_over_time(0.5, n[1m]) relative error 0.05 every 1m retain 1h\n"), lists);
    assertEquals(1, Components.of(joined, false).size());
    final Plan plan = new MilpSelector(apart, SOLVER, LIMIT).solve();
    assertEquals(new ReferenceEnumerator(apart).solve().cost(), plan.cost(), LagrangianBound.TOLERANCE * plan.cost());
  }

  /**
   * Without sharing, a query of one quantile has one path from its answer to the rows, so its
   * cost is its optimum planned alone; a ratio's two operands each pay for their own.
   */
  @Test void withoutSharingIsEachQueryForItself() {
    final Random random = new Random(7);
    final ParameterLists lists = new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
    int ratios = 0;
    for (int n = 0; n < 60; n++) {
      final String text = Workloads.random(random);
      final PlanSpace space = Planner.space(WorkloadParser.parse(text), lists);
      final double shared;
      try {
        shared = new ReferenceEnumerator(space).solve().cost();
      } catch (PlanningException e) {
        continue;
      }
      final double unshared = TreePlans.costWithoutSharing(space);
      assertTrue(unshared >= shared * (1 - 1e-9), text);
      if (space.workload().queries().size() == 1 && !text.contains(" / ")) {
        assertEquals(shared, unshared, 1e-9 * shared, text);
      } else if (text.contains(" / ")) {
        ratios++;
      }
    }
    assertTrue(ratios > 5, ratios + " workloads with ratios");
  }

  /**
   * A generated dashboard: planned to a proven optimum, no dearer than the plan grown query by
   * query that the MILP starts from, and far cheaper than without sharing.
   */
  @Test void generatedDashboard() {
    final String text = Dashboards.generate(12, 3);
    assertEquals(text, Dashboards.generate(12, 3));
    assertTrue(!text.equals(Dashboards.generate(12, 4)));
    final PlanSpace space = Planner.space(WorkloadParser.parse(text), ParameterLists.DEFAULT);
    final Plan plan = new MilpSelector(space, SOLVER, LIMIT).solve();
    assertEquals(Plan.Status.OPTIMAL, plan.status());
    assertEquals(plan.cost(), plan.bound(), 0);
    final Plan greedy = TreePlans.greedy(space);
    assertTrue(plan.cost() <= greedy.cost() * (1 + 1e-9), plan.cost() + " vs " + greedy.cost());
    assertTrue(plan.cost() * 2 < TreePlans.costWithoutSharing(space));
    // Out of time, each part returns its plan grown on tables not updated after each query
    // (the local search gets no time either, #16), a whole valid plan no dearer than the plan
    // without sharing.
    final Plan late = new MilpSelector(space, SOLVER, Duration.ZERO).solve();
    assertEquals(Plan.Status.FEASIBLE, late.status());
    assertEquals(null, ReferenceEnumerator.violation(space, late));
    assertTrue(late.search().parts().stream().allMatch(Search.Part::grownAlone));
    assertTrue(late.cost() <= TreePlans.costWithoutSharing(space), late.cost() + " vs without sharing");
    assertTrue(late.search().cut());
    assertTrue(late.cost() >= plan.cost() * (1 - 1e-9), late.cost() + " vs " + plan.cost());
  }

  /**
   * The local search's plan on random small workloads: a plan of the space by the reference
   * enumerator's own checks, never dearer than the query-by-query plan it starts from, never
   * cheaper than the optimum, and the optimum on most of them.
   */
  @Test void localSearchPlansAreValidAndNoDearerThanQueryByQuery() {
    final Random random = new Random(20261130);
    final ParameterLists lists = new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
    int planned = 0;
    int optimal = 0;
    int cheaper = 0;
    for (int n = 0; n < 200; n++) {
      final String text = Workloads.random(random);
      final PlanSpace space = Planner.space(WorkloadParser.parse(text), lists);
      final Plan reference;
      try {
        reference = new ReferenceEnumerator(space).solve();
      } catch (PlanningException e) {
        continue;
      }
      final Plan greedy = TreePlans.greedy(space);
      final Plan improved = TreePlans.improved(space, space.feasibleInputs(), space.workload().queries());
      if (greedy != null) {
        assertTrue(improved != null, text);
        assertTrue(improved.cost() <= greedy.cost() * (1 + 1e-9), improved.cost() + " vs " + greedy.cost() + "\n" + text);
        cheaper += improved.cost() < greedy.cost() * (1 - 1e-9) ? 1 : 0;
      }
      if (improved == null) {
        continue;
      }
      assertEquals(null, ReferenceEnumerator.violation(space, improved), text);
      assertTrue(improved.cost() >= reference.cost() * (1 - 1e-9), improved.cost() + " vs " + reference.cost() + "\n" + text);
      planned++;
      optimal += improved.cost() <= reference.cost() * (1 + 1e-9) ? 1 : 0;
    }
    assertTrue(planned > 150, planned + " workloads planned");
    assertTrue(optimal > planned * 3 / 4, optimal + " of " + planned + " optimal");
    assertTrue(cheaper > 5, cheaper + " cheaper than query by query");
  }

  /**
   * A ratio whose operands must read one summary to be optimal, which nothing else reads: the
   * local search prices that summary once, so its plan is the enumerator's optimum (pricing the
   * operands apart, it built one summary per operand: 17.1 against 13.8 for B alone, and 10.5
   * against 7.3 for the second).
   */
  @Test void localSearchSharesARatiosSummary() {
    final ParameterLists lists = new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
    for (String text : List.of(
        "metric latency from requests(ts, latency) rate 1000/s raw 1d range 0.1..100000\n"
            + "B: quantile_over_time(0.99, latency[1m]) / quantile_over_time(0.50, latency[1m]) relative error 0.05 "
            + "every 1m retain 1h\n",
        "metric m from t(ts, v) rate 100/s raw 1d\n"
            + "Q: quantile_over_time(0.9, m[1m]) / quantile_over_time(0.5, m[1m]) relative error 0.1 every 1m "
            + "retain 5m\n")) {
      final PlanSpace space = Planner.space(WorkloadParser.parse(text), lists);
      final Plan improved = TreePlans.improved(space, space.feasibleInputs(), space.workload().queries());
      assertEquals(null, ReferenceEnumerator.violation(space, improved), text);
      final double optimum = new ReferenceEnumerator(space).solve().cost();
      assertEquals(optimum, improved.cost(), LagrangianBound.TOLERANCE * optimum, text);
      final int divide = only(improved, space.answers().get(space.workload().queries().get(0).name()), 0).producer();
      assertEquals(only(improved, only(improved, divide, 0).producer(), 0).producer(),
          only(improved, only(improved, divide, 1).producer(), 0).producer(), text);
    }
  }

  /**
   * On a generated dashboard the local search moves summaries that several queries share: its
   * plan is valid and cheaper than the query-by-query plan.
   */
  @Test void localSearchImprovesAGeneratedDashboard() {
    final PlanSpace space = Planner.space(WorkloadParser.parse(Dashboards.generate(50, 1)), ParameterLists.DEFAULT);
    final Plan greedy = TreePlans.greedy(space);
    final Plan improved = TreePlans.improved(space, space.feasibleInputs(), space.workload().queries());
    assertEquals(null, ReferenceEnumerator.violation(space, greedy));
    assertEquals(null, ReferenceEnumerator.violation(space, improved));
    assertTrue(improved.cost() < greedy.cost() * 0.95, improved.cost() + " vs " + greedy.cost());
  }

  /**
   * CP-SAT gets at least {@link Schedule#MIN_SEARCH} on a part whatever the number of parts:
   * twenty metrics, one of them with a query whose Lagrangian bound stays below the optimum
   * (so only CP-SAT proves it), under a long limit: every part proven, the cost the
   * enumerator's of each metric. (Before, a part got CP-SAT only with a twentieth of the limit
   * left for it, so with twenty parts none did.)
   */
  @Test void everyPartIsSearchedUnderALongLimit() {
    final ParameterLists lists = new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
    // A ratio whose operands share one DDSketch: the bound splits its cost between the two.
    final String hard = "metric m0 from t0(ts, v) rate 100/s raw 1d\n"
        + "A0: quantile_over_time(0.9, m0[1m]) / quantile_over_time(0.5, m0[1m]) relative error 0.1 every 1m "
        + "retain 5m\n";
    final PlanSpace alone = Planner.space(WorkloadParser.parse(hard), lists);
    double optimum = new ReferenceEnumerator(alone).solve().cost();
    final LagrangianBound lagrange = new LagrangianBound(alone, Components.of(alone, false).get(0),
        alone.feasibleInputs());
    assertTrue(lagrange.improve(optimum, () -> true) < optimum * 0.99, "the bound alone proves it");
    final StringBuilder text = new StringBuilder(hard);
    for (int m = 1; m < 20; m++) {
      final String one = "metric m" + m + " from t" + m + "(ts, v) rate 100/s raw 10m\n"
          + "A" + m + ": quantile_over_time(0.9, m" + m + "[1m]) relative error 0.05 every 1m retain 1h\n";
      optimum += new ReferenceEnumerator(Planner.space(WorkloadParser.parse(one), lists)).solve().cost();
      text.append(one);
    }
    final PlanSpace space = Planner.space(WorkloadParser.parse(text.toString()), lists);
    assertEquals(20, Components.of(space, false).size());
    final Plan plan = new MilpSelector(space, SOLVER, Duration.ofMinutes(10)).solve();
    assertEquals(Plan.Status.OPTIMAL, plan.status());
    assertEquals(optimum, plan.cost(), LagrangianBound.TOLERANCE * optimum);
    assertEquals(null, ReferenceEnumerator.violation(space, plan));
  }

  /**
   * The MILP's optimum equals the enumerator's on random small workloads, over every
   * alternative and over what the standing executor runs ({@link Execution#STANDING}: builds fed
   * at ingest and kept in the heap, the rest made at evaluation and not kept (a merge that another
   * merges may be kept: {@link #aMergeOfMergesIsKeptAndTheMilpMatchesTheEnumerator}), no exact
   * sort).
   */
  @Test void milpMatchesEnumeratorOnRandomWorkloads() {
    for (Execution execution : Execution.values()) {
      final Random random = new Random(20261129);
      final ParameterLists lists = new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
      int withMerges = 0;
      int withRatios = 0;
      for (int n = 0; n < 200; n++) {
        final String text = Workloads.random(random);
        final PlanSpace space = Planner.space(WorkloadParser.parse(text), lists, execution);
        final Plan milp;
        final Plan reference;
        try {
          reference = new ReferenceEnumerator(space).solve();
        } catch (PlanningException e) {
          assertThrows(PlanningException.class, () -> new MilpSelector(space, SOLVER, LIMIT).solve(), text);
          continue;
        }
        milp = new MilpSelector(space, SOLVER, LIMIT).solve();
        assertEquals(Plan.Status.OPTIMAL, milp.status(), text);
        assertEquals(reference.cost(), milp.cost(), LagrangianBound.TOLERANCE * reference.cost(), text);
        if (milp.candidates().stream().anyMatch(v -> op(space, v) instanceof Operator.Merge)) {
          withMerges++;
        }
        if (milp.candidates().stream().anyMatch(v -> op(space, v) instanceof Operator.Divide)) {
          withRatios++;
        }
        if (execution == Execution.STANDING) {
          for (int v : milp.candidates()) {
            final PhysicalProperties p = space.candidates().get(v).properties();
            final Operator op = op(space, v);
            assertTrue(!(op instanceof Operator.SortQuantile), text);
            assertTrue(op instanceof Operator.Scan
                || (op instanceof Operator.Build) == (p.timing() == Timing.INGEST
                    && p.lifetime() instanceof Lifetime.AcrossEvaluations a
                    && a.medium() == StorageMedium.HEAP)
                && (op instanceof Operator.Build) != p.recomputedOnDemand(), p + " " + text);
          }
        }
      }
      // The random workloads reach the interesting shapes.
      assertTrue(withMerges > 5 && withRatios > 20,
          execution + ": " + withMerges + " merges, " + withRatios + " ratios");
    }
  }

  /**
   * #16, point 3 (b): with each query read once (a statement), every step (the default) or every
   * minute (a 3-minute step read more often), the MILP's optimum equals the enumerator's over
   * both executions, the costs being the one cost model's; and the read interval reaches the
   * costs: on some workloads the optimum differs from the same workload read every step.
   */
  @Test void milpMatchesEnumeratorWithMixedReadIntervals() {
    final ParameterLists lists = new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
    for (Execution execution : Execution.values()) {
      final Random random = new Random(20261203);
      int differs = 0;
      int compared = 0;
      for (int n = 0; n < 60; n++) {
        final String everyStep = Workloads.random(random);
        final StringBuilder text = new StringBuilder();
        for (String line : everyStep.split("\n")) {
          text.append(line);
          if (line.startsWith("Q")) {
            text.append(line.endsWith("every 3m retain 5m") || line.endsWith("every 3m retain 1h")
                ? pickRead(random, " read every 1m", " read once", "")
                : pickRead(random, " read once", ""));
          }
          text.append('\n');
        }
        final PlanSpace space = Planner.space(WorkloadParser.parse(text.toString()), lists,
            execution);
        final Plan reference;
        try {
          reference = new ReferenceEnumerator(space).solve();
        } catch (PlanningException e) {
          assertThrows(PlanningException.class, () -> new MilpSelector(space, SOLVER, LIMIT).solve(),
              text.toString());
          continue;
        }
        final Plan milp = new MilpSelector(space, SOLVER, LIMIT).solve();
        assertEquals(Plan.Status.OPTIMAL, milp.status(), text.toString());
        assertEquals(reference.cost(), milp.cost(), LagrangianBound.TOLERANCE * reference.cost(),
            text.toString());
        assertEquals(null, ReferenceEnumerator.violation(space, milp), text.toString());
        if (!text.toString().equals(everyStep)) {
          final double stepped;
          try {
            stepped = new ReferenceEnumerator(
                Planner.space(WorkloadParser.parse(everyStep), lists, execution)).solve().cost();
          } catch (PlanningException e) {
            continue;
          }
          compared++;
          differs += Math.abs(stepped - reference.cost()) > 1e-9 * stepped ? 1 : 0;
        }
      }
      assertTrue(differs > 0 && compared > 20, execution + ": " + differs + " of " + compared
          + " optima moved by their read intervals");
    }
  }

  private static String pickRead(Random r, String... options) {
    return options[r.nextInt(options.length)];
  }

  /**
   * #16, point 3: under {@link Execution#STANDING} a merge reads merged windows only from a merge
   * kept across evaluations in the heap, its windows charged for as far back as its reader reads
   * them, which asks its input its keep plus its lookback, as the standing executor keeps them
   * ({@code Sketches.State}; {@code MergeChargeTest} counts them). On random workloads of windows
   * nested three deep, the space offers such merges (and no other merge of merged windows), and
   * the MILP's optimum equals the enumerator's. With the kept windows charged, a merge of merged
   * windows costs more heap than its fewer merges save, and is not chosen on these; where it may
   * be kept in the store ({@link Execution#ANY}, a sixteenth of the heap's weight a byte) it is
   * chosen on some.
   */
  @Test void aMergeOfMergesIsKeptAndTheMilpMatchesTheEnumerator() {
    final Random random = new Random(20261203);
    final ParameterLists lists = new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
    int nested = 0;
    int nestedAny = 0;
    for (int n = 0; n < 25; n++) {
      final String text = Workloads.randomNested(random);
      final PlanSpace space = Planner.space(WorkloadParser.parse(text), lists, Execution.STANDING);
      int offered = 0;
      for (PhysicalEdge e : space.edges()) {
        if (op(space, e.producer()) instanceof Operator.Merge && op(space, e.consumer()) instanceof Operator.Merge) {
          final PhysicalProperties p = space.candidates().get(e.producer()).properties();
          assertTrue(p.lifetime() instanceof Lifetime.AcrossEvaluations a && a.medium() == StorageMedium.HEAP
              && p.timing() == Timing.EVALUATION, p + " " + text);
          offered++;
        }
      }
      assertTrue(offered > 0, text);
      final Plan reference = new ReferenceEnumerator(space).solve();
      final Plan milp = new MilpSelector(space, SOLVER, LIMIT).solve();
      assertEquals(Plan.Status.OPTIMAL, milp.status(), text);
      assertEquals(reference.cost(), milp.cost(), LagrangianBound.TOLERANCE * reference.cost(), text);
      assertEquals(null, ReferenceEnumerator.violation(space, milp), text);
      nested += mergesOfMerges(space, milp);
      // kept in the store, such a merge is chosen where it pays
      final PlanSpace any = Planner.space(WorkloadParser.parse(text), lists, Execution.ANY);
      nestedAny += mergesOfMerges(any, new MilpSelector(any, SOLVER, LIMIT).solve());
    }
    assertEquals(0, nested, "merges of merged windows chosen");
    assertTrue(nestedAny >= 3, nestedAny + " merges of merged windows chosen in ANY");
  }

  private static int mergesOfMerges(PlanSpace space, Plan plan) {
    return (int) plan.edges().stream().filter(e -> op(space, e.producer()) instanceof Operator.Merge
        && op(space, e.consumer()) instanceof Operator.Merge).count();
  }

  /**
   * What the standing executor keeps is charged for its retention: B reads minutes kept 10
   * minutes; A, hours, merges B's minutes when it keeps two hours (keeping about three hours of
   * minutes costs less than a build of its own, fed every row), and builds its own hours when it
   * keeps 30 days (30 days of minutes would cost far more).
   */
  @Test void aLongRetentionKeepsFewerWindows() {
    final Map<String, Class<?>> stateOfA = new LinkedHashMap<>();
    for (String retain : List.of("2h", "30d")) {
      final PlanSpace space = Planner.space(WorkloadParser.parse(
          "metric m from t(ts, v) rate 100000/s raw 1d range 0.1..100000\n"
          + "B: quantile_over_time(0.9, m[1m]) rank error 0.01 every 1m retain 10m\n"
          + "A: quantile_over_time(0.9, m[1h]) rank error 0.01 every 1h retain " + retain + "\n"),
          ParameterLists.DEFAULT, Execution.STANDING);
      final Plan plan = new MilpSelector(space, SOLVER, LIMIT).solve();
      assertEquals(Plan.Status.OPTIMAL, plan.status());
      final int state = only(plan, only(plan, space.answers().get("A"), 0).producer(), 0).producer();
      stateOfA.put(retain, op(space, state).getClass());
    }
    assertEquals(Map.of("2h", Operator.Merge.class, "30d", Operator.Build.class), stateOfA);
  }

  private static Operator op(PlanSpace space, int v) {
    return space.memo().candidate(space.candidates().get(v).logical()).operator();
  }

  private static Parameters theta(PlanSpace space, int v) {
    return space.memo().candidate(space.candidates().get(v).logical()).properties().parameters();
  }

  private static PhysicalEdge only(Plan plan, int consumer, int input) {
    final List<PhysicalEdge> in = plan.edges().stream()
        .filter(e -> e.consumer() == consumer && e.input() == input).toList();
    assertEquals(1, in.size(), "one producer for input " + input + " of " + consumer);
    return in.get(0);
  }
}
