package dev.mnestic.planner.exec;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.Workloads;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.select.MilpSelector;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.select.Solver;
import dev.mnestic.planner.workload.Metric;
import dev.mnestic.planner.workload.WorkloadParser;
import dev.mnestic.rel.MnesticRules;
import dev.mnestic.rel.Plans;
import dev.mnestic.rel.SketchAggregate;
import dev.mnestic.runtime.RowTable;
import dev.mnestic.runtime.Sketches;
import dev.mnestic.runtime.TrueQuantile;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The spec's example planned and run: over a table {@code requests(ts, latency)} of lognormal
 * and of Pareto latencies, A's answers are within rank error 0.01 and B's within relative error
 * 0.05 of the exact quantiles of every window, from one KLL and one DDSketch per window.
 */
class PlanExecutionTest {
  private static final long MINUTE = 60_000;

  /** A builder over {@code connection}'s root schema that plans sketch aggregates. */
  private static RelBuilder builder(Connection connection) throws SQLException {
    final RelBuilder b = RelBuilder.create(Frameworks.newConfigBuilder()
        .defaultSchema(connection.unwrap(CalciteConnection.class).getRootSchema()).build());
    b.getCluster().getPlanner().addRule(MnesticRules.ENUMERABLE_SKETCH_AGGREGATE);
    return b;
  }

  /** An empty row table {@code requests(ts TIMESTAMP, latency DOUBLE)}. */
  private static RelOptTable requests(RelBuilder b) {
    final RelDataType rowType = b.getTypeFactory().builder()
        .add("ts", SqlTypeName.TIMESTAMP).add("latency", SqlTypeName.DOUBLE).build();
    return RowTable.create(b.getRelOptSchema(), "requests", rowType);
  }

  @Test void specExampleAnswersWithinTargets() throws SQLException {
    final PlanSpace space = Planner.space(Workloads.specExample(), ParameterLists.DEFAULT);
    final Plan plan = new MilpSelector(space, Solver.CP_SAT, Duration.ofSeconds(60)).solve();
    for (int data = 0; data < 2; data++) {
      try (Connection connection = DriverManager.getConnection("jdbc:calcite:")) {
        final RelBuilder b = builder(connection);
        final RelOptTable table = requests(b);
        final RowTable requests = RowTable.of(table);
        final Random r = new Random(data);
        for (int i = 0; i < 12_000; i++) {
          final double latency = data == 0 ? Math.exp(3 + r.nextGaussian())
              : 1 / Math.pow(1 - r.nextDouble(), 1 / 1.5);
          requests.rows().add(new Object[] {(long) r.nextInt(10 * (int) MINUTE), latency});
        }
        final SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
        final Function<Metric, RelNode> rows = m -> LogicalTableScan.create(b.getCluster(), table, List.of());
        final PlanExecution execution = new PlanExecution(space, plan);
        // One pass keeps one KLL for A and one DDSketch that both of B's operands read.
        final SketchAggregate aggregate = execution.aggregates(rows).get("latency");
        assertEquals(2, aggregate.summaries.size());
        assertEquals(Set.of(Sketches.Family.KLL, Sketches.Family.DDSKETCH),
            aggregate.summaries.stream().map(Sketches.Summary::family).collect(Collectors.toSet()));
        final Map<String, TreeMap<Long, Double>> answers = execution.answers(rows, (metric, rel, context) ->
            Plans.run(Plans.optimize(rel), root, (JavaTypeFactory) b.getTypeFactory(), List.of(requests),
              context));
        assertEquals(10, answers.get("A").size());
        assertEquals(10, answers.get("B").size());
        answers.get("A").forEach((end, answer) -> {
          final double[] exact = window(requests, end);
          assertTrue(TrueQuantile.rankError(exact, 0.95, answer) <= 0.01,
              "A at " + end + ": " + answer);
        });
        answers.get("B").forEach((end, answer) -> {
          final double[] exact = window(requests, end);
          final double truth = TrueQuantile.value(exact, 0.99) / TrueQuantile.value(exact, 0.5);
          assertTrue(Math.abs(answer - truth) <= 0.05 * truth, "B at " + end + ": " + answer + " vs " + truth);
        });
      }
    }
  }

  private static double[] window(RowTable requests, long end) {
    return requests.rows().stream().filter(r -> (long) r[0] >= end - MINUTE && (long) r[0] < end)
        .mapToDouble(r -> (double) r[1]).sorted().toArray();
  }

  /**
   * Test case for #6: a one-hour p95 every second at 100 rows a second (the dashboard that made
   * the planner choose exact accumulators merged from 1 s sub-windows, which the executor then
   * held as one copy of an hour's values per window: about 24 GB over a few hours of rows). The
   * plan holds under 64 MiB by the cost model; over two hours of rows (720,000, in no time
   * order) the executor's summaries held, as it measures them, at most three times the rows'
   * values (sub-windows with room to spare, one index or merged window), it answers the
   * windows of the hour retained (those ending after the latest row's time less an hour), and
   * every sampled window's answer is within the target of the exact quantile.
   */
  @Test void hourEverySecondRunsInBoundedMemory() throws SQLException {
    final PlanSpace space = Planner.space(WorkloadParser.parse(
        "metric latency from requests(ts, latency) rate 100/s raw 2h range 0.1..100000\n"
            // one pass over two hours of rows: a statement, read once
            + "A: quantile_over_time(0.95, latency[1h]) rank error 0.01 every 1s retain 1h"
            + " read once\n"),
        ParameterLists.DEFAULT);
    final Plan plan = new MilpSelector(space, Solver.CP_SAT, Duration.ofSeconds(60)).solve();
    double charged = 0;
    for (int v : plan.candidates()) {
      charged += space.costs().get(v).heapBytes();
    }
    try (Connection connection = DriverManager.getConnection("jdbc:calcite:")) {
      final RelBuilder b = builder(connection);
      final RelOptTable table = requests(b);
      final RowTable requests = RowTable.of(table);
      final Random r = new Random(6);
      final int seconds = 2 * 3600;
      final long[] times = new long[seconds * 100];
      for (int i = 0; i < times.length; i++) {
        times[i] = r.nextInt(seconds * 1000);
        requests.rows().add(new Object[] {times[i], Math.exp(3 + r.nextGaussian())});
      }
      final SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
      final AtomicLong held = new AtomicLong();
      final TreeMap<Long, Double> answers = new PlanExecution(space, plan).answers(
          m -> LogicalTableScan.create(b.getCluster(), table, List.of()),
          (metric, rel, context) -> Plans.run(Plans.optimize(rel), root, (JavaTypeFactory) b.getTypeFactory(),
              List.of(requests), Map.of(Sketches.HELD_BYTES, held))).get("A");
      // Retained 1h: the windows ending after the latest row's time less an hour, up to the
      // last holding that row.
      final long latest = Arrays.stream(times).max().orElseThrow();
      final long first = Math.floorDiv(latest - 3_600_000, 1000) * 1000 + 1000;
      assertEquals(first, answers.firstKey());
      assertEquals(Math.floorDiv(latest + 3_600_000, 1000) * 1000, answers.lastKey());
      assertEquals((answers.lastKey() - first) / 1000 + 1, answers.size());
      assertTrue(charged < 64 << 20, "charged " + charged + " heap bytes");
      assertTrue(held.get() > 0 && held.get() <= 3 * 8L * times.length,
          "held " + held.get() + " bytes for " + times.length + " values");
      // The rows by time, to cut each sampled window out exactly.
      final Integer[] order = new Integer[times.length];
      Arrays.setAll(order, i -> i);
      Arrays.sort(order, (x, y) -> Long.compare(times[x], times[y]));
      final long[] sortedTimes = Arrays.stream(order).mapToLong(i -> times[i]).toArray();
      int checked = 0;
      for (Map.Entry<Long, Double> answer : answers.entrySet()) {
        if (checked++ % 151 != 0) {
          continue;
        }
        final long end = answer.getKey();
        final int from = lowerBound(sortedTimes, end - 3_600_000);
        final int to = lowerBound(sortedTimes, end);
        final double[] exact = new double[to - from];
        for (int i = from; i < to; i++) {
          exact[i - from] = (double) requests.rows().get(order[i])[1];
        }
        Arrays.sort(exact);
        final double value = answer.getValue();
        assertTrue(TrueQuantile.rankError(exact, 0.95, value) <= 0.01,
            "window ending " + end + ": " + value);
      }
    }
  }

  /** The first index of {@code sorted} holding {@code key} or more. */
  private static int lowerBound(long[] sorted, long key) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      final int mid = (lo + hi) >>> 1;
      if (sorted[mid] < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
