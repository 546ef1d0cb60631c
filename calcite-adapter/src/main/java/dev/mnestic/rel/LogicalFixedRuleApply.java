package dev.mnestic.rel;

import dev.mnestic.runtime.FixedRuleRun;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link FixedRuleApply} not yet implemented in a convention. */
public final class LogicalFixedRuleApply extends FixedRuleApply {
  private LogicalFixedRuleApply(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs,
      FixedRuleRun.Spec spec) {
    super(cluster, traits, inputs, spec);
  }

  public static LogicalFixedRuleApply create(RelOptCluster cluster, List<RelNode> inputs,
      FixedRuleRun.Spec spec) {
    return new LogicalFixedRuleApply(cluster, cluster.traitSetOf(Convention.NONE), inputs, spec);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LogicalFixedRuleApply(getCluster(), traitSet, inputs, spec);
  }
}
