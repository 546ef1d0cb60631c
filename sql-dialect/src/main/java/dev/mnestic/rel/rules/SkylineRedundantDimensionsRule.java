package dev.mnestic.rel.rules;

import dev.mnestic.rel.LogicalSkyline;
import dev.mnestic.rel.MnesticRelBuilder;
import dev.mnestic.rel.Skyline;
import dev.mnestic.rel.Skyline.Dimension;
import dev.mnestic.runtime.Skylines.Direction;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Drops the dimensions of a {@link Skyline} that cannot change its result:
 *
 * <ol>
 *   <li>a repeated dimension;
 *   <li>a field the input holds constant (its pulled-up predicates say so):
 *       all rows are equal on it. A constant NULL in a MIN or MAX dimension
 *       makes every row incomparable, so every row is kept: each dimension
 *       becomes DIFF, which keeps every row and leaves DISTINCT its meaning;
 *   <li>on a field that is never NULL, MIN and MAX together, or either with
 *       DIFF, only let equal values compare: DIFF says that alone.
 * </ol>
 * With no dimension left, the skyline is its input (with DISTINCT, one row).
 */
public final class SkylineRedundantDimensionsRule extends RelRule<SkylineRuleConfig> {
  /** Matches any {@link LogicalSkyline}. */
  public static final SkylineRuleConfig DEFAULT = SkylineRuleConfig
      .of("SkylineRedundantDimensionsRule", SkylineRedundantDimensionsRule::new)
      .withOperandSupplier(b -> b.operand(LogicalSkyline.class).anyInputs());

  SkylineRedundantDimensionsRule(SkylineRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final Skyline skyline = call.rel(0);
    final RelNode input = skyline.getInput();
    final List<Dimension> kept = reduce(skyline, call.getMetadataQuery().getPulledUpPredicates(
        input), input);
    if (kept.equals(skyline.dimensions)) {
      return;
    }
    if (!kept.isEmpty()) {
      call.transformTo(
          MnesticRelBuilder.skyline(call.builder().push(input), kept, skyline.distinct).build());
    } else if (skyline.distinct) {
      call.transformTo(call.builder().push(input).limit(0, 1).build());
    } else {
      call.transformTo(input);
    }
  }

  private static List<Dimension> reduce(Skyline skyline, RelOptPredicateList predicates,
      RelNode input) {
    // 1. The directions of each field that is not constant.
    final Map<Integer, Set<Direction>> directions = new HashMap<>();
    boolean nullOrdered = false;
    for (Dimension d : skyline.dimensions) {
      final RexNode constant = predicates.constantMap.get(
          input.getCluster().getRexBuilder().makeInputRef(input, d.field()));
      if (constant == null) {
        directions.computeIfAbsent(d.field(), f -> EnumSet.noneOf(Direction.class))
            .add(d.direction());
      } else {
        nullOrdered |= RexLiteral.isNullLiteral(constant) && d.direction() != Direction.DIFF;
      }
    }
    // 2. The dimensions that remain, in the order written.
    final Set<Dimension> kept = new LinkedHashSet<>();
    for (Dimension d : skyline.dimensions) {
      final Set<Direction> set = directions.get(d.field());
      if (set == null) {
        continue;
      }
      final boolean nullable =
          input.getRowType().getFieldList().get(d.field()).getType().isNullable();
      kept.add(nullOrdered || !nullable && set.size() > 1
          ? new Dimension(d.field(), Direction.DIFF) : d);
    }
    return List.copyOf(kept);
  }
}
