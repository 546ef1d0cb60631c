package dev.mnestic.bench;

import dev.mnestic.server.MnesticServer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How late a followed standing query's rows come ({@code SELECT STREAM * FROM p}): a p95 over
 * 1-second tumbling windows of {@code requests(ts, latency)}, rows stamped now written by another
 * connection at RATE rows a second (a multi-row INSERT every 10 ms), followed with an allowed
 * lateness of 200 ms, embedded and through a MnesticServer with mnestic's thin client (the
 * server answers each request for rows with the rows ready, waiting at most 1 s). For each of
 * WINDOWS rows: the delay from the window's close (its end + 200 ms, on the wall clock) to the
 * row reaching the reader; each close reads the query (one evaluation over the table so far).
 *
 * <p>Reproduce: {@code bench/run FollowBench [WINDOWS] [RATE]} (default 20 windows, 1000 rows/s).
 */
public final class FollowBench {
  private static final long LATENESS = 200;
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

  private FollowBench() {
  }

  public static void main(String[] args) throws Exception {
    final int windows = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    final int rate = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    System.out.printf(Locale.ROOT, "delay from a window's close to its followed row, ms"
        + " (1 s windows, lateness %d ms, %d windows, %d rows/s)%n", LATENESS, windows, rate);
    report("embedded", run("jdbc:mnestic:db=mem:follow-bench", windows, rate));
    try (MnesticServer server = MnesticServer.newBuilder().port(0).build()) {
      server.start();
      report("remote (jdbc:mnestic:remote:)", run(
          server.jdbcUrl().replace("jdbc:avatica:remote:", "jdbc:mnestic:remote:"), windows,
          rate));
    }
  }

  private static void report(String what, long[] delays) {
    Arrays.sort(delays);
    System.out.printf(Locale.ROOT, "%-30s median %d, p90 %d, max %d%n", what,
        delays[delays.length / 2], delays[(int) (delays.length * 0.9)],
        delays[delays.length - 1]);
  }

  /** The delays of {@code windows} followed rows of a store reached at {@code url}. */
  private static long[] run(String url, int windows, int rate) throws Exception {
    final Properties lateness = new Properties();
    lateness.setProperty("followLateness", Long.toString(LATENESS));
    try (Connection c = DriverManager.getConnection(url, lateness);
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE)");
      s.execute("CREATE STANDING QUERY p AS SELECT TUMBLE_END(ts, INTERVAL '1' SECOND) AS w,"
          + " APPROX_QUANTILE(latency, 0.95) AS p95 FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' SECOND) WITHIN RANK ERROR 0.01");
      final AtomicBoolean writing = new AtomicBoolean(true);
      final Thread writer = new Thread(() -> write(url, rate, writing));
      writer.start();
      final long[] delays = new long[windows];
      try (ResultSet rs = s.executeQuery("SELECT STREAM * FROM p")) {
        for (int i = 0; i < windows && rs.next(); i++) {
          final long end = rs.getTimestamp(1).toLocalDateTime().toInstant(ZoneOffset.UTC)
              .toEpochMilli();
          delays[i] = now() - (end + LATENESS);
        }
      } finally {
        writing.set(false);
        writer.join();
      }
      return delays;
    }
  }

  /** Writes {@code rate} rows a second stamped now, while {@code writing}. */
  private static void write(String url, int rate, AtomicBoolean writing) {
    try (Connection w = DriverManager.getConnection(url); Statement s = w.createStatement()) {
      final int perBatch = Math.max(1, rate / 100);
      for (long i = 0; writing.get(); ) {
        final long now = now();
        final String ts = "TIMESTAMP '" + STAMP.format(LocalDateTime.ofEpochSecond(
            Math.floorDiv(now, 1000), Math.floorMod(now, 1000) * 1_000_000, ZoneOffset.UTC))
            + "'";
        final StringBuilder values = new StringBuilder();
        for (int j = 0; j < perBatch; j++, i++) {
          values.append(j == 0 ? "" : ", ").append('(').append(ts).append(", ")
              .append(Math.exp((i * 7919 % 1000) / 200.0)).append(')');
        }
        s.execute("INSERT INTO requests VALUES " + values);
        Thread.sleep(10);
      }
    } catch (SQLException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The wall clock of the lateness rule: a TIMESTAMP of the JVM's zone, in ms. */
  private static long now() {
    final long now = System.currentTimeMillis();
    return now + TimeZone.getDefault().getOffset(now);
  }
}
