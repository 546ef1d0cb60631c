package dev.mnestic.rel;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

import com.google.common.collect.ImmutableList;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Values} whose rows are handed to the generated code as one stashed list
 * ({@code EnumerableRelImplementor.stash}) instead of being written out as code.
 *
 * <p>Calcite's EnumerableValues writes each literal into the generated
 * method, which Janino cannot compile past a few thousand rows (the JVM caps
 * a method at 64 KB of code): an {@code INSERT ... VALUES} of 5,000 rows, or
 * an {@code IN} list of 10,000 values (which Calcite turns into a join with
 * a Values) failed. Here the rows are Java values made once, when the plan is
 * implemented, in the representation Calcite's generated code reads (numbers
 * boxed, dates as days, timestamps as milliseconds, strings, ByteStrings);
 * each literal is converted to its column's type, where Calcite's code would
 * assign a DECIMAL literal to a DOUBLE column and fail to compile.
 */
public final class EnumerableStashedValues extends Values implements EnumerableRel {
  /** Rows past which {@link #canStash} is worth using rather than Calcite's EnumerableValues. */
  public static final int MIN_ROWS = 64;

  EnumerableStashedValues(RelOptCluster cluster, RelDataType rowType,
      ImmutableList<ImmutableList<RexLiteral>> tuples, RelTraitSet traits) {
    super(cluster, rowType, tuples, traits);
  }

  @Override public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableStashedValues(getCluster(), getRowType(), tuples, traitSet);
  }

  /**
   * Whether every column of {@code values} has a type whose literals this node converts
   * (numbers, strings, booleans, binaries, dates, times, timestamps, intervals).
   */
  static boolean canStash(Values values) {
    for (var field : values.getRowType().getFieldList()) {
      if (!stashable(field.getType().getSqlTypeName())) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a literal of {@code values} is an exact number in a FLOAT, REAL or DOUBLE column,
   * which Calcite's EnumerableValues writes as a BigDecimal where its code holds a Double
   * (and Janino refuses it: {@code VALUES (1.5), (NULL)} into a DOUBLE column).
   */
  static boolean hasMistypedLiteral(Values values) {
    final var fields = values.getRowType().getFieldList();
    for (List<RexLiteral> tuple : values.getTuples()) {
      for (int i = 0; i < tuple.size(); i++) {
        final SqlTypeName literal = tuple.get(i).getType().getSqlTypeName();
        if (SqlTypeName.APPROX_TYPES.contains(fields.get(i).getType().getSqlTypeName())
            && SqlTypeName.EXACT_TYPES.contains(literal)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean stashable(SqlTypeName type) {
    return switch (type) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, FLOAT, REAL, DOUBLE, CHAR,
          VARCHAR, BINARY, VARBINARY, DATE, TIME, TIMESTAMP, NULL -> true;
      default -> SqlTypeName.INTERVAL_TYPES.contains(type);
    };
  }

  @Override public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    // return Linq4j.asEnumerable(<stashed rows>);
    final PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
        JavaRowFormat.ARRAY);
    final boolean scalar = physType.getFormat() == JavaRowFormat.SCALAR;
    final var fields = getRowType().getFieldList();
    final List<Object> rows = new ArrayList<>(tuples.size());
    for (List<RexLiteral> tuple : tuples) {
      final Object[] row = new Object[tuple.size()];
      for (int i = 0; i < row.length; i++) {
        row[i] = value(tuple.get(i), fields.get(i).getType().getSqlTypeName());
      }
      rows.add(scalar ? row[0] : row);
    }
    final BlockBuilder builder = new BlockBuilder();
    builder.add(Expressions.return_(null, Expressions.call(Linq4j.class, "asEnumerable",
        implementor.stash(rows, List.class))));
    return implementor.result(physType, builder.toBlock());
  }

  /** {@code literal} as Calcite's generated code holds a value of SQL type {@code type}. */
  private static Object value(RexLiteral literal, SqlTypeName type) {
    if (literal.isNull()) {
      return null;
    }
    switch (type) {
    case BOOLEAN:
      return literal.getValueAs(Boolean.class);
    case CHAR:
    case VARCHAR:
      return literal.getValueAs(String.class);
    case BINARY:
    case VARBINARY:
      return literal.getValueAs(ByteString.class);
    case DATE:
    case TIME:
      return literal.getValueAs(Integer.class);
    case TIMESTAMP:
      return literal.getValueAs(Long.class);
    default:
      break;
    }
    if (SqlTypeName.INTERVAL_TYPES.contains(type)) {
      return SqlTypeName.YEAR_INTERVAL_TYPES.contains(type)
          ? literal.getValueAs(Integer.class) : literal.getValueAs(Long.class);
    }
    final BigDecimal number = literal.getValueAs(BigDecimal.class);
    return switch (type) {
      case TINYINT -> number.byteValueExact();
      case SMALLINT -> number.shortValueExact();
      case INTEGER -> number.intValueExact();
      case BIGINT -> number.longValueExact();
      case REAL -> number.floatValue();
      case FLOAT, DOUBLE -> number.doubleValue();
      default -> number;
    };
  }

  /** As Calcite's EnumerableValuesRule: the traits of the logical Values, in Enumerable. */
  static EnumerableStashedValues of(Values values) {
    return new EnumerableStashedValues(values.getCluster(), values.getRowType(),
        values.getTuples(), values.getTraitSet().replace(EnumerableConvention.INSTANCE));
  }
}
