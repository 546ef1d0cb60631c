package dev.mnestic.rel.rules;

import dev.mnestic.rel.LogicalSkyline;
import dev.mnestic.rel.Skyline;
import dev.mnestic.rel.Skyline.Dimension;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.tools.RelBuilder;

/**
 * A {@link Skyline} with only DIFF dimensions compares no rows, so it keeps
 * every row: it is its input; with DISTINCT over every field, it is
 * DISTINCT. (With DISTINCT over some fields it stays a skyline, which keeps
 * one row of each set by hashing.)
 */
public final class SkylineAllDiffRule extends RelRule<SkylineRuleConfig> {
  /** Matches a {@link LogicalSkyline} whose dimensions are all DIFF, with DISTINCT over every field or none. */
  public static final SkylineRuleConfig DEFAULT = SkylineRuleConfig
      .of("SkylineAllDiffRule", SkylineAllDiffRule::new)
      .withOperandSupplier(b -> b.operand(LogicalSkyline.class)
          .predicate(s -> s.orderedDimensionCount() == 0 && (!s.distinct
              || s.dimensions.stream().map(Dimension::field).distinct().count()
                  == s.getRowType().getFieldCount()))
          .anyInputs());

  SkylineAllDiffRule(SkylineRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final Skyline skyline = call.rel(0);
    final RelBuilder b = call.builder().push(skyline.getInput());
    call.transformTo(skyline.distinct ? b.distinct().build() : b.build());
  }
}
