package dev.mnestic.flink.job;

import dev.mnestic.flink.io.Sample;
import dev.mnestic.planner.exec.PlanExecution;
import dev.mnestic.rel.MnesticRules;
import dev.mnestic.rel.Plans;
import dev.mnestic.runtime.RowTable;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The embedded executor on the same samples: {@link PlanExecution#answers} over one row table
 * {@code METRIC(ts, val)} per metric, holding the samples of that metric, run through Calcite
 * as a standing query's pass is.
 */
final class Embedded {
  private Embedded() {
  }

  static Map<String, TreeMap<Long, Double>> answers(PlanExecution execution, List<Sample> samples)
      throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:calcite:")) {
      final SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
      final RelBuilder b = RelBuilder.create(Frameworks.newConfigBuilder().defaultSchema(root)
          .build());
      b.getCluster().getPlanner().addRule(MnesticRules.ENUMERABLE_SKETCH_AGGREGATE);
      final RelDataType rowType = b.getTypeFactory().builder()
          .add("ts", SqlTypeName.TIMESTAMP).add("val", SqlTypeName.DOUBLE).build();
      final Map<String, RelOptTable> tables = new HashMap<>();
      final List<RowTable> rowTables = new ArrayList<>();
      for (String metric : execution.summaries().keySet()) {
        final RelOptTable table = RowTable.create(b.getRelOptSchema(), metric, rowType);
        tables.put(metric, table);
        rowTables.add(RowTable.of(table));
      }
      for (Sample s : samples) {
        final RelOptTable table = tables.get(s.metric);
        if (table != null) {
          RowTable.of(table).rows().add(new Object[] {s.ts, s.val});
        }
      }
      return execution.answers(
          m -> LogicalTableScan.create(b.getCluster(), tables.get(m.name()), List.of()),
          (metric, rel, context) -> Plans.run(Plans.optimize(rel), root,
              (JavaTypeFactory) b.getTypeFactory(), rowTables, context));
    }
  }
}
