package dev.mnestic.rel;

import dev.mnestic.runtime.IndexJoinRun;
import dev.mnestic.runtime.MnesticMethod;
import dev.mnestic.store.EnumerableStoreScan;
import dev.mnestic.store.StoreReads;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.ArrayList;
import java.util.List;

/** {@link IndexJoin} in Enumerable code: one call into {@link IndexJoinRun}. */
public final class EnumerableIndexJoin extends IndexJoin implements EnumerableRel {
  EnumerableIndexJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode table,
      IndexJoinRun.Spec spec) {
    super(cluster, traits, left, table, spec);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableIndexJoin(getCluster(), traitSet, inputs.get(0), inputs.get(1), spec);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return IndexJoinRun.join(root, <left as Object[] rows>, <table as Object[] rows>,
    //     new StoreReads.Read[] {<how the table's columns are read>}, <spec>);
    final BlockBuilder builder = new BlockBuilder();
    final List<Expression> rows = RowsCall.inputs(this, implementor, builder);
    final List<Expression> reads = new ArrayList<>();
    for (StoreReads.Read read : EnumerableStoreScan.reads(implementor.getTypeFactory(),
        getRight().getRowType())) {
      reads.add(Expressions.constant(read));
    }
    return RowsCall.result(this, implementor, pref, builder,
        Expressions.call(MnesticMethod.INDEX_JOIN.method, implementor.getRootExpression(),
            rows.get(0), rows.get(1), Expressions.newArrayInit(StoreReads.Read.class, reads),
            implementor.stash(spec, IndexJoinRun.Spec.class)));
  }
}
