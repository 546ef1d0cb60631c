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
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Window;

import java.util.ArrayList;
import java.util.List;

/**
 * Its input's rows unchanged, each read after a look at the statement's cancel flag
 * ({@link RunningStatement#checked}): one call, no state.
 *
 * <p>Calcite's joins, correlates and recursions loop over their inputs without looking at the
 * flag: a cross join under a {@code COUNT(*)} emits nothing a caller could stop at, and ran on
 * past its timeout (issue #13). So do the operators that read their whole input before their
 * first row: aggregates (Calcite's, a Datalog rule's set or aggregation, a sketch's), sorts,
 * windows, set operations and skylines; a script deduplicating 10^6 generated rows of 10 kB ran
 * on past its memory budget, flagged, to an OutOfMemoryError. {@link #insert} puts this node
 * above every input of those operators in the plan about to be implemented (after planning, so
 * plans and EXPLAIN are as before), so such a loop stops at its next input row: within the work
 * of one outer row against the inner side, which was itself read through a check.
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

  /** {@code rel} without the stop checks put above it ({@link #insert}). */
  public static RelNode unchecked(RelNode rel) {
    return rel instanceof EnumerableStopCheck check ? unchecked(check.getInput()) : rel;
  }

  /** {@code plan} with a check above each input of the operators that loop over them. */
  public static EnumerableRel insert(EnumerableRel plan) {
    return (EnumerableRel) checked(plan);
  }

  private static RelNode checked(RelNode rel) {
    final boolean loops =
        rel instanceof Join || rel instanceof Correlate || rel instanceof RepeatUnion
            || rel instanceof RecursiveUnion || rel instanceof Aggregate || rel instanceof Sort
            || rel instanceof Window || rel instanceof SetOp || rel instanceof DatalogAggregate
            || rel instanceof SketchAggregate || rel instanceof Skyline;
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
