package dev.mnestic.rel;

import dev.mnestic.runtime.MnesticMethod;
import dev.mnestic.runtime.Skylines;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

import java.util.List;

/**
 * {@link Skyline} in Enumerable code: one call into {@link Skylines#skyline},
 * with the {@link Skylines.Algorithm} chosen by the number of MIN and MAX
 * dimensions. EXPLAIN shows it, {@code prefilter=[less]} where the input is
 * read through LESS's elimination filter (which drops most rows of a small
 * skyline as they are read, and turns itself off where it drops few), and
 * {@code partitions=[hash]} where DIFF items split the rows (partitions by
 * hashing their DIFF values, so DIFF needs equality only, no order).
 */
public final class EnumerableSkyline extends Skyline implements EnumerableRel {
  EnumerableSkyline(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      List<Dimension> dimensions, boolean distinct) {
    super(cluster, traits, input, dimensions, distinct);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableSkyline(getCluster(), traitSet, sole(inputs), dimensions, distinct);
  }

  public Skylines.Algorithm algorithm() {
    return Skylines.Algorithm.forDimensions(orderedDimensionCount());
  }

  /** Whether the input is read through LESS's elimination filter ({@link Skylines#prefilters}). */
  public boolean prefilter() {
    return Skylines.prefilters(orderedDimensionCount(), dimensions.size());
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        .itemIf("prefilter", "less", prefilter())
        .item("algorithm", algorithm().toString())
        .itemIf("partitions", "hash", orderedDimensionCount() < dimensions.size());
  }

  /** n log n for sorting, n more for hashing DIFF partitions. */
  @Override public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    final double n = mq.getRowCount(getInput());
    final double cpu = n * Math.max(1, Math.log(Math.max(n, 2))) * dimensions.size();
    return planner.getCostFactory().makeCost(n, cpu, 0);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return Skylines.skyline(<input as Object[] rows>, new int[] {<fields>},
    //     new Skylines.Direction[] {<directions>}, <distinct>, Skylines.Algorithm.<algorithm>,
    //     <prefilter>);
    final BlockBuilder builder = new BlockBuilder();
    final Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
    final Expression rows = builder.append("rows",
        input.physType.convertTo(builder.append("input", input.block), JavaRowFormat.ARRAY));
    final Expression skyline = builder.append("skyline",
        Expressions.call(MnesticMethod.SKYLINE.method, rows,
            Expressions.newArrayInit(int.class, dimensions.stream()
                .map(d -> (Expression) Expressions.constant(d.field())).toList()),
            Expressions.newArrayInit(Skylines.Direction.class, dimensions.stream()
                .map(d -> (Expression) Expressions.constant(d.direction())).toList()),
            Expressions.constant(distinct),
            Expressions.constant(algorithm()),
            Expressions.constant(prefilter())));
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        pref.prefer(JavaRowFormat.ARRAY));
    final PhysType arrays = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY, false);
    builder.add(Expressions.return_(null, arrays.convertTo(skyline, physType.getFormat())));
    return implementor.result(physType, builder.toBlock());
  }
}
