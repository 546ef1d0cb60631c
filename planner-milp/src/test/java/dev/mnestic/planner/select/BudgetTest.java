package dev.mnestic.planner.select;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.workload.Dashboards;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16, point 6: every phase of the selection keeps the time limit, on a clock that
 * moves a fixed step each time it is read (so a test sees a deadline pass without sleeping, at
 * a point set by the step): each phase asks before each step whether to go on, so after the
 * deadline no phase takes more than a step; the plan returned is still valid by the one
 * definition of the constraints ({@link ReferenceEnumerator#violation}), and its
 * {@link Plan#search} says which phases the limit cut and the bound each part reached.
 */
class BudgetTest {
  private static final long MILLI = 1_000_000L;
  /** A generated dashboard of 40 queries: two parts (services). */
  private static PlanSpace space;

  @BeforeAll static void plan() {
    space = Planner.space(WorkloadParser.parse(Dashboards.generate(40, 1)), ParameterLists.DEFAULT);
  }

  /** A clock that moves {@code step} nanoseconds each time it is read, counting reads past {@code deadline}. */
  private static final class SteppingTicker implements Ticker {
    private final long step;
    private long now;
    long deadline = Long.MAX_VALUE;
    int late;

    SteppingTicker(long step) {
      this.step = step;
    }

    @Override public synchronized long read() {
      now += step;
      late += now > deadline ? 1 : 0;
      return now;
    }
  }

  /**
   * The local search stops at its deadline with the plan it has, a valid plan; with no deadline
   * it goes on to its own end.
   */
  @Test void theLocalSearchStopsAtItsDeadline() {
    final Plan grown = TreePlans.greedy(space);
    final Plan stopped = TreePlans.improved(space, space.feasibleInputs(), space.workload().queries(), () -> false);
    final Plan finished = TreePlans.improved(space, space.feasibleInputs(), space.workload().queries(), () -> true);
    assertEquals(grown.cost(), stopped.cost(), 1e-9 * grown.cost());
    assertTrue(stopped.search().cut());
    assertFalse(finished.search().cut());
    assertTrue(finished.cost() < stopped.cost(), finished.cost() + " vs " + stopped.cost());
    assertEquals(null, ReferenceEnumerator.violation(space, stopped));
    // Stopped after a few moves: between the two.
    final int[] moves = {0};
    final Plan some = TreePlans.improved(space, space.feasibleInputs(), space.workload().queries(),
        () -> moves[0]++ < 5);
    assertTrue(some.search().cut());
    assertEquals(null, ReferenceEnumerator.violation(space, some));
    assertTrue(some.cost() <= stopped.cost() && some.cost() >= finished.cost(), String.valueOf(some.cost()));
  }

  /**
   * A plan grown on tables not updated after each query (what a part started past the growth's
   * deadline gets, {@link TreePlans#grown}) is a plan of the space by the reference
   * enumerator's own checks (every query answered, its target met by the summaries chosen, every
   * history kept, a streamed result read once) and costs at most the plan without sharing
   * ({@link TreePlans#costWithoutSharing}, computed apart): on generated dashboards (ratios,
   * exact and sliding windows) and on random small workloads (a budget may leave no plan).
   */
  @Test void aPlanGrownAloneIsAPlanNoDearerThanNoSharing() {
    final List<PlanSpace> spaces = new ArrayList<>(List.of(space,
        Planner.space(WorkloadParser.parse(Dashboards.generate(64, 3)), ParameterLists.DEFAULT)));
    final java.util.Random random = new java.util.Random(20261202);
    final ParameterLists lists = new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
    for (int n = 0; n < 100; n++) {
      spaces.add(Planner.space(WorkloadParser.parse(dev.mnestic.planner.Workloads.random(random)), lists));
    }
    int planned = 0;
    for (PlanSpace s : spaces) {
      final int[] ids = java.util.stream.IntStream.range(0, s.candidates().size()).toArray();
      final TreePlans trees = TreePlans.grown(s, s.feasibleInputs(), s.workload().queries(), ids, ids, () -> false);
      final String where = s.workload().queries().size() > 8 ? s.workload().queries().size() + " queries"
          : s.workload().toString();
      if (s.workload().budgets().isEmpty()) {
        assertTrue(trees != null, where);
      }
      final Plan plan = trees == null ? null : trees.improved(s.workload().queries(), () -> false);
      if (plan == null) {
        continue;
      }
      planned++;
      assertEquals(null, ReferenceEnumerator.violation(s, plan), where);
      final double alone = TreePlans.costWithoutSharing(s);
      assertTrue(plan.cost() <= alone * (1 + 1e-9), plan.cost() + " vs " + alone + " without sharing, " + where);
    }
    assertTrue(planned > 80, planned + " planned");
  }

  /**
   * A part whose Lagrangian bound was not built in time still gets CP-SAT when time is left
   * (#16: CP-SAT wherever a gap is left within the limit), started from its known plan: on a
   * clock that reads an hour later only inside {@code LagrangianBound.of}, so every build stops
   * unfinished while the rest of the limit is real time. Before, such a part kept its known plan
   * with bound 0 however much time was left.
   */
  @Test void aPartWithoutItsBoundIsSearchedByCpSat() {
    final Ticker starved = () -> System.nanoTime() + (StackWalker.getInstance().walk(frames -> frames.anyMatch(
        f -> f.getClassName().equals(LagrangianBound.class.getName()) && f.getMethodName().equals("of")))
        ? 3_600_000 * MILLI : 0);
    final Plan plan = new MilpSelector(space, Solver.CP_SAT, Duration.ofSeconds(6), starved, new StopSignal()).solve();
    assertEquals(null, ReferenceEnumerator.violation(space, plan));
    assertTrue(plan.cost() <= TreePlans.greedy(space).cost() * (1 + 1e-9), String.valueOf(plan.cost()));
    final Search.Phase bounds = plan.search().phases().stream().filter(p -> p.name().equals("Lagrangian bounds"))
        .findFirst().orElseThrow();
    assertTrue(bounds.cut(), plan.search().phases().toString());
    int searched = 0;
    for (Search.Part p : plan.search().parts()) {
      if (p.outcome() == Search.Outcome.PROVEN_BY_CP_SAT || p.outcome() == Search.Outcome.CP_SAT_STOPPED) {
        assertTrue(p.variables() > 0 && p.modelled() == p.afterPruning(), p.toString());
        searched++;
      } else {
        assertEquals(Search.Outcome.NO_TIME_FOR_BOUND, p.outcome(), p.toString());
        assertEquals(0, p.variables(), p.toString());
      }
    }
    assertTrue(searched > 0, plan.search().parts().toString());
  }

  /** Pruning stopped before its first pass keeps every candidate, and says it stopped. */
  @Test void pruningStopsAtItsDeadline() {
    final double[] bound = new double[space.candidates().size()];
    java.util.Arrays.fill(bound, TreePlans.greedy(space).cost());
    final Pruning.Alive none = Pruning.alive(space, space.feasibleInputs(), bound, () -> false);
    assertFalse(none.complete());
    for (boolean a : none.alive()) {
      assertTrue(a);
    }
    final Pruning.Alive all = Pruning.alive(space, space.feasibleInputs(), bound, () -> true);
    assertTrue(all.complete());
    int pruned = 0;
    for (boolean a : all.alive()) {
      pruned += a ? 0 : 1;
    }
    assertTrue(pruned > 0);
    // Given one more look at the deadline each time: never more removed than the fixpoint
    // removes, never fewer than with fewer looks (a pass stopped midway removes nothing), until
    // it reaches the fixpoint itself.
    int removedBefore = 0;
    for (int looks = 1; ; looks++) {
      final int[] left = {looks};
      final Pruning.Alive some = Pruning.alive(space, space.feasibleInputs(), bound, () -> left[0]-- > 0);
      int removed = 0;
      for (int v = 0; v < bound.length; v++) {
        assertTrue(some.alive()[v] || !all.alive()[v], "v" + v + " after " + looks + " looks");
        removed += some.alive()[v] ? 0 : 1;
      }
      assertTrue(removed >= removedBefore && (looks > 1 || removed == 0), removed + " after " + looks);
      removedBefore = removed;
      if (some.complete()) {
        assertArrayEquals(all.alive(), some.alive());
        assertTrue(looks > 3, looks + " looks");
        break;
      }
      assertTrue(looks < 1000);
    }
  }

  /**
   * The whole selection on a clock that passes its deadline in each phase in turn (a step of
   * 1 s passes it at once, smaller ones later): a valid plan, its bound at most its cost, each
   * part's outcome consistent with its status, and after the deadline only a few reads of the
   * clock per part (each phase's check that it may not go on), so no phase kept stepping.
   */
  @Test void everyPhaseStopsAtTheBudget() {
    for (long step : new long[] {1000 * MILLI, 20 * MILLI, 2 * MILLI}) {
      final SteppingTicker clock = new SteppingTicker(step);
      final Duration limit = Duration.ofSeconds(4);
      clock.deadline = clock.now + step + limit.toNanos();
      final Plan plan = new MilpSelector(space, Solver.CP_SAT, limit, clock, new StopSignal()).solve();
      final String at = "step " + step / MILLI + " ms: " + plan.search().phases() + " " + plan.search().parts();
      assertEquals(null, ReferenceEnumerator.violation(space, plan), at);
      assertTrue(plan.bound() <= plan.cost() * (1 + 1e-9), at);
      final Search search = plan.search();
      assertEquals(List.of("split into parts", "grown plans", "local search", "pruning", "Lagrangian bounds", "CP-SAT",
          "join"),
          search.phases().stream().map(Search.Phase::name).toList(), at);
      assertEquals(2, search.parts().size(), at);
      double cost = 0;
      for (Search.Part p : search.parts()) {
        cost += p.cost();
        assertTrue(p.bound() <= p.cost() * (1 + 1e-9), at);
        final boolean proven = p.outcome() == Search.Outcome.PROVEN_BY_BOUND
            || p.outcome() == Search.Outcome.PROVEN_BY_CP_SAT;
        assertEquals(proven, p.gap() <= LagrangianBound.TOLERANCE, at);
        assertTrue(p.afterPruning() <= p.candidates() && p.modelled() <= p.afterPruning(), at);
      }
      assertEquals(plan.cost(), cost, 1e-9 * cost, at);
      if (plan.status() != Plan.Status.OPTIMAL) {
        assertTrue(search.cut(), at);
      }
      assertTrue(clock.late <= 12 * search.parts().size() + 12, clock.late + " reads past the deadline, " + at);
    }
    // With the deadline passed at once, nothing but the growth of the known plans ran, each
    // part's on tables not updated after each query: a valid plan, no dearer than the plan
    // without sharing.
    final SteppingTicker late = new SteppingTicker(10_000 * MILLI);
    final Plan plan = new MilpSelector(space, Solver.CP_SAT, Duration.ofSeconds(4), late, new StopSignal()).solve();
    assertEquals(null, ReferenceEnumerator.violation(space, plan));
    assertTrue(plan.cost() <= TreePlans.costWithoutSharing(space), plan.cost() + " vs without sharing "
        + TreePlans.costWithoutSharing(space));
    assertEquals(Plan.Status.FEASIBLE, plan.status());
    assertEquals(0, plan.bound());
    for (Search.Part p : plan.search().parts()) {
      assertEquals(Search.Outcome.NO_TIME_FOR_BOUND, p.outcome());
      assertEquals(p.candidates(), p.afterPruning());
      assertTrue(p.grownAlone());
    }
    assertTrue(plan.search().phases().get(1).cut(), plan.search().phases().toString());
    assertTrue(plan.search().phases().get(2).cut() && plan.search().phases().get(3).cut()
        && plan.search().phases().get(4).cut(), plan.search().phases().toString());
    assertNotEquals(0, plan.search().cuts().size());
  }

  /**
   * A part's growth looks at its deadline before each query, not only as the part starts: on a
   * clock that moves 1 s a read with a 12 s limit, the growth's deadline (the deadline less an
   * eighth of what is left, 11.875 s) passes after seven queries' checks, while both parts (of
   * 20 queries each) are growing. The queries from there on are grown on tables not updated
   * after each query, so both parts say they were grown so, though both started before the
   * deadline (a check per part grew both in full); the plan is valid, no dearer than the plan
   * without sharing, and nothing after the growth kept reading the clock.
   */
  @Test void theGrowthLooksAtItsDeadlineBeforeEachQuery() {
    final SteppingTicker clock = new SteppingTicker(1000 * MILLI);
    final Duration limit = Duration.ofSeconds(12);
    clock.deadline = clock.now + 1000 * MILLI + limit.toNanos();
    final Plan plan = new MilpSelector(space, Solver.CP_SAT, limit, clock, new StopSignal()).solve();
    final String at = plan.search().phases() + " " + plan.search().parts();
    assertEquals(2, plan.search().parts().size(), at);
    for (Search.Part p : plan.search().parts()) {
      assertTrue(p.queries().size() > 7, at);
      assertTrue(p.grownAlone(), at);
    }
    assertEquals(new Search.Phase("grown plans", plan.search().phases().get(1).millis(), true),
        plan.search().phases().get(1), at);
    assertEquals(null, ReferenceEnumerator.violation(space, plan), at);
    assertTrue(plan.cost() <= TreePlans.costWithoutSharing(space) * (1 + 1e-9), at);
    assertTrue(clock.late <= 12 * plan.search().parts().size() + 12, clock.late + " reads past the deadline, " + at);
  }

  /**
   * Test case for #16, point 6, at the largest generated dashboard (1,664 queries, 52
   * services), on the system clock, with a total of 50 ms, far less than any phase takes there
   * whole (the space alone 0.3-1 s idle): the anytime planner returns its first plan (every
   * query's own ways to compute, each query's cheapest tree given the earlier ones') as soon as
   * it has it, the plan with sharing cut, so the call ends within that path's time plus {@link #CUT}. The plan is valid by
   * the reference checks, and no dearer than the plan without sharing over its space.
   */
  @Test void everyPhaseKeepsATinyTotalAtTheLargestWorkload() {
    final Workload workload = WorkloadParser.parse(Dashboards.generate(1664, 1));
    final long start = System.nanoTime();
    final Planner.Planned planned = Planner.plan(workload, Planner.Options.defaults()
        .withTotalLimit(Duration.ofMillis(50)));
    final long took = System.nanoTime() - start;
    final Plan plan = planned.plan();
    final List<Search.Phase> phases = plan.search().phases();
    final String at = took / MILLI + " ms: " + phases;
    assertEquals(List.of("first plan", "plan with sharing"), phases.stream().map(Search.Phase::name).toList(),
        at);
    assertTrue(!phases.get(0).cut() && phases.get(1).cut(), at);
    assertEquals(workload.queries().size(), planned.space().narrowed().size(), at);
    assertTrue(took <= phases.get(0).millis() * MILLI + CUT.toNanos(), at);
    assertEquals(null, ReferenceEnumerator.violation(planned.space(), plan), at);
    assertEquals(Plan.Status.HEURISTIC, plan.status(), at);
    final double alone = TreePlans.costWithoutSharing(planned.space());
    assertTrue(plan.cost() <= alone * (1 + 1e-9), plan.cost() + " vs " + alone + " without sharing, " + at);
  }

  /**
   * How long a phase the limit has cut may still run: its checks, one step, and the scheduler's
   * slack on a busy machine (at load 10 on the 2 cores a cut phase took up to 80 ms).
   */
  private static final Duration CUT = Duration.ofMillis(250);

  /**
   * Under a total limit ({@code --total}) the first plan counts against it: with the clock
   * moving past the whole limit while it is made (a read at the start, one at its end), the
   * plan with sharing gets no time, so the plan is the first one, valid, every query narrowed,
   * and its search says so (the first plan with the time it took, the plan with sharing cut).
   * When it takes little of the limit, the plan with sharing (its space built whole) gets the
   * rest and, cheaper, replaces it.
   */
  @Test void theTotalLimitCountsBuildingTheSpace() {
    final Workload workload = WorkloadParser.parse(Dashboards.generate(40, 1));
    final SteppingTicker slow = new SteppingTicker(3000 * MILLI);
    final Planner.Planned planned = Planner.plan(workload, new Planner.Options(ParameterLists.DEFAULT, Solver.CP_SAT,
        Duration.ofSeconds(2), true, slow, new StopSignal(), Execution.ANY));
    final Plan plan = planned.plan();
    assertEquals(3000 * MILLI, planned.spaceNanos());
    assertEquals(new Search.Phase("first plan", 3000, false), plan.search().phases().get(0));
    assertEquals("plan with sharing", plan.search().phases().get(1).name());
    assertTrue(plan.search().phases().get(1).cut(), plan.search().phases().toString());
    assertEquals(workload.queries().size(), planned.space().narrowed().size());
    assertEquals(null, ReferenceEnumerator.violation(planned.space(), plan));
    assertEquals(Plan.Status.HEURISTIC, plan.status());
    // The same limit on a clock that moves 1 ms a read: the first plan takes 1 ms of it and the
    // selection searches on, so the plan is cheaper than the first one.
    final Planner.Planned selection = Planner.plan(workload, new Planner.Options(ParameterLists.DEFAULT,
        Solver.CP_SAT, Duration.ofSeconds(2), true, new SteppingTicker(MILLI), new StopSignal(),
        Execution.ANY));
    assertEquals(List.of("first plan", "plan space"), selection.plan().search().phases().subList(0, 2).stream()
        .map(Search.Phase::name).toList());
    assertTrue(selection.space().narrowed().isEmpty());
    assertTrue(selection.plan().cost() < plan.cost(), selection.plan().cost() + " vs " + plan.cost());
    assertEquals(null, ReferenceEnumerator.violation(selection.space(), selection.plan()));
  }

  /**
   * Test case for #16, point 6: under a tiny total limit the plan is still made. On a clock
   * that moves 10 ms a read, with 50 ms: the first plan comes first, each query's own ways
   * to compute (no merge over another query's window) and its cheapest tree given the earlier
   * ones'; the plan returned is either that or the plan with sharing when that ended in time and is cheaper:
   * valid by the reference enumerator's checks, no dearer than the plan without sharing over
   * the first plan's space. On generated dashboards (ratios, sliding and exact windows)
   * and on random workloads of two to three dozen small ones joined (ratios across two metrics
   * join their chunks); the same workloads on the system clock with 50 ms give a plan too.
   */
  @Test void aTinyTotalLimitNarrowsTheSpaceAndStillPlans() {
    final List<Workload> workloads = new ArrayList<>(List.of(WorkloadParser.parse(Dashboards.generate(160, 5)),
        WorkloadParser.parse(Dashboards.generate(96, 11))));
    final java.util.Random random = new java.util.Random(20261203);
    for (int w = 0; w < 6; w++) {
      workloads.add(joined(random, 24 + random.nextInt(12)));
    }
    for (Workload workload : workloads) {
      final String where = workload.queries().size() + " queries";
      final Planner.Planned planned = Planner.plan(workload, new Planner.Options(ParameterLists.DEFAULT,
          Solver.CP_SAT, Duration.ofMillis(50), true, new SteppingTicker(10 * MILLI), new StopSignal(),
          Execution.ANY));
      final Plan plan = planned.plan();
      final PlanSpace narrowed = Planner.space(workload, ParameterLists.DEFAULT, Execution.ANY, (q, a) -> false);
      assertEquals(null, ReferenceEnumerator.violation(planned.space(), plan), where);
      final double alone = TreePlans.costWithoutSharing(narrowed);
      assertTrue(plan.cost() <= alone * (1 + 1e-9), plan.cost() + " vs " + alone + " without sharing, " + where);
      assertTrue(plan.cost() <= TreePlans.greedy(narrowed).cost() * (1 + 1e-9), where);
      assertEquals("first plan", plan.search().phases().get(0).name(), where);
      assertEquals(workload.queries().size(), narrowed.narrowed().size(), where);
      assertTrue(narrowed.candidates().size() < Planner.space(workload, ParameterLists.DEFAULT).candidates().size(),
          where);
      // On the system clock, whatever is cut: a valid plan.
      final Planner.Planned real = Planner.plan(workload, Planner.Options.defaults()
          .withTotalLimit(Duration.ofMillis(50)));
      assertEquals(null, ReferenceEnumerator.violation(real.space(), real.plan()), where);
    }
  }

  /** {@code n} random small workloads ({@link dev.mnestic.planner.Workloads#random}) as one, metrics and queries renamed apart, budgets dropped. */
  private static Workload joined(java.util.Random random, int n) {
    final StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      for (String line : dev.mnestic.planner.Workloads.random(random).split("\n")) {
        if (line.startsWith("budget")) {
          continue;
        }
        b.append(line.replaceAll("\\b([mn])\\b", "$1" + i).replaceAll("\\bt_([mn])\\(", "t_$1" + i + "(")
            .replaceAll("^Q", "W" + i + "q")).append('\n');
      }
    }
    return WorkloadParser.parse(b.toString());
  }

  /**
   * Test case for #16, point 6: the whole plan call under a total limit of 2 s, building the
   * space included, while other threads keep every core busy (on top of whatever else the
   * machine runs), ends within the limit and {@link #TOLERANCE} on the system clock, with a
   * valid plan and the bound it reached: the first plan (the path no limit cuts,
   * a small part of the limit on 40 queries; on a starved machine it can take longer, and then
   * the call must end within {@link #TOLERANCE} of its end instead), then the plan with sharing,
   * whose phases each stop at their share, taken only when it ends by the limit.
   */
  @Test void theWholeCallKeepsItsLimitOnABusyMachine() throws InterruptedException {
    final Workload workload = WorkloadParser.parse(Dashboards.generate(40, 1));
    final Duration limit = Duration.ofSeconds(2);
    final AtomicBoolean done = new AtomicBoolean();
    final List<Thread> busy = new ArrayList<>();
    for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
      final Thread t = new Thread(() -> {
        long x = 1;
        while (!done.get()) {
          x = x * 6364136223846793005L + 1442695040888963407L;
        }
        spin.set(x);
      }, "busy-" + i);
      t.setDaemon(true);
      t.start();
      busy.add(t);
    }
    final Planner.Planned planned;
    final long took;
    try {
      final long start = System.nanoTime();
      planned = Planner.plan(workload, Planner.Options.defaults().withTotalLimit(limit));
      took = System.nanoTime() - start;
    } finally {
      done.set(true);
      for (Thread t : busy) {
        t.join();
      }
    }
    final Plan plan = planned.plan();
    final String at = took / MILLI + " ms: " + plan.search().phases() + " " + plan.search().parts();
    final Search.Phase first = plan.search().phases().get(0);
    assertEquals("first plan", first.name());
    assertTrue(took <= Math.max(limit.toNanos(), first.millis() * MILLI) + TOLERANCE.toNanos(), at);
    assertEquals(null, ReferenceEnumerator.violation(planned.space(), plan), at);
    assertTrue(plan.bound() <= plan.cost() * (1 + 1e-9), at);
    double bound = 0;
    for (Search.Part p : plan.search().parts()) {
      bound += p.bound();
    }
    assertEquals(plan.status() == Plan.Status.OPTIMAL ? plan.cost() : bound, plan.bound(), 1e-9 * plan.cost(), at);
  }

  /** How far past its limit the whole call may end: the clock's and the scheduler's slack. */
  private static final Duration TOLERANCE = Duration.ofMillis(500);
  /** Where the busy threads leave their result, so the JIT keeps their loop. */
  private static final AtomicLong spin = new AtomicLong();
}
