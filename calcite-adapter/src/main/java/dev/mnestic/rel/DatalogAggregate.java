package dev.mnestic.rel;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * CozoDB's aggregation of a rule head. Column i of the input is a grouping
 * key when {@code aggregations.get(i)} is null, otherwise the input of that
 * aggregation (count, sum, min, collect, ...; a
 * {@link dev.mnestic.value.Aggregators#spec spec}). With aggregations, the
 * input has one column more, the last: each row's position in CozoDB's
 * evaluation order (a value in {@link dev.mnestic.value.Values}' order; null
 * where the aggregations cannot tell the order). One output row per group,
 * the columns in the input's order without the last; the values a group's
 * aggregations see form a bag, one per input row, fed in that order, merged
 * with the meet forms when the head is of
 * {@link dev.mnestic.value.Aggregators#meetKind meet kind}. With no
 * aggregation at all, the distinct rows of the input.
 */
public abstract class DatalogAggregate extends SingleRel {
  public final List<String> aggregations;

  protected DatalogAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      List<String> aggregations) {
    super(cluster, traits, input);
    final boolean aggregated = aggregations.stream().anyMatch(a -> a != null);
    if (aggregations.size() + (aggregated ? 1 : 0) != input.getRowType().getFieldCount()) {
      throw new IllegalArgumentException("one aggregation (or null) per input column"
          + (aggregated ? " but the last" : ""));
    }
    this.aggregations = Collections.unmodifiableList(new ArrayList<>(aggregations));
  }

  @Override protected RelDataType deriveRowType() {
    final List<RelDataTypeField> fields = getInput().getRowType().getFieldList();
    return getCluster().getTypeFactory().createStructType(
        fields.subList(0, aggregations.size()));
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("aggregations", aggregations);
  }
}
