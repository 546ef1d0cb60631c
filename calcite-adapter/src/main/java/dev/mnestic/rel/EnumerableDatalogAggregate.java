package dev.mnestic.rel;

import dev.mnestic.value.HeadAggregation;

import dev.mnestic.runtime.MnesticMethod;
import dev.mnestic.runtime.RowTable;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;

import java.util.List;

/**
 * {@link DatalogAggregate} in Enumerable code: one call into
 * {@link dev.mnestic.runtime.Aggregation}.
 * A head that aggregates every row as one group ({@code ?[count(a)] := tc[a, b]}) over a rule
 * that only projects a row table's columns reads the table's packed rows itself: no row, no
 * projection made per tuple.
 */
public final class EnumerableDatalogAggregate extends DatalogAggregate implements EnumerableRel {
  EnumerableDatalogAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      HeadAggregation aggregations) {
    super(cluster, traits, input, aggregations);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableDatalogAggregate(getCluster(), traitSet, sole(inputs), aggregations);
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    final BlockBuilder builder = new BlockBuilder();
    final Expression grouped;
    final TableScan scan = projectedScan();
    if (scan != null) {
      // return Aggregation.groupColumns(<table, stashed>, <columns, stashed>, <aggregations>);
      grouped = builder.append("grouped",
          Expressions.call(MnesticMethod.DATALOG_AGGREGATE_COLUMNS.method,
              implementor.stash(RowTable.of(scan.getTable()), RowTable.class),
              implementor.stash(projectedColumns(), int[].class),
              implementor.stash(aggregations, HeadAggregation.class)));
    } else {
      // return Aggregation.group(<input as Object[] rows>, <aggregations, stashed>);
      final Result input =
          implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
      final Expression rows = builder.append("rows",
          input.physType.convertTo(builder.append("input", input.block), JavaRowFormat.ARRAY));
      grouped = builder.append("grouped",
          Expressions.call(MnesticMethod.DATALOG_AGGREGATE.method,
              rows, implementor.stash(aggregations, HeadAggregation.class)));
    }
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        pref.prefer(JavaRowFormat.ARRAY));
    final PhysType arrays = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY, false);
    builder.add(Expressions.return_(null, arrays.convertTo(grouped, physType.getFormat())));
    return implementor.result(physType, builder.toBlock());
  }

  /**
   * The scan of a row table under this aggregate's input, when the head aggregates all rows as
   * one group with normal, order-blind aggregations and the input only projects the table's
   * columns or nulls (no filter); else null.
   */
  private TableScan projectedScan() {
    if (!aggregations.noKeys() || aggregations.meetKind() || aggregations.boundedMeetKind()
        || !aggregations.orderBlind()
        || !(EnumerableStopCheck.unchecked(getInput()) instanceof EnumerableCalc calc)
        || !(calc.getInput() instanceof TableScan scan)
        || scan.getTable().unwrap(RowTable.class) == null
        || calc.getProgram().getCondition() != null) {
      return null;
    }
    for (RexNode e : projections(calc.getProgram())) {
      if (!(e instanceof RexInputRef || e instanceof RexLiteral literal && literal.isNull())) {
        return null;
      }
    }
    return scan;
  }

  /** Per column of the input, the scanned table's column it projects, -1 for a null. */
  private int[] projectedColumns() {
    return projections(((EnumerableCalc) EnumerableStopCheck.unchecked(getInput())).getProgram())
        .stream()
        .mapToInt(e -> e instanceof RexInputRef ref ? ref.getIndex() : -1).toArray();
  }

  private static List<RexNode> projections(RexProgram program) {
    return program.getProjectList().stream().map(program::expandLocalRef).toList();
  }
}
