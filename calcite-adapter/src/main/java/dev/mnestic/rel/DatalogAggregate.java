package dev.mnestic.rel;

import dev.mnestic.value.HeadAggregation;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

import java.util.List;

/**
 * CozoDB's aggregation of a rule head. Column i of the input is a grouping
 * key when {@code aggregations.isKey(i)}, otherwise the input of that
 * aggregation (count, sum, min, collect, ...; resolved when the script was
 * lowered, {@link HeadAggregation}). With aggregations, the
 * input has one column more, the last: each row's position in CozoDB's
 * evaluation order (a value in {@link dev.mnestic.value.Values}' order; null
 * where the aggregations cannot tell the order). One output row per group,
 * the columns in the input's order without the last; the values a group's
 * aggregations see form a bag, one per input row, fed in that order, merged
 * with the meet forms when the head is of
 * {@link HeadAggregation#meetKind meet kind}. With no
 * aggregation at all, the distinct rows of the input.
 */
public abstract class DatalogAggregate extends SingleRel {
  public final HeadAggregation aggregations;

  protected DatalogAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      HeadAggregation aggregations) {
    super(cluster, traits, input);
    final boolean aggregated = aggregations.aggregated();
    if (aggregations.width() + (aggregated ? 1 : 0) != input.getRowType().getFieldCount()) {
      throw new IllegalArgumentException("one aggregation (or null) per input column"
          + (aggregated ? " but the last" : ""));
    }
    this.aggregations = aggregations;
  }

  @Override protected RelDataType deriveRowType() {
    final List<RelDataTypeField> fields = getInput().getRowType().getFieldList();
    return getCluster().getTypeFactory().createStructType(
        fields.subList(0, aggregations.width()));
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("aggregations", aggregations);
  }
}
