package dev.mnestic.rel;

import dev.mnestic.runtime.SearchRun;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link SearchApply} not yet implemented in a convention. */
public final class LogicalSearchApply extends SearchApply {
  private LogicalSearchApply(RelOptCluster cluster, RelTraitSet traits, RelNode outer,
      RelNode relation, SearchRun.Spec spec, int binds) {
    super(cluster, traits, outer, relation, spec, binds);
  }

  public static LogicalSearchApply create(RelNode outer, RelNode relation, SearchRun.Spec spec,
      int binds) {
    return new LogicalSearchApply(outer.getCluster(),
        outer.getCluster().traitSetOf(Convention.NONE), outer, relation, spec, binds);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LogicalSearchApply(getCluster(), traitSet, inputs.get(0), inputs.get(1), spec,
        binds);
  }
}
