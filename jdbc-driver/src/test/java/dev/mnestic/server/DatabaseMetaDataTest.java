package dev.mnestic.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DatabaseMetaData} tells the truth, through the embedded driver and through a thin
 * client of a real {@link MnesticServer} alike: each flag is checked against what the engine
 * does (a write on a read-only connection, an isolation level, where ORDER BY puts NULLs, the
 * case a name is stored in), and each list against the store as another connection, or HSQLDB
 * itself, has just changed it.
 */
class DatabaseMetaDataTest {
  private static final String DB = "mem:database-metadata-test";
  private static MnesticServer server;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).db(DB).build();
    server.start();
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  private static Connection connect(String how) throws SQLException {
    return how.equals("server") ? ThinClient.connect(server)
        : DriverManager.getConnection("jdbc:mnestic:db=" + DB);
  }

  /** A connection of HSQLDB's own driver to the same store. */
  private static Connection hsqldb() throws SQLException {
    return DriverManager.getConnection("jdbc:hsqldb:mem:database-metadata-test", "SA", "");
  }

  @BeforeEach void empty() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=" + DB);
         Statement s = c.createStatement()) {
      try (ResultSet rs = c.getMetaData().getTables(null, "STANDING", null, null)) {
        final List<String> standing = new ArrayList<>();
        while (rs.next()) {
          standing.add(rs.getString("TABLE_NAME"));
        }
        for (String name : standing) {
          s.execute("DROP STANDING QUERY \"" + name + "\"");
        }
      }
      try (ResultSet rs = c.getMetaData().getTables(null, "PUBLIC", null, null)) {
        final List<String> tables = new ArrayList<>();
        while (rs.next()) {
          tables.add(rs.getString("TABLE_NAME"));
        }
        for (String name : tables) {
          s.execute("DROP TABLE \"" + name + "\"");
        }
      }
    }
  }

  private static List<String> column(ResultSet rs, String name) throws SQLException {
    final List<String> values = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        values.add(rs.getString(name));
      }
    }
    return values;
  }

  private static List<String> tables(DatabaseMetaData md) throws SQLException {
    final List<String> names = new ArrayList<>();
    try (ResultSet rs = md.getTables(null, null, null, null)) {
      while (rs.next()) {
        names.add(rs.getString("TABLE_TYPE") + " " + rs.getString("TABLE_SCHEM") + "."
            + rs.getString("TABLE_NAME"));
      }
    }
    return names;
  }

  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void productAndVersionAreMnestics(String how) throws SQLException {
    try (Connection c = connect(how)) {
      final DatabaseMetaData md = c.getMetaData();
      assertEquals("mnestic", md.getDatabaseProductName());
      assertEquals(dev.mnestic.jdbc.Driver.class.getPackage().getImplementationVersion() == null
          ? md.getDatabaseProductVersion() : dev.mnestic.jdbc.Driver.class.getPackage()
          .getImplementationVersion(), md.getDatabaseProductVersion());
      assertTrue(md.getDatabaseProductVersion().matches("\\d+\\.\\d+\\.\\d+.*"),
          md.getDatabaseProductVersion());
      assertEquals(md.getDatabaseProductVersion(),
          md.getDatabaseMajorVersion() + "." + md.getDatabaseMinorVersion() + ".0");
    }
  }

  /** Writable until setReadOnly(true); then every kind of write fails with 25006. */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void readOnlyOnlyWhenTheConnectionIs(String how) throws SQLException {
    try (Connection c = connect(how); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
      assertFalse(c.getMetaData().isReadOnly());
      assertFalse(c.isReadOnly());
      s.execute("INSERT INTO t VALUES (1)");
      c.setReadOnly(true);
      assertTrue(c.getMetaData().isReadOnly());
      for (String write : List.of("INSERT INTO t VALUES (2)", "UPDATE t SET id = 3",
          "DELETE FROM t", "MERGE INTO t USING (VALUES (5)) AS v (id) ON t.id = v.id"
              + " WHEN NOT MATCHED THEN INSERT (id) VALUES (v.id)",
          "CREATE TABLE u (a INT)", "DROP TABLE t")) {
        final SQLException e = assertThrows(SQLException.class, () -> s.execute(write), write);
        assertEquals("25006", e.getSQLState(), write + ": " + e.getMessage());
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t")) {
        assertTrue(rs.next());
        assertEquals(1, rs.getInt(1));
      }
      c.setReadOnly(false);
      assertFalse(c.getMetaData().isReadOnly());
      s.execute("INSERT INTO t VALUES (2)");
    }
  }

  /** Every level supportsTransactionIsolationLevel names is accepted, and only those. */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void isolationLevelsAsProvided(String how) throws SQLException {
    try (Connection c = connect(how)) {
      final DatabaseMetaData md = c.getMetaData();
      assertTrue(md.supportsTransactions());
      assertEquals(c.getTransactionIsolation(), md.getDefaultTransactionIsolation());
      assertEquals(Connection.TRANSACTION_READ_COMMITTED, md.getDefaultTransactionIsolation());
      for (int level : new int[] {Connection.TRANSACTION_NONE,
          Connection.TRANSACTION_READ_UNCOMMITTED, Connection.TRANSACTION_READ_COMMITTED,
          Connection.TRANSACTION_REPEATABLE_READ, Connection.TRANSACTION_SERIALIZABLE}) {
        if (md.supportsTransactionIsolationLevel(level)) {
          c.setTransactionIsolation(level);
        } else {
          final SQLException e = assertThrows(SQLException.class,
              () -> c.setTransactionIsolation(level), "level " + level);
          assertEquals("HY024", e.getSQLState());
        }
      }
      assertFalse(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_NONE));
      assertTrue(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_SERIALIZABLE));
    }
  }

  /** CREATE TABLE commits the open transaction, as dataDefinitionCausesTransactionCommit says. */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void ddlCommitsAsTheFlagSays(String how) throws SQLException {
    try (Connection c = connect(how); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE kept (id INT)");
      c.setAutoCommit(false);
      s.execute("INSERT INTO kept VALUES (1)");
      s.execute("CREATE TABLE other (id INT)");
      c.rollback();
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM kept")) {
        assertTrue(rs.next());
        assertEquals(c.getMetaData().dataDefinitionCausesTransactionCommit() ? 1 : 0,
            rs.getInt(1));
      }
      assertTrue(c.getMetaData().dataDefinitionCausesTransactionCommit());
      c.setAutoCommit(true);
    }
  }

  /** The flags say where ORDER BY puts NULLs, ascending and descending. */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void nullOrderingAsTheEngineSorts(String how) throws SQLException {
    try (Connection c = connect(how); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE n (x INT)");
      s.execute("INSERT INTO n VALUES (1), (NULL), (2)");
      final boolean firstAsc = firstIsNull(s, "SELECT x FROM n ORDER BY x ASC");
      final boolean firstDesc = firstIsNull(s, "SELECT x FROM n ORDER BY x DESC");
      final DatabaseMetaData md = c.getMetaData();
      assertEquals(firstAsc && firstDesc, md.nullsAreSortedAtStart());
      assertEquals(!firstAsc && !firstDesc, md.nullsAreSortedAtEnd());
      assertEquals(!firstAsc && firstDesc, md.nullsAreSortedHigh());
      assertEquals(firstAsc && !firstDesc, md.nullsAreSortedLow());
      assertEquals(1, List.of(md.nullsAreSortedAtStart(), md.nullsAreSortedAtEnd(),
          md.nullsAreSortedHigh(), md.nullsAreSortedLow()).stream().filter(b -> b).count());
    }
  }

  private static boolean firstIsNull(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertTrue(rs.next());
      rs.getInt(1);
      return rs.wasNull();
    }
  }

  /**
   * Names keep the case they were written in, as the flags say, so a tool that follows them
   * (sqlline's {@code !columns emp}) finds the table.
   */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void identifierCaseAsStored(String how) throws SQLException {
    try (Connection c = connect(how); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE emp (id INT PRIMARY KEY, Name VARCHAR(20))");
      final DatabaseMetaData md = c.getMetaData();
      assertTrue(md.storesMixedCaseIdentifiers());
      assertFalse(md.storesUpperCaseIdentifiers());
      assertFalse(md.storesLowerCaseIdentifiers());
      assertTrue(md.storesMixedCaseQuotedIdentifiers());
      // As a tool turns a name the user typed into a pattern, following the flags.
      final String typed = "emp";
      final String pattern = md.storesUpperCaseIdentifiers() ? typed.toUpperCase()
          : md.storesLowerCaseIdentifiers() ? typed.toLowerCase() : typed;
      assertEquals(List.of("id", "Name"), column(md.getColumns(null, null, pattern, null),
          "COLUMN_NAME"));
      assertEquals(List.of("emp"), column(md.getTables(null, null, pattern, null),
          "TABLE_NAME"));
    }
  }

  /**
   * getTables lists the store's tables and the standing queries, ordered by type, schema and
   * name, each of a type getTableTypes lists; a name is matched as a name ({@code a_b} is not
   * {@code axb}).
   */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void tablesOrderedAndTyped(String how) throws SQLException {
    try (Connection c = connect(how); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE zeta (id INT, ts TIMESTAMP, latency DOUBLE)");
      s.execute("CREATE TABLE axb (id INT)");
      s.execute("CREATE TABLE a_b (k INT)");
      s.execute("CREATE STANDING QUERY p90 AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.9) AS p FROM zeta"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.01");
      final DatabaseMetaData md = c.getMetaData();
      final List<String> listed = tables(md);
      assertEquals(List.of("TABLE PUBLIC.a_b", "TABLE PUBLIC.axb", "TABLE PUBLIC.zeta",
          "VIEW STANDING.p90"), listed);
      final List<String> sorted = new ArrayList<>(listed);
      sorted.sort(Comparator.naturalOrder());
      assertEquals(sorted, listed);
      final List<String> types = column(md.getTableTypes(), "TABLE_TYPE");
      for (String table : listed) {
        assertTrue(types.contains(table.substring(0, table.indexOf(' '))), table + " " + types);
      }
      // Exactly a_b: by name in SQL, and in getColumns with the '_' escaped.
      try (ResultSet rs = s.executeQuery("SELECT * FROM a_b")) {
        assertEquals("k", rs.getMetaData().getColumnName(1));
      }
      final String escape = md.getSearchStringEscape();
      assertEquals(List.of("k"), column(md.getColumns(null, "PUBLIC", "a" + escape + "_b", null),
          "COLUMN_NAME"));
    }
  }

  /** A standing query's columns, in its schema or with no schema named, with plain type names. */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void standingQueryColumns(String how) throws SQLException {
    try (Connection c = connect(how); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE lat (ts TIMESTAMP NOT NULL, latency DOUBLE)");
      s.execute("CREATE STANDING QUERY p95 AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.95) AS p FROM lat"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.01");
      final DatabaseMetaData md = c.getMetaData();
      for (String schema : new String[] {null, "STANDING"}) {
        try (ResultSet rs = md.getColumns(null, schema, "p95", null)) {
          final List<String> columns = new ArrayList<>();
          while (rs.next()) {
            columns.add(rs.getString("TABLE_SCHEM") + " " + rs.getString("COLUMN_NAME") + " "
                + rs.getString("TYPE_NAME") + " " + rs.getInt("DATA_TYPE") + " "
                + rs.getString("IS_NULLABLE"));
          }
          assertEquals(List.of("STANDING w TIMESTAMP 93 NO", "STANDING p DOUBLE 8 YES"),
              columns, "schema " + schema);
        }
      }
    }
  }

  /** The primary key's and UNIQUE constraints' indexes, as the store has them. */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void indexesFromTheStore(String how) throws SQLException {
    try (Connection c = connect(how); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE person (id INT PRIMARY KEY, email VARCHAR(40) UNIQUE, age INT)");
      final List<String> indexed = new ArrayList<>();
      try (ResultSet rs = c.getMetaData().getIndexInfo(null, "PUBLIC", "person", false, true)) {
        while (rs.next()) {
          indexed.add(rs.getString("COLUMN_NAME") + " " + rs.getBoolean("NON_UNIQUE"));
        }
      }
      indexed.sort(Comparator.naturalOrder());
      assertEquals(List.of("email false", "id false"), indexed);
      assertEquals(List.of("id"), column(c.getMetaData().getPrimaryKeys(null, "PUBLIC",
          "person"), "COLUMN_NAME"));
    }
  }

  /**
   * SQL functions, mnestic's among them, and none of Calcite's internal operators; each one
   * listed once, by name.
   */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void functionsCallableAndNoInternals(String how) throws SQLException {
    try (Connection c = connect(how)) {
      final List<String> names = column(c.getMetaData().getFunctions(null, null, "%"),
          "FUNCTION_NAME");
      for (String name : List.of("PARETO_MIN", "PARETO_MAX", "APPROX_QUANTILE", "UPPER",
          "COUNT")) {
        assertTrue(names.contains(name), name + " in " + names);
      }
      assertTrue(names.stream().allMatch(n -> n.matches("[A-Z][A-Z0-9_]*")), names.toString());
      final List<String> sorted = new ArrayList<>(names);
      sorted.sort(Comparator.naturalOrder());
      assertEquals(sorted, names);
      assertEquals(names.stream().distinct().count(), names.size());
    }
  }

  /**
   * DDL of another connection, or of HSQLDB itself, shows at the next metadata call of a
   * connection that already listed the tables: created, dropped, a standing query added.
   */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void freshAfterDdlElsewhere(String how) throws SQLException {
    try (Connection c = connect(how); Connection other = connect("embedded");
         Connection store = hsqldb(); Statement s = other.createStatement();
         Statement h = store.createStatement()) {
      final DatabaseMetaData md = c.getMetaData();
      assertEquals(List.of(), tables(md));
      s.execute("CREATE TABLE made (id INT, ts TIMESTAMP, v DOUBLE)");
      assertEquals(List.of("TABLE PUBLIC.made"), tables(md));
      assertEquals(List.of("id", "ts", "v"), column(md.getColumns(null, null, "made", null),
          "COLUMN_NAME"));
      h.execute("CREATE TABLE \"byHsqldb\" (k INT PRIMARY KEY)");
      assertEquals(List.of("TABLE PUBLIC.byHsqldb", "TABLE PUBLIC.made"), tables(md));
      try (Statement mine = c.createStatement();
           ResultSet rs = mine.executeQuery("SELECT COUNT(*) FROM byHsqldb")) {
        assertTrue(rs.next());
        assertEquals(0, rs.getInt(1));
      }
      s.execute("CREATE STANDING QUERY pv AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(v, 0.5) AS m FROM made"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.01");
      assertEquals(List.of("TABLE PUBLIC.byHsqldb", "TABLE PUBLIC.made", "VIEW STANDING.pv"),
          tables(md));
      s.execute("DROP STANDING QUERY pv");
      h.execute("DROP TABLE \"byHsqldb\"");
      assertEquals(List.of("TABLE PUBLIC.made"), tables(md));
      assertEquals(List.of(), column(md.getColumns(null, null, "byHsqldb", null),
          "COLUMN_NAME"));
    }
  }

  /**
   * DROP TABLE of a table a standing query reads fails, as PostgreSQL's of a view's table
   * (2BP01), naming the query; the table, its rows and the query stay, listed with their
   * columns. Dropped the standing query, the table drops, and neither is listed.
   */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void dropTableReadByStandingQueryRefused(String how) throws SQLException {
    try (Connection c = connect(how); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE lat (ts TIMESTAMP NOT NULL, latency DOUBLE)");
      s.execute("INSERT INTO lat VALUES (TIMESTAMP '2024-01-01 00:00:00', 1.5)");
      s.execute("CREATE STANDING QUERY p50 AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.5) AS p FROM lat"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.01");
      final SQLException e = assertThrows(SQLException.class,
          () -> s.execute("DROP TABLE \"LAT\""));
      assertEquals("2BP01", e.getSQLState());
      assertTrue(e.getMessage().contains("cannot drop table lat because standing query p50"
          + " reads it"), e.getMessage());
      final DatabaseMetaData md = c.getMetaData();
      assertEquals(List.of("TABLE PUBLIC.lat", "VIEW STANDING.p50"), tables(md));
      assertEquals(List.of("w", "p"), column(md.getColumns(null, "STANDING", "p50", null),
          "COLUMN_NAME"));
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM lat")) {
        assertTrue(rs.next());
        assertEquals(1, rs.getInt(1));
      }
      s.execute("DROP STANDING QUERY p50");
      s.execute("DROP TABLE lat");
      assertEquals(List.of(), tables(md));
    }
  }

  /**
   * Each call Avatica's protocol has no request for answers over the server as embedded (the
   * server calls its embedded connection's): the same columns and rows; foreign keys made
   * through HSQLDB's own driver among them.
   */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void serverCallsAnswerAsEmbedded(String how) throws SQLException {
    try (Connection store = hsqldb(); Statement h = store.createStatement()) {
      h.execute("CREATE TABLE \"dept\" (\"id\" INT PRIMARY KEY)");
      h.execute("CREATE TABLE \"emp\" (\"id\" INT PRIMARY KEY, \"dept\" INT REFERENCES"
          + " \"dept\" (\"id\"))");
    }
    try (Connection c = connect(how); Connection e = connect("embedded")) {
      final List<MetaDataCall> calls = List.of(
          md -> md.getImportedKeys(null, null, "emp"),
          md -> md.getExportedKeys(null, "PUBLIC", "DEPT"),
          md -> md.getCrossReference(null, null, "dept", null, null, "emp"),
          md -> md.getBestRowIdentifier(null, null, "emp", DatabaseMetaData.bestRowSession,
              false),
          md -> md.getVersionColumns(null, null, "emp"),
          md -> md.getPseudoColumns(null, null, "%", "%"),
          md -> md.getProcedures(null, null, "%"),
          md -> md.getProcedureColumns(null, null, "%", "%"),
          md -> md.getFunctionColumns(null, null, "%", "%"),
          md -> md.getSuperTables(null, null, "%"),
          md -> md.getSuperTypes(null, null, "%"),
          md -> md.getUDTs(null, null, "%", new int[] {java.sql.Types.STRUCT}),
          md -> md.getAttributes(null, null, "%", "%"),
          md -> md.getTablePrivileges(null, null, "%"),
          md -> md.getColumnPrivileges(null, null, "emp", "%"),
          DatabaseMetaData::getClientInfoProperties);
      for (int i = 0; i < calls.size(); i++) {
        assertEquals(answer(calls.get(i).on(e.getMetaData())),
            answer(calls.get(i).on(c.getMetaData())), "call " + i);
      }
      assertEquals(List.of("dept"), column(c.getMetaData().getImportedKeys(null, null, "EMP"),
          "PKTABLE_NAME"));
      assertEquals(List.of("dept"), column(c.getMetaData().getExportedKeys(null, null, "dept"),
          "FKCOLUMN_NAME"));
    } finally {
      // The referencing table first: the store refuses to drop a referenced one.
      try (Connection store = hsqldb(); Statement h = store.createStatement()) {
        h.execute("DROP TABLE \"emp\"");
        h.execute("DROP TABLE \"dept\"");
      }
    }
  }

  private interface MetaDataCall {
    ResultSet on(DatabaseMetaData md) throws SQLException;
  }

  /** The column labels and then the rows of {@code rs}. */
  private static List<String> answer(ResultSet rs) throws SQLException {
    final List<String> lines = new ArrayList<>();
    try (rs) {
      final List<String> labels = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        labels.add(rs.getMetaData().getColumnLabel(i));
      }
      lines.add(labels.toString());
      while (rs.next()) {
        final List<String> row = new ArrayList<>();
        for (int i = 1; i <= labels.size(); i++) {
          row.add(rs.getString(i));
        }
        lines.add(row.toString());
      }
    }
    return lines;
  }

  /** A string column reports its declared length; another string the longest there can be. */
  @ParameterizedTest @ValueSource(strings = {"embedded", "server"})
  void resultColumnLengths(String how) throws SQLException {
    try (Connection c = connect(how); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE words (w VARCHAR(20), b VARBINARY(4))");
      s.execute("INSERT INTO words VALUES ('hello', X'0102')");
      try (ResultSet rs = s.executeQuery("SELECT w, b, 'abc' AS lit, UPPER(w) AS u FROM words")) {
        final ResultSetMetaData md = rs.getMetaData();
        assertEquals(20, md.getPrecision(1));
        assertEquals(20, md.getColumnDisplaySize(1));
        assertEquals(4, md.getPrecision(2));
        assertEquals(8, md.getColumnDisplaySize(2));
        assertEquals(3, md.getPrecision(3));
        assertTrue(md.getPrecision(4) >= 20 && md.getColumnDisplaySize(4) >= 20,
            md.getPrecision(4) + " " + md.getColumnDisplaySize(4));
      }
      try (var p = c.prepareStatement("SELECT w FROM words")) {
        assertEquals(20, Objects.requireNonNull(p.getMetaData()).getPrecision(1));
      }
    }
  }
}
