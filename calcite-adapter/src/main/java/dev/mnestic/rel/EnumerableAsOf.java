package dev.mnestic.rel;

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

/** {@link AsOf} in Enumerable code: one call into {@link dev.mnestic.runtime.Validities}. */
public final class EnumerableAsOf extends AsOf implements EnumerableRel {
  EnumerableAsOf(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<Integer> keys,
      int validity, long at) {
    super(cluster, traits, input, keys, validity, at);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableAsOf(getCluster(), traitSet, sole(inputs), keys, validity, at);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return Validities.asOf(<input as Object[] rows>, <keys, stashed>, validity, at);
    final BlockBuilder builder = new BlockBuilder();
    final Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
    final Expression rows = builder.append("rows",
        input.physType.convertTo(builder.append("input", input.block), JavaRowFormat.ARRAY));
    final Expression current = builder.append("current",
        Expressions.call(MnesticMethod.AS_OF.method, rows,
            implementor.stash(keyArray(), int[].class), Expressions.constant(validity),
            Expressions.constant(at)));
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        pref.prefer(JavaRowFormat.ARRAY));
    final PhysType arrays = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY, false);
    builder.add(Expressions.return_(null, arrays.convertTo(current, physType.getFormat())));
    return implementor.result(physType, builder.toBlock());
  }
}
