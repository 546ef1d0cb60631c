package dev.mnestic.rel.rules;

import dev.mnestic.rel.LogicalSkyline;
import dev.mnestic.rel.MnesticRelBuilder;
import dev.mnestic.rel.Skyline;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.tools.RelBuilder;

import java.util.List;

/**
 * Puts a copy of a {@link Skyline} over UNION ALL below it, on each input,
 * as a pre-filter: a row its own input's rows dominate is dominated in the
 * union, so dropping it early changes nothing, and the skyline above then
 * compares only the inputs' skylines. Fires once: not when every input is
 * already such a skyline.
 */
public final class SkylineUnionTransposeRule extends RelRule<SkylineRuleConfig> {
  /** Matches a {@link LogicalSkyline} over a UNION ALL. */
  public static final SkylineRuleConfig DEFAULT = SkylineRuleConfig
      .of("SkylineUnionTransposeRule", SkylineUnionTransposeRule::new)
      .withOperandSupplier(b -> b.operand(LogicalSkyline.class)
          .oneInput(b1 -> b1.operand(LogicalUnion.class).predicate(u -> u.all).anyInputs()));

  SkylineUnionTransposeRule(SkylineRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final Skyline skyline = call.rel(0);
    final Union union = call.rel(1);
    if (union.getInputs().stream().allMatch(i -> same(skyline, i.stripped()))) {
      return;
    }
    final RelBuilder b = call.builder();
    final List<RelNode> filtered = union.getInputs().stream()
        .map(i -> MnesticRelBuilder.skyline(b.push(i), skyline.dimensions, skyline.distinct)
            .build())
        .toList();
    b.push(union.copy(union.getTraitSet(), filtered));
    call.transformTo(
        MnesticRelBuilder.skyline(b, skyline.dimensions, skyline.distinct).build());
  }

  private static boolean same(Skyline skyline, RelNode input) {
    return input instanceof Skyline s && s.dimensions.equals(skyline.dimensions)
        && s.distinct == skyline.distinct;
  }
}
