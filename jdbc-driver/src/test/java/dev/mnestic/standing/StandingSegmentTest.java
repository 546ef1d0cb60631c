package dev.mnestic.standing;

import dev.mnestic.runtime.Sketches;
import dev.mnestic.runtime.TrueQuantile;
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
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16 (point 3) over a metric table loaded through the driver's batch INSERT, whose
 * rows take the store's columnar segment: the standing queries' reads (planning's measure of the
 * table, the first pass, and the reads from kept summaries after more batches) leave the
 * segment as it is (HSQLDB holds none of its rows: nothing folded them), a read after k new
 * rows consumes k rows and remakes only the width / step windows of each merged or exact
 * sliding summary holding their minute, and every answer is the true quantile of its window's
 * rows, sorted here.
 */
class StandingSegmentTest {
  private static final long MINUTE = 60_000;
  private static final long START = Timestamp.valueOf("2026-11-30 00:00:00").getTime();
  private static final int PER_MINUTE = 40;

  @Test void readsOfASegmentTableFoldNothingAndCostTheNewRows() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE NOT NULL)");
      // exact: no sketch meets rank error 0.001; the 5m every minute merged or counted
      s.execute("CREATE STANDING QUERY exact1m AS SELECT TUMBLE_END(ts, INTERVAL '1' MINUTE)"
          + " AS w, APPROX_QUANTILE(latency, 0.9) AS v FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.001");
      s.execute("CREATE STANDING QUERY exact5m AS SELECT HOP_END(ts, INTERVAL '1' MINUTE,"
          + " INTERVAL '5' MINUTE) AS w, APPROX_QUANTILE(latency, 0.99) AS v FROM requests"
          + " GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)"
          + " WITHIN RANK ERROR 0.001");
      // a DDSketch over 5m every minute, within 0.02 of the true value
      s.execute("CREATE STANDING QUERY rel5m AS SELECT HOP_END(ts, INTERVAL '1' MINUTE,"
          + " INTERVAL '5' MINUTE) AS w, APPROX_QUANTILE(latency, 0.5) AS v FROM requests"
          + " GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)"
          + " WITHIN RELATIVE ERROR 0.02");
      final Session session = Session.of(c.unwrap(CalciteConnection.class).getRootSchema());
      final Dashboard d = Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());
      final Random r = new Random(5);
      final List<double[]> table = new ArrayList<>();
      load(c, r, table, 0, 20);
      assertEquals(20 * PER_MINUTE, session.segmentRows(), "the batches took the segment");
      check(c, table);
      assertEquals(0, hsqldbRows(session), "a read folded the segment into HSQLDB's rows");
      for (int minute = 20; minute < 26; minute++) {
        final long consumed = d.consumed();
        final long remade = d.remade();
        load(c, r, table, minute, minute + 1);
        check(c, table);
        assertEquals(PER_MINUTE, d.consumed() - consumed, "minute " + minute);
        long expected = 0;
        for (List<Sketches.Summary> summaries : d.summaries().values()) {
          for (Sketches.Summary x : summaries) {
            if (!x.phis().isEmpty() && (!x.builtFromRows()
                || x.family() == Sketches.Family.EXACT && x.width() != x.step())) {
              expected += x.width() / x.step();
            }
          }
        }
        assertTrue(expected > 0, d.summaries().toString());
        assertEquals(expected, d.remade() - remade, "minute " + minute + ": " + d.summaries());
      }
      assertEquals(26 * PER_MINUTE, session.segmentRows());
      assertEquals(0, hsqldbRows(session), "a read folded the segment into HSQLDB's rows");
    }
  }

  /** Appends minutes [from, to) of rows through one batch INSERT, committed. */
  private static void load(Connection c, Random r, List<double[]> table, int from, int to)
      throws SQLException {
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO requests VALUES (?, ?)")) {
      for (int minute = from; minute < to; minute++) {
        for (int i = 0; i < PER_MINUTE; i++) {
          final long t = START + minute * MINUTE + r.nextInt((int) MINUTE);
          final double v = Math.round(Math.exp(3 + r.nextGaussian()) * 4) / 4.0;
          insert.setTimestamp(1, new Timestamp(t));
          insert.setDouble(2, v);
          insert.addBatch();
          table.add(new double[] {t, v});
        }
      }
      insert.executeBatch();
    }
  }

  /** Every window of the three queries against its rows sorted here. */
  private static void check(Connection c, List<double[]> table) throws SQLException {
    check(c, table, "exact1m", MINUTE, 0.9, 0);
    check(c, table, "exact5m", 5 * MINUTE, 0.99, 0);
    check(c, table, "rel5m", 5 * MINUTE, 0.5, 0.02);
  }

  private static void check(Connection c, List<double[]> table, String query, long width,
      double phi, double relative) throws SQLException {
    int windows = 0;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT w, v FROM " + query)) {
      while (rs.next()) {
        final long end = rs.getTimestamp(1).getTime();
        final double[] window = table.stream()
            .filter(row -> row[0] >= end - width && row[0] < end)
            .mapToDouble(row -> row[1]).sorted().toArray();
        final double truth = TrueQuantile.value(window, phi);
        final double answer = rs.getDouble(2);
        assertTrue(Math.abs(answer - truth) <= relative * truth * (1 + 1e-9),
            query + " window ending " + new Timestamp(end) + ": " + answer + " against "
                + truth);
        windows++;
      }
    }
    final long latest = table.stream().mapToLong(row -> (long) row[0]).max().orElseThrow();
    // every window holding a row: the minutes from START to the latest, and the hops after
    assertEquals((latest - START) / MINUTE + width / MINUTE, windows, query);
  }

  /**
   * The rows HSQLDB itself holds in {@code requests}, from its table statistics (no statement
   * on the table, which would fold the segment first).
   */
  private static long hsqldbRows(Session session) throws SQLException {
    try (Statement s = session.getConnection().createStatement();
        ResultSet r = s.executeQuery("SELECT CARDINALITY FROM INFORMATION_SCHEMA.SYSTEM_TABLESTATS"
            + " WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME = 'requests'")) {
      assertTrue(r.next(), "no statistics of requests");
      return r.getLong(1);
    }
  }
}
