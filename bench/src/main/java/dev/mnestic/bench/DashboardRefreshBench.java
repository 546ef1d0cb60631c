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
import java.util.Locale;
import java.util.Random;

/**
 * A dashboard refreshing over a growing table: the first ten standing queries of
 * {@link SketchDashboardBench}'s dashboard (1m and 5m tumbling windows, 5m every minute; rank
 * and relative targets; ratios) over ROWS rows of {@code requests(ts, latency)}, ten requests a
 * millisecond. Each refresh reads every query once (one evaluation) right after 1,000 new rows
 * were committed (through the store's HSQLDB connection; not timed). Timed side by side, per
 * table size: a refresh from the summaries the previous one kept (it adds the 1,000 rows), and
 * a full pass (the kept summaries dropped first, as after reopening the store: it reads every
 * row). The rows each refresh consumed are printed beside its time.
 *
 * <p>Reproduce: {@code bench/run DashboardRefreshBench [ROWS ...]} (default 1000000 10000000).
 */
public final class DashboardRefreshBench {
  private DashboardRefreshBench() {
  }

  private static final int QUERIES = 10;
  private static final int NEW_ROWS = 1_000;
  private static final int RUNS = 5;
  private static final long T0 = Timestamp.valueOf("2026-11-30 00:00:00").getTime();

  public static void main(String[] args) throws Exception {
    final long[] sizes = args.length == 0 ? new long[] {1_000_000, 10_000_000}
        : Arrays.stream(args).mapToLong(Long::parseLong).toArray();
    System.out.println("rows        refresh kept (ms)  rows read   full pass (ms)  rows read");
    for (long rows : sizes) {
      run(rows);
    }
  }

  private static void run(long rows) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE NOT NULL)");
      final Connection store = Session.of(c.unwrap(CalciteConnection.class).getRootSchema())
          .getConnection();
      final Random random = new Random(11);
      final long[] next = {0};
      // Loaded through the store's own connection in batches, in time order (not timed).
      load(store, random, next, rows);
      for (String q : SketchDashboardBench.dashboard().subList(0, QUERIES)) {
        s.execute(q);
      }
      final Dashboard dashboard = Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());
      refresh(s);
      final double[] kept = new double[RUNS];
      final double[] full = new double[RUNS];
      long keptRows = 0;
      long fullRows = 0;
      // Side by side: a refresh from kept summaries, then a full pass, each after 1,000 rows.
      for (int i = 0; i < RUNS; i++) {
        load(store, random, next, NEW_ROWS);
        long consumed = dashboard.consumed();
        kept[i] = refresh(s);
        keptRows = dashboard.consumed() - consumed;
        load(store, random, next, NEW_ROWS);
        dashboard.dropKept();
        consumed = dashboard.consumed();
        full[i] = refresh(s);
        fullRows = dashboard.consumed() - consumed;
      }
      System.out.printf(Locale.ROOT, "%-11d %17.1f  %-10d %15.1f  %d%n", rows, median(kept),
          keptRows, median(full), fullRows);
    }
  }

  /** Appends {@code n} rows after the last, ten a millisecond, and commits them. */
  private static void load(Connection store, Random random, long[] next, long n)
      throws SQLException {
    store.setAutoCommit(false);
    try (PreparedStatement insert = store.prepareStatement(
        "INSERT INTO \"PUBLIC\".\"requests\" VALUES (?, ?)")) {
      for (long i = 0; i < n; i++, next[0]++) {
        insert.setTimestamp(1, new Timestamp(T0 + next[0] / 10));
        insert.setDouble(2, Math.exp(3 + random.nextGaussian()));
        insert.addBatch();
        if (i % 50_000 == 49_999 || i == n - 1) {
          insert.executeBatch();
        }
      }
    }
    store.commit();
    store.setAutoCommit(true);
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

  private static double median(double[] values) {
    final double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
