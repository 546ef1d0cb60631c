package dev.mnestic.standing;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Standing queries are the store's, like views: kept in its catalog, seen by every connection
 * (and after a file store is reopened), dropped for everyone, written in the session's
 * transaction, and planned together whichever connection made them. mnestic's DROP TABLE
 * refuses a table a standing query reads (DatabaseMetaDataTest); one whose table HSQLDB itself
 * dropped fails when read, naming the place in its definition, and answers again once the table
 * is back. Through real JDBC connections of the embedded driver.
 */
class StandingQueryCatalogTest {
  /** {@code name}: each minute's p90 of {@code table} ({@link TwoMinutes}: 90 and 900). */
  private static String p90(String name, String table) {
    return "CREATE STANDING QUERY " + name + " AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
        + "\n  APPROX_QUANTILE(latency, 0.9) AS p90 FROM " + table
        + "\n  GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.01";
  }

  /** Each window's p90, checked against the exact 90 and 900 within the target. */
  private static void assertP90(Statement s, String name) throws SQLException {
    final List<Double> values = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT * FROM " + name)) {
      while (rs.next()) {
        values.add(rs.getDouble(2));
      }
    }
    assertEquals(2, values.size(), name);
    assertTrue(Math.abs(values.get(0) - 90) <= 0.9 && Math.abs(values.get(1) - 900) <= 9,
        name + ": " + values);
  }

  private static String messages(Throwable e) {
    final StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append('\n');
    }
    return b.toString();
  }

  private static Dashboard dashboard(Connection c) throws SQLException {
    return Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());
  }

  /** Test case for #6: one connection's standing query is every connection's, DROP too. */
  @Test void everyConnectionSeesTheStoresStandingQueries() throws SQLException {
    final String url = "jdbc:mnestic:db=mem:standing-catalog-two";
    try (Connection a = DriverManager.getConnection(url);
         Connection b = DriverManager.getConnection(url);
         Statement sa = a.createStatement();
         Statement sb = b.createStatement()) {
      TwoMinutes.create(sa, "requests");
      sa.execute(p90("p90", "requests"));
      assertP90(sb, "p90");
      assertP90(sb, "STANDING.p90");
      final SQLException twice = assertThrows(SQLException.class,
          () -> sb.execute(p90("P90", "requests")));
      assertTrue(messages(twice).contains("standing query p90 exists"), messages(twice));
      // Planned together: b's evaluation answers a's second query too.
      sb.execute(p90("again", "requests"));
      final Dashboard d = dashboard(a);
      assertP90(sa, "again");
      assertP90(sa, "p90");
      assertEquals(1, d.evaluations(), "one pass answered both");
      // Another connection's CREATE OR REPLACE is what the same text reads next (the plan a
      // connection kept for the text is not reused over the old definition).
      sb.execute(p90("again", "requests").replace("CREATE", "CREATE OR REPLACE")
          .replace("0.9)", "0.5)"));
      final List<Double> medians = new ArrayList<>();
      try (ResultSet rs = sa.executeQuery("SELECT * FROM again")) {
        while (rs.next()) {
          medians.add(rs.getDouble(2));
        }
      }
      // The ⌈0.5 · 100⌉ = 50th of each minute's: 50 and 500.
      assertTrue(medians.size() == 2 && Math.abs(medians.get(0) - 50) <= 0.5
          && Math.abs(medians.get(1) - 500) <= 5, medians.toString());
      sb.execute("DROP STANDING QUERY p90");
      final SQLException gone = assertThrows(SQLException.class,
          () -> sa.executeQuery("SELECT * FROM p90"));
      assertTrue(messages(gone).contains("p90"), messages(gone));
      sa.execute("DROP STANDING QUERY again");
      sa.execute("DROP TABLE requests");
    }
  }

  /** Test case for #6: CREATE and DROP STANDING QUERY are part of the session's transaction. */
  @Test void registrationsCommitAndRollBackWithTheTransaction() throws SQLException {
    final String url = "jdbc:mnestic:db=mem:standing-catalog-tx";
    try (Connection a = DriverManager.getConnection(url);
         Connection b = DriverManager.getConnection(url);
         Statement sa = a.createStatement();
         Statement sb = b.createStatement()) {
      TwoMinutes.create(sa, "requests");
      a.setAutoCommit(false);
      sa.execute(p90("p90", "requests"));
      assertP90(sa, "p90");
      assertThrows(SQLException.class, () -> sb.executeQuery("SELECT * FROM p90"));
      a.rollback();
      assertThrows(SQLException.class, () -> sa.executeQuery("SELECT * FROM p90"));
      sa.execute(p90("p90", "requests"));
      a.commit();
      assertP90(sb, "p90");
      sa.execute("DROP STANDING QUERY p90");
      a.rollback();
      assertP90(sb, "p90");
      assertP90(sa, "p90");
      a.setAutoCommit(true);
      sb.execute("DROP STANDING QUERY p90");
      sb.execute("DROP TABLE requests");
    }
  }

  /** Test case for #6: a file store keeps its standing queries when closed and reopened. */
  @Test void aReopenedFileStoreKeepsItsStandingQueries(@TempDir Path dir) throws SQLException {
    final String url = "jdbc:mnestic:db=" + dir.resolve("store");
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      TwoMinutes.create(s, "requests");
      s.execute(p90("p90", "requests"));
      s.execute(p90("other", "requests"));
    }
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      assertP90(s, "p90");
      try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT * FROM other")) {
        assertTrue(rs.next());
        assertTrue(rs.getString(1).startsWith("standing queries\n  p90: p90.2\n  other: other.2\n"),
            rs.getString(1));
      }
      s.execute("DROP STANDING QUERY other");
    }
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      assertP90(s, "p90");
      assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM other"));
      // The catalog is no table of the store's.
      try (ResultSet rs = c.getMetaData().getTables(null, null, "%", null)) {
        while (rs.next()) {
          assertTrue(!rs.getString("TABLE_NAME").equalsIgnoreCase("STANDING_QUERY"),
              rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
        }
      }
    }
  }

  /**
   * Test case for #6: a standing query whose table is dropped (by HSQLDB's own driver: mnestic's
   * DROP TABLE refuses it) fails when read, in this
   * connection and a new one, naming the place in its definition; the other standing queries
   * still answer, and it answers again once the table is back.
   */
  @Test void aStandingQueryOfADroppedTableFailsWhenRead() throws SQLException {
    final String url = "jdbc:mnestic:db=mem:standing-catalog-dropped";
    try (Connection c = DriverManager.getConnection(url);
         Connection before = DriverManager.getConnection(url);
         Statement s = c.createStatement();
         Statement sBefore = before.createStatement()) {
      TwoMinutes.create(s, "requests");
      TwoMinutes.create(s, "other");
      s.execute(p90("p90", "requests"));
      s.execute(p90("kept", "other"));
      assertP90(s, "p90");
      try (Connection store = DriverManager.getConnection(
               "jdbc:hsqldb:mem:standing-catalog-dropped", "SA", "");
           Statement h = store.createStatement()) {
        h.execute("DROP TABLE \"requests\"");
      }
      try (Connection after = DriverManager.getConnection(url);
           Statement sAfter = after.createStatement()) {
        // One that read it before, one open before that never did, one opened after.
        for (Statement reader : List.of(s, sBefore, sAfter)) {
          final SQLException e = assertThrows(SQLException.class,
              () -> reader.executeQuery("SELECT * FROM p90"));
          assertTrue(messages(e).contains("standing query p90 cannot be read: At line 2,"
              + " column 45: no table requests in the store"), messages(e));
          assertP90(reader, "kept");
        }
      }
      TwoMinutes.create(s, "requests");
      assertP90(s, "p90");
      try (Connection after = DriverManager.getConnection(url);
           Statement sAfter = after.createStatement()) {
        assertP90(sAfter, "p90");
      }
      s.execute("DROP STANDING QUERY p90");
      s.execute("DROP STANDING QUERY kept");
      s.execute("DROP TABLE requests");
      s.execute("DROP TABLE other");
    }
  }
}
