package dev.mnestic.rel.rules;

import dev.mnestic.rel.LogicalSkyline;
import dev.mnestic.rel.MnesticRelBuilder;
import dev.mnestic.rel.Skyline;
import dev.mnestic.rel.Skyline.Dimension;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * Pushes a {@link Skyline} whose dimensions are all of one side of a join
 * below the join, when the join keeps each row of that side exactly once:
 * an outer join of that side (LEFT for the left, RIGHT for the right) whose
 * keys on the other side are unique, so no row of that side is removed or
 * duplicated. Each output row then stands for one row of that side, with
 * its values on the dimensions, and the skyline of the output is the join
 * of the side's skyline.
 */
public final class SkylineJoinTransposeRule extends RelRule<SkylineRuleConfig> {
  /** Matches a {@link LogicalSkyline} over a {@link LogicalJoin}. */
  public static final SkylineRuleConfig DEFAULT = SkylineRuleConfig
      .of("SkylineJoinTransposeRule", SkylineJoinTransposeRule::new)
      .withOperandSupplier(b -> b.operand(LogicalSkyline.class)
          .oneInput(b1 -> b1.operand(LogicalJoin.class).anyInputs()));

  SkylineJoinTransposeRule(SkylineRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final Skyline skyline = call.rel(0);
    final Join join = call.rel(1);
    final int leftCount = join.getLeft().getRowType().getFieldCount();
    final JoinInfo keys = join.analyzeCondition();
    final boolean left = skyline.dimensions.stream().allMatch(d -> d.field() < leftCount);
    final boolean right = skyline.dimensions.stream().allMatch(d -> d.field() >= leftCount);
    if (left && join.getJoinType() == JoinRelType.LEFT
        && unique(call, join.getRight(), keys.rightSet())) {
      final RelNode below = MnesticRelBuilder.skyline(call.builder().push(join.getLeft()),
          skyline.dimensions, skyline.distinct).build();
      call.transformTo(join.copy(join.getTraitSet(), List.of(below, join.getRight())));
    } else if (right && join.getJoinType() == JoinRelType.RIGHT
        && unique(call, join.getLeft(), keys.leftSet())) {
      final RelNode below = MnesticRelBuilder.skyline(call.builder().push(join.getRight()),
          skyline.dimensions.stream()
              .map(d -> new Dimension(d.field() - leftCount, d.direction())).toList(),
          skyline.distinct).build();
      call.transformTo(join.copy(join.getTraitSet(), List.of(join.getLeft(), below)));
    }
  }

  private static boolean unique(RelOptRuleCall call, RelNode side, ImmutableBitSet keys) {
    return Boolean.TRUE.equals(call.getMetadataQuery().areColumnsUnique(side, keys));
  }
}
