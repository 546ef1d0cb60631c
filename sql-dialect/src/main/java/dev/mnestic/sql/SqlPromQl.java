package dev.mnestic.sql;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.ArrayList;
import java.util.List;

/**
 * A standing query's body written in PromQL: {@code PROMQL 'expr' [EVERY interval]}, in
 * {@code CREATE STANDING QUERY name AS PROMQL '...' [EVERY interval] WITHIN ... ERROR bound}.
 * {@code expr} is {@link PromQl}'s subset; {@code EVERY} is how often it is evaluated (each
 * window's end), by default every range (tumbling windows).
 */
public final class SqlPromQl extends SqlCall {
  public static final SqlOperator OPERATOR = new SqlSpecialOperator("PROMQL", SqlKind.OTHER);

  /** The expression's text, a character literal. */
  public final SqlLiteral text;
  /** An INTERVAL literal, or null. */
  public final SqlLiteral every;

  public SqlPromQl(SqlParserPos pos, SqlLiteral text, SqlLiteral every) {
    super(pos);
    this.text = text;
    this.every = every;
  }

  @Override public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override public List<SqlNode> getOperandList() {
    final List<SqlNode> out = new ArrayList<>(List.of(text));
    if (every != null) {
      out.add(every);
    }
    return out;
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("PROMQL");
    text.unparse(writer, 0, 0);
    if (every != null) {
      writer.keyword("EVERY");
      every.unparse(writer, 0, 0);
    }
  }
}
