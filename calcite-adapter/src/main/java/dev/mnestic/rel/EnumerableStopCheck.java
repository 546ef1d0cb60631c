package dev.mnestic.rel;

import dev.mnestic.runtime.MnesticMethod;
import dev.mnestic.runtime.RunningStatement;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.RepeatUnion;

import java.util.ArrayList;
import java.util.List;

/**
 * Its input's rows unchanged, each read after a look at the statement's cancel flag
 * ({@link RunningStatement#checked}): one call, no state.
 *
 * <p>Calcite's joins, correlates and recursions loop over their inputs without looking at the
 * flag: a cross join under a {@code COUNT(*)} emits nothing a caller could stop at, and ran on
 * past its timeout (issue #13). {@link #insert} puts this node above every input of those
 * operators in the plan about to be implemented (after planning, so plans and EXPLAIN are as
 * before), so such a loop stops at its next input row: within the work of one outer row against
 * the inner side, which was itself read through a check.
 */
public final class EnumerableStopCheck extends SingleRel implements EnumerableRel {
  EnumerableStopCheck(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
    super(cluster, traits, input);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableStopCheck(getCluster(), traitSet, sole(inputs));
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return RunningStatement.checked(<input>, root);
    final Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
    final BlockBuilder builder = new BlockBuilder();
    final Expression rows = builder.append("rows", input.block);
    builder.add(Expressions.return_(null,
        Expressions.call(MnesticMethod.STOP_CHECKED.method, rows, DataContext.ROOT)));
    return implementor.result(input.physType, builder.toBlock());
  }

  /** {@code plan} with a check above each input of its joins, correlates and recursions. */
  public static EnumerableRel insert(EnumerableRel plan) {
    return (EnumerableRel) checked(plan);
  }

  private static RelNode checked(RelNode rel) {
    final boolean loops =
        rel instanceof Join || rel instanceof Correlate || rel instanceof RepeatUnion
            || rel instanceof RecursiveUnion;
    final List<RelNode> inputs = new ArrayList<>();
    boolean changed = false;
    for (RelNode input : rel.getInputs()) {
      RelNode in = checked(input);
      if (loops && !(in instanceof EnumerableStopCheck)) {
        in = new EnumerableStopCheck(in.getCluster(), in.getTraitSet(), in);
      }
      changed |= in != input;
      inputs.add(in);
    }
    return changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
  }
}
