package dev.mnestic.bench;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.select.Search;
import dev.mnestic.planner.select.TreePlans;
import dev.mnestic.planner.workload.Dashboards;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadParser;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The sketch-sharing planner at scale (issue 6, point 8), on generated dashboards
 * ({@link Dashboards}, seed 1) of each size given: the optimal plan's cost against the cost
 * without sharing (each query's own cheapest plan), the MILP's size (variables and constraints
 * summed over its independent parts, after pruning), and the planning time: building the plan
 * space (memo, Stage 2, edges) and selecting (plan grown query by query, pruning, CP-SAT per
 * part, one part at a time with a worker per core), and of that what no limit cuts (the space,
 * splitting it into parts, growing each part's plan query by query), median of 3 runs (or --runs) after a warm-up
 * on a small dashboard. A run stopped by the time limit reports the gap between its plan and the
 * proven bound, the phases the limit cut short ({@code Plan.search}), and how the parts ended:
 * proven by the Lagrangian bound, proven by CP-SAT, CP-SAT stopped, no time left for CP-SAT, no
 * time left for the bound (the last run's), the queries whose chunk the space's deadline narrowed
 * (the last run's), each phase's time in the last run (* where the limit cut it) and the load
 * average when the row was printed. "Without sharing" is over
 * the whole space, built apart.
 *
 * <p>Reproduce: {@code bench/run PlannerBench 50 400 800 1664} (selection limited to 30 s), and
 * {@code bench/run PlannerBench --total 5 1664}: planning (space and selection) within 5 s in
 * all, the selection's limit being what building the space left of it, so the row shows the gap
 * reached in that time; {@code bench/run PlannerBench --limit 900 --runs 1 800}: the selection
 * limited to 900 s instead (the time a proof takes), one run.
 */
public final class PlannerBench {
  private static final Duration LIMIT = Duration.ofSeconds(30);

  private PlannerBench() {
  }

  public static void main(String[] args) {
    Duration budget = null;
    Duration selection = LIMIT;
    int runs = 3;
    int first = 0;
    for (; first + 1 < args.length && args[first].startsWith("--"); first += 2) {
      final double value = Double.parseDouble(args[first + 1]);
      switch (args[first]) {
        case "--total" -> budget = Duration.ofMillis((long) (value * 1000));
        case "--limit" -> selection = Duration.ofMillis((long) (value * 1000));
        case "--runs" -> runs = (int) value;
        default -> throw new IllegalArgumentException("unknown option " + args[first]
            + " (--total S, --limit S, --runs N)");
      }
    }
    final boolean withBudget = budget != null;
    final String[] sizes = Arrays.copyOfRange(args, first, args.length);
    // Warm-up: the JIT and OR-Tools' native library, on a small dashboard.
    Planner.plan(WorkloadParser.parse(Dashboards.generate(16, 2)), Planner.Options.defaults().withSelectionLimit(LIMIT));
    System.out.println("| queries | parts (services) | plan cost | without sharing | × cheaper | variables | constraints "
        + "| space (s) | uncut (s) | selection (s) | planning (s) | optimal? | cut short | parts: bound / CP-SAT / "
        + "stopped / no CP-SAT / no bound | queries narrowed | phases (ms, last run; * cut) | load |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (String arg : sizes) {
      final int n = Integer.parseInt(arg);
      final Workload workload = WorkloadParser.parse(Dashboards.generate(n, 1));
      final double[] space = new double[runs];
      final double[] uncut = new double[runs];
      final double[] select = new double[runs];
      final double[] total = new double[runs];
      PlanSpace planSpace = null;
      Plan plan = null;
      for (int run = 0; run < runs; run++) {
        final Planner.Options options = withBudget ? Planner.Options.defaults().withTotalLimit(budget)
            : Planner.Options.defaults().withSelectionLimit(selection);
        final long start = System.nanoTime();
        final Planner.Planned planned = Planner.plan(workload, options);
        final long done = System.nanoTime();
        planSpace = planned.space();
        plan = planned.plan();
        space[run] = planned.spaceNanos() / 1e9;
        // The phases before the local search (the first plan under --total, the space, the split,
        // the grown plans: parts started past the growth's deadline grown on tables not updated
        // after each query); all of them when the first plan was returned (no local search).
        final List<Search.Phase> phases = plan.search().phases();
        final int search = phases.stream().map(Search.Phase::name).toList().indexOf("local search");
        uncut[run] = phases.subList(0, search < 0 ? phases.size() : search).stream().mapToLong(Search.Phase::millis)
            .sum() / 1e3;
        select[run] = (done - start - planned.spaceNanos()) / 1e9;
        total[run] = (done - start) / 1e9;
      }
      // Without sharing over the whole space: a space narrowed by its deadline offers its
      // narrowed queries fewer ways to compute.
      final double alone = TreePlans.costWithoutSharing(Planner.space(workload, ParameterLists.DEFAULT));
      final long parts = planSpace.workload().metrics().size();
      final String optimal = plan.status() == Plan.Status.OPTIMAL ? "proven"
          : String.format(Locale.ROOT, "gap %.1f%% (bound %.1f)", 100 * (plan.cost() - plan.bound()) / plan.cost(),
          plan.bound());
      final String cut = plan.search().phases().stream().filter(Search.Phase::cut).map(Search.Phase::name)
          .collect(Collectors.joining(", "));
      final Map<Search.Outcome, Long> outcomes = new EnumMap<>(Search.Outcome.class);
      for (Search.Outcome o : Search.Outcome.values()) {
        outcomes.put(o, plan.search().parts().stream().filter(p -> p.outcome() == o).count());
      }
      System.out.printf(Locale.ROOT,
          "| %d | %d | %.1f | %.1f | %.2f× | %d | %d | %.2f | %.2f | %.2f | %.2f | %s | %s | %s | %d | %s | %s |%n",
          n, parts, plan.cost(), alone, alone / plan.cost(), plan.variables(), plan.constraints(),
          median(space), median(uncut), median(select), median(total), optimal, cut.isEmpty() ? "none" : cut,
          outcomes.values().stream().map(String::valueOf).collect(Collectors.joining(" / ")),
          planSpace.narrowed().size(), plan.search().phases().stream()
              .map(p -> p.name() + " " + p.millis() + (p.cut() ? "*" : "")).collect(Collectors.joining(", ")), load());
    }
  }

  /** The load average over 1, 5 and 15 minutes, from /proc/loadavg ("?" where there is none). */
  private static String load() {
    try {
      final String[] f = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (java.io.IOException e) {
      return "?";
    }
  }

  private static double median(double[] seconds) {
    final double[] s = seconds.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
