package dev.mnestic.rel;

import dev.mnestic.runtime.IndexJoinRun;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link IndexJoin} not yet implemented in a convention. */
public final class LogicalIndexJoin extends IndexJoin {
  private LogicalIndexJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left,
      RelNode table, IndexJoinRun.Spec spec) {
    super(cluster, traits, left, table, spec);
  }

  public static LogicalIndexJoin create(RelNode left, RelNode table, IndexJoinRun.Spec spec) {
    return new LogicalIndexJoin(left.getCluster(), left.getCluster().traitSetOf(Convention.NONE),
        left, table, spec);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LogicalIndexJoin(getCluster(), traitSet, inputs.get(0), inputs.get(1), spec);
  }
}
