package dev.mnestic.rel;

import dev.mnestic.runtime.GenericJoinRun;

import com.google.common.collect.ImmutableList;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A worst-case optimal join of several relations (a rule body's cyclic part, such as a
 * triangle {@code e[a, b], e[b, c], e[a, c]}): its rows are the natural join of its inputs,
 * input i's column k binding variable {@code spec.bindings().get(i)[k]}, one column per
 * variable ({@link GenericJoinRun.Spec#variables}, of type ANY), found one variable at a time
 * ({@link GenericJoinRun}) rather than pairwise. Bag semantics, as the inner joins it
 * replaces: a binding comes once per combination of input rows making it.
 *
 * <p>Hazard: every input is held whole in memory while the join runs.
 */
public abstract class GenericJoin extends AbstractRelNode {
  public final GenericJoinRun.Spec spec;
  private List<RelNode> inputs;

  protected GenericJoin(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs,
      GenericJoinRun.Spec spec) {
    super(cluster, traits);
    if (inputs.size() != spec.bindings().size()) {
      throw new IllegalArgumentException("one input relation per input of " + spec);
    }
    for (int i = 0; i < inputs.size(); i++) {
      if (inputs.get(i).getRowType().getFieldCount() != spec.bindings().get(i).length) {
        throw new IllegalArgumentException("input " + i + " has "
            + inputs.get(i).getRowType().getFieldCount() + " columns, binding "
            + Arrays.toString(spec.bindings().get(i)));
      }
    }
    this.inputs = ImmutableList.copyOf(inputs);
    this.spec = spec;
  }

  @Override public List<RelNode> getInputs() {
    return inputs;
  }

  @Override public void replaceInput(int ordinalInParent, RelNode p) {
    final List<RelNode> changed = new ArrayList<>(inputs);
    changed.set(ordinalInParent, p);
    inputs = ImmutableList.copyOf(changed);
    recomputeDigest();
  }

  @Override protected RelDataType deriveRowType() {
    final RelDataTypeFactory f = getCluster().getTypeFactory();
    final RelDataTypeFactory.Builder row = f.builder();
    for (String v : spec.variables()) {
      row.add(v, f.createTypeWithNullability(f.createSqlType(SqlTypeName.ANY), true));
    }
    return row.uniquify().build();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    super.explainTerms(pw);
    for (int i = 0; i < inputs.size(); i++) {
      pw.input("input#" + i, inputs.get(i));
    }
    return pw.item("join", spec.toString());
  }
}
