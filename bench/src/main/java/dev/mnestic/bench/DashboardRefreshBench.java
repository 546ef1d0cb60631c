package dev.mnestic.bench;

import dev.mnestic.standing.Dashboard;
import dev.mnestic.store.Session;

import org.apache.calcite.jdbc.CalciteConnection;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A dashboard refreshing over a growing table: the first ten standing queries of
 * {@link SketchDashboardBench}'s dashboard (1m and 5m tumbling windows, 5m every minute; rank
 * and relative targets; ratios) and {@link #MERGED_AND_EXACT}'s two (a 5m p90 every minute
 * within rank error 0.01, which the plan merges from the 1m KLL, and an exact 1h p99 every
 * minute) over ROWS rows of {@code requests(ts, latency)}, ten requests a millisecond, loaded
 * through the driver's batch INSERT (50,000 rows a batch), so that they take the store's
 * columnar segment. Each refresh reads every query once (one evaluation) right after 1,000 new
 * rows were committed (one batch; not timed). Timed side by side, per table size: a refresh
 * from the summaries and windows the previous one kept (it adds the 1,000 rows and remakes the
 * merged and exact windows holding them), and a full pass (the kept state dropped first, as
 * after reopening the store: it reads every row). The rows each refresh consumed and the
 * windows it remade ({@code Dashboard.consumed}, {@code Dashboard.remade}) are printed beside
 * its time (median of the runs, and their range), the summaries the plan chose once, and the rows the
 * segment and HSQLDB hold at the end (HSQLDB none: no read folded the segment).
 *
 * <p>Reproduce: {@code bench/run DashboardRefreshBench [--runs N] [ROWS ...]} (default 5 runs,
 * 1000000 10000000);
 * 100M rows need a larger heap: {@code BENCH_JAVA_OPTS=-Xmx16g}.
 */
public final class DashboardRefreshBench {
  private DashboardRefreshBench() {
  }

  /** A merge of the 1m KLL into 5m windows every minute, and exact 1h windows every minute. */
  static final List<String> MERGED_AND_EXACT = List.of(
      "CREATE STANDING QUERY q10 AS SELECT HOP_START(ts, INTERVAL '1' MINUTE,"
          + " INTERVAL '5' MINUTE) AS w, APPROX_QUANTILE(latency, 0.9) AS v FROM requests"
          + " GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)"
          + " WITHIN RANK ERROR 0.01",
      "CREATE STANDING QUERY q11 AS SELECT HOP_START(ts, INTERVAL '1' MINUTE,"
          + " INTERVAL '1' HOUR) AS w, APPROX_QUANTILE(latency, 0.99) AS v FROM requests"
          + " GROUP BY HOP(ts, INTERVAL '1' MINUTE, INTERVAL '1' HOUR)"
          + " WITHIN RANK ERROR 0.001");
  private static final int QUERIES = 12;
  private static final int NEW_ROWS = 1_000;
  private static final long T0 = Timestamp.valueOf("2026-11-30 00:00:00").getTime();

  public static void main(String[] args) throws Exception {
    int runs = 5;
    final List<String> rest = new ArrayList<>(Arrays.asList(args));
    final int at = rest.indexOf("--runs");
    if (at >= 0) {
      runs = Integer.parseInt(rest.get(at + 1));
      rest.subList(at, at + 2).clear();
    }
    final long[] sizes = rest.isEmpty() ? new long[] {1_000_000, 10_000_000}
        : rest.stream().mapToLong(Long::parseLong).toArray();
    System.out.println("rows        refresh kept, ms (min-max)  rows read   full pass, ms (min-max)"
        + "  rows read");
    for (long rows : sizes) {
      run(rows, sizes, runs);
    }
  }

  private static void run(long rows, long[] sizes, int runs) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE NOT NULL)");
      final Session session = Session.of(c.unwrap(CalciteConnection.class).getRootSchema());
      final Random random = new Random(11);
      final long[] next = {0};
      // Loaded through the driver's batch INSERT, in time order (not timed): the rows take the
      // store's columnar segment, not HSQLDB's rows.
      final long loadStart = System.nanoTime();
      load(c, random, next, rows);
      System.out.printf(Locale.ROOT, "loaded %d rows in %.1f s (%d in the segment)%n", rows,
          (System.nanoTime() - loadStart) / 1e9, session.segmentRows());
      for (String q : SketchDashboardBench.dashboard().subList(0, 10)) {
        s.execute(q);
      }
      for (String q : MERGED_AND_EXACT) {
        s.execute(q);
      }
      final Dashboard dashboard = Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());
      final double first = refresh(s);
      System.out.printf(Locale.ROOT, "first read (planning, measuring the table, a pass): %.0f ms%n",
          first);
      if (rows == sizes[0]) {
        dashboard.summaries().values().forEach(list -> list.forEach(x -> System.out.println(
            "  " + x)));
      }
      final double[] kept = new double[runs];
      final double[] full = new double[runs];
      long keptRows = 0;
      long fullRows = 0;
      long keptRemade = 0;
      long fullRemade = 0;
      // Side by side: a refresh from kept summaries, then a full pass, each after 1,000 rows.
      for (int i = 0; i < runs; i++) {
        load(c, random, next, NEW_ROWS);
        long consumed = dashboard.consumed();
        long remade = dashboard.remade();
        kept[i] = refresh(s);
        keptRows = dashboard.consumed() - consumed;
        keptRemade = dashboard.remade() - remade;
        load(c, random, next, NEW_ROWS);
        dashboard.dropKept();
        consumed = dashboard.consumed();
        remade = dashboard.remade();
        full[i] = refresh(s);
        fullRows = dashboard.consumed() - consumed;
        fullRemade = dashboard.remade() - remade;
      }
      System.out.printf(Locale.ROOT, "%-11d %-27s %-11d %-24s %d%n", rows, spread(kept),
          keptRows, spread(full), fullRows);
      System.out.printf(Locale.ROOT, "  windows remade per refresh: kept %d, full pass %d;"
          + " rows in the segment %d, in HSQLDB %d (not folded: 0)%n", keptRemade, fullRemade,
          session.segmentRows(), hsqldbRows(session));
    }
  }

  /**
   * Appends {@code n} rows after the last, ten a millisecond, through the driver's batch
   * INSERT, and commits them.
   */
  private static void load(Connection c, Random random, long[] next, long n)
      throws SQLException {
    c.setAutoCommit(false);
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO requests VALUES (?, ?)")) {
      for (long i = 0; i < n; i++, next[0]++) {
        insert.setTimestamp(1, new Timestamp(T0 + next[0] / 10));
        insert.setDouble(2, Math.exp(3 + random.nextGaussian()));
        insert.addBatch();
        if (i % 50_000 == 49_999 || i == n - 1) {
          insert.executeBatch();
        }
      }
    }
    c.commit();
    c.setAutoCommit(true);
  }

  /**
   * The rows HSQLDB itself holds in {@code requests} (its table statistics: no statement on the
   * table, which would fold the segment into HSQLDB's rows).
   */
  private static long hsqldbRows(Session session) throws SQLException {
    try (Statement s = session.getConnection().createStatement();
        ResultSet r = s.executeQuery("SELECT CARDINALITY FROM INFORMATION_SCHEMA.SYSTEM_TABLESTATS"
            + " WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME = 'requests'")) {
      return r.next() ? r.getLong(1) : -1;
    }
  }

  /** Reads every query once (one evaluation); milliseconds. */
  private static double refresh(Statement s) throws SQLException {
    final long start = System.nanoTime();
    for (int i = 0; i < QUERIES; i++) {
      try (ResultSet rs = s.executeQuery("SELECT * FROM q" + i)) {
        while (rs.next()) {
          rs.getObject(2);
        }
      }
    }
    return (System.nanoTime() - start) / 1e6;
  }

  /** The median and the range of {@code values}. */
  private static String spread(double[] values) {
    final double[] sorted = values.clone();
    Arrays.sort(sorted);
    return String.format(Locale.ROOT, "%.1f (%.1f-%.1f)", sorted[sorted.length / 2], sorted[0],
        sorted[sorted.length - 1]);
  }
}
