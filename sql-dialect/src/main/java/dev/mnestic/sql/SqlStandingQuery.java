package dev.mnestic.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.List;

/**
 * A standing quantile query: {@code query WITHIN {RANK | RELATIVE} ERROR bound}. Every
 * {@code APPROX_QUANTILE} of the query's select list (alone, or the ratio of two) is answered
 * within {@code bound} of the window's true φ-quantile, its ⌈φ·n⌉-th smallest value: rank error
 * (the answer holds a rank within bound·n of it) or relative error (|answer - true| ≤
 * bound·|true|); README.md, "Standing quantile queries", states it whole. The sketch-sharing
 * planner decides how.
 */
public final class SqlStandingQuery extends SqlCall {
  /** What the target bounds. */
  public enum Metric { RANK, RELATIVE }

  public static final SqlOperator OPERATOR =
      new SqlSpecialOperator("WITHIN ERROR", SqlKind.OTHER) {
        @Override public SqlCall createCall(SqlLiteral functionQualifier, SqlParserPos pos,
            SqlNode... operands) {
          return new SqlStandingQuery(pos, operands[0],
              ((SqlLiteral) operands[1]).getValueAs(Metric.class), operands[2]);
        }
      };

  /** The query, as parsed. */
  public final SqlNode query;
  public final Metric metric;
  /** A numeric literal; where the target is written (its position) is {@link #getParserPosition}. */
  public final SqlNode bound;

  /** {@code pos} is the target's ({@code WITHIN ... bound}). */
  public SqlStandingQuery(SqlParserPos pos, SqlNode query, Metric metric, SqlNode bound) {
    super(pos);
    this.query = query;
    this.metric = metric;
    this.bound = bound;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(query, SqlLiteral.createSymbol(metric, SqlParserPos.ZERO), bound);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    query.unparse(writer, 0, 0);
    writer.keyword("WITHIN");
    writer.keyword(metric.name());
    writer.keyword("ERROR");
    bound.unparse(writer, 0, 0);
  }
}
