package dev.mnestic.rel;

import dev.mnestic.value.HeadAggregation;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link DatalogAggregate} not yet implemented in a convention. */
public final class LogicalDatalogAggregate extends DatalogAggregate {
  private LogicalDatalogAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      HeadAggregation aggregations) {
    super(cluster, traits, input, aggregations);
  }

  public static LogicalDatalogAggregate create(RelNode input, HeadAggregation aggregations) {
    return new LogicalDatalogAggregate(input.getCluster(),
        input.getCluster().traitSetOf(Convention.NONE), input, aggregations);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LogicalDatalogAggregate(getCluster(), traitSet, sole(inputs), aggregations);
  }
}
