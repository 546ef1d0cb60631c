package dev.mnestic.bench;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.select.MilpSelector;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.select.Solver;
import dev.mnestic.planner.select.TreePlans;
import dev.mnestic.planner.workload.Dashboards;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadParser;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * The part of planning that no time limit cuts, as CPU rather than wall time (on a busy machine
 * wall time mostly measures the load): the JVM's process CPU time, garbage collection included,
 * of building the plan space of a generated dashboard ({@link Dashboards}, seed 1) and of a
 * selection with no time at all, which splits the space into parts and grows each part's plan
 * query by query on tables not updated after each query (every part starts past the growth's
 * deadline; at most the plan without sharing), what the least plan under {@code --total} was
 * before the anytime planner; and, in the same runs, that planner's path that always finishes:
 * the space with each query's own ways to compute (every chunk narrowed) and the first plan
 * in it ({@code TreePlans.greedy}). Median of the runs after two warm-ups; the plans'
 * costs show the plans did not change.
 *
 * <p>Reproduce: {@code bench/run PlannerCpuBench 1664 7} (queries, runs).
 */
public final class PlannerCpuBench {
  private PlannerCpuBench() {
  }

  public static void main(String[] args) {
    final int n = Integer.parseInt(args[0]);
    final int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    if (runs < 3) {
      throw new IllegalArgumentException("at least 3 runs (2 warm-ups), not " + runs);
    }
    final com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    final Workload workload = WorkloadParser.parse(Dashboards.generate(n, 1));
    final double[] space = new double[runs - 2];
    final double[] grown = new double[runs - 2];
    final double[] narrowed = new double[runs - 2];
    final double[] first = new double[runs - 2];
    double cost = Double.NaN;
    double alone = Double.NaN;
    for (int run = 0; run < runs; run++) {
      final long start = os.getProcessCpuTime();
      final PlanSpace planSpace = Planner.space(workload, ParameterLists.DEFAULT);
      final long built = os.getProcessCpuTime();
      final Plan plan = new MilpSelector(planSpace, Solver.CP_SAT, Duration.ZERO).solve();
      final long done = os.getProcessCpuTime();
      final PlanSpace own = Planner.space(workload, ParameterLists.DEFAULT, Execution.ANY, (queries, after) -> false);
      final long ownBuilt = os.getProcessCpuTime();
      final Plan ownPlan = TreePlans.greedy(own);
      final long ownDone = os.getProcessCpuTime();
      if (run >= 2) {
        space[run - 2] = (built - start) / 1e9;
        grown[run - 2] = (done - built) / 1e9;
        narrowed[run - 2] = (ownBuilt - done) / 1e9;
        first[run - 2] = (ownDone - ownBuilt) / 1e9;
      }
      cost = plan.cost();
      alone = ownPlan.cost();
    }
    System.out.println("| queries | space, process CPU (s) | grown plans, process CPU (s) | grown plan's cost "
        + "| narrowed space (s) | first plan (s) | first plan's cost |");
    System.out.println("|---|---|---|---|---|---|---|");
    System.out.printf(Locale.ROOT, "| %d | %.2f | %.2f | %.1f | %.2f | %.2f | %.1f |%n", n, median(space),
        median(grown), cost, median(narrowed), median(first), alone);
  }

  private static double median(double[] seconds) {
    final double[] s = seconds.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
