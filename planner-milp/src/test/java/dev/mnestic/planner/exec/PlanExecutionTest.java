package dev.mnestic.planner.exec;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.Workloads;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.select.MilpSelector;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.workload.Metric;
import dev.mnestic.rel.MnesticRules;
import dev.mnestic.rel.Plans;
import dev.mnestic.rel.RowTable;
import dev.mnestic.rel.SketchAggregate;

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

  @Test void specExampleAnswersWithinTargets() throws SQLException {
    final PlanSpace space = Planner.space(Workloads.specExample(), ParameterLists.DEFAULT);
    final Plan plan = new MilpSelector(space, "CP_SAT", Duration.ofSeconds(60)).solve();
    for (int data = 0; data < 2; data++) {
      try (Connection connection = DriverManager.getConnection("jdbc:calcite:")) {
        final RelBuilder b = RelBuilder.create(Frameworks.newConfigBuilder()
            .defaultSchema(connection.unwrap(CalciteConnection.class).getRootSchema()).build());
        b.getCluster().getPlanner().addRule(MnesticRules.ENUMERABLE_SKETCH_AGGREGATE);
        final RelDataType rowType = b.getTypeFactory().builder()
            .add("ts", SqlTypeName.TIMESTAMP).add("latency", SqlTypeName.DOUBLE).build();
        final RelOptTable table = RowTable.create(b.getRelOptSchema(), "requests", rowType);
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
        assertEquals(Set.of(SketchAggregate.Family.KLL, SketchAggregate.Family.DDSKETCH),
            aggregate.summaries.stream().map(SketchAggregate.Summary::family).collect(Collectors.toSet()));
        final Map<String, TreeMap<Long, Double>> answers = execution.answers(rows, rel ->
            Plans.run(Plans.optimize(rel), root, (JavaTypeFactory) b.getTypeFactory(), List.of(requests),
              Map.of()));
        assertEquals(10, answers.get("A").size());
        assertEquals(10, answers.get("B").size());
        answers.get("A").forEach((end, answer) -> {
          final double[] exact = window(requests, end);
          final double rank = (double) Arrays.stream(exact).filter(v -> v <= answer).count() / exact.length;
          assertTrue(Math.abs(rank - 0.95) <= 0.01 + 1.0 / exact.length, "A at " + end + ": rank " + rank);
        });
        answers.get("B").forEach((end, answer) -> {
          final double[] exact = window(requests, end);
          final double truth = exact[(int) Math.floor(0.99 * (exact.length - 1))]
              / exact[(int) Math.floor(0.5 * (exact.length - 1))];
          assertTrue(Math.abs(answer - truth) <= 0.05 * truth, "B at " + end + ": " + answer + " vs " + truth);
        });
      }
    }
  }

  private static double[] window(RowTable requests, long end) {
    return requests.rows().stream().filter(r -> (long) r[0] >= end - MINUTE && (long) r[0] < end)
        .mapToDouble(r -> (double) r[1]).sorted().toArray();
  }
}
