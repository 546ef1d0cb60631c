package dev.mnestic.rel;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link Skyline} not yet implemented in a convention. */
public final class LogicalSkyline extends Skyline {
  private LogicalSkyline(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      List<Dimension> dimensions, boolean distinct) {
    super(cluster, traits, input, dimensions, distinct);
  }

  public static LogicalSkyline create(RelNode input, List<Dimension> dimensions,
      boolean distinct) {
    return new LogicalSkyline(input.getCluster(), input.getCluster().traitSetOf(Convention.NONE),
        input, dimensions, distinct);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LogicalSkyline(getCluster(), traitSet, sole(inputs), dimensions, distinct);
  }
}
