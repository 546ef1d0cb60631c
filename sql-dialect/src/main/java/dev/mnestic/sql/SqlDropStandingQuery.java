package dev.mnestic.sql;

import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.util.List;

/** {@code DROP STANDING QUERY [IF EXISTS] name}. */
public final class SqlDropStandingQuery extends SqlDrop {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("DROP STANDING QUERY", SqlKind.OTHER_DDL);

  public final SqlIdentifier name;

  public SqlDropStandingQuery(SqlParserPos pos, boolean ifExists, SqlIdentifier name) {
    super(OPERATOR, pos, ifExists);
    this.name = name;
  }

  @Override public List<SqlNode> getOperandList() {
    return List.of(name);
  }

  @Override public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("DROP STANDING QUERY");
    if (ifExists) {
      writer.keyword("IF EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
  }
}
