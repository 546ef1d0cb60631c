package dev.mnestic.rel;

import dev.mnestic.runtime.SearchRun;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.BiRel;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A search atom, CozoDB's {@code ~rel:idx{a, b | query: q, k: 10, bind_distance: d}}: for each
 * row of its left input, the hits of a search of the relation's search index ({@code
 * value.SearchIndex}) with that row's query value, each the left row followed by the hit's
 * relation row (the right input: every row of the relation the statement sees) and the values
 * of the atom's {@code bind_*} parameters, columns of CozoDB values (type ANY). So a search
 * joins, recurses and aggregates as any relation does. The runtime ({@link SearchRun}) reads
 * the right input whole, brings the index to it, then searches once per left row.
 */
public abstract class SearchApply extends BiRel {
  public final SearchRun.Spec spec;
  /** How many values each hit binds ({@code bind_distance} ...). */
  public final int binds;

  protected SearchApply(RelOptCluster cluster, RelTraitSet traits, RelNode outer,
      RelNode relation, SearchRun.Spec spec, int binds) {
    super(cluster, traits, outer, relation);
    this.spec = spec;
    this.binds = binds;
  }

  @Override protected RelDataType deriveRowType() {
    final RelDataTypeFactory f = getCluster().getTypeFactory();
    final RelDataTypeFactory.Builder row = f.builder();
    row.addAll(left.getRowType().getFieldList());
    for (int i = 0; i < right.getRowType().getFieldCount() + binds; i++) {
      row.add("s" + i, f.createTypeWithNullability(f.createSqlType(SqlTypeName.ANY), true));
    }
    return row.uniquify().build();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("search", spec.description())
        .item("query", "$" + spec.queryColumn());
  }
}
