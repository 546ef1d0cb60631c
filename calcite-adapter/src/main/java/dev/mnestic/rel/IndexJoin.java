package dev.mnestic.rel;

import dev.mnestic.runtime.IndexJoinRun;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.BiRel;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;

import java.util.Arrays;

/**
 * A join of the rows reaching a stored relation's atom (the left input) with the relation's
 * table (the right input: a whole read of it, its columns as the store holds them), on key
 * columns of which one leads an index of the store's: each left row followed by each table row
 * whose keys, decoded to CozoDB values, are the left row's. At run time ({@link IndexJoinRun})
 * the table's rows holding the left rows' values are looked up in that index when those values
 * are few against the table's rows, else the table is read whole; so a variable bound by a
 * stored relation, or by a fixpoint's rows, reads only the rows it joins.
 */
public abstract class IndexJoin extends BiRel {
  public final IndexJoinRun.Spec spec;

  protected IndexJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode table,
      IndexJoinRun.Spec spec) {
    super(cluster, traits, left, table);
    this.spec = spec;
  }

  @Override protected RelDataType deriveRowType() {
    final RelDataTypeFactory.Builder row = getCluster().getTypeFactory().builder();
    row.addAll(left.getRowType().getFieldList());
    row.addAll(right.getRowType().getFieldList());
    return row.uniquify().build();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("relation", spec.description())
        .item("leftKeys", Arrays.toString(spec.leftKeys()))
        .item("tableKeys", Arrays.toString(spec.rightKeys()))
        .item("lookup", "$" + spec.rightKeys()[spec.lookupKey()]);
  }
}
