package dev.mnestic.standing;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.RelBuilder;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A standing query's {@code WHERE}: which rows of its table it summarizes. Comparisons of a
 * column with a literal ({@code =, <>, <, <=, >, >=, LIKE}), {@code IS [NOT] NULL},
 * {@code [NOT] IN (literals)}, combined with {@code AND}, {@code OR} and {@code NOT}. A filter is
 * a value: two queries with the same filter (the same text once columns are named as stored)
 * read the same rows, so the planner may share their summaries ({@link #toString} is part of the
 * metric's name, and so of the planner's input group); queries with different filters never
 * share one.
 */
sealed interface RowFilter {
  /** {@code column op value}; op is a comparison or LIKE. */
  record Compare(SqlKind op, String column, Object value) implements RowFilter {
  }

  record IsNull(String column) implements RowFilter {
  }

  record In(String column, List<Object> values) implements RowFilter {
  }

  record And(List<RowFilter> parts) implements RowFilter {
  }

  record Or(List<RowFilter> parts) implements RowFilter {
  }

  record Not(RowFilter filter) implements RowFilter {
  }

  Map<SqlKind, SqlOperator> OPERATORS = Map.of(SqlKind.EQUALS, SqlStdOperatorTable.EQUALS,
      SqlKind.NOT_EQUALS, SqlStdOperatorTable.NOT_EQUALS,
      SqlKind.LESS_THAN, SqlStdOperatorTable.LESS_THAN,
      SqlKind.LESS_THAN_OR_EQUAL, SqlStdOperatorTable.LESS_THAN_OR_EQUAL,
      SqlKind.GREATER_THAN, SqlStdOperatorTable.GREATER_THAN,
      SqlKind.GREATER_THAN_OR_EQUAL, SqlStdOperatorTable.GREATER_THAN_OR_EQUAL,
      SqlKind.LIKE, SqlStdOperatorTable.LIKE);

  /**
   * {@code where} over a table of {@code tableType}.
   *
   * @throws StandingQueryException naming the place of what is no such filter
   */
  static RowFilter of(SqlNode where, RelDataType tableType) {
    final SqlKind kind = where.getKind();
    if (!(where instanceof SqlBasicCall call)) {
      throw unsupported(where);
    }
    final List<SqlNode> operands = call.getOperandList();
    switch (kind) {
    case AND:
    case OR:
      final List<RowFilter> parts = new ArrayList<>();
      for (SqlNode operand : operands) {
        parts.add(of(operand, tableType));
      }
      return kind == SqlKind.AND ? new And(parts) : new Or(parts);
    case NOT:
      return new Not(of(operands.get(0), tableType));
    case IS_NULL:
    case IS_NOT_NULL:
      final RowFilter isNull = new IsNull(column(operands.get(0), tableType));
      return kind == SqlKind.IS_NULL ? isNull : new Not(isNull);
    case IN:
    case NOT_IN:
      if (!(operands.get(1) instanceof SqlNodeList list)) {
        throw unsupported(operands.get(1));
      }
      final List<Object> values = new ArrayList<>();
      for (SqlNode value : list) {
        values.add(literal(value));
      }
      final RowFilter in = new In(column(operands.get(0), tableType), values);
      return kind == SqlKind.IN ? in : new Not(in);
    default:
      if (!OPERATORS.containsKey(kind) || operands.size() != 2) {
        throw unsupported(where);
      }
      final RowFilter compare = new Compare(kind, column(operands.get(0), tableType),
          literal(operands.get(1)));
      return call.getOperator() instanceof SqlLikeOperator like && like.isNegated()
          ? new Not(compare) : compare;
    }
  }

  private static StandingQueryException unsupported(SqlNode n) {
    return new StandingQueryException(n.getParserPosition(), "a standing query's WHERE compares"
        + " columns with literals (=, <>, <, <=, >, >=, LIKE, IS NULL, IN), with AND, OR and NOT");
  }

  /** The stored name of column {@code n}. */
  private static String column(SqlNode n, RelDataType tableType) {
    if (!(n instanceof SqlIdentifier id) || !id.isSimple()) {
      throw new StandingQueryException(n.getParserPosition(),
          "a standing query's WHERE compares a column of the table with a literal");
    }
    final RelDataTypeField f = tableType.getField(id.getSimple(), false, false);
    if (f == null) {
      throw new StandingQueryException(n.getParserPosition(), "no column " + id.getSimple());
    }
    return f.getName();
  }

  private static Object literal(SqlNode n) {
    if (n instanceof SqlNumericLiteral number) {
      return number.getValueAs(BigDecimal.class);
    }
    if (n instanceof SqlCharStringLiteral string) {
      return string.getValueAs(String.class);
    }
    if (n instanceof SqlLiteral l && l.getValue() instanceof Boolean b) {
      return b;
    }
    throw new StandingQueryException(n.getParserPosition(),
        "a standing query's WHERE compares with a number, a string or a boolean literal");
  }

  /** The filter as a condition over {@code b}'s top relation (the table's columns). */
  default RexNode toRex(RelBuilder b) {
    if (this instanceof Compare c) {
      final RexNode literal = b.literal(c.value());
      return b.call(OPERATORS.get(c.op()), compared(b, c.column(), literal), literal);
    }
    if (this instanceof IsNull n) {
      return b.isNull(b.field(n.column()));
    }
    if (this instanceof In in) {
      final List<RexNode> literals = in.values().stream().<RexNode>map(b::literal).toList();
      return b.in(compared(b, in.column(), literals.get(0)), literals);
    }
    if (this instanceof And and) {
      return b.and(and.parts().stream().map(p -> p.toRex(b)).toList());
    }
    if (this instanceof Or or) {
      return b.or(or.parts().stream().map(p -> p.toRex(b)).toList());
    }
    return b.not(((Not) this).filter().toRex(b));
  }

  /**
   * Column {@code column} as SQL compares it with {@code literal}: a character column compared
   * with a number cast to the number's type, as the store and Calcite's validator cast it (a
   * value that is no number fails the read); Calcite's code has no comparison of a string with
   * a number.
   */
  private static RexNode compared(RelBuilder b, String column, RexNode literal) {
    final RexNode field = b.field(column);
    return SqlTypeUtil.isCharacter(field.getType()) && SqlTypeUtil.isNumeric(literal.getType())
        ? b.getRexBuilder().makeCast(b.getTypeFactory().createTypeWithNullability(
            literal.getType(), field.getType().isNullable()), field) : field;
  }

  /** The filter as SQL over the store's table (columns quoted as stored). */
  default String sql() {
    if (this instanceof Compare c) {
      return quote(c.column()) + " " + OPERATORS.get(c.op()).getName() + " " + sql(c.value());
    }
    if (this instanceof IsNull n) {
      return quote(n.column()) + " IS NULL";
    }
    if (this instanceof In in) {
      return quote(in.column()) + " IN (" + in.values().stream().map(RowFilter::sql)
          .collect(Collectors.joining(", ")) + ")";
    }
    if (this instanceof And and) {
      return and.parts().stream().map(p -> "(" + p.sql() + ")").collect(Collectors.joining(" AND "));
    }
    if (this instanceof Or or) {
      return or.parts().stream().map(p -> "(" + p.sql() + ")").collect(Collectors.joining(" OR "));
    }
    return "NOT (" + ((Not) this).filter().sql() + ")";
  }

  private static String quote(String column) {
    return "\"" + column.replace("\"", "\"\"") + "\"";
  }

  private static String sql(Object value) {
    return value instanceof String s ? "'" + s.replace("'", "''") + "'"
        : value instanceof BigDecimal d ? d.toPlainString() : Boolean.TRUE.equals(value) ? "TRUE" : "FALSE";
  }
}
