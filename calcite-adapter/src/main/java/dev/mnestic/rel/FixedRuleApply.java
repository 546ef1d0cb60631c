package dev.mnestic.rel;

import dev.mnestic.runtime.FixedRuleRun;

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
import java.util.List;

/**
 * A fixed rule applied to whole relations, CozoDB's {@code out[a, b] <~ Name(*edges[x, y],
 * nodes[n], option: expr)}: the rule ({@link FixedRuleRun.Spec#rule}) reads every row of each
 * input (in the order written, each sorted in CozoDB's order of tuples) and gives rows of
 * {@link FixedRuleRun.Spec#arity} columns of CozoDB values (type ANY), kept as a relation:
 * distinct, in that order. Its inputs are complete before it runs: it is a stratum of its own,
 * after theirs.
 *
 * <p>Hazard: a rule may hold all its inputs' rows and compute for long; it looks at the
 * statement's stop as it goes ({@link FixedRuleRun}), and nothing bounds its memory but the
 * statement's limit.
 */
public abstract class FixedRuleApply extends AbstractRelNode {
  public final FixedRuleRun.Spec spec;
  private List<RelNode> inputs;

  protected FixedRuleApply(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs,
      FixedRuleRun.Spec spec) {
    super(cluster, traits);
    if (inputs.size() != spec.inputs().size()) {
      throw new IllegalArgumentException("one input relation per input of " + spec.name());
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
    for (int i = 0; i < spec.arity(); i++) {
      row.add("c" + i, f.createTypeWithNullability(f.createSqlType(SqlTypeName.ANY), true));
    }
    return row.build();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    super.explainTerms(pw);
    for (int i = 0; i < inputs.size(); i++) {
      pw.input("input#" + i, inputs.get(i));
    }
    return pw.item("rule", spec.description()).item("arity", spec.arity());
  }
}
