package dev.mnestic.jdbc;

import dev.mnestic.standing.TwoMinutes;

import org.junit.jupiter.api.Test;

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
 * Test case for #15: a statement's parsed tree, not its text, decides what handles it
 * ({@link MnesticPrepare}'s router). Comments may stand anywhere between a statement's words, and
 * words such as STANDING QUERY may stand in literals; each statement here was routed by its
 * text before, and the comment or literal sent it to the wrong handler. Through a real
 * connection of the embedded driver, on an in-memory store.
 */
class StatementRouterTest {
  private static final String P50 = " AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
      + " APPROX_QUANTILE(latency, 0.5) AS p FROM lat GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)";

  /** A standing query's DDL and a query's target, with comments between their words. */
  @Test void standingQueriesWithCommentsBetweenTheirWords() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
         Statement s = c.createStatement()) {
      TwoMinutes.create(s, "lat");
      s.execute("CREATE STANDING /* the median */ QUERY p50" + P50
          + " WITHIN RELATIVE ERROR 0.01");
      assertMedians(medians(s, "SELECT * FROM p50"), "the standing query");
      assertMedians(medians(s, "SELECT TUMBLE_START(ts, INTERVAL '1'"
          + " MINUTE) AS w, APPROX_QUANTILE(latency, 0.5) AS p FROM lat GROUP BY TUMBLE(ts,"
          + " INTERVAL '1' MINUTE) WITHIN -- one percent\n RELATIVE ERROR 0.01"),
          "the query with a target");
      s.execute("DROP STANDING\n/* no longer */ QUERY p50");
      final SQLException gone = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT * FROM p50"));
      assertTrue(gone.getMessage().toLowerCase().contains("p50"), gone.getMessage());
    }
  }

  /**
   * DROP TABLE after a comment, of a table a standing query reads, is refused (2BP01) as
   * without the comment; the table and its rows stay.
   */
  @Test void dropTableAfterACommentRefusedWhileRead() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
         Statement s = c.createStatement()) {
      TwoMinutes.create(s, "lat");
      s.execute("CREATE STANDING QUERY p50" + P50 + " WITHIN RELATIVE ERROR 0.01");
      final SQLException e = assertThrows(SQLException.class,
          () -> s.execute("/* tidy up */ DROP TABLE lat"));
      assertEquals("2BP01", e.getSQLState(), e.getMessage());
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM lat")) {
        assertTrue(rs.next());
        assertEquals(200, rs.getInt(1));
      }
    }
  }

  /** Words of a standing query's statements in a literal make no standing query's statement. */
  @Test void standingWordsInALiteral() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery(
             "SELECT 'CREATE STANDING QUERY q WITHIN RANK ERROR 0.1' AS t")) {
      assertTrue(rs.next());
      assertEquals("CREATE STANDING QUERY q WITHIN RANK ERROR 0.1", rs.getString(1));
    }
  }

  /** {@code medians} are {@link TwoMinutes}' (50 and 500) within the target, 1%. */
  private static void assertMedians(List<Double> medians, String what) {
    assertEquals(2, medians.size(), what + ": " + medians);
    assertTrue(Math.abs(medians.get(0) - 50) <= 0.5 && Math.abs(medians.get(1) - 500) <= 5,
        what + ": " + medians);
  }

  /** Each window's median, in window order. */
  private static List<Double> medians(Statement s, String sql) throws SQLException {
    final List<Double> values = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        values.add(rs.getDouble(2));
      }
    }
    return values;
  }
}
