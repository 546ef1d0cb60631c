package dev.mnestic.standing;

import dev.mnestic.runtime.Sketches;
import dev.mnestic.runtime.TrueQuantile;
import dev.mnestic.store.Session;

import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.datasketches.kll.KllSketch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Standing queries through the driver over a store table {@code requests(ts, latency)} of
 * lognormal or Pareto latencies: a dashboard registered with CREATE STANDING QUERY is planned
 * together (two queries share one KLL, a ratio's operands one DDSketch), answered by one pass per
 * evaluation, and every answer is within its target of the exact quantile of its window.
 */
class StandingQueryJdbcTest {
  private static final long MINUTE = 60_000;
  private static final long START = Timestamp.valueOf("2026-11-30 00:00:00").getTime();

  /** The exact latencies of each minute, sorted, by the minute's start. */
  private final TreeMap<Long, double[]> minutes = new TreeMap<>();

  /** 12,000 requests over 10 minutes, in time order with jitter, as a service would log them. */
  private Connection open(String data) throws SQLException {
    final Connection c = DriverManager.getConnection("jdbc:mnestic:");
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE)");
    }
    final Random r = new Random(data.hashCode());
    final DoubleSupplier latency = data.equals("lognormal") ? () -> Math.exp(3 + r.nextGaussian())
        : () -> 1 / Math.pow(1 - r.nextDouble(), 1 / 1.5);
    final Map<Long, List<Double>> byMinute = new TreeMap<>();
    // The store directly: a test fixture, not what is under test.
    final Connection store = Session.of(c.unwrap(CalciteConnection.class).getRootSchema())
        .getConnection();
    try (PreparedStatement insert = store.prepareStatement(
        "INSERT INTO \"PUBLIC\".\"requests\" VALUES (?, ?)")) {
      for (int i = 0; i < 12_000; i++) {
        final long ts = START + i * 50L + r.nextInt(40);
        final double v = latency.getAsDouble();
        insert.setTimestamp(1, new Timestamp(ts));
        insert.setDouble(2, v);
        insert.addBatch();
        byMinute.computeIfAbsent(Math.floorDiv(ts, MINUTE) * MINUTE, k -> new ArrayList<>()).add(v);
      }
      insert.executeBatch();
    }
    byMinute.forEach((m, vs) ->
        minutes.put(m, vs.stream().mapToDouble(Double::doubleValue).sorted().toArray()));
    return c;
  }

  /** The sorted latencies of [start, start + width). */
  private double[] window(long start, long width) {
    return minutes.subMap(start, start + width).values().stream().flatMapToDouble(Arrays::stream)
        .sorted().toArray();
  }

  private static double exact(double[] sorted, double phi) {
    return TrueQuantile.value(sorted, phi);
  }

  private static void assertRank(double[] sorted, double phi, double answer, double epsilon) {
    assertTrue(TrueQuantile.rankError(sorted, phi, answer) <= epsilon, "φ=" + phi + ": " + answer);
  }

  private static void assertRelative(double truth, double answer, double epsilon) {
    assertTrue(TrueQuantile.withinRelative(truth, answer, epsilon), answer + " vs " + truth);
  }

  private static List<Object[]> rows(Statement s, String sql) throws SQLException {
    final List<Object[]> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      final int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        final Object[] row = new Object[n];
        for (int i = 0; i < n; i++) {
          row[i] = rs.getObject(i + 1);
        }
        out.add(row);
      }
    }
    return out;
  }

  private static long millis(Object timestamp) {
    return ((Timestamp) timestamp).getTime();
  }

  @ParameterizedTest
  @ValueSource(strings = {"lognormal", "pareto"})
  void dashboardSharesSummariesAndMeetsEveryTarget(String data) throws SQLException {
    try (Connection c = open(data); Statement s = c.createStatement()) {
      s.addBatch("CREATE STANDING QUERY p95 AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.95) AS p95 FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01");
      s.addBatch("CREATE STANDING QUERY tail AS SELECT TUMBLE_END(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.99) AS p99, APPROX_QUANTILE(latency, 0.5) AS p50"
          + " FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01");
      s.addBatch("CREATE STANDING QUERY spread AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE),"
          + " APPROX_QUANTILE(latency, 0.99) / APPROX_QUANTILE(latency, 0.5) AS spread"
          + " FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.05");
      s.addBatch("CREATE STANDING QUERY slow AS SELECT HOP_END(ts, INTERVAL '1' MINUTE,"
          + " INTERVAL '3' MINUTE) AS w, APPROX_QUANTILE(latency, 0.9) AS p90 FROM requests"
          + " GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '3' MINUTE) WITHIN RELATIVE ERROR 0.02");
      s.executeBatch();
      final Dashboard dashboard =
          Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());

      final List<Object[]> p95 = rows(s, "SELECT * FROM p95");
      final List<Object[]> tail = rows(s, "SELECT w, p99, p50 FROM tail");
      final List<Object[]> spread = rows(s, "SELECT * FROM spread");
      final List<Object[]> slow = rows(s, "SELECT * FROM slow");
      // One evaluation answered all four.
      assertEquals(1, dashboard.evaluations());
      // p95, p99 and p50 read one KLL per minute; the ratio's operands one DDSketch.
      final List<Sketches.Summary> summaries =
          dashboard.summaries().get("requests(ts, latency)");
      final List<Sketches.Summary> minuteKll = summaries.stream()
          .filter(x -> x.family() == Sketches.Family.KLL && x.width() == MINUTE).toList();
      assertEquals(1, minuteKll.size(), summaries.toString());
      assertEquals(List.of(0.5, 0.95, 0.99), minuteKll.get(0).phis());
      assertEquals(1, summaries.stream().filter(x -> x.family() == Sketches.Family.DDSKETCH
          && x.width() == MINUTE && x.phis().containsAll(List.of(0.5, 0.99))).count(),
          summaries.toString());
      // The pass built each summary built from rows once per window, whoever reads it: a
      // tumbling one (or an exact one's tumbling windows of its step) once per such window of
      // the 10 minutes, a sliding one once per window holding rows; a merge built none.
      long expected = 0;
      for (Sketches.Summary x : summaries) {
        final long cell = Sketches.cellWidth(x.family(), x.width(), x.step(), x.subWidth());
        if (!x.builtFromRows()) {
          continue;
        }
        expected += cell == 0 ? (10 * MINUTE + x.width() - x.step()) / x.step() : 10 * MINUTE / cell;
      }
      assertEquals(expected, dashboard.builds(), summaries.toString());

      assertEquals(10, p95.size());
      // The plan's k meets the target; each answer is checked against the target itself.
      assertTrue(KllSketch.getNormalizedRankError((int) minuteKll.get(0).parameter(), false)
          <= 0.01);
      final double kll = 0.01;
      for (Object[] row : p95) {
        assertRank(window(millis(row[0]), MINUTE), 0.95, (double) row[1], kll);
      }
      assertEquals(10, tail.size());
      for (Object[] row : tail) {
        final double[] w = window(millis(row[0]) - MINUTE, MINUTE);
        assertRank(w, 0.99, (double) row[1], kll);
        assertRank(w, 0.5, (double) row[2], kll);
      }
      assertEquals(10, spread.size());
      for (Object[] row : spread) {
        final double[] w = window(millis(row[0]), MINUTE);
        assertRelative(exact(w, 0.99) / exact(w, 0.5), (double) row[1], 0.05);
      }
      // 3m windows every minute: 12 of them hold rows.
      assertEquals(12, slow.size());
      for (Object[] row : slow) {
        final double[] w = window(millis(row[0]) - 3 * MINUTE, 3 * MINUTE);
        assertRelative(exact(w, 0.9), (double) row[1], 0.02);
      }

      // A query read again starts the next evaluation; the others are then read from it.
      rows(s, "SELECT * FROM p95");
      assertEquals(2, dashboard.evaluations());
      rows(s, "SELECT * FROM spread");
      assertEquals(2, dashboard.evaluations());
      // Dropped, the query is no table and out of the plan.
      s.execute("DROP STANDING QUERY slow");
      assertThrows(SQLException.class, () -> rows(s, "SELECT * FROM slow"));
      rows(s, "SELECT * FROM p95");
      assertTrue(dashboard.summaries().get("requests(ts, latency)").stream()
          .noneMatch(x -> x.width() == 3 * MINUTE));
    }
  }

  /** The example as a statement: planned alone, answered when executed. */
  @Test void standingSelectRunsAsAStatement() throws SQLException {
    try (Connection c = open("lognormal"); Statement s = c.createStatement()) {
      final List<Object[]> rows = rows(s, "SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.95) FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01");
      assertEquals(10, rows.size());
      final List<Long> starts = new ArrayList<>(minutes.keySet());
      for (int i = 0; i < rows.size(); i++) {
        assertEquals(starts.get(i), millis(rows.get(i)[0]));
        assertRank(minutes.get(starts.get(i)), 0.95, (double) rows.get(i)[1], 0.01);
      }
      try (ResultSet rs = s.executeQuery("SELECT TUMBLE_END(ts, INTERVAL '2' MINUTE),"
          + " APPROX_QUANTILE(latency, 0.5) AS median FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '2' MINUTE) WITHIN RELATIVE ERROR 0.01")) {
        assertEquals("MEDIAN", rs.getMetaData().getColumnLabel(2).toUpperCase());
        assertEquals(java.sql.Types.TIMESTAMP, rs.getMetaData().getColumnType(1));
        int n = 0;
        while (rs.next()) {
          final double[] w = window(rs.getTimestamp(1).getTime() - 2 * MINUTE, 2 * MINUTE);
          assertRelative(exact(w, 0.5), rs.getDouble(2), 0.01);
          n++;
        }
        assertEquals(5, n);
      }
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      // A ratio under a rank target (the metric rule).
      "SELECT APPROX_QUANTILE(latency, 0.99) / APPROX_QUANTILE(latency, 0.5) FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01"
          + "|line 1, column 8|rank error does not bound a ratio",
      "SELECT APPROX_QUANTILE(latncy, 0.5) FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
          + " WITHIN RANK ERROR 0.01|line 1, column 24|no column latncy",
      "SELECT APPROX_QUANTILE(latency, 0.5) FROM requests WHERE latency + 1 > 2"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01"
          + "|line 1, column 58|WHERE compares a column of the table with a literal",
      "SELECT APPROX_QUANTILE(latency, 1.5) FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
          + " WITHIN RANK ERROR 0.01|line 1, column 33|φ is in [0, 1]",
      "SELECT APPROX_QUANTILE(latency, 0.5) FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
          + " WITHIN RANK ERROR 1.5|line 1, column 111|between 0 and 1",
      "SELECT APPROX_QUANTILE(latency, 0.5) FROM requests GROUP BY TUMBLE(latency,"
          + " INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01|line 1, column 68|must be a TIMESTAMP",
      "SELECT APPROX_QUANTILE(latency, 0.5) FROM nowhere GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
          + " WITHIN RANK ERROR 0.01|line 1, column 43|no table nowhere",
      "SELECT APPROX_QUANTILE(latency, 0.5) FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
          + " WITHIN RANK 0.01|line 1, column 105|Encountered \"0.01\"",
  })
  void badStandingQueriesNameTheirPlace(String sql, String place, String message)
      throws SQLException {
    try (Connection c = open("pareto"); Statement s = c.createStatement()) {
      for (String statement : List.of(sql, "CREATE STANDING QUERY q AS " + sql)) {
        final SQLException e = assertThrows(SQLException.class, () -> s.execute(statement));
        final String expected = statement == sql ? place : shift(place, 27);
        assertTrue(e.getMessage().contains(expected) && e.getMessage().contains(message),
            e.getMessage());
      }
      // Nothing was registered.
      assertThrows(SQLException.class, () -> rows(s, "SELECT * FROM q"));
    }
  }

  /** "line 1, column C" moved right by {@code by} columns. */
  private static String shift(String place, int by) {
    final int column = Integer.parseInt(place.substring(place.lastIndexOf(' ') + 1));
    return place.substring(0, place.lastIndexOf(' ') + 1) + (column + by);
  }

  @Test void registrationsNameTheirConflicts() throws SQLException {
    try (Connection c = open("pareto"); Statement s = c.createStatement()) {
      final String q = " AS SELECT APPROX_QUANTILE(latency, 0.5) FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01";
      s.execute("CREATE STANDING QUERY median" + q);
      final SQLException twice = assertThrows(SQLException.class,
          () -> s.execute("CREATE STANDING QUERY MEDIAN" + q));
      assertTrue(twice.getMessage().contains("standing query median exists"), twice.getMessage());
      s.execute("CREATE OR REPLACE STANDING QUERY MEDIAN" + q);
      final SQLException table = assertThrows(SQLException.class,
          () -> s.execute("CREATE STANDING QUERY requests" + q));
      assertTrue(table.getMessage().contains("a table requests exists"), table.getMessage());
      final SQLException none = assertThrows(SQLException.class,
          () -> s.execute("DROP STANDING QUERY median2"));
      assertTrue(none.getMessage().contains("line 1, column 21: no standing query median2"),
          none.getMessage());
      s.execute("DROP STANDING QUERY IF EXISTS median2");
      assertEquals(10, rows(s, "SELECT * FROM median").size());
      assertArrayEquals(new int[0], s.executeBatch());
    }
  }

  /** The one-row, one-column result of an EXPLAIN. */
  private static String plan(Statement s, String sql) throws SQLException {
    final List<Object[]> rows = rows(s, sql);
    assertEquals(1, rows.size());
    return (String) rows.get(0)[0];
  }

  /**
   * Test case for #6: EXPLAIN of a standing query's read shows the connection's plan: which
   * summaries each pass builds, which queries read which (p95 and tail's quantiles one summary,
   * the ratio's operands one), and the cost against the cost without sharing, through the
   * planner's viewer; it runs no pass.
   */
  @Test void explainShowsTheSharedPlan() throws Exception {
    try (Connection c = open("lognormal"); Statement s = c.createStatement()) {
      s.execute("CREATE STANDING QUERY p95 AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.95) AS p95 FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01");
      s.execute("CREATE STANDING QUERY tail AS SELECT TUMBLE_END(ts, INTERVAL '1' MINUTE) AS w,"
          + " APPROX_QUANTILE(latency, 0.99) AS p99 FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01");
      s.execute("CREATE STANDING QUERY spread AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE),"
          + " APPROX_QUANTILE(latency, 0.99) / APPROX_QUANTILE(latency, 0.5) AS spread"
          + " FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RELATIVE ERROR 0.05");
      final Dashboard dashboard = Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());
      final String text = plan(s, "EXPLAIN PLAN FOR SELECT * FROM p95");
      assertEquals(0, dashboard.evaluations(), "EXPLAIN runs no pass");
      assertTrue(text.startsWith("standing queries\n  p95: p95.2\n  tail: tail.2\n"
          + "  spread: spread.2\none pass per metric, building\n  requests(ts, latency)\n"), text);
      // The pass's summaries are the plan's, each with the bytes the plan charges for it.
      for (Sketches.Summary x : dashboard.summaries().get("requests(ts, latency)")) {
        assertTrue(text.matches("(?s).*\n    " + java.util.regex.Pattern.quote(x.toString())
            + " \\(planned \\d+ bytes\\)\n.*"), x + " in " + text);
      }
      assertTrue(text.matches("(?s).*\nstage 3: OPTIMAL, \\d+ variables, \\d+ constraints, \\d+ ms\n"
          + "  lower bound [^\n]*\nchosen plan\n.*"), text);
      // Sharing: one 1m summary read by p95 and tail, one by both operands of spread (at 20
      // rows a second, one exact accumulator per minute serves all three).
      final String readers = text.substring(text.indexOf("summaries and the queries reading them\n"));
      assertTrue(readers.matches("(?s).*\n  v\\d+ Build\\[family=\\w+\\] \\{[^}]*, direct\\} @ [^\n]*:"
          + " [^\n]*p95\\.2, [^\n]*tail\\.2[^\n]*\n.*"), readers);
      assertTrue(readers.matches("(?s).*\n  v\\d+ Build\\[family=\\w+\\] [^\n]*: [^\n]*spread\\.2[^\n]*\n.*"),
          readers);
      final java.util.regex.Matcher cost = java.util.regex.Pattern
          .compile("\ncost ([0-9.e+]+), without sharing ([0-9.e+]+)\n$").matcher(text);
      assertTrue(cost.find(), text);
      assertTrue(Double.parseDouble(cost.group(1)) < Double.parseDouble(cost.group(2)), text);
      // Not the whole memo, unless asked; through STANDING.name too.
      assertTrue(!text.contains("\nedges (u, c, i)"), text);
      final String all = plan(s, "EXPLAIN PLAN INCLUDING ALL ATTRIBUTES FOR"
          + " SELECT w FROM standing.tail");
      assertTrue(all.contains("\nedges (u, c, i): α^log; α^phys\n")
          && all.contains("rank error does not bound relative error (metric rule)"), all);
      assertTrue(all.endsWith(text.substring(text.indexOf("\nchosen plan\n"))), all);
      final com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind
          .ObjectMapper().readTree(plan(s, "EXPLAIN PLAN AS JSON FOR SELECT * FROM spread"));
      assertEquals(Double.parseDouble(cost.group(1)), json.get("cost").asDouble(), 1e-3);
      assertTrue(plan(s, "EXPLAIN PLAN AS DOT FOR SELECT * FROM p95").startsWith("digraph plan {"));
      final SQLException xml = assertThrows(SQLException.class,
          () -> plan(s, "EXPLAIN PLAN AS XML FOR SELECT * FROM p95"));
      assertTrue(xml.getMessage().contains("line 1, column 17: a standing query's plan is shown as"
          + " TEXT, JSON or DOT"), xml.getMessage());
      assertEquals(0, dashboard.evaluations());
      // The plan EXPLAIN made is the one a read then runs.
      assertEquals(10, rows(s, "SELECT * FROM p95").size());
      assertEquals(1, dashboard.evaluations());
      // Any other EXPLAIN is Calcite's.
      assertTrue(plan(s, "EXPLAIN PLAN FOR SELECT COUNT(*) FROM requests").contains("EnumerableStoreScan"));
    }
  }
}
