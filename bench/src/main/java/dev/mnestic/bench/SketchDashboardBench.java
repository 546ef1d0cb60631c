package dev.mnestic.bench;

import dev.mnestic.rel.SketchAggregate;
import dev.mnestic.runtime.Sketches;
import dev.mnestic.standing.Dashboard;
import dev.mnestic.store.Session;

import org.apache.calcite.DataContexts;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.linq4j.Linq4j;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A 50-query dashboard of standing quantile queries (1m and 5m tumbling windows, 5m windows
 * every minute; rank and relative targets; ratios) over ROWS rows of {@code requests(ts,
 * latency)} in the store, registered with CREATE STANDING QUERY and read through JDBC. One
 * evaluation plans nothing (the plan is made once) and runs one pass over the rows, updating
 * every summary the plan chose. Timed in the same run: the evaluation (all 50 result sets), read
 * again unchanged (the pass reads the columns the previous pass left), right after a one-row
 * INSERT (it adds the row to them) and right after an UPDATE (it reads HSQLDB's rows), the
 * scan alone ({@code SELECT COUNT(*), SUM(latency)} through mnestic, the same store scan), the
 * summaries' updates alone ({@code Sketches.windows} over the rows already in memory), and
 * plain JDBC loops over the store's rows, the way store scans went before they read HSQLDB's
 * row store (the time read as a {@code LocalDateTime}, through {@code getTimestamp}, and not
 * at all).
 * Sketch updates: per row, {@link SketchAggregate#updatesPerRow} (one per distinct tumbling
 * summary, width / step per sliding window built directly).
 *
 * <p>Reproduce: {@code bench/run SketchDashboardBench [ROWS]} (default 10000000).
 */
public final class SketchDashboardBench {
  private SketchDashboardBench() {
  }

  private static final double[] PHIS = {0.5, 0.9, 0.95, 0.99, 0.999};
  private static final String[] WINDOWS = {
      "TUMBLE(ts, INTERVAL '1' MINUTE)", "TUMBLE(ts, INTERVAL '5' MINUTE)",
      "HOP(ts, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)"};

  /** The dashboard's 50 standing queries: q0 ... q49. */
  static List<String> dashboard() {
    final List<String> out = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      final String window = WINDOWS[i % 3];
      final String start = window.replaceFirst("\\(", "_START(");
      final String item;
      final String target;
      if (i % 5 == 4) {
        item = i % 2 == 0 ? "APPROX_QUANTILE(latency, 0.99) / APPROX_QUANTILE(latency, 0.5)"
            : "APPROX_QUANTILE(latency, 0.999) / APPROX_QUANTILE(latency, 0.9)";
        target = "RELATIVE ERROR " + (i % 3 == 0 ? "0.05" : "0.1");
      } else {
        item = "APPROX_QUANTILE(latency, " + PHIS[(i / 3) % PHIS.length] + ")";
        target = i % 2 == 0 ? "RANK ERROR " + new String[] {"0.01", "0.005", "0.02"}[i % 3]
            : "RELATIVE ERROR " + new String[] {"0.01", "0.02", "0.05"}[i % 3];
      }
      out.add("CREATE STANDING QUERY q" + i + " AS SELECT " + start + " AS w, " + item
          + " AS v FROM requests GROUP BY " + window + " WITHIN " + target);
    }
    return out;
  }

  /**
   * A plain JDBC loop over {@code requests} on the store's own connection: the sum of the
   * latencies plus, by {@code time}, nothing (0), each time read by {@code getTimestamp} as epoch
   * milliseconds (1), or read as a {@link LocalDateTime} (2), in seconds.
   */
  private static double storeLoop(Connection store, int time) throws SQLException {
    double sum = 0;
    try (Statement s = store.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
         ResultSet rs = s.executeQuery(time == 0 ? "SELECT \"latency\" FROM \"PUBLIC\".\"requests\""
             : "SELECT \"ts\", \"latency\" FROM \"PUBLIC\".\"requests\"")) {
      while (rs.next()) {
        if (time == 0) {
          sum += rs.getDouble(1);
        } else if (time == 1) {
          sum += rs.getTimestamp(1).getTime() / 1000 + rs.getDouble(2);
        } else {
          sum += rs.getObject(1, LocalDateTime.class).toEpochSecond(ZoneOffset.UTC) + rs.getDouble(2);
        }
      }
    }
    return sum;
  }

  public static void main(String[] args) throws Exception {
    final int rows = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE NOT NULL)");
      // Lognormal latencies, ten requests a millisecond, in time order; loaded into the store
      // directly (the load is not timed).
      final List<Object[]> memory = new ArrayList<>(rows);
      final long t0 = Timestamp.valueOf("2026-11-30 00:00:00").getTime();
      final Connection store = Session.of(c.unwrap(CalciteConnection.class).getRootSchema())
          .getConnection();
      store.setAutoCommit(false);
      final Random random = new Random(11);
      try (PreparedStatement insert = store.prepareStatement(
          "INSERT INTO \"PUBLIC\".\"requests\" VALUES (?, ?)")) {
        for (int i = 0; i < rows; i++) {
          final long ts = t0 + i / 10;
          final double latency = Math.exp(3 + random.nextGaussian());
          insert.setTimestamp(1, new Timestamp(ts));
          insert.setDouble(2, latency);
          insert.addBatch();
          memory.add(new Object[] {ts, latency});
          if (i % 50_000 == 49_999 || i == rows - 1) {
            insert.executeBatch();
          }
        }
      }
      store.commit();
      store.setAutoCommit(true);
      for (String q : dashboard()) {
        s.addBatch(q);
      }
      s.executeBatch();
      final Dashboard dashboard = Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());

      final Harness harness = new Harness(1, 3);
      final java.util.concurrent.Callable<Integer> evaluate = () -> {
        int windows = 0;
        for (int i = 0; i < 50; i++) {
          try (ResultSet rs = s.executeQuery("SELECT * FROM q" + i)) {
            while (rs.next()) {
              windows++;
            }
          }
        }
        return windows;
      };
      final Harness.Timing<Integer> evaluation = harness.time(evaluate);
      // Right after a write (not timed): a one-row INSERT, whose row the pass adds to the
      // columns the previous pass left, and an UPDATE of the rows of the first millisecond,
      // after which the pass reads HSQLDB's rows again. Both leave the windows as they were.
      final double afterInsert = afterWrite(s, evaluate, evaluation.result(),
          "INSERT INTO requests VALUES (TIMESTAMP '2026-11-30 00:00:00', 20.0)");
      final double afterUpdate = afterWrite(s, evaluate, evaluation.result(),
          "UPDATE requests SET latency = latency WHERE ts = TIMESTAMP '2026-11-30 00:00:00'");
      final List<Sketches.Summary> summaries =
          dashboard.summaries().values().iterator().next();
      final long perRow = SketchAggregate.updatesPerRow(summaries);
      final Harness.Timing<Long> scan = harness.time(() -> {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(latency) FROM requests")) {
          rs.next();
          return rs.getLong(1);
        }
      });
      // The store scan's old path: HSQLDB's own JDBC over the same rows, reading the time as
      // a LocalDateTime, through getTimestamp's Calendar conversions (as Calcite's JDBC adapter
      // reads it), and not at all.
      // Interleaved, so that load and collections fall on the three alike.
      final List<Harness.Outcome<Double>> loops = harness.interleaved(List.<Harness.Contender<Double>>of(
          () -> storeLoop(store, 2), () -> storeLoop(store, 1), () -> storeLoop(store, 0)));
      final Harness.Timing<Integer> updates = harness.time(() -> Sketches.windows(
          DataContexts.EMPTY, Linq4j.asEnumerable(memory), 0, 1, summaries).count());
      final double total = (double) rows * perRow;
      System.out.printf(Locale.ROOT, "ROWS = %d; 50 standing queries; %d evaluations (passes);"
          + " medians of 3 runs after 1 warm-up%n", rows, dashboard.evaluations());
      System.out.println("plan: " + summaries.size() + " summaries, " + perRow
          + " sketch updates per row:");
      summaries.forEach(x -> System.out.println("  " + x));
      System.out.println();
      System.out.println("| work | s | sketch updates / s (one core) |");
      System.out.println("|---|---|---|");
      System.out.printf(Locale.ROOT, "| dashboard evaluation: one pass, 50 result sets (%d windows) | %.3f | %.1fM |%n",
          evaluation.result(), evaluation.seconds(), total / evaluation.seconds() / 1e6);
      System.out.printf(Locale.ROOT, "| the same right after a one-row INSERT (its row added to the columns read before) | %.3f | %.1fM |%n",
          afterInsert, total / afterInsert / 1e6);
      System.out.printf(Locale.ROOT, "| the same right after an UPDATE (HSQLDB's rows read again) | %.3f | %.1fM |%n",
          afterUpdate, total / afterUpdate / 1e6);
      System.out.printf(Locale.ROOT, "| store scan alone (SELECT COUNT(*), SUM(latency)) | %.3f | |%n",
          scan.seconds());
      System.out.printf(Locale.ROOT, "| summaries' updates alone, rows in memory | %.3f | %.1fM |%n",
          updates.seconds(), total / updates.seconds() / 1e6);
      System.out.printf(Locale.ROOT, "| HSQLDB JDBC loop, ts as LocalDateTime (the store scan's old path) and latency | %.3f | |%n",
          loops.get(0).seconds());
      System.out.printf(Locale.ROOT, "| HSQLDB JDBC loop, ts by getTimestamp (Calendar) and latency | %.3f | |%n",
          loops.get(1).seconds());
      System.out.printf(Locale.ROOT, "| HSQLDB JDBC loop, latency only | %.3f | |%n",
          loops.get(2).seconds());
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Median seconds of 3 evaluations, each right after {@code write} (not timed). */
  private static double afterWrite(Statement s, java.util.concurrent.Callable<Integer> evaluate,
      int windows, String write) throws Exception {
    final Harness.Timing<Integer> t =
        new Harness(0, 3).timeAfter(() -> s.executeUpdate(write), evaluate);
    if (t.result() != windows) {
      throw new IllegalStateException("a write changed the number of windows: " + write);
    }
    return t.seconds();
  }
}
