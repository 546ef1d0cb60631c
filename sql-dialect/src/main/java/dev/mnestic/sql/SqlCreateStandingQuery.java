package dev.mnestic.sql;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.List;

/**
 * {@code CREATE [OR REPLACE] STANDING QUERY name AS query WITHIN ... ERROR bound
 * [RETAIN interval]}.
 */
public final class SqlCreateStandingQuery extends SqlCreate {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("CREATE STANDING QUERY", SqlKind.OTHER_DDL);

  public final SqlIdentifier name;
  public final SqlStandingQuery query;
  /**
   * How far back, from its table's latest row time, the query answers windows: an INTERVAL
   * literal ({@code RETAIN INTERVAL '6' HOUR}), or null for the default.
   */
  public final SqlLiteral retain;
  /**
   * The statement as written, which the store's catalog keeps (as a view's text is kept), so that
   * a later failure names its place in the definition as the user wrote it; null as parsed: the
   * parser never sees the text whole, the statement router attaches it ({@link #withSource}).
   */
  public final String source;

  public SqlCreateStandingQuery(SqlParserPos pos, boolean replace, SqlIdentifier name,
      SqlStandingQuery query, SqlLiteral retain, String source) {
    super(OPERATOR, pos, replace, false);
    this.name = name;
    this.query = query;
    this.retain = retain;
    this.source = source;
  }

  /** This statement, whose text is {@code sql}. */
  public SqlCreateStandingQuery withSource(String sql) {
    return new SqlCreateStandingQuery(getParserPosition(), getReplace(), name, query, retain,
        sql);
  }

  @Override public List<SqlNode> getOperandList() {
    return retain == null ? List.of(name, query) : List.of(name, query, retain);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(getReplace() ? "CREATE OR REPLACE" : "CREATE");
    writer.keyword("STANDING QUERY");
    name.unparse(writer, leftPrec, rightPrec);
    writer.keyword("AS");
    query.unparse(writer, 0, 0);
    if (retain != null) {
      writer.keyword("RETAIN");
      retain.unparse(writer, 0, 0);
    }
  }
}
