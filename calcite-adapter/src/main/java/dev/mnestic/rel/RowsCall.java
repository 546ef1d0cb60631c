package dev.mnestic.rel;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;

import java.util.ArrayList;
import java.util.List;

/**
 * The code our Enumerable operators share around their one call of a run-time method: their
 * inputs as {@code Object[]} rows, and the rows the call returns as the operator's result.
 */
final class RowsCall {
  private RowsCall() {
  }

  /** Each input of {@code rel} as an {@code Enumerable} of {@code Object[]} rows. */
  static List<Expression> inputs(EnumerableRel rel, EnumerableRelImplementor implementor,
      BlockBuilder builder) {
    final List<Expression> rows = new ArrayList<>();
    for (int i = 0; i < rel.getInputs().size(); i++) {
      final EnumerableRel.Result input = implementor.visitChild(rel, i,
          (EnumerableRel) rel.getInputs().get(i), EnumerableRel.Prefer.ARRAY);
      rows.add(builder.append("rows" + i, input.physType.convertTo(
          builder.append("input" + i, input.block), JavaRowFormat.ARRAY)));
    }
    return rows;
  }

  /** {@code rel}'s result: the {@code Object[]} rows {@code call} returns, as {@code pref} asks. */
  static EnumerableRel.Result result(EnumerableRel rel, EnumerableRelImplementor implementor,
      EnumerableRel.Prefer pref, BlockBuilder builder, Expression call) {
    final Expression out = builder.append("out", call);
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), rel.getRowType(),
        pref.prefer(JavaRowFormat.ARRAY));
    final PhysType arrays = PhysTypeImpl.of(implementor.getTypeFactory(), rel.getRowType(),
        JavaRowFormat.ARRAY, false);
    builder.add(Expressions.return_(null, arrays.convertTo(out, physType.getFormat())));
    return implementor.result(physType, builder.toBlock());
  }
}
