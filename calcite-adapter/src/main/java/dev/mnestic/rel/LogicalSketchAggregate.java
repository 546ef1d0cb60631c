package dev.mnestic.rel;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link SketchAggregate} not yet implemented in a convention. */
public final class LogicalSketchAggregate extends SketchAggregate {
  private LogicalSketchAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int timeColumn, int valueColumn, Family family, double parameter, long width, long step,
      long subWidth, List<Double> phis) {
    super(cluster, traits, input, timeColumn, valueColumn, family, parameter, width, step,
        subWidth, phis);
  }

  public static LogicalSketchAggregate create(RelNode input, int timeColumn, int valueColumn,
      Family family, double parameter, long width, long step, long subWidth, List<Double> phis) {
    return new LogicalSketchAggregate(input.getCluster(),
        input.getCluster().traitSetOf(Convention.NONE), input, timeColumn, valueColumn, family,
        parameter, width, step, subWidth, phis);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LogicalSketchAggregate(getCluster(), traitSet, sole(inputs), timeColumn,
        valueColumn, family, parameter, width, step, subWidth, phis);
  }
}
