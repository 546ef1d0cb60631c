package dev.mnestic.rel;

import dev.mnestic.runtime.MnesticMethod;
import dev.mnestic.runtime.Sketches.Summary;

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

/** {@link SketchAggregate} in Enumerable code: one call into {@link dev.mnestic.runtime.Sketches}. */
public final class EnumerableSketchAggregate extends SketchAggregate implements EnumerableRel {
  EnumerableSketchAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int timeColumn, int valueColumn, List<Summary> summaries) {
    super(cluster, traits, input, timeColumn, valueColumn, summaries);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableSketchAggregate(getCluster(), traitSet, sole(inputs), timeColumn,
        valueColumn, summaries);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return Sketches.windows(root, <input as Object[] rows>, timeColumn, valueColumn,
    //     <stashed summaries>);
    final BlockBuilder builder = new BlockBuilder();
    final Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
    final Expression rows = builder.append("rows",
        input.physType.convertTo(builder.append("input", input.block), JavaRowFormat.ARRAY));
    final Expression windows = builder.append("windows",
        Expressions.call(MnesticMethod.SKETCH_WINDOWS.method, implementor.getRootExpression(),
            rows, Expressions.constant(timeColumn), Expressions.constant(valueColumn),
            implementor.stash(summaries, List.class)));
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        pref.prefer(JavaRowFormat.ARRAY));
    final PhysType arrays = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY, false);
    builder.add(Expressions.return_(null, arrays.convertTo(windows, physType.getFormat())));
    return implementor.result(physType, builder.toBlock());
  }
}
