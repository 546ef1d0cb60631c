package dev.mnestic.rel;

import dev.mnestic.runtime.MnesticMethod;
import dev.mnestic.runtime.SearchRun;

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

/** {@link SearchApply} in Enumerable code: one call into {@link SearchRun}. */
public final class EnumerableSearchApply extends SearchApply implements EnumerableRel {
  EnumerableSearchApply(RelOptCluster cluster, RelTraitSet traits, RelNode outer,
      RelNode relation, SearchRun.Spec spec, int binds) {
    super(cluster, traits, outer, relation, spec, binds);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableSearchApply(getCluster(), traitSet, inputs.get(0), inputs.get(1), spec,
        binds);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return SearchRun.run(root, <left as Object[] rows>, <right as Object[] rows>, <spec>);
    final BlockBuilder builder = new BlockBuilder();
    final Expression[] rows = new Expression[2];
    for (int i = 0; i < 2; i++) {
      final Result input = implementor.visitChild(this, i, (EnumerableRel) getInputs().get(i),
          Prefer.ARRAY);
      rows[i] = builder.append("rows" + i, input.physType.convertTo(
          builder.append("input" + i, input.block), JavaRowFormat.ARRAY));
    }
    final Expression out = builder.append("out",
        Expressions.call(MnesticMethod.SEARCH.method, implementor.getRootExpression(), rows[0],
            rows[1], implementor.stash(spec, SearchRun.Spec.class)));
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        pref.prefer(JavaRowFormat.ARRAY));
    final PhysType arrays = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY, false);
    builder.add(Expressions.return_(null, arrays.convertTo(out, physType.getFormat())));
    return implementor.result(physType, builder.toBlock());
  }
}
