package dev.mnestic.rel;

import dev.mnestic.runtime.GenericJoinRun;
import dev.mnestic.runtime.MnesticMethod;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link GenericJoin} in Enumerable code: one call into {@link GenericJoinRun}. */
public final class EnumerableGenericJoin extends GenericJoin implements EnumerableRel {
  EnumerableGenericJoin(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs,
      GenericJoinRun.Spec spec) {
    super(cluster, traits, inputs, spec);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableGenericJoin(getCluster(), traitSet, inputs, spec);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return GenericJoinRun.run(root, new Enumerable[] {<input i as Object[] rows>, ...},
    //     <spec, stashed>);
    final BlockBuilder builder = new BlockBuilder();
    return RowsCall.result(this, implementor, pref, builder,
        Expressions.call(MnesticMethod.GENERIC_JOIN.method, implementor.getRootExpression(),
            Expressions.newArrayInit(Enumerable.class,
                RowsCall.inputs(this, implementor, builder)),
            implementor.stash(spec, GenericJoinRun.Spec.class)));
  }
}
