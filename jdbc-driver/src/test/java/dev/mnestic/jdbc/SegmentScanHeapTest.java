package dev.mnestic.jdbc;

import dev.mnestic.store.Session;

import org.apache.calcite.jdbc.CalciteConnection;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16, point 3 (the refresh bench's 100M rows): a scan of a table whose rows are
 * in the store's columnar segment streams them, holding a row at a time, not the table's
 * values. A child JVM with a heap of {@value #HEAP_MB} MB loads {@value #ROWS} rows by batch
 * INSERT (their segment arrays take 128 MB) and reads every value of both columns twice, by
 * an aggregate and by a plain projection walked to the end; a scan that gathered the values
 * (two columns of boxed values: about 320 MB more) runs out of heap there. The answers are
 * checked against sums the child computes as it loads.
 */
class SegmentScanHeapTest {
  static final int ROWS = 8_000_000;
  static final int HEAP_MB = 320;
  static final long T0 = 1_700_000_000_000L;

  @Test void aScanOfASegmentTableHoldsARowNotTheTable() throws Exception {
    final Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + HEAP_MB + "m", "-cp", System.getProperty("java.class.path"),
        Child.class.getName())
        .redirectErrorStream(true)
        .start();
    final String output;
    try (InputStream in = child.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(child.waitFor(120, TimeUnit.SECONDS), output);
    assertEquals(0, child.exitValue(), output);
    assertTrue(output.contains("segment " + ROWS + "\n"), output);
    assertTrue(output.contains("aggregate ok\n"), output);
    assertTrue(output.contains("projection ok\n"), output);
  }

  /** The child: loads, then reads and checks; prints what it found. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE m (ts TIMESTAMP(3) NOT NULL, v DOUBLE NOT NULL)");
        final Random random = new Random(3);
        // eighths below 1,000: every sum here is exact in a double
        double sum = 0;
        double sumTimes = 0;
        c.setAutoCommit(false);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO m VALUES (?, ?)")) {
          for (int i = 0; i < ROWS; i++) {
            final double v = random.nextInt(8_000) / 8.0;
            insert.setTimestamp(1, new Timestamp(T0 + i));
            insert.setDouble(2, v);
            insert.addBatch();
            sum += v;
            sumTimes += i % 1_000;
            if ((i + 1) % 100_000 == 0) {
              insert.executeBatch();
              c.commit();
            }
          }
        }
        c.setAutoCommit(true);
        System.out.println("segment "
            + Session.of(c.unwrap(CalciteConnection.class).getRootSchema()).segmentRows());
        try (ResultSet r = s.executeQuery("SELECT COUNT(*), SUM(v), MIN(ts), MAX(ts) FROM m")) {
          r.next();
          check("aggregate", r.getLong(1) == ROWS && r.getDouble(2) == sum
              && r.getTimestamp(3).getTime() == T0 && r.getTimestamp(4).getTime() == T0 + ROWS - 1,
              r.getLong(1) + " " + r.getDouble(2) + " " + r.getTimestamp(3) + " "
                  + r.getTimestamp(4) + " against " + ROWS + " " + sum);
        }
        // Row by row to the client: nothing above the scan gathers the rows either.
        try (ResultSet r = s.executeQuery("SELECT ts, v FROM m")) {
          long n = 0;
          double seen = 0;
          double seenTimes = 0;
          while (r.next()) {
            seenTimes += (r.getTimestamp(1).getTime() - T0) % 1_000;
            seen += r.getDouble(2);
            n++;
          }
          check("projection", n == ROWS && seen == sum && seenTimes == sumTimes,
              n + " " + seen + " " + seenTimes + " against " + sum + " " + sumTimes);
        }
      }
    }

    private static void check(String what, boolean ok, String detail) throws IOException {
      System.out.println(what + (ok ? " ok" : " wrong: " + detail));
    }
  }
}
