package dev.mnestic.rel.rules;

import dev.mnestic.rel.LogicalSkyline;
import dev.mnestic.rel.MnesticRelBuilder;
import dev.mnestic.rel.Skyline;
import dev.mnestic.rel.Skyline.Dimension;
import dev.mnestic.runtime.Skylines.Direction;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;

import java.util.Set;
import java.util.stream.Collectors;

/**
 * Merges a {@link Skyline} over a skyline when both have the same MIN and MAX
 * dimensions, the same DISTINCT, and the DIFF fields of one contain the
 * other's: the pair is the skyline with fewer DIFF fields. A row not
 * dominated over the whole input is not dominated within its partition,
 * so a finer skyline over a coarser one keeps everything; and every row a
 * coarser skyline removes is dominated by a row of the coarser skyline
 * (dominance is a strict partial order over finitely many rows), which the
 * finer one kept, so a coarser skyline over a finer one removes the same.
 */
public final class SkylineMergeRule extends RelRule<SkylineRuleConfig> {
  /** Matches a {@link LogicalSkyline} over a {@link LogicalSkyline}. */
  public static final SkylineRuleConfig DEFAULT = SkylineRuleConfig
      .of("SkylineMergeRule", SkylineMergeRule::new)
      .withOperandSupplier(b -> b.operand(LogicalSkyline.class)
          .oneInput(b1 -> b1.operand(LogicalSkyline.class).anyInputs()));

  SkylineMergeRule(SkylineRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final Skyline top = call.rel(0);
    final Skyline bottom = call.rel(1);
    if (top.distinct != bottom.distinct || !ordered(top).equals(ordered(bottom))) {
      return;
    }
    final Set<Integer> topDiff = diff(top);
    final Set<Integer> bottomDiff = diff(bottom);
    final Skyline coarser = bottomDiff.containsAll(topDiff) ? top
        : topDiff.containsAll(bottomDiff) ? bottom : null;
    if (coarser != null) {
      call.transformTo(MnesticRelBuilder.skyline(call.builder().push(bottom.getInput()),
          coarser.dimensions, coarser.distinct).build());
    }
  }

  private static Set<Dimension> ordered(Skyline s) {
    return s.dimensions.stream().filter(d -> d.direction() != Direction.DIFF)
        .collect(Collectors.toSet());
  }

  private static Set<Integer> diff(Skyline s) {
    return s.dimensions.stream().filter(d -> d.direction() == Direction.DIFF)
        .map(Dimension::field).collect(Collectors.toSet());
  }
}
