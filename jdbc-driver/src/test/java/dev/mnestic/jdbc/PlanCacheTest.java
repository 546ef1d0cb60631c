package dev.mnestic.jdbc;

import dev.mnestic.store.StoreLocation;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.mnestic.jdbc.Rows.query;
import static dev.mnestic.jdbc.Rows.row;
import static dev.mnestic.jdbc.Rows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plan cache ({@link PlanCache}): a statement text run again on a fresh statement reuses its
 * plan (a hit, counted), gives the answers of the data then, and is planned again after any
 * catalog change, whoever made it.
 */
class PlanCacheTest {
  private static final String SKYLINE = "SELECT name FROM hotel SKYLINE OF price MIN, dist MIN"
      + " ORDER BY name";

  private String store;
  private Connection c;

  @BeforeEach void open() throws SQLException {
    store = "plan-cache-" + UUID.randomUUID();
    c = DriverManager.getConnection("jdbc:mnestic:db=mem:" + store);
    update(c, "CREATE TABLE hotel (name VARCHAR(10) PRIMARY KEY, price INT, dist INT)");
    update(c, "INSERT INTO hotel VALUES ('a', 100, 5), ('b', 80, 7), ('c', 120, 6)");
  }

  @AfterEach void close() throws SQLException {
    c.close();
  }

  /** Runs {@code sql} on a fresh statement; returns its rows and whether it was a cache hit. */
  private Run run(String sql) throws SQLException {
    final long before = PlanCache.hits(c);
    final List<List<Object>> rows = query(c, sql);
    return new Run(rows, PlanCache.hits(c) - before == 1);
  }

  private record Run(List<List<Object>> rows, boolean hit) {
  }

  @Test void repeatedTextIsAHitAndSeesNewRows() throws SQLException {
    final Run first = run(SKYLINE);
    assertEquals(List.of(row("a"), row("b")), first.rows());
    assertTrue(!first.hit(), "first preparation plans");
    update(c, "INSERT INTO hotel VALUES ('d', 70, 4)");
    final Run second = run(SKYLINE);
    assertTrue(second.hit(), "the same text again reuses the plan");
    assertEquals(List.of(row("d")), second.rows());
    // DML is kept too, and runs again with its effect each time.
    for (int i = 0; i < 2; i++) {
      update(c, "UPDATE hotel SET price = price + 1 WHERE name = 'd'");
    }
    assertEquals(List.of(row(72)), query(c, "SELECT price FROM hotel WHERE name = 'd'"));
    assertEquals(List.of(row("d")), run(SKYLINE).rows());
  }

  @Test void preparedStatementsShareThePlanNotTheParameters() throws SQLException {
    final String sql = "SELECT name FROM hotel WHERE price < ? ORDER BY name";
    final List<List<Object>> answers = new ArrayList<>();
    for (int limit : new int[] {90, 110}) {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        ps.setInt(1, limit);
        try (ResultSet rs = ps.executeQuery()) {
          answers.add(Rows.read(rs).stream().map(r -> r.get(0)).toList());
        }
      }
    }
    assertEquals(List.of(List.of("b"), List.of("a", "b")), answers);
    assertEquals(1, PlanCache.hits(c));
  }

  @Test void droppedAndRecreatedTableIsPlannedAgain() throws SQLException {
    final String sql = "SELECT * FROM hotel";
    assertEquals(3, run(sql).rows().size());
    assertTrue(run(sql).hit());
    update(c, "DROP TABLE hotel");
    update(c, "CREATE TABLE hotel (stars INT, city VARCHAR(5))");
    update(c, "INSERT INTO hotel VALUES (4, 'oslo')");
    final long before = PlanCache.hits(c);
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final ResultSetMetaData md = rs.getMetaData();
      assertEquals(2, md.getColumnCount());
      assertEquals("stars", md.getColumnLabel(1));
      assertEquals("city", md.getColumnLabel(2));
      assertEquals(List.of(row(4, "oslo")), Rows.read(rs));
    }
    assertEquals(before, PlanCache.hits(c), "planned again after DDL");
    assertTrue(run(sql).hit(), "and kept again");
  }

  /** A view redefined by another session of the store (HSQLDB's own SQL), seen as a table. */
  @Test void viewRedefinedElsewhereIsPlannedAgain() throws SQLException {
    try (Connection hsqldb = DriverManager.getConnection(
        StoreLocation.sharedMemory(store).hsqldbUrl(), "SA", "")) {
      update(hsqldb, "CREATE VIEW \"cheap\" AS SELECT \"name\" FROM \"hotel\" WHERE \"price\" < 110");
      final String sql = "SELECT * FROM cheap ORDER BY 1";
      assertEquals(List.of(row("a"), row("b")), run(sql).rows());
      assertTrue(run(sql).hit());
      update(hsqldb, "DROP VIEW \"cheap\"");
      update(hsqldb, "CREATE VIEW \"cheap\" AS SELECT \"price\", \"name\" FROM \"hotel\""
          + " WHERE \"price\" < 90");
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
        assertEquals("price", rs.getMetaData().getColumnLabel(1));
        assertEquals(List.of(row(80, "b")), Rows.read(rs));
      }
    }
  }

  /** Datalog's {@code ::remove} and {@code :create} on another connection change the catalog too. */
  @Test void datalogDdlElsewhereIsSeen() throws SQLException {
    try (Connection datalog =
        DriverManager.getConnection("jdbc:mnestic:db=mem:" + store + ";lang=datalog")) {
      final String sql = "SELECT * FROM hotel ORDER BY 1";
      assertEquals(3, run(sql).rows().size());
      update(datalog, "::remove hotel");
      update(datalog, ":create hotel {k: Int => v: String}");
      update(datalog, "?[k, v] <- [[1, 'x']] :put hotel {k => v}");
      final Run after = run(sql);
      assertTrue(!after.hit());
      assertEquals(List.of(row(1, "x")), after.rows());
    }
  }

  @Test void standingQueryDdlPlansAgain() throws SQLException {
    update(c, "CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE)");
    update(c, "INSERT INTO requests VALUES (TIMESTAMP '2026-11-30 00:00:10', 5.0)");
    final String window = " FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
        + " WITHIN RANK ERROR 0.01";
    update(c, "CREATE STANDING QUERY p50 AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
        + " APPROX_QUANTILE(latency, 0.5) AS p50" + window);
    final String read = "SELECT * FROM p50";
    assertEquals(List.of("w", "p50"), labels(read));
    assertEquals(List.of("w", "p50"), labels(read));
    update(c, "DROP STANDING QUERY p50");
    update(c, "CREATE STANDING QUERY p50 AS SELECT APPROX_QUANTILE(latency, 0.5) AS median,"
        + " TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w" + window);
    assertEquals(List.of("median", "w"), labels(read));
  }

  private List<String> labels(String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final List<String> labels = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        labels.add(rs.getMetaData().getColumnLabel(i));
      }
      assertTrue(rs.next());
      return labels;
    }
  }

  @Test void keyHoldsMaxRowsAndDefaultSchema() throws SQLException {
    final String sql = "SELECT name FROM hotel ORDER BY name";
    assertEquals(3, run(sql).rows().size());
    try (Statement s = c.createStatement()) {
      s.setMaxRows(1);
      try (ResultSet rs = s.executeQuery(sql)) {
        assertEquals(1, Rows.read(rs).size());
      }
    }
    assertEquals(3, run(sql).rows().size());
    final String unqualified = "SELECT COUNT(*) FROM hotel";
    assertEquals(List.of(row(3)), run(unqualified).rows());
    c.setSchema("STANDING");
    assertThrows(SQLException.class, () -> query(c, unqualified));
    c.setSchema("PUBLIC");
    assertTrue(run(unqualified).hit());
  }

  /** An error in the plan's constants is the same error every time, not a broken cached class. */
  @Test void failingConstantFailsAlike() {
    for (int i = 0; i < 2; i++) {
      final SQLException e = assertThrows(SQLException.class, () -> query(c, "SELECT 1 / 0"));
      assertTrue(e.getMessage().contains("division by zero"), e.getMessage());
    }
  }
}
