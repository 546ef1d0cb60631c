package dev.mnestic.store;

import org.apache.calcite.adapter.jdbc.JdbcConvention;
import org.apache.calcite.adapter.jdbc.JdbcSchema;
import org.apache.calcite.adapter.jdbc.JdbcTable;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.lookup.Lookup;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.dialect.HsqldbSqlDialect;

/**
 * The store's tables as one Calcite schema: Calcite's JDBC adapter over one
 * session, whose tables also carry the store's column defaults.
 *
 * <p>What runs in HSQLDB and what in Calcite is {@link StoreConvention}'s to say:
 * a table is read from HSQLDB's row store, a lookup by key as SQL.
 */
final class StoreSchema extends JdbcSchema {
  /**
   * The dialect in which Calcite writes the SQL it pushes to the store: HSQLDB's, quoting every
   * identifier, because stored names keep their case.
   */
  static final SqlDialect DIALECT = new HsqldbSqlDialect(HsqldbSqlDialect.DEFAULT_CONTEXT
      .withIdentifierQuoteString("\"")
      .withUnquotedCasing(Casing.TO_UPPER)
      .withQuotedCasing(Casing.UNCHANGED)
      .withCaseSensitive(true));

  StoreSchema(Session session, JdbcConvention convention) {
    super(session, DIALECT, convention, null, Session.SCHEMA);
  }

  @Override public Lookup<Table> tables() {
    return super.tables().map((table, name) ->
        new StoreTable((JdbcTable) table, (Session) getDataSource()));
  }
}
