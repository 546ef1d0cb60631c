package dev.mnestic.server;

import dev.mnestic.standing.TwoMinutes;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Standing queries as a DBeaver user runs them: registered, read and dropped through a real
 * MnesticServer and the Avatica thin client (protobuf), on a table small enough to know each
 * window's exact quantiles.
 */
class StandingQueryRemoteTest {
  private static MnesticServer server;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).build();
    server.start();
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      TwoMinutes.create(s, "requests");
    }
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  @Test void registerReadDrop() throws SQLException {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      s.execute("CREATE STANDING QUERY p90 AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.9) AS p90 FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.01");
      final List<Object[]> rows = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT * FROM p90")) {
        while (rs.next()) {
          rows.add(new Object[] {rs.getTimestamp(1), rs.getDouble(2)});
        }
      }
      assertEquals(2, rows.size());
      assertEquals(Timestamp.valueOf("2026-11-30 00:00:00"), rows.get(0)[0]);
      assertEquals(Timestamp.valueOf("2026-11-30 00:01:00"), rows.get(1)[0]);
      // Exact: the ⌈0.9 · 100⌉ = 90th of each minute's sorted values.
      assertTrue(Math.abs((double) rows.get(0)[1] - 90) <= 0.9, rows.get(0)[1].toString());
      assertTrue(Math.abs((double) rows.get(1)[1] - 900) <= 9, rows.get(1)[1].toString());
      s.execute("DROP STANDING QUERY p90");
      assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM p90"));
    }
  }

  @Test void errorsNameLineAndColumn() throws SQLException {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class, () -> s.execute(
          "CREATE STANDING QUERY r AS SELECT APPROX_QUANTILE(latency, 0.99)\n"
              + "  / APPROX_QUANTILE(latency, 0.5) FROM requests"
              + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01"));
      assertTrue(e.getMessage().contains("line 1, column 35")
          && e.getMessage().contains("rank error does not bound a ratio"), e.getMessage());
    }
  }

  /**
   * Test case for #6: a standing query one client registers is the store's: another client's
   * connection reads it, and its DROP removes it for the first.
   */
  @Test void anotherClientReadsAndDrops() throws SQLException {
    try (Connection a = DriverManager.getConnection(server.jdbcUrl());
         Connection b = DriverManager.getConnection(server.jdbcUrl());
         Statement sa = a.createStatement();
         Statement sb = b.createStatement()) {
      sa.execute("CREATE STANDING QUERY shared AS SELECT TUMBLE_END(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.5) AS p50 FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.01");
      final List<Double> medians = new ArrayList<>();
      try (ResultSet rs = sb.executeQuery("SELECT p50 FROM shared")) {
        while (rs.next()) {
          medians.add(rs.getDouble(1));
        }
      }
      // The ⌈0.5 · 100⌉ = 50th of each minute's: 50 and 500.
      assertEquals(2, medians.size());
      assertTrue(Math.abs(medians.get(0) - 50) <= 0.5 && Math.abs(medians.get(1) - 500) <= 5,
          medians.toString());
      sb.execute("DROP STANDING QUERY shared");
      final SQLException e = assertThrows(SQLException.class,
          () -> sa.executeQuery("SELECT * FROM shared"));
      assertTrue(e.getMessage().contains("shared"), e.getMessage());
    }
  }
}
