package dev.mnestic.rel;

import dev.mnestic.value.HeadAggregation;

import dev.mnestic.runtime.MnesticMethod;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link DatalogAggregate} in Enumerable code: one call into {@link dev.mnestic.runtime.Aggregation}. */
public final class EnumerableDatalogAggregate extends DatalogAggregate implements EnumerableRel {
  EnumerableDatalogAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      HeadAggregation aggregations) {
    super(cluster, traits, input, aggregations);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableDatalogAggregate(getCluster(), traitSet, sole(inputs), aggregations);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return Aggregation.group(<input as Object[] rows>, <aggregations, stashed>);
    final BlockBuilder builder = new BlockBuilder();
    final Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
    final Expression rows = builder.append("rows",
        input.physType.convertTo(builder.append("input", input.block), JavaRowFormat.ARRAY));
    final Expression grouped = builder.append("grouped",
        Expressions.call(MnesticMethod.DATALOG_AGGREGATE.method,
            rows, implementor.stash(aggregations, HeadAggregation.class)));
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        pref.prefer(JavaRowFormat.ARRAY));
    final PhysType arrays = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY, false);
    builder.add(Expressions.return_(null, arrays.convertTo(grouped, physType.getFormat())));
    return implementor.result(physType, builder.toBlock());
  }
}
