package dev.mnestic.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * mnestic's {@link DatabaseMetaData} against HSQLDB's own JDBC driver on the same store, for
 * every call where the two should agree: the store's tables, columns, keys, indexes and types,
 * and transactions. Through the embedded driver and through a thin client of a real server.
 *
 * <p>Where they rightly differ, nothing is compared: the catalog (HSQLDB's is {@code PUBLIC};
 * mnestic's tables are in no catalog, so {@code TABLE_CAT} and {@code INDEX_QUALIFIER} are
 * null), identifier case (HSQLDB upper-cases unquoted names; mnestic keeps the case written),
 * NULL ordering (Calcite sorts, NULLs high; HSQLDB puts them first), the product, the schemas
 * (HSQLDB's system schemas are out of reach of mnestic's SQL), functions (HSQLDB lists its
 * routines, mnestic the SQL functions a statement may call), and HSQLDB's columns beyond
 * JDBC's.
 */
class HsqldbAgreementTest {
  private static final String DB = "mem:hsqldb-agreement-test";
  private static final List<String> TABLES = List.of("plain", "Keyed", "multi_key", "multiXkey",
      "REFS");
  private static MnesticServer server;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).db(DB).build();
    server.start();
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=" + DB);
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE plain (i INT, b BIGINT, si SMALLINT, ti TINYINT, d DOUBLE,"
          + " r REAL, amount DECIMAL(12, 3), v VARCHAR(30), ch CHAR(4), bo BOOLEAN, dt DATE,"
          + " tm TIME, ts TIMESTAMP, ts3 TIMESTAMP(3), vb VARBINARY(16), ia INTEGER ARRAY)");
      s.execute("CREATE TABLE \"Keyed\" (id INT PRIMARY KEY, email VARCHAR(50) NOT NULL UNIQUE,"
          + " score DOUBLE DEFAULT 1.5, created TIMESTAMP DEFAULT CURRENT_TIMESTAMP)");
      s.execute("CREATE TABLE multi_key (a VARCHAR(8) NOT NULL, b INT NOT NULL, c INT,"
          + " d INT, PRIMARY KEY (b, a), UNIQUE (c, d))");
      s.execute("CREATE TABLE \"multiXkey\" (x INT PRIMARY KEY)");
    }
    // Foreign keys, which mnestic's SQL does not declare, made through HSQLDB's own driver.
    try (Connection h = hsqldb(); Statement s = h.createStatement()) {
      s.execute("CREATE TABLE refs (id INT PRIMARY KEY, keyed INT REFERENCES \"Keyed\" (\"id\"),"
          + " b INT, a VARCHAR(8), CONSTRAINT refs_multi FOREIGN KEY (b, a)"
          + " REFERENCES \"multi_key\" (\"b\", \"a\") ON DELETE CASCADE)");
    }
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  private static Connection connect(String how) throws SQLException {
    return how.equals("server") ? ThinClient.connect(server)
        : DriverManager.getConnection("jdbc:mnestic:db=" + DB);
  }

  private static Connection hsqldb() throws SQLException {
    return DriverManager.getConnection("jdbc:hsqldb:mem:hsqldb-agreement-test", "SA", "");
  }

  /** Rows of {@code rs} as strings, the JDBC columns {@code columns} but those {@code skipped}. */
  private static List<String> rows(ResultSet rs, List<String> columns, Set<String> skipped)
      throws SQLException {
    final List<String> rows = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        final Map<String, String> row = new LinkedHashMap<>();
        for (String column : columns) {
          if (!skipped.contains(column)) {
            row.put(column, value(rs.getObject(column)));
          }
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  /** {@code o} as a string that does not depend on the class a driver chose for it. */
  private static String value(Object o) {
    return o instanceof Number n && !(o instanceof java.math.BigDecimal)
        ? Long.toString(n.longValue()) : String.valueOf(o);
  }

  private static final List<String> TABLE_COLUMNS = List.of("TABLE_CAT", "TABLE_SCHEM",
      "TABLE_NAME", "TABLE_TYPE", "REMARKS", "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME",
      "SELF_REFERENCING_COL_NAME", "REF_GENERATION");
  private static final List<String> COLUMN_COLUMNS = List.of("TABLE_CAT", "TABLE_SCHEM",
      "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "BUFFER_LENGTH",
      "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE", "REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE",
      "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE",
      "SCOPE_CATALOG", "SCOPE_SCHEMA", "SCOPE_TABLE", "SOURCE_DATA_TYPE", "IS_AUTOINCREMENT",
      "IS_GENERATEDCOLUMN");
  private static final List<String> KEY_COLUMNS = List.of("TABLE_CAT", "TABLE_SCHEM",
      "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
  private static final List<String> INDEX_COLUMNS = List.of("TABLE_CAT", "TABLE_SCHEM",
      "TABLE_NAME", "NON_UNIQUE", "INDEX_QUALIFIER", "INDEX_NAME", "TYPE", "ORDINAL_POSITION",
      "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY", "PAGES", "FILTER_CONDITION");
  private static final List<String> TYPE_COLUMNS = List.of("TYPE_NAME", "DATA_TYPE",
      "PRECISION", "LITERAL_PREFIX", "LITERAL_SUFFIX", "CREATE_PARAMS", "NULLABLE",
      "CASE_SENSITIVE", "SEARCHABLE", "UNSIGNED_ATTRIBUTE", "FIXED_PREC_SCALE",
      "AUTO_INCREMENT", "LOCAL_TYPE_NAME", "MINIMUM_SCALE", "MAXIMUM_SCALE", "SQL_DATA_TYPE",
      "SQL_DATETIME_SUB", "NUM_PREC_RADIX");
  private static final Set<String> CATALOG = Set.of("TABLE_CAT", "INDEX_QUALIFIER");

  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void tables(String how) throws SQLException {
    try (Connection c = connect(how); Connection h = hsqldb()) {
      final String[] types = {"TABLE"};
      final List<String> mnestic = rows(c.getMetaData().getTables(null, "PUBLIC", null, types),
          TABLE_COLUMNS, CATALOG);
      assertEquals(rows(h.getMetaData().getTables(null, "PUBLIC", null, types), TABLE_COLUMNS,
          CATALOG), mnestic);
      assertEquals(TABLES.size(), mnestic.size());
      for (String pattern : List.of("multi_key", "multi%", "K%")) {
        assertEquals(rows(h.getMetaData().getTables(null, "PUBLIC", pattern, types),
            TABLE_COLUMNS, CATALOG), rows(c.getMetaData().getTables(null, "PUBLIC", pattern,
            types), TABLE_COLUMNS, CATALOG), pattern);
      }
    }
  }

  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void columns(String how) throws SQLException {
    try (Connection c = connect(how); Connection h = hsqldb()) {
      final List<String> mnestic = rows(c.getMetaData().getColumns(null, "PUBLIC", null, null),
          COLUMN_COLUMNS, CATALOG);
      assertEquals(rows(h.getMetaData().getColumns(null, "PUBLIC", null, null), COLUMN_COLUMNS,
          CATALOG), mnestic);
      assertFalse(mnestic.isEmpty());
      assertEquals(rows(h.getMetaData().getColumns(null, "PUBLIC", "multi_key", "_"),
          COLUMN_COLUMNS, CATALOG), rows(c.getMetaData().getColumns(null, "PUBLIC", "multi_key",
          "_"), COLUMN_COLUMNS, CATALOG));
    }
  }

  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void keysAndIndexes(String how) throws SQLException {
    try (Connection c = connect(how); Connection h = hsqldb()) {
      for (String table : TABLES) {
        assertEquals(rows(h.getMetaData().getPrimaryKeys(null, "PUBLIC", table), KEY_COLUMNS,
            CATALOG), rows(c.getMetaData().getPrimaryKeys(null, "PUBLIC", table), KEY_COLUMNS,
            CATALOG), table);
        for (boolean unique : new boolean[] {false, true}) {
          assertEquals(rows(h.getMetaData().getIndexInfo(null, "PUBLIC", table, unique, true),
              INDEX_COLUMNS, CATALOG), rows(c.getMetaData().getIndexInfo(null, "PUBLIC", table,
              unique, true), INDEX_COLUMNS, CATALOG), table + " unique " + unique);
        }
      }
    }
  }

  private static final List<String> FOREIGN_KEY_COLUMNS = List.of("PKTABLE_CAT",
      "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_CAT", "FKTABLE_SCHEM",
      "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", "UPDATE_RULE", "DELETE_RULE", "FK_NAME",
      "PK_NAME", "DEFERRABILITY");
  private static final List<String> ROW_ID_COLUMNS = List.of("SCOPE", "COLUMN_NAME",
      "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS",
      "PSEUDO_COLUMN");

  /**
   * Foreign keys (made through HSQLDB's driver) and the columns identifying a row, as the store
   * says, whichever way a table is named; the catalogs aside.
   */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void foreignKeysAndRowIdentifiers(String how) throws SQLException {
    final Set<String> catalogs = Set.of("PKTABLE_CAT", "FKTABLE_CAT");
    try (Connection c = connect(how); Connection h = hsqldb()) {
      final DatabaseMetaData m = c.getMetaData();
      final DatabaseMetaData s = h.getMetaData();
      final List<String> imported = rows(m.getImportedKeys(null, "PUBLIC", "refs"),
          FOREIGN_KEY_COLUMNS, catalogs);
      assertEquals(3, imported.size(), imported.toString());
      for (String table : TABLES) {
        assertEquals(rows(s.getImportedKeys(null, "PUBLIC", table), FOREIGN_KEY_COLUMNS,
            catalogs), rows(m.getImportedKeys(null, "PUBLIC", table), FOREIGN_KEY_COLUMNS,
            catalogs), table);
        assertEquals(rows(s.getExportedKeys(null, "PUBLIC", table), FOREIGN_KEY_COLUMNS,
            catalogs), rows(m.getExportedKeys(null, "PUBLIC", table), FOREIGN_KEY_COLUMNS,
            catalogs), table);
        assertEquals(rows(s.getCrossReference(null, "PUBLIC", table, null, "PUBLIC", "REFS"),
            FOREIGN_KEY_COLUMNS, catalogs), rows(m.getCrossReference(null, "PUBLIC", table,
            null, null, "refs"), FOREIGN_KEY_COLUMNS, catalogs), table);
        for (int scope : new int[] {DatabaseMetaData.bestRowTemporary,
            DatabaseMetaData.bestRowSession}) {
          assertEquals(rows(s.getBestRowIdentifier(null, "PUBLIC", table, scope, true),
              ROW_ID_COLUMNS, Set.of()), rows(m.getBestRowIdentifier(null, "PUBLIC", table,
              scope, true), ROW_ID_COLUMNS, Set.of()), table + " scope " + scope);
        }
      }
      assertEquals(imported, rows(m.getImportedKeys(null, null, "Refs"), FOREIGN_KEY_COLUMNS,
          catalogs));
      assertEquals(List.of(), rows(m.getImportedKeys(null, "STANDING", "refs"),
          FOREIGN_KEY_COLUMNS, catalogs));
    }
  }

  /** Each type mnestic lists is the store's, described as the store describes it. */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void typeInfo(String how) throws SQLException {
    try (Connection c = connect(how); Connection h = hsqldb()) {
      final List<String> mnestic = rows(c.getMetaData().getTypeInfo(), TYPE_COLUMNS, Set.of());
      final List<String> store = rows(h.getMetaData().getTypeInfo(), TYPE_COLUMNS, Set.of());
      assertFalse(mnestic.isEmpty());
      for (String type : mnestic) {
        assertEquals(true, store.contains(type), type);
      }
    }
  }

  /** Transactions and the other flags both describe the same store's sessions by. */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void transactionsAndFlags(String how) throws SQLException {
    try (Connection c = connect(how); Connection h = hsqldb()) {
      final DatabaseMetaData m = c.getMetaData();
      final DatabaseMetaData s = h.getMetaData();
      assertEquals(s.supportsTransactions(), m.supportsTransactions());
      for (int level = Connection.TRANSACTION_NONE; level <= Connection.TRANSACTION_SERIALIZABLE;
          level++) {
        assertEquals(s.supportsTransactionIsolationLevel(level),
            m.supportsTransactionIsolationLevel(level), "level " + level);
      }
      assertEquals(s.getDefaultTransactionIsolation(), m.getDefaultTransactionIsolation());
      assertEquals(h.getTransactionIsolation(), c.getTransactionIsolation());
      assertEquals(s.dataDefinitionCausesTransactionCommit(),
          m.dataDefinitionCausesTransactionCommit());
      assertEquals(s.dataDefinitionIgnoredInTransactions(),
          m.dataDefinitionIgnoredInTransactions());
      assertEquals(s.supportsDataManipulationTransactionsOnly(),
          m.supportsDataManipulationTransactionsOnly());
      assertEquals(s.supportsDataDefinitionAndDataManipulationTransactions(),
          m.supportsDataDefinitionAndDataManipulationTransactions());
      assertEquals(s.getIdentifierQuoteString(), m.getIdentifierQuoteString());
      assertEquals(s.getSearchStringEscape(), m.getSearchStringEscape());
      assertEquals(s.isReadOnly(), m.isReadOnly());
      // HSQLDB's isReadOnly is the database's mode; mnestic's also the connection's.
      c.setReadOnly(true);
      h.setReadOnly(true);
      assertEquals(h.isReadOnly(), c.isReadOnly());
    }
  }
}
