package dev.mnestic.sql;

import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.List;

/** {@code CREATE [OR REPLACE] STANDING QUERY name AS query WITHIN ... ERROR bound}. */
public final class SqlCreateStandingQuery extends SqlCreate {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("CREATE STANDING QUERY", SqlKind.OTHER_DDL);

  public final SqlIdentifier name;
  public final SqlStandingQuery query;
  /**
   * The statement as written, which the store's catalog keeps (as a view's text is kept), so that
   * a later failure names its place in the definition as the user wrote it; null as parsed: the
   * parser never sees the text whole, the statement router attaches it ({@link #withSource}).
   */
  public final String source;

  public SqlCreateStandingQuery(SqlParserPos pos, boolean replace, SqlIdentifier name,
      SqlStandingQuery query, String source) {
    super(OPERATOR, pos, replace, false);
    this.name = name;
    this.query = query;
    this.source = source;
  }

  /** This statement, whose text is {@code sql}. */
  public SqlCreateStandingQuery withSource(String sql) {
    return new SqlCreateStandingQuery(getParserPosition(), getReplace(), name, query, sql);
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(name, query);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(getReplace() ? "CREATE OR REPLACE" : "CREATE");
    writer.keyword("STANDING QUERY");
    name.unparse(writer, leftPrec, rightPrec);
    writer.keyword("AS");
    query.unparse(writer, 0, 0);
  }
}
