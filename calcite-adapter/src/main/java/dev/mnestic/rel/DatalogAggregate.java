package dev.mnestic.rel;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * CozoDB's aggregation of a rule head. Column i of the input is a grouping
 * key when {@code aggregations.get(i)} is null, otherwise the input of that
 * aggregation (count, sum, min, collect, ...; see
 * {@link dev.mnestic.value.Aggregators}). One output row per group, the
 * columns in the input's order; the values a group's aggregations see form
 * a bag, fed in CozoDB's value order of the input rows.
 */
public abstract class DatalogAggregate extends SingleRel {
  public final List<String> aggregations;

  protected DatalogAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      List<String> aggregations) {
    super(cluster, traits, input);
    if (aggregations.size() != input.getRowType().getFieldCount()) {
      throw new IllegalArgumentException("one aggregation (or null) per input column");
    }
    this.aggregations = Collections.unmodifiableList(new ArrayList<>(aggregations));
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("aggregations", aggregations);
  }
}
