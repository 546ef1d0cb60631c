package dev.mnestic.rel;

import dev.mnestic.runtime.Sketches.Summary;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link SketchAggregate} not yet implemented in a convention. */
public final class LogicalSketchAggregate extends SketchAggregate {
  private LogicalSketchAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int timeColumn, int valueColumn, List<Summary> summaries) {
    super(cluster, traits, input, timeColumn, valueColumn, summaries);
  }

  public static LogicalSketchAggregate create(RelNode input, int timeColumn, int valueColumn,
      List<Summary> summaries) {
    return new LogicalSketchAggregate(input.getCluster(),
        input.getCluster().traitSetOf(Convention.NONE), input, timeColumn, valueColumn, summaries);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LogicalSketchAggregate(getCluster(), traitSet, sole(inputs), timeColumn,
        valueColumn, summaries);
  }
}
