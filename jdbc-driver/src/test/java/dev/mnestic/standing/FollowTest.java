package dev.mnestic.standing;

import dev.mnestic.cli.Main;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16, point 4: a standing query followed ({@code SELECT STREAM * FROM name})
 * gives each window's row as the window closes, by the lateness rule of {@link Follow}: on a
 * test clock (the rule itself, late rows) and on the wall clock through JDBC (1-second windows
 * of rows stamped now; cancel, close and the query timeout stop it).
 */
class FollowTest {
  private static final AtomicInteger STORES = new AtomicInteger();
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

  /** A private store with a table of latencies and the 1-second standing query {@code p}. */
  private static Connection store(String properties) throws SQLException {
    final Connection c = DriverManager.getConnection("jdbc:mnestic:db=mem:follow"
        + STORES.incrementAndGet() + properties);
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE)");
      s.execute("CREATE STANDING QUERY p AS SELECT TUMBLE_END(ts, INTERVAL '1' SECOND) AS w,"
          + " APPROX_QUANTILE(latency, 0.5) AS p50, APPROX_QUANTILE(latency, 1.0) AS top"
          + " FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' SECOND) WITHIN RANK ERROR 0.01");
    }
    return c;
  }

  private static void insert(Statement s, long millis, double latency) throws SQLException {
    s.execute("INSERT INTO requests VALUES (TIMESTAMP '" + STAMP.format(
        LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000),
            Math.floorMod(millis, 1000) * 1_000_000, ZoneOffset.UTC)) + "', " + latency
        + ")");
  }

  /** The pull read of {@code p}: each window's row by its end. */
  private static Map<Long, Object[]> pull(Statement s) throws SQLException {
    final Map<Long, Object[]> rows = new HashMap<>();
    try (ResultSet rs = s.executeQuery("SELECT * FROM p")) {
      while (rs.next()) {
        final Object[] row = row(rs);
        rows.put((Long) row[0], row);
      }
    }
    return rows;
  }

  /** A row of the feed with its window end as a long (a Double beside quantiles, as pulled). */
  private static Object[] fed(Object[] row) {
    return new Object[] {((Number) row[0]).longValue(), row[1], row[2]};
  }

  /** The current row of {@code p}'s result as the feed gives it: the window end in ms, values. */
  private static Object[] row(ResultSet rs) throws SQLException {
    return new Object[] {
        rs.getTimestamp(1).toLocalDateTime().toInstant(ZoneOffset.UTC).toEpochMilli(),
        rs.getObject(2), rs.getObject(3)};
  }

  /**
   * The rule on a test clock, lateness 300 ms: history is not given, a window's row comes once
   * the clock passes its end + 300 ms and holds the rows committed by then, and a row committed
   * after that (late) is counted by pull reads but its window's row is not given again.
   */
  @Test void latenessRule() throws SQLException {
    final long base = 1_800_000_000_000L; // windows [base + k s, base + (k + 1) s)
    try (Connection c = store("");
         Statement s = c.createStatement()) {
      insert(s, base - 500, 7); // history: its window closed before the follow starts
      insert(s, base + 100, 1);
      insert(s, base + 200, 2);
      insert(s, base + 1500, 10);
      final Dashboard dashboard =
          Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());
      final AtomicLong clock = new AtomicLong(base + 500);
      final Follow follow = new Follow(dashboard, dashboard.lowered(List.of("P")), 300,
          clock::get, new AtomicBoolean());
      assertEquals(0, follow.await(0), "no window closed since the follow started");
      clock.set(base + 1299);
      assertEquals(0, follow.await(0), "[base, base + 1 s) closes at base + 1.3 s, not before");
      clock.set(base + 1300);
      assertEquals(1, follow.await(0));
      final Object[] first = fed(follow.next());
      assertArrayEquals(pull(s).get(base + 1000), first, "the pull read's row of the window");
      assertEquals(2.0, first[2]);

      insert(s, base + 900, 100); // late for the closed window
      insert(s, base + 1600, 20); // within the lateness of [base + 1 s, base + 2 s)
      assertEquals(100.0, pull(s).get(base + 1000)[2], "a late row is counted by pull reads");
      clock.set(base + 2300);
      assertEquals(1, follow.await(0), "the closed window is not given again");
      final Object[] second = fed(follow.next());
      assertEquals(base + 2000, second[0]);
      assertEquals(20.0, second[2], "a row within the lateness is in its window's row");
      assertArrayEquals(pull(s).get(base + 2000), second);

      clock.set(base + 5300); // three windows closed, none with rows
      assertEquals(0, follow.await(0));
      insert(s, base + 4900, 3); // late: its window [base + 4 s, base + 5 s) closed at 5.3 s
      clock.set(base + 6300);
      insert(s, base + 6000, 4);
      clock.set(base + 7300);
      assertEquals(1, follow.await(0));
      assertEquals(base + 7000, fed(follow.next())[0]);
      follow.close();
      assertThrows(IllegalStateException.class, () -> follow.await(0));
    }
  }

  /**
   * Through JDBC, on the wall clock: rows stamped now, written by another connection, come out
   * as their 1-second windows close (1 s after their end: slack for a busy machine's slow
   * inserts), in window order, each once, equal to the pull read of the same window.
   */
  @Test void rowsComeAsWindowsClose() throws Exception {
    try (Connection c = store(";followLateness=1000");
         Statement s = c.createStatement()) {
      final String url = "jdbc:mnestic:db=mem:follow" + STORES.get();
      final AtomicBoolean writing = new AtomicBoolean(true);
      final Thread writer = writer(url, writing);
      final List<Object[]> followed = new ArrayList<>();
      final List<Long> arrived = new ArrayList<>();
      try {
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> {
          try (ResultSet rs = s.executeQuery("SELECT STREAM * FROM p")) {
            while (followed.size() < 3 && rs.next()) {
              arrived.add(now());
              followed.add(row(rs));
            }
          }
        });
      } finally {
        writing.set(false);
        writer.join();
      }
      final Map<Long, Object[]> pulled;
      try (Connection r = DriverManager.getConnection(url);
           Statement rs = r.createStatement()) {
        pulled = pull(rs);
      }
      for (int i = 0; i < followed.size(); i++) {
        final long end = (Long) followed.get(i)[0];
        if (i > 0) {
          final long previous = (Long) followed.get(i - 1)[0];
          assertTrue(end > previous && (end - previous) % 1000 == 0,
              "windows in order, once each: " + previous + ", " + end);
        }
        assertTrue(arrived.get(i) >= end + 1000, "given only once closed");
        // a safety bound: the first read plans the query
        assertTrue(arrived.get(i) < end + 1000 + 10_000, "given soon after it closed");
        assertArrayEquals(pulled.get(end), followed.get(i), "the pull read's row");
      }
    }
  }

  /**
   * Test case for #16, point 5: a follow lives on between the reads of its closed windows and
   * is held to its {@code statementMemory} one read at a time. Its rows wait in it only until
   * fetched; the heap its reading thread fills meanwhile with other work (here 64 MB kept, four
   * times the budget) does not count toward it. Counted from the statement's start, the
   * collection after that work stopped it with 53200.
   */
  @Test void aFollowIsHeldToItsMemoryOneReadAtATime() throws Exception {
    try (Connection c = store(";followLateness=0;statementMemory=" + (16 << 20));
         Statement s = c.createStatement()) {
      final String url = "jdbc:mnestic:db=mem:follow" + STORES.get();
      final AtomicBoolean writing = new AtomicBoolean(true);
      final Thread writer = writer(url, writing);
      try {
        assertTimeoutPreemptively(java.time.Duration.ofSeconds(30), () -> {
          try (ResultSet rs = s.executeQuery("SELECT STREAM * FROM p")) {
            assertTrue(rs.next());
            final long first = rs.getLong(1);
            final List<byte[]> other = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
              other.add(new byte[1 << 20]);
            }
            System.gc();
            Thread.sleep(500); // the heap watch hears of the collection
            assertTrue(rs.next(), "still followed");
            assertTrue(rs.getLong(1) > first, "the next window");
            assertEquals(64, other.size());
          }
        });
      } finally {
        writing.set(false);
        writer.join();
      }
    }
  }

  /** Starts writing rows stamped now to {@code url}'s table, every 20 ms, while {@code writing}. */
  private static Thread writer(String url, AtomicBoolean writing) {
    final Thread writer = new Thread(() -> {
      try (Connection w = DriverManager.getConnection(url);
           Statement ws = w.createStatement()) {
        for (int i = 0; writing.get(); i++) {
          insert(ws, now(), i % 97);
          Thread.sleep(20);
        }
      } catch (SQLException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    writer.start();
    return writer;
  }

  /** {@code mnestic follow NAME} prints a CSV header, then each window's row as it closes. */
  @Test void cliFollows() throws Exception {
    try (Connection c = store("")) {
      final String db = "mem:follow" + STORES.get();
      final AtomicBoolean writing = new AtomicBoolean(true);
      final Thread writer = writer("jdbc:mnestic:db=" + db, writing);
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      final ByteArrayOutputStream err = new ByteArrayOutputStream();
      final int status;
      try {
        status = assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () -> Main.run(
            new String[] {"follow", "--db", db, "--lateness", "200", "--rows", "2", "p"},
            InputStream.nullInputStream(), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8)));
      } finally {
        writing.set(false);
        writer.join();
      }
      assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
      final String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
      assertEquals(3, lines.length, out.toString(StandardCharsets.UTF_8));
      assertEquals("w,p50,top", lines[0]);
      assertTrue(lines[1].compareTo(lines[2]) < 0, "in window order: " + lines[1] + ", " + lines[2]);
      assertEquals(2, Main.run(new String[] {"follow", "--rows", "0", "p"},
          InputStream.nullInputStream(), new PrintStream(out), new PrintStream(err)));
    }
  }

  /** The wall clock of {@link Follow#WALL_CLOCK}: a TIMESTAMP of the JVM's zone, in ms. */
  private static long now() {
    return Follow.WALL_CLOCK.getAsLong();
  }

  /** Statement.cancel from another thread stops a follow waiting for its next window: 57014. */
  @Test void cancelStopsIt() throws Exception {
    try (Connection c = store(";followLateness=0");
         Statement s = c.createStatement()) {
      final Thread canceller = new Thread(() -> {
        try {
          Thread.sleep(300);
          s.cancel();
        } catch (SQLException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      canceller.start();
      final SQLException e = assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
          () -> assertThrows(SQLException.class, () -> {
            try (ResultSet rs = s.executeQuery("SELECT STREAM * FROM p")) {
              rs.next();
            }
          }));
      canceller.join();
      assertEquals("57014", e.getSQLState(), e.getMessage());
    }
  }

  /** The query timeout stops a follow: HYT00. */
  @Test void timeoutStopsIt() throws Exception {
    try (Connection c = store("");
         Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      final SQLException e = assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
          () -> assertThrows(SQLException.class, () -> {
            try (ResultSet rs = s.executeQuery("SELECT STREAM * FROM p")) {
              rs.next();
            }
          }));
      assertEquals("HYT00", e.getSQLState(), e.getMessage());
    }
  }

  /** Closing the statement from another thread ends a follow waiting for its next window. */
  @Test void closeStopsIt() throws Exception {
    try (Connection c = store("")) {
      final Statement s = c.createStatement();
      final Thread closer = new Thread(() -> {
        try {
          Thread.sleep(300);
          s.close();
        } catch (SQLException | InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      closer.start();
      assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
          () -> assertThrows(SQLException.class, () -> {
            final ResultSet rs = s.executeQuery("SELECT STREAM * FROM p");
            rs.next();
          }));
      closer.join();
      assertTrue(s.isClosed());
    }
  }

  /** Only a whole standing query with a window bound is followed; errors name their place. */
  @Test void whatIsFollowed() throws SQLException {
    try (Connection c = store("");
         Statement s = c.createStatement()) {
      s.execute("CREATE STANDING QUERY nobound AS SELECT APPROX_QUANTILE(latency, 0.5)"
          + " FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' SECOND) WITHIN RANK ERROR 0.01");
      SQLException e = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT STREAM * FROM nobound"));
      assertEquals("42000", e.getSQLState());
      assertTrue(e.getMessage().contains("line 1, column 22")
          && e.getMessage().contains("selects no window bound"), e.getMessage());
      e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT STREAM p50 FROM p"));
      assertEquals("42000", e.getSQLState());
      assertTrue(e.getMessage().contains("followed whole"), e.getMessage());
      e = assertThrows(SQLException.class, () -> DriverManager.getConnection(
          "jdbc:mnestic:followLateness=soon"));
      assertEquals("08001", e.getSQLState());
      assertTrue(e.getMessage().contains("followLateness"), e.getMessage());
    }
  }
}
