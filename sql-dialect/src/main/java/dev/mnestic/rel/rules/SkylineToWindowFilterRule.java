package dev.mnestic.rel.rules;

import dev.mnestic.rel.LogicalSkyline;
import dev.mnestic.rel.Skyline;
import dev.mnestic.rel.Skyline.Dimension;
import dev.mnestic.runtime.Skylines.Direction;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;

import java.util.List;

/**
 * A {@link Skyline} of one MIN or MAX dimension x (and any DIFF ones),
 * without DISTINCT, keeps the rows holding their partition's best x and the
 * rows whose x is NULL:
 * <pre>{@code
 * SELECT * FROM (SELECT *, MIN(x) OVER (PARTITION BY diff) AS best)
 * WHERE x IS NULL OR x = best
 * }</pre>
 */
public final class SkylineToWindowFilterRule extends RelRule<SkylineRuleConfig> {
  /** Matches a {@link LogicalSkyline} with one MIN or MAX dimension, without DISTINCT. */
  public static final SkylineRuleConfig DEFAULT = SkylineRuleConfig
      .of("SkylineToWindowFilterRule", SkylineToWindowFilterRule::new)
      .withOperandSupplier(b -> b.operand(LogicalSkyline.class)
          .predicate(s -> s.orderedDimensionCount() == 1 && !s.distinct).anyInputs());

  SkylineToWindowFilterRule(SkylineRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final Skyline skyline = call.rel(0);
    final RelBuilder b = call.builder().push(skyline.getInput());
    final int fieldCount = skyline.getRowType().getFieldCount();
    final Dimension x = skyline.dimensions.stream()
        .filter(d -> d.direction() != Direction.DIFF).findFirst().orElseThrow();
    final List<RexNode> partition = skyline.dimensions.stream()
        .filter(d -> d.direction() == Direction.DIFF)
        .map(d -> (RexNode) b.field(d.field())).distinct().toList();
    b.projectPlus(b.aggregateCall(x.direction() == Direction.MIN
            ? SqlStdOperatorTable.MIN : SqlStdOperatorTable.MAX, b.field(x.field()))
        .over().partitionBy(partition).toRex());
    b.filter(b.or(b.isNull(b.field(x.field())),
        b.equals(b.field(x.field()), b.field(fieldCount))));
    call.transformTo(b.project(b.fields().subList(0, fieldCount)).build());
  }
}
