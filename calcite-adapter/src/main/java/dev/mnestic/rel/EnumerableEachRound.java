package dev.mnestic.rel;

import dev.mnestic.runtime.MnesticMethod;
import dev.mnestic.runtime.Rounds;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.function.Function0;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;

import java.util.List;

/**
 * The iterative input of a {@code WITH RECURSIVE} query's RepeatUnion,
 * built afresh for each round: one call into {@link Rounds#eachRound}.
 *
 * <p>Calcite's Enumerable code runs some operators when the plan is bound,
 * not when their rows are read: a window (EnumerableWindow) and a grouping
 * (EnumerableAggregate's {@code groupBy}, so also DISTINCT) read their whole
 * input there. Under Calcite's own RepeatUnion that happens once, before the
 * seed has filled the working table, so such a recursive step sees no rows
 * and the recursion stops after the seed: a silent wrong answer. Built per
 * round, the step reads the rows the round before it wrote, as PostgreSQL's
 * working table. EXPLAIN shows this node above each recursive step.
 */
public final class EnumerableEachRound extends SingleRel implements EnumerableRel {
  EnumerableEachRound(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
    super(cluster, traits, input);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableEachRound(getCluster(), traitSet, sole(inputs));
  }

  // Expressions.lambda(Function0.class, ...): a class literal of a generic type is raw.
  @SuppressWarnings("unchecked")
  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return Rounds.eachRound(() -> { <input's code> });
    final Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    final BlockBuilder builder = new BlockBuilder();
    builder.add(Expressions.return_(null, Expressions.call(MnesticMethod.EACH_ROUND.method,
        Expressions.lambda(Function0.class, input.block))));
    return implementor.result(input.physType, builder.toBlock());
  }
}
