package dev.mnestic.store;

import org.apache.calcite.adapter.jdbc.JdbcConvention;
import org.apache.calcite.adapter.jdbc.JdbcSchema;
import org.apache.calcite.adapter.jdbc.JdbcTable;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.lookup.Lookup;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.dialect.HsqldbSqlDialect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * The store's tables as one Calcite schema: Calcite's JDBC adapter over one
 * session, whose tables also carry the store's column defaults.
 *
 * <p>What runs in HSQLDB and what in Calcite is {@link StoreConvention}'s to say:
 * a table is read from HSQLDB's row store, a lookup by key as SQL.
 */
final class StoreSchema extends JdbcSchema {
  /**
   * The dialect in which Calcite writes the SQL it pushes to the store; it
   * quotes every identifier, because stored names keep their case.
   */
  static final SqlDialect DIALECT = new StoreDialect();

  /**
   * HSQLDB's dialect, quoting every identifier. Calcite writes the insert
   * branch of MERGE as {@code VALUES a, b}, which HSQLDB reads as two rows:
   * such a VALUES is written as the one row it is.
   */
  private static final class StoreDialect extends HsqldbSqlDialect {
    StoreDialect() {
      super(HsqldbSqlDialect.DEFAULT_CONTEXT
          .withIdentifierQuoteString("\"")
          .withUnquotedCasing(Casing.TO_UPPER)
          .withQuotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(true));
    }

    @Override public void unparseCall(SqlWriter writer, SqlCall call,
        int leftPrec, int rightPrec) {
      if (call.getKind() == SqlKind.VALUES
          && !call.getOperandList().stream().allMatch(o -> o.getKind() == SqlKind.ROW)) {
        super.unparseCall(writer,
            SqlStdOperatorTable.VALUES.createCall(call.getParserPosition(),
                SqlStdOperatorTable.ROW.createCall(call.getParserPosition(),
                    call.getOperandList())),
            leftPrec, rightPrec);
        return;
      }
      super.unparseCall(writer, call, leftPrec, rightPrec);
    }
  }

  StoreSchema(Session session, JdbcConvention convention) {
    super(session, DIALECT, convention, null, Session.SCHEMA);
  }

  @Override public Lookup<Table> tables() {
    return super.tables().map((table, name) ->
        new StoreTable((JdbcTable) table, (Session) getDataSource()));
  }
}
