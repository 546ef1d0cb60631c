package dev.mnestic.jdbc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

import static dev.mnestic.jdbc.Rows.query;
import static dev.mnestic.jdbc.Rows.row;
import static dev.mnestic.jdbc.Rows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DDL, DML and transactions through one embedded connection. */
class DdlDmlTest {
  private Connection c;

  @BeforeEach void open() throws SQLException {
    c = DriverManager.getConnection("jdbc:mnestic:");
    update(c, "CREATE TABLE memory (id VARCHAR(10) PRIMARY KEY, kind VARCHAR DEFAULT 'episodic',"
        + " importance DOUBLE NOT NULL, at TIMESTAMP, tags VARCHAR(20) ARRAY)");
  }

  @AfterEach void close() throws SQLException {
    c.close();
  }

  @Test void namesKeepTheirCaseAndMatchIgnoringIt() throws SQLException {
    update(c, "INSERT INTO memory (id, importance) VALUES ('m1', 0.6)");
    assertEquals(List.of(row("m1", 0.6)), query(c, "SELECT ID, Importance FROM MEMORY"));
    assertEquals(List.of(row("m1")), query(c, "SELECT \"id\" FROM \"memory\""));
    final List<String> tables = new java.util.ArrayList<>();
    try (var rs = c.getMetaData().getTables(null, "PUBLIC", null, null)) {
      while (rs.next()) {
        tables.add(rs.getString("TABLE_NAME"));
      }
    }
    assertEquals(List.of("memory"), tables);
    final SQLException e = assertThrows(SQLException.class,
        () -> update(c, "CREATE TABLE MEMORY (x INT)"));
    assertTrue(e.getMessage().contains("line 1, column 14"), e.getMessage());
    assertTrue(e.getMessage().contains("'memory' already exists"), e.getMessage());
    update(c, "CREATE TABLE IF NOT EXISTS Memory (x INT)");
  }

  @Test void insertUsesDefaultsAndRejectsNulls() throws SQLException {
    assertEquals(2, update(c, "INSERT INTO memory (id, importance, tags) VALUES "
        + "('m1', 0.5, ARRAY['a', 'b']), ('m2', 0.75, NULL)"));
    assertEquals(List.of(row("m1", "episodic", 0.5, List.of("a", "b")),
            row("m2", "episodic", 0.75, null)),
        query(c, "SELECT id, kind, importance, tags FROM memory ORDER BY id"));
    final SQLException e = assertThrows(SQLException.class,
        () -> update(c, "INSERT INTO memory (id) VALUES ('m3')"));
    assertTrue(e.getMessage().toLowerCase().contains("importance"), e.getMessage());
  }

  @Test void insertSelectUpdateDeleteAndMerge() throws SQLException {
    update(c, "INSERT INTO memory (id, importance, at) VALUES ('m1', 0.5, TIMESTAMP '2025-07-01 10:00:00'),"
        + " ('m2', 0.8, NULL), ('m3', 0.9, NULL)");
    // INSERT ... SELECT whose source Calcite computes (an aggregate over a join).
    assertEquals(1, update(c, "INSERT INTO memory (id, importance) SELECT 'avg', AVG(a.importance)"
        + " FROM memory a JOIN memory b ON a.id = b.id"));
    assertEquals(List.of(row("avg", 0.7333333333333334)),
        query(c, "SELECT id, importance FROM memory WHERE id = 'avg'"));
    assertEquals(2, update(c, "UPDATE memory SET importance = importance / 2, kind = 'halved'"
        + " WHERE importance > (SELECT MAX(importance) - 0.15 FROM memory)"));
    assertEquals(1, update(c, "DELETE FROM memory WHERE id IN (SELECT id FROM memory WHERE at IS NOT NULL)"));
    assertEquals(List.of(row("avg", "episodic", 0.7333333333333334),
            row("m2", "halved", 0.4), row("m3", "halved", 0.45)),
        query(c, "SELECT id, kind, importance FROM memory ORDER BY id"));
    // MERGE: update matched rows, insert the others; names resolve ignoring case.
    assertEquals(2, update(c, "MERGE INTO MEMORY t USING (VALUES ('m2', 0.1), ('m9', 0.2)) AS s (id, imp)"
        + " ON t.ID = s.id WHEN MATCHED THEN UPDATE SET importance = s.imp"
        + " WHEN NOT MATCHED THEN INSERT (id, importance) VALUES (s.id, s.imp)"));
    assertEquals(List.of(row("m2", "halved", 0.1), row("m9", "episodic", 0.2)),
        query(c, "SELECT id, kind, importance FROM memory WHERE id IN ('m2', 'm9') ORDER BY id"));
    // An insert-only MERGE leaves matched rows alone.
    assertEquals(1, update(c, "MERGE INTO memory t USING (VALUES ('m2', 0.3), ('m10', 0.4)) AS s (id, imp)"
        + " ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, importance) VALUES (s.id, s.imp)"));
    assertEquals(List.of(row("m10", 0.4), row("m2", 0.1)),
        query(c, "SELECT id, importance FROM memory WHERE id IN ('m2', 'm10') ORDER BY id"));
  }

  /**
   * A table without a primary key is updated and deleted from by all its columns, NULLs and
   * every type included; of two equal rows both change, as HSQLDB's own UPDATE would change them.
   */
  @Test void updateAndDeleteWithoutPrimaryKey() throws SQLException {
    update(c, "CREATE TABLE nk (i INT, v VARCHAR(5), d DOUBLE, m DECIMAL(8, 2),"
        + " t TIMESTAMP(3), da DATE, b BOOLEAN)");
    // one row a statement: Calcite's VALUES of a DOUBLE literal and a NULL trips an assertion
    update(c, "INSERT INTO nk VALUES (1, 'x', 1.5, 10.25, TIMESTAMP '2026-11-30 08:00:00.125',"
        + " DATE '2026-11-30', TRUE)");
    update(c, "INSERT INTO nk VALUES (2, NULL, NULL, NULL, NULL, NULL, NULL)");
    for (int i = 0; i < 2; i++) {
      update(c, "INSERT INTO nk VALUES (3, 'z', 3.5, 0.01, TIMESTAMP '1500-03-01 12:00:00',"
          + " DATE '1400-01-01', FALSE)");
    }
    assertEquals(1, update(c, "UPDATE nk SET v = 'y' WHERE i = 1"));
    assertEquals(1, update(c, "UPDATE nk SET d = 2.5 WHERE i = 2"));
    update(c, "UPDATE nk SET m = 0.02 WHERE i = 3");
    assertEquals(List.of(row(1, "y", 1.5), row(2, null, 2.5), row(3, "z", 3.5), row(3, "z", 3.5)),
        query(c, "SELECT i, v, d FROM nk ORDER BY i"));
    assertEquals(List.of(row(0.02), row(0.02)),
        query(c, "SELECT CAST(m AS DOUBLE) FROM nk WHERE i = 3"));
    update(c, "DELETE FROM nk WHERE i = 3");
    update(c, "DELETE FROM nk WHERE d = 2.5");
    assertEquals(List.of(row(1, "y")), query(c, "SELECT i, v FROM nk"));
  }

  @Test void tooLongStringsAreRejectedNotCut() throws SQLException {
    final SQLException insert = assertThrows(SQLException.class, () -> update(c,
        "INSERT INTO memory (id, importance) VALUES ('m1', 0.5), ('much-too-long', 0.5)"));
    assertTrue(insert.getMessage().contains("right truncation"), insert.getMessage());
    update(c, "INSERT INTO memory (id, importance) VALUES ('m1', 0.5)");
    final SQLException set = assertThrows(SQLException.class, () -> update(c,
        "UPDATE memory SET id = id || '-far-too-long'"));
    assertTrue(set.getMessage().contains("right truncation"), set.getMessage());
    assertEquals(List.of(row("m1")), query(c, "SELECT id FROM memory"));
  }

  @Test void failedStatementWritesNothing() throws SQLException {
    update(c, "INSERT INTO memory (id, importance) VALUES ('m1', 0.5)");
    final SQLException e = assertThrows(SQLException.class, () -> update(c,
        "INSERT INTO memory (id, importance) VALUES ('m2', 0.1), ('m1', 0.2)"));
    assertTrue(e.getMessage().contains("unique constraint"), e.getMessage());
    assertEquals(List.of(row("m1")), query(c, "SELECT id FROM memory"));
  }

  @Test void transactionsCommitAndRollBack() throws SQLException {
    assertTrue(c.getAutoCommit());
    c.setAutoCommit(false);
    update(c, "INSERT INTO memory (id, importance) VALUES ('kept', 0.5)");
    c.commit();
    update(c, "INSERT INTO memory (id, importance) VALUES ('dropped', 0.5)");
    update(c, "UPDATE memory SET importance = 1.0 WHERE id = 'kept'");
    assertEquals(2, query(c, "SELECT * FROM memory").size(), "own writes are visible");
    c.rollback();
    assertEquals(List.of(row("kept", 0.5)), query(c, "SELECT id, importance FROM memory"));
    // A failed statement inside a transaction undoes only itself.
    update(c, "INSERT INTO memory (id, importance) VALUES ('second', 0.5)");
    assertThrows(SQLException.class, () -> update(c,
        "INSERT INTO memory (id, importance) VALUES ('third', 0.1), ('kept', 0.2)"));
    c.commit();
    assertEquals(List.of(row("kept"), row("second")), query(c, "SELECT id FROM memory ORDER BY id"));
  }

  @Test void uncommittedWritesAreInvisibleToOtherConnections(@TempDir Path dir) throws SQLException {
    final String url = "jdbc:mnestic:db=" + dir.resolve("store");
    try (Connection a = DriverManager.getConnection(url);
         Connection b = DriverManager.getConnection(url)) {
      update(a, "CREATE TABLE t (x INT PRIMARY KEY)");
      a.setAutoCommit(false);
      update(a, "INSERT INTO t VALUES (1)");
      assertTrue(query(b, "SELECT x FROM t").isEmpty());
      a.commit();
      assertEquals(List.of(row(1)), query(b, "SELECT x FROM t"));
    }
  }

  @Test void dropTable() throws SQLException {
    update(c, "DROP TABLE Memory");
    final SQLException e = assertThrows(SQLException.class, () -> query(c, "SELECT * FROM memory"));
    assertTrue(e.getMessage().contains("Object 'memory' not found"), e.getMessage());
    final SQLException drop = assertThrows(SQLException.class, () -> update(c, "DROP TABLE memory"));
    assertTrue(drop.getMessage().contains("line 1, column 12"), drop.getMessage());
    update(c, "DROP TABLE IF EXISTS memory");
  }

  @Test void badDdlNamesThePlace() throws SQLException {
    final SQLException type = assertThrows(SQLException.class,
        () -> update(c, "CREATE TABLE t (a INT,\n b BLOBBY)"));
    assertTrue(type.getMessage().contains("line 2, column 4"), type.getMessage());
    final SQLException key = assertThrows(SQLException.class,
        () -> update(c, "CREATE TABLE t (a INT, PRIMARY KEY (b))"));
    assertTrue(key.getMessage().contains("Column 'b' not found"), key.getMessage());
    final SQLException parse = assertThrows(SQLException.class,
        () -> update(c, "CREATE TABLE t (a INT,, b INT)"));
    assertTrue(parse.getMessage().contains("line 1, column 23"), parse.getMessage());
    assertFalse(query(c, "SELECT * FROM memory").iterator().hasNext());
  }

  /**
   * Store scans read TIMESTAMP columns as the store keeps them (without JDBC's Calendar
   * conversions): every value, before 1582, before 1970, to the millisecond, NULL, reads back
   * as HSQLDB's own text of it, through a scan and through a computation on it.
   */
  @Test void timestampsReadAsStored() throws SQLException {
    update(c, "INSERT INTO memory (id, importance, at) VALUES"
        + " ('a', 1, TIMESTAMP '1000-01-01 00:00:00'), ('b', 1, TIMESTAMP '1969-12-31 23:59:59.999'),"
        + " ('c', 1, TIMESTAMP '2026-03-29 02:30:00.123'), ('d', 1, TIMESTAMP '2026-11-30 04:05:06.7'),"
        + " ('e', 1, NULL)");
    final List<List<Object>> stored = new java.util.ArrayList<>();
    final Connection store = dev.mnestic.store.Session.of(
        c.unwrap(org.apache.calcite.jdbc.CalciteConnection.class).getRootSchema()).getConnection();
    try (var s = store.createStatement(); var rs = s.executeQuery(
        "SELECT \"id\", CAST(\"at\" AS VARCHAR(30)), CAST(\"at\" + INTERVAL '1' SECOND AS VARCHAR(30))"
            + " FROM \"PUBLIC\".\"memory\" ORDER BY \"id\"")) {
      while (rs.next()) {
        stored.add(java.util.Arrays.asList(rs.getString(1), text(rs.getString(2)), text(rs.getString(3))));
      }
    }
    final List<List<Object>> read = new java.util.ArrayList<>();
    try (var s = c.createStatement(); var rs = s.executeQuery(
        "SELECT id, at, at + INTERVAL '1' SECOND FROM memory ORDER BY id")) {
      while (rs.next()) {
        read.add(java.util.Arrays.asList(rs.getString(1), text(rs.getTimestamp(2)), text(rs.getTimestamp(3))));
      }
    }
    assertEquals(5, stored.size());
    assertEquals(stored, read);
  }

  /**
   * The store's table names read from its catalog ({@code StoreCatalog.tableNames}) are what
   * HSQLDB's own {@code DatabaseMetaData.getTables} answers for base tables of the schema: after
   * tables of odd names, a view, a temporary table, a table of another schema, a rename and a drop.
   */
  @Test void tableNamesAsTheStoresMetadata() throws SQLException {
    final dev.mnestic.store.Session session = dev.mnestic.store.Session.of(
        c.unwrap(org.apache.calcite.jdbc.CalciteConnection.class).getRootSchema());
    final Connection store = session.getConnection();
    final List<String> ddl = List.of("CREATE TABLE \"a_b\" (x INT)", "CREATE TABLE \"axb\" (x INT)",
        "CREATE TABLE \"Zed\" (x INT)", "CREATE TABLE \"zed\" (x INT)",
        "CREATE CACHED TABLE \"c%d\" (x INT)", "CREATE VIEW \"v\" AS SELECT x FROM \"axb\"",
        "CREATE GLOBAL TEMPORARY TABLE \"t\" (x INT)", "CREATE SCHEMA other",
        "CREATE TABLE other.\"elsewhere\" (x INT)", "ALTER TABLE \"Zed\" RENAME TO \"Zee\"",
        "DROP TABLE \"axb\" CASCADE");
    for (String sql : ddl) {
      try (var s = store.createStatement()) {
        s.execute(sql);
      }
      final List<String> expected = new java.util.ArrayList<>();
      try (var rs = store.getMetaData().getTables(null, "PUBLIC", null, new String[] {"TABLE"})) {
        while (rs.next()) {
          expected.add(rs.getString("TABLE_NAME"));
        }
      }
      java.util.Collections.sort(expected);
      assertEquals(expected, dev.mnestic.store.StoreCatalog.tableNames(session), sql);
    }
    assertTrue(dev.mnestic.store.StoreCatalog.tableNames(session).containsAll(
        List.of("a_b", "Zee", "zed", "c%d")));
  }

  /** A timestamp's text to the millisecond, trailing zeros of its fraction dropped. */
  private static String text(Object t) {
    return t == null ? null : t.toString().replaceFirst("\\.?0*$", "");
  }
}
