package dev.mnestic.standing;

import dev.mnestic.runtime.Sketches;
import dev.mnestic.store.Session;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.Test;

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
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A standing query's WHERE keeps some of its table's rows: each answer is within its target of
 * the exact quantile of those rows, queries with the same filter share summaries, and queries
 * with different filters (or none) never do. Through real JDBC over the embedded driver.
 */
class StandingQueryWhereTest {
  private static final long START = Timestamp.valueOf("2026-11-30 00:00:00").getTime();
  private static final long MINUTE = 60_000;

  /** A row of the fixture: time, service, latency. */
  private record Row(long ts, String service, double latency) {
  }

  private static String query(String name, double phi, String where) {
    return "CREATE STANDING QUERY " + name + " AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
        + " APPROX_QUANTILE(latency, " + phi + ") AS q FROM requests"
        + (where == null ? "" : " WHERE " + where)
        + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01";
  }

  /** Each window's answer has a rank within 0.01 (and one value) of φ among the rows kept. */
  private static void assertWithinTarget(Statement s, String name, double phi, List<Row> rows,
      Predicate<Row> kept) throws SQLException {
    int windows = 0;
    try (ResultSet rs = s.executeQuery("SELECT w, q FROM " + name)) {
      while (rs.next()) {
        windows++;
        final long start = rs.getTimestamp(1).getTime();
        final double answer = rs.getDouble(2);
        final double[] exact = rows.stream()
            .filter(r -> r.ts() >= start && r.ts() < start + MINUTE && kept.test(r))
            .mapToDouble(Row::latency).sorted().toArray();
        final double rank = (double) Arrays.stream(exact).filter(v -> v <= answer).count()
            / exact.length;
        assertTrue(Math.abs(rank - phi) <= 0.01 + 1.0 / exact.length,
            name + " at " + start + ": rank " + rank + " of " + exact.length);
      }
    }
    assertEquals(10, windows, name);
  }

  /** Test case for #6: WHERE filters the rows; summaries are shared only within a filter. */
  @Test void whereKeepsRowsAndSharesOnlyWithinAFilter() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, service VARCHAR(8),"
          + " latency DOUBLE)");
      // 12,000 requests over 10 minutes: api fast, web slow, so a filter moves every quantile.
      final Random r = new Random(6);
      final List<Row> rows = new ArrayList<>();
      final Connection store = Session.of(c.unwrap(CalciteConnection.class).getRootSchema())
          .getConnection();
      try (PreparedStatement insert = store.prepareStatement(
          "INSERT INTO \"PUBLIC\".\"requests\" VALUES (?, ?, ?)")) {
        for (int i = 0; i < 12_000; i++) {
          final boolean web = i % 3 == 0;
          final Row row = new Row(START + i * 50L, web ? "web" : "api",
              Math.exp(web ? 5 + 0.5 * r.nextGaussian() : 3 + r.nextGaussian()));
          rows.add(row);
          insert.setTimestamp(1, new Timestamp(row.ts()));
          insert.setString(2, row.service());
          insert.setDouble(3, row.latency());
          insert.addBatch();
        }
        insert.executeBatch();
      }
      s.execute(query("api95", 0.95, "service = 'api'"));
      s.execute(query("api50", 0.5, "SERVICE = 'api'"));
      s.execute(query("web95", 0.95, "service = 'web'"));
      s.execute(query("all95", 0.95, null));
      s.execute(query("slowapi", 0.5, "service IN ('api') AND NOT latency < 20"));
      assertWithinTarget(s, "api95", 0.95, rows, x -> x.service().equals("api"));
      assertWithinTarget(s, "api50", 0.5, rows, x -> x.service().equals("api"));
      assertWithinTarget(s, "web95", 0.95, rows, x -> x.service().equals("web"));
      assertWithinTarget(s, "all95", 0.95, rows, x -> true);
      assertWithinTarget(s, "slowapi", 0.5, rows,
          x -> x.service().equals("api") && !(x.latency() < 20));
      final Dashboard d = Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());
      assertEquals(1, d.evaluations(), "one evaluation answered all five");
      // One metric per filter; api95 and api50 read one summary of the api rows.
      final Map<String, List<Sketches.Summary>> summaries = d.summaries();
      assertEquals(4, summaries.size(), summaries.keySet().toString());
      final List<Sketches.Summary> api =
          summaries.get("requests(ts, latency) WHERE \"service\" = 'api'");
      assertTrue(api != null && api.stream().anyMatch(x -> x.phis().containsAll(List.of(0.5, 0.95))),
          summaries.toString());
      assertTrue(summaries.get("requests(ts, latency) WHERE \"service\" = 'web'").stream()
          .noneMatch(x -> x.phis().contains(0.5)), summaries.toString());

      // What a WHERE cannot be names its place.
      for (String[] bad : new String[][] {
          {"nope = 'api'", "line 1, column 136: no column nope"},
          {"'api' = service", "line 1, column 136: a standing query's WHERE compares a column"},
          {"latency > (SELECT 1 FROM requests)",
              "line 1, column 146: a standing query's WHERE compares"}}) {
        final SQLException e = assertThrows(SQLException.class,
            () -> s.execute(query("bad", 0.5, bad[0])));
        assertTrue(e.getMessage().contains(bad[1]), bad[0] + ": " + e.getMessage());
      }
    }
  }
}
