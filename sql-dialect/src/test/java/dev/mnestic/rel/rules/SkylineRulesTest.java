package dev.mnestic.rel.rules;

import dev.mnestic.rel.MnesticRelBuilder;
import dev.mnestic.rel.MnesticRules;
import dev.mnestic.rel.PlanFile;
import dev.mnestic.rel.Plans;
import dev.mnestic.rel.Skyline.Dimension;
import dev.mnestic.runtime.Skylines.Direction;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.tools.RelBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Each skyline rule on a plan built with RelBuilder: the plan before and
 * after (expected in {@code SkylineRulesTest.xml}, see {@link PlanFile} for
 * updating it), and both plans run to the same rows.
 *
 * <p>The inputs are VALUES over {@code h(id, city, price, dist)}: ties,
 * duplicates, NULL prices and cities.
 */
class SkylineRulesTest {
  private static PlanFile plans;
  private Connection connection;
  private RelBuilder b;
  private String testName;

  @BeforeAll static void load() throws Exception {
    plans = new PlanFile(SkylineRulesTest.class);
  }

  @AfterAll static void done() {
    plans = null;
  }

  @BeforeEach void open(TestInfo info) throws Exception {
    testName = info.getTestMethod().orElseThrow().getName();
    connection = DriverManager.getConnection("jdbc:calcite:");
  }

  /** A fresh builder: each plan run plans in a cluster (and planner) of its own. */
  private void newBuilder() {
    b = RelBuilder.create(Frameworks.newConfigBuilder().defaultSchema(root()).build());
    b.getCluster().getPlanner().addRule(MnesticRules.ENUMERABLE_SKYLINE);
  }

  @AfterEach void close() throws Exception {
    connection.close();
  }

  /** h(id, city, price, dist): id unique; city and price nullable. */
  private RelBuilder hotels() {
    final RelDataType row = b.getTypeFactory().builder()
        .add("id", SqlTypeName.INTEGER)
        .add("city", SqlTypeName.VARCHAR, 10).nullable(true)
        .add("price", SqlTypeName.INTEGER).nullable(true)
        .add("dist", SqlTypeName.INTEGER)
        .build();
    final Object[][] rows = {
        {1, "oslo", 100, 2}, {2, "oslo", 80, 3}, {3, "oslo", 120, 1}, {4, "oslo", 130, 3},
        {5, "rome", 50, 9}, {6, "rome", 50, 9}, {7, "rome", null, 1}, {8, "rome", 60, 8},
        {9, null, 90, 2}, {10, null, 95, 2}};
    final List<List<org.apache.calcite.rex.RexLiteral>> tuples = new ArrayList<>();
    for (Object[] r : rows) {
      final List<org.apache.calcite.rex.RexLiteral> tuple = new ArrayList<>();
      for (int i = 0; i < r.length; i++) {
        final RelDataType type = row.getFieldList().get(i).getType();
        tuple.add((org.apache.calcite.rex.RexLiteral) b.getRexBuilder()
            .makeLiteral(r[i], type, false));
      }
      tuples.add(tuple);
    }
    return b.values(tuples, row);
  }

  private static Dimension dim(int field, Direction direction) {
    return new Dimension(field, direction);
  }

  private RelNode skyline(RelNode input, boolean distinct, Dimension... dimensions) {
    return MnesticRelBuilder.skyline(b.push(input), List.of(dimensions), distinct).build();
  }

  /**
   * Builds the plan, applies {@code rules}; checks both plans against the
   * file, and that they give the same rows.
   */
  private void check(Supplier<RelNode> plan, RelOptRule... rules) throws Exception {
    newBuilder();
    final RelNode before = plan.get();
    plans.record(testName, "planBefore", RelOptUtil.toString(before));
    final List<String> expected = run(before);
    newBuilder();
    final HepPlanner hep = new HepPlanner(HepProgram.builder().addRuleCollection(List.of(rules))
        .build());
    hep.setRoot(plan.get());
    final RelNode after = hep.findBestExp();
    plans.record(testName, "planAfter", RelOptUtil.toString(after));
    assertFalse(expected.isEmpty());
    assertEquals(expected, run(after));
    plans.check(testName);
  }

  private org.apache.calcite.schema.SchemaPlus root() {
    try {
      return connection.unwrap(CalciteConnection.class).getRootSchema();
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private List<String> run(RelNode plan) {
    final List<String> rows = new ArrayList<>();
    // Plans.optimize would ask for the root's own collations too, which a
    // VALUES root has several of.
    final EnumerableRel physical = (EnumerableRel) Programs.standard().run(
        plan.getCluster().getPlanner(), plan,
        plan.getCluster().traitSetOf(EnumerableConvention.INSTANCE), List.of(), List.of());
    for (Object[] row : Plans.run(physical,
        root(), (JavaTypeFactory) b.getTypeFactory(), List.of(), Map.of())) {
      rows.add(Arrays.toString(row));
    }
    rows.sort(Comparator.naturalOrder());
    return rows;
  }

  /** price MIN twice, dist MIN and MAX (never NULL), a constant: price MIN, dist DIFF. */
  @Test void redundantDimensions() throws Exception {
    check(() -> skyline(hotels().projectPlus(b.alias(b.literal(5), "five")).build(), false,
            dim(2, Direction.MIN), dim(2, Direction.MIN), dim(3, Direction.MIN),
            dim(3, Direction.MAX), dim(4, Direction.MAX)),
        SkylineRules.REDUNDANT_DIMENSIONS);
  }

  /** A constant NULL in a MAX item: no row compares; DISTINCT keeps one row per price. */
  @Test void constantNullComparesNothing() throws Exception {
    check(() -> b.push(skyline(hotels()
                .projectPlus(b.alias(b.getRexBuilder().makeNullLiteral(
                    b.getTypeFactory().createSqlType(SqlTypeName.INTEGER)), "nothing"))
                .build(), true, dim(2, Direction.MIN), dim(4, Direction.MAX)))
            .project(b.field(2)).build(),
        SkylineRules.REDUNDANT_DIMENSIONS, SkylineRules.ALL_DIFF);
  }

  /** The same MIN/MAX dimensions, DIFF fields nested: the skyline with fewer DIFF fields. */
  @Test void mergeStackedSkylines() throws Exception {
    check(() -> skyline(skyline(hotels().build(), false, dim(2, Direction.MIN),
            dim(3, Direction.MIN)), false, dim(3, Direction.MIN), dim(1, Direction.DIFF),
            dim(2, Direction.MIN)),
        SkylineRules.MERGE);
  }

  /** Different MIN/MAX dimensions: two skylines stay. */
  @Test void noMergeOfOtherDimensions() throws Exception {
    check(() -> skyline(skyline(hotels().build(), false, dim(2, Direction.MIN),
            dim(3, Direction.MIN)), false, dim(3, Direction.MIN)),
        SkylineRules.MERGE);
  }

  /** Only DIFF, no DISTINCT: every row, the input itself. */
  @Test void allDiffIsTheInput() throws Exception {
    check(() -> skyline(hotels().build(), false, dim(1, Direction.DIFF)),
        SkylineRules.ALL_DIFF);
  }

  /** Only DIFF on every field, DISTINCT: DISTINCT. */
  @Test void allDiffDistinctIsDistinct() throws Exception {
    check(() -> skyline(hotels().project(b.field(1)).build(), true, dim(0, Direction.DIFF)),
        SkylineRules.ALL_DIFF);
  }

  /** One MIN item per city: the rows at the city's minimum, and NULL prices. */
  @Test void oneDimensionIsAWindowFilter() throws Exception {
    check(() -> skyline(hotels().build(), false, dim(2, Direction.MIN),
            dim(1, Direction.DIFF)),
        SkylineRules.TO_WINDOW_FILTER);
  }

  /** Below a projection of the compared fields, renumbered; not below a computed one. */
  @Test void belowProjection() throws Exception {
    check(() -> skyline(hotels().project(b.field(3), b.field(2), b.field(0)).build(), false,
            dim(0, Direction.MIN), dim(1, Direction.MIN)),
        SkylineRules.PROJECT_TRANSPOSE);
  }

  @Test void notBelowAComputedField() throws Exception {
    check(() -> skyline(hotels().project(b.call(org.apache.calcite.sql.fun.SqlStdOperatorTable
                .PLUS, b.field(3), b.field(2)), b.field(0)).build(), false,
            dim(0, Direction.MIN)),
        SkylineRules.PROJECT_TRANSPOSE);
  }

  /** A LEFT join on a unique key of the right keeps each left row once: below it. */
  @Test void belowLeftJoinOnUniqueKey() throws Exception {
    check(() -> skyline(b.push(hotels().build())
            .push(hotels().aggregate(b.groupKey(0), b.count()).build())
            .join(JoinRelType.LEFT, b.equals(b.field(2, 0, 0), b.field(2, 1, 0))).build(),
            false, dim(2, Direction.MIN), dim(3, Direction.MIN)),
        SkylineRules.JOIN_TRANSPOSE);
  }

  /** An inner join may remove rows: the skyline stays above it. */
  @Test void notBelowInnerJoin() throws Exception {
    check(() -> skyline(b.push(hotels().build())
            .push(hotels().filter(b.isNotNull(b.field(1)))
                .aggregate(b.groupKey(0), b.count()).build())
            .join(JoinRelType.INNER, b.equals(b.field(2, 0, 0), b.field(2, 1, 0))).build(),
            false, dim(2, Direction.MIN), dim(3, Direction.MIN)),
        SkylineRules.JOIN_TRANSPOSE);
  }

  /** UNION ALL: a copy of the skyline on each input, once. */
  @Test void preFilterBelowUnionAll() throws Exception {
    check(() -> skyline(b.push(hotels().filter(b.equals(b.field(1), b.literal("oslo"))).build())
            .push(hotels().filter(b.isDistinctFrom(b.field(1), b.literal("oslo"))).build())
            .union(true).build(), false, dim(2, Direction.MIN), dim(3, Direction.MIN)),
        SkylineRules.UNION_TRANSPOSE);
  }
}
