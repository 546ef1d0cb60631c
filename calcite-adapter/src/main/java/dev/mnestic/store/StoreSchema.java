package dev.mnestic.store;

import org.apache.calcite.adapter.jdbc.JdbcConvention;
import org.apache.calcite.adapter.jdbc.JdbcSchema;
import org.apache.calcite.adapter.jdbc.JdbcTable;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.schema.lookup.Lookup;
import org.apache.calcite.schema.lookup.Named;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.dialect.HsqldbSqlDialect;

import java.util.Set;

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

  /**
   * The store's tables, each looked up by its exact name (Calcite's JDBC schema passes a name
   * as a LIKE pattern, so {@code a_b} would find {@code axb}), ignoring case as
   * {@link StoreCatalog#findTable} does; read from the store at each lookup, so DDL of any
   * session shows at once.
   */
  @Override public Lookup<Table> tables() {
    final Session session = (Session) getDataSource();
    final Lookup<Table> jdbc = super.tables();
    return new Lookup<Table>() {
      @Override public Table get(String name) {
        final Table table = jdbc.get(StoreCatalog.exactly(session, name));
        return table == null ? null : new StoreTable((JdbcTable) table, session);
      }

      @Override public Named<Table> getIgnoreCase(String name) {
        final Table exact = get(name); // one look at the store when the case matches
        if (exact != null) {
          return new Named<>(name, exact);
        }
        return StoreCatalog.findTable(session, name)
            .map(stored -> {
              final Table table = get(stored);
              return table == null ? null : new Named<>(stored, table);
            })
            .orElse(null);
      }

      @Override public Set<String> getNames(LikePattern pattern) {
        return jdbc.getNames(pattern);
      }
    };
  }
}
