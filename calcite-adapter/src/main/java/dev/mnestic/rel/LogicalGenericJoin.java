package dev.mnestic.rel;

import dev.mnestic.runtime.GenericJoinRun;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link GenericJoin} not yet implemented in a convention. */
public final class LogicalGenericJoin extends GenericJoin {
  private LogicalGenericJoin(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs,
      GenericJoinRun.Spec spec) {
    super(cluster, traits, inputs, spec);
  }

  public static LogicalGenericJoin create(RelOptCluster cluster, List<RelNode> inputs,
      GenericJoinRun.Spec spec) {
    return new LogicalGenericJoin(cluster, cluster.traitSetOf(Convention.NONE), inputs, spec);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LogicalGenericJoin(getCluster(), traitSet, inputs, spec);
  }
}
