package dev.mnestic.rel;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link AsOf} not yet implemented in a convention. */
public final class LogicalAsOf extends AsOf {
  private LogicalAsOf(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      List<Integer> keys, int validity, long at) {
    super(cluster, traits, input, keys, validity, at);
  }

  public static LogicalAsOf create(RelNode input, List<Integer> keys, int validity, long at) {
    return new LogicalAsOf(input.getCluster(), input.getCluster().traitSetOf(Convention.NONE),
        input, keys, validity, at);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LogicalAsOf(getCluster(), traitSet, sole(inputs), keys, validity, at);
  }
}
