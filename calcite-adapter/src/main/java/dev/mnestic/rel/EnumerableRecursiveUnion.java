package dev.mnestic.rel;

import dev.mnestic.value.HeadAggregation;

import dev.mnestic.runtime.MnesticMethod;
import dev.mnestic.runtime.RowTable;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.ArrayList;
import java.util.List;


/** {@link RecursiveUnion} in Enumerable code: one call into {@link dev.mnestic.runtime.SemiNaive}. */
public final class EnumerableRecursiveUnion extends RecursiveUnion implements EnumerableRel {
  EnumerableRecursiveUnion(RelOptCluster cluster, RelTraitSet traits,
      List<RelNode> seeds, List<RelNode> iteratives, List<RelOptTable> fullTables,
      List<RelOptTable> deltaTables, List<HeadAggregation> aggregations, int maxIterations) {
    super(cluster, traits, seeds, iteratives, fullTables, deltaTables, aggregations,
        maxIterations);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    final int n = size();
    return new EnumerableRecursiveUnion(getCluster(), traitSet, inputs.subList(0, n),
        inputs.subList(n, 2 * n), fullTables, deltaTables, aggregations, maxIterations);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return SemiNaive.fixpoint(root, new Enumerable[] {<seeds>},
    //     new Enumerable[] {<iteratives>}, new RowTable[] {<full>},
    //     new RowTable[] {<delta>}, maxIterations,
    //     new HeadAggregation[] {<aggregations, stashed, or null for set semantics>});
    final BlockBuilder builder = new BlockBuilder();
    final List<Expression> parts = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      final Result r = implementor.visitChild(this, i, (EnumerableRel) inputs.get(i), Prefer.ARRAY);
      parts.add(builder.append("part" + i,
          r.physType.convertTo(builder.append("input" + i, r.block), JavaRowFormat.ARRAY)));
    }
    final int n = size();
    final Expression rows = builder.append("rows",
            Expressions.call(MnesticMethod.SEMI_NAIVE_FIXPOINT.method,
                implementor.getRootExpression(),
                Expressions.newArrayInit(Enumerable.class, parts.subList(0, n)),
                Expressions.newArrayInit(Enumerable.class, parts.subList(n, 2 * n)),
                tables(implementor, fullTables),
                tables(implementor, deltaTables),
                Expressions.constant(maxIterations),
                Expressions.newArrayInit(HeadAggregation.class, aggregations.stream()
                    .map(a -> a == null
                        ? Expressions.constant(null, HeadAggregation.class)
                        : implementor.stash(a, HeadAggregation.class))
                    .toList())));
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        pref.prefer(JavaRowFormat.ARRAY));
    // Object[] rows even for one column (of(..., true) would make that SCALAR).
    final PhysType arrays = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY, false);
    builder.add(Expressions.return_(null, arrays.convertTo(rows, physType.getFormat())));
    return implementor.result(physType, builder.toBlock());
  }

  private static Expression tables(EnumerableRelImplementor implementor,
      List<RelOptTable> tables) {
    final List<Expression> stashed = new ArrayList<>();
    for (RelOptTable t : tables) {
      stashed.add(implementor.stash(RowTable.of(t), RowTable.class));
    }
    return Expressions.newArrayInit(RowTable.class, stashed);
  }

}
