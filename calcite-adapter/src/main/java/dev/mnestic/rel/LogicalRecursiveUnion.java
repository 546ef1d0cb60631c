package dev.mnestic.rel;

import dev.mnestic.value.HeadAggregation;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;

import java.util.List;

/** {@link RecursiveUnion} not yet implemented in a convention. */
public final class LogicalRecursiveUnion extends RecursiveUnion {
  private LogicalRecursiveUnion(RelOptCluster cluster, RelTraitSet traits,
      List<RelNode> seeds, List<RelNode> iteratives, List<RelOptTable> fullTables,
      List<RelOptTable> deltaTables, List<HeadAggregation> aggregations, int maxIterations) {
    super(cluster, traits, seeds, iteratives, fullTables, deltaTables, aggregations,
        maxIterations);
  }

  /** A recursive union; see {@link RecursiveUnion#aggregations}. */
  public static LogicalRecursiveUnion create(List<RelNode> seeds, List<RelNode> iteratives,
      List<RelOptTable> fullTables, List<RelOptTable> deltaTables,
      List<HeadAggregation> aggregations, int maxIterations) {
    final RelOptCluster cluster = seeds.get(0).getCluster();
    return new LogicalRecursiveUnion(cluster, cluster.traitSetOf(Convention.NONE),
        seeds, iteratives, fullTables, deltaTables, aggregations, maxIterations);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    final int n = size();
    return new LogicalRecursiveUnion(getCluster(), traitSet, inputs.subList(0, n),
        inputs.subList(n, 2 * n), fullTables, deltaTables, aggregations, maxIterations);
  }
}
