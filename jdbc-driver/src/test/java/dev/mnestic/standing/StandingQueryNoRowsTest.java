package dev.mnestic.standing;

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
 * Standing queries over rows that give a window nothing to read: an empty table, a WHERE that
 * matches no row, windows whose values are all NULL. Such a window has no row (a quantile of no
 * values has no answer), the query reads as an empty table rather than failing, and the other
 * standing queries of the store, which share its pass, answer as they would alone.
 */
class StandingQueryNoRowsTest {
  private static final String P95 = "CREATE STANDING QUERY p95 AS"
      + " SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w, APPROX_QUANTILE(latency, 0.95) AS p95"
      + " FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01";
  private static final String SPREAD = "CREATE STANDING QUERY spread AS"
      + " SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
      + " APPROX_QUANTILE(latency, 0.99) / APPROX_QUANTILE(latency, 0.5) AS spread"
      + " FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.05";

  private static Connection open() throws SQLException {
    final Connection c = DriverManager.getConnection("jdbc:mnestic:");
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, service VARCHAR(8),"
          + " latency DOUBLE)");
    }
    return c;
  }

  /** {@code name}'s rows as "window start=value" strings, in order. */
  private static List<String> rows(Statement s, String name) throws SQLException {
    final List<String> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT * FROM " + name)) {
      while (rs.next()) {
        out.add(rs.getTimestamp(1).toString().substring(11, 16) + "=" + rs.getObject(2));
      }
    }
    return out;
  }

  /** Ten rows a second in minute {@code m} (00:0m) of {@code service}: 1, 2, ..., 600. */
  private static void minute(Statement s, int m, String service, boolean nullValues)
      throws SQLException {
    final StringBuilder b = new StringBuilder("INSERT INTO requests VALUES ");
    for (int i = 0; i < 600; i++) {
      b.append(i == 0 ? "" : ", ").append("(TIMESTAMP '2026-12-01 00:0").append(m).append(":")
          .append(String.format("%02d.%d", i / 10, i % 10)).append("', '").append(service)
          .append("', ").append(nullValues ? "NULL" : String.valueOf(i + 1)).append(')');
    }
    s.execute(b.toString());
  }

  /** The README's dashboard on a table with no rows: no windows, no failure. */
  @Test void anEmptyTableHasNoWindows() throws SQLException {
    try (Connection c = open(); Statement s = c.createStatement()) {
      s.execute(P95);
      s.execute(SPREAD);
      assertEquals(List.of(), rows(s, "p95"));
      assertEquals(List.of(), rows(s, "spread"));
      assertEquals(List.of(), rows(s, "p95"));
      s.execute("DROP STANDING QUERY spread");
      // Rows come: the next reads answer them.
      minute(s, 0, "api", false);
      final List<String> p95 = rows(s, "p95");
      assertEquals(1, p95.size(), p95.toString());
      assertTrue(p95.get(0).startsWith("00:00="), p95.toString());
      assertEquals(570, Double.parseDouble(p95.get(0).substring(6)), 600 * 0.01 + 1, p95.toString());
    }
  }

  /** A WHERE no row matches: that query has no windows; the unfiltered one all of its. */
  @Test void aFilterMatchingNoRowHasNoWindows() throws SQLException {
    try (Connection c = open(); Statement s = c.createStatement()) {
      minute(s, 0, "api", false);
      minute(s, 1, "api", false);
      s.execute(P95);
      s.execute("CREATE STANDING QUERY web AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.5) AS p50 FROM requests WHERE service = 'web'"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01");
      assertEquals(List.of(), rows(s, "web"));
      assertEquals(List.of("00:00", "00:01"),
          rows(s, "p95").stream().map(r -> r.substring(0, 5)).toList());
      // And read in the other order, each from a fresh evaluation.
      assertEquals(2, rows(s, "p95").size());
      assertEquals(List.of(), rows(s, "web"));
      // A web row in minute 1: web has that one window.
      s.execute("INSERT INTO requests VALUES (TIMESTAMP '2026-12-01 00:01:30', 'web', 42)");
      assertEquals(List.of("00:01=42.0"), rows(s, "web"));
    }
  }

  /**
   * Windows whose values are all NULL are skipped, as SQL's aggregates skip NULLs: tumbling and
   * sliding windows alike, a ratio too.
   */
  @Test void nullOnlyWindowsHaveNoRow() throws SQLException {
    try (Connection c = open(); Statement s = c.createStatement()) {
      minute(s, 0, "api", false);
      minute(s, 1, "api", true);
      minute(s, 2, "api", false);
      s.execute(P95);
      s.execute(SPREAD);
      s.execute("CREATE STANDING QUERY hop AS SELECT HOP_END(ts, INTERVAL '1' MINUTE,"
          + " INTERVAL '1' MINUTE) AS w, APPROX_QUANTILE(latency, 0.5) AS p50 FROM requests"
          + " GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '1' MINUTE)"
          + " WITHIN RANK ERROR 0.01");
      assertEquals(List.of("00:00", "00:02"),
          rows(s, "p95").stream().map(r -> r.substring(0, 5)).toList());
      assertEquals(List.of("00:00", "00:02"),
          rows(s, "spread").stream().map(r -> r.substring(0, 5)).toList());
      assertEquals(List.of("00:01", "00:03"),
          rows(s, "hop").stream().map(r -> r.substring(0, 5)).toList());
      // Every value NULL: no window at all.
      s.execute("UPDATE requests SET latency = NULL");
      assertEquals(List.of(), rows(s, "p95"));
      assertEquals(List.of(), rows(s, "spread"));
      assertEquals(List.of(), rows(s, "hop"));
    }
  }

  /**
   * A standing query whose filter fails on the store's rows (a string column compared with a
   * number: the store cannot cast 'api') fails alone, naming itself; the unfiltered query of the
   * same table, which shared its plan, answers.
   */
  @Test void aFilterFailingOnTheRowsFailsAlone() throws SQLException {
    try (Connection c = open(); Statement s = c.createStatement()) {
      minute(s, 0, "api", false);
      s.execute(P95);
      s.execute("CREATE STANDING QUERY b AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.5) AS p50 FROM requests WHERE service > 5"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01");
      assertEquals(1, rows(s, "p95").size());
      final SQLException e = assertThrows(SQLException.class, () -> rows(s, "b"));
      assertTrue(e.getMessage().contains("standing query b cannot be read: "), e.getMessage());
      assertEquals(1, rows(s, "p95").size());
    }
  }

  /**
   * A standing query that cannot be read (its table replaced by one without its column) fails
   * alone, with a message naming it; one over an empty table beside it answers with no rows.
   */
  @Test void oneFailingQueryLeavesTheOthersAnswering() throws SQLException {
    try (Connection c = open(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE other (ts TIMESTAMP NOT NULL, v DOUBLE)");
      s.execute("INSERT INTO other VALUES (TIMESTAMP '2026-12-01 00:00:01', 7)");
      s.execute(P95);
      s.execute("CREATE STANDING QUERY o AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(v, 0.5) AS p50 FROM other GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
          + " WITHIN RANK ERROR 0.01");
      assertEquals(List.of("00:00=7.0"), rows(s, "o"));
      s.execute("CREATE OR REPLACE TABLE other (ts TIMESTAMP NOT NULL)");
      final SQLException e = assertThrows(SQLException.class, () -> rows(s, "o"));
      assertTrue(e.getMessage().contains("standing query o cannot be read"), e.getMessage());
      assertEquals(List.of(), rows(s, "p95"));
      minute(s, 3, "api", false);
      assertEquals(1, rows(s, "p95").size());
    }
  }
}
