package dev.mnestic.standing;

import dev.mnestic.runtime.Sketches;
import dev.mnestic.store.Session;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A standing query's pass stops at its statement's query timeout and at {@code Statement.cancel},
 * with a clear error, keeping nothing of it; a bare {@code SELECT ... WITHIN} too.
 *
 * <p>The pass cannot finish first on any machine: 500,000 rows (ten a millisecond, so an ingest
 * rate of 10,000 a second) under windows of four hours every second are 14,450 windows. At that
 * rate an exact accumulator keeps 10,000 values for every second it is kept (the plan keeps what
 * the executor keeps: seven days of windows for the standing query; for the bare one, which
 * answers every window of its rows, at least the four-hour window), hundreds of millions of
 * values, so the plan keeps sketches, and whatever it chooses each row goes into 14,400 sliding windows, or each of
 * the 50 one-second sketches (of 10,000 rows, so at least k items) is merged into 14,400
 * windows: at least {@value #MIN_STEPS} steps, many seconds at any speed against a timeout of
 * one second. Each test checks that size on the plan the pass ran (and that it keeps sketches,
 * whose memory stays small, not the rows), and that the failure is the pass's own (or its
 * store scan's, where the cancel lands while the rows are read).
 */
class StandingQueryCancelTest {
  private static final int ROWS = 500_000;
  private static final long MIN_STEPS = 100_000_000L;
  /** Rows a millisecond. */
  private static final int PER_MILLI = 10;
  private static final String WINDOW = "(ts, INTERVAL '1' SECOND, INTERVAL '4' HOUR)";
  private static final String SLOW = "SELECT HOP_START" + WINDOW + " AS w,"
      + " APPROX_QUANTILE(latency, 0.5) AS p50 FROM requests GROUP BY HOP" + WINDOW
      + " WITHIN RANK ERROR 0.01";

  /** The store, shared in this JVM; each test has its own connection (and dashboard). */
  private static final String URL = "jdbc:mnestic:db=mem:standing-cancel";

  /** Holds the shared store open. */
  private static Connection keep;
  private Connection c;

  @BeforeAll static void load() throws SQLException {
    keep = DriverManager.getConnection(URL);
    final Connection c = keep;
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE)");
      s.execute("CREATE TABLE small (ts TIMESTAMP NOT NULL, latency DOUBLE)");
    }
    final long start = Timestamp.valueOf("2026-11-30 00:00:00").getTime();
    final Random r = new Random(6);
    // The store directly: a test fixture, not what is under test.
    final Connection store = Session.of(c.unwrap(CalciteConnection.class).getRootSchema())
        .getConnection();
    try (PreparedStatement insert = store.prepareStatement(
        "INSERT INTO \"PUBLIC\".\"requests\" VALUES (?, ?)")) {
      for (int i = 0; i < ROWS; i++) {
        insert.setTimestamp(1, new Timestamp(start + i / PER_MILLI));
        insert.setDouble(2, Math.exp(3 + r.nextGaussian()));
        insert.addBatch();
        if (i % 50_000 == 49_999) {
          insert.executeBatch();
        }
      }
    }
    try (PreparedStatement insert = store.prepareStatement(
        "INSERT INTO \"PUBLIC\".\"small\" VALUES (?, ?)")) {
      for (int i = 0; i < 600; i++) {
        insert.setTimestamp(1, new Timestamp(start + i * 1000L));
        insert.setDouble(2, i);
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  @AfterAll static void drop() throws SQLException {
    try (Statement s = keep.createStatement()) {
      // Left by a test that failed before its own DROP: DROP TABLE refuses a table they read.
      s.execute("DROP STANDING QUERY IF EXISTS slow");
      s.execute("DROP STANDING QUERY IF EXISTS fast");
      s.execute("DROP TABLE requests");
      s.execute("DROP TABLE small");
    }
    keep.close();
  }

  @BeforeEach void open() throws SQLException {
    c = DriverManager.getConnection(URL);
  }

  @AfterEach void close() throws SQLException {
    c.close();
  }

  private Dashboard dashboard() throws SQLException {
    return Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());
  }

  /**
   * The steps a pass of {@code summaries} over the {@link #ROWS} rows ({@link #PER_MILLI} a
   * millisecond) takes at least: a row's update of each sliding window holding it, or each merge
   * of a sub-window's sketch (of 1,000 rows or more, so at least k items of a KLL, or 100 bins
   * of a DDSketch) into a window holding it.
   */
  private static long steps(List<Sketches.Summary> summaries) {
    long steps = 0;
    for (Sketches.Summary s : summaries) {
      assertTrue(s.family() != Sketches.Family.EXACT, "a sketch: " + s);
      assertTrue(s.subWidth() == 0 || s.subWidth() >= 1000, "sub-windows of 1 s or more: " + s);
      final long items = s.family() == Sketches.Family.KLL ? (long) s.parameter() : 100;
      steps += s.subWidth() > 0
          ? ROWS / PER_MILLI / s.subWidth() * (s.width() / s.step()) * items
          : (long) ROWS * (s.width() / s.step());
    }
    return steps;
  }

  private static String messages(Throwable e) {
    final StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t).append('\n');
    }
    return b.toString();
  }

  private static String sqlState(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && s.getSQLState() != null) {
        return s.getSQLState();
      }
    }
    return null;
  }

  /**
   * Plans the standing queries (EXPLAIN makes the plan the next read runs), so that what is
   * stopped next is the pass; a stop during the planning is RunawayTest's.
   */
  private static void planned(Statement s) throws SQLException {
    try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR SELECT * FROM slow")) {
      assertTrue(rs.next());
    }
  }

  /** After a stopped pass: nothing of it kept, and the next evaluation answers in full. */
  private void nothingKeptAndUsable(Statement s) throws SQLException {
    final Dashboard d = dashboard();
    assertEquals(0, d.evaluations(), "the stopped pass is no evaluation");
    assertEquals(0, d.builds(), "the stopped pass counts no summaries");
    s.execute("DROP STANDING QUERY slow");
    s.execute("CREATE STANDING QUERY fast AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w,"
        + " APPROX_QUANTILE(latency, 0.5) AS p50 FROM small GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
        + " WITHIN RANK ERROR 0.01");
    s.setQueryTimeout(0);
    int windows = 0;
    try (ResultSet rs = s.executeQuery("SELECT * FROM fast")) {
      while (rs.next()) {
        windows++;
      }
    }
    assertEquals(10, windows);
    assertEquals(1, d.evaluations());
    assertEquals(10, d.builds());
    s.execute("DROP STANDING QUERY fast");
  }

  /** Test case for #6: a standing query's pass stops at its statement's query timeout. */
  @Test void queryTimeoutStopsTheStandingQuerysPass() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE STANDING QUERY slow AS " + SLOW);
      planned(s);
      s.setQueryTimeout(1);
      final SQLException e = assertThrows(SQLException.class, () -> {
        try (ResultSet rs = s.executeQuery("SELECT * FROM slow")) {
          rs.next();
        }
      });
      assertEquals("HYT00", sqlState(e), messages(e));
      assertTrue(messages(e).contains("query timed out after 1 s"), messages(e));
      assertTrue(steps(dashboard().summaries().values().iterator().next()) >= MIN_STEPS,
          dashboard().summaries().toString());
      nothingKeptAndUsable(s);
    }
  }

  /** Test case for #6: {@code Statement.cancel} from another thread stops the pass. */
  @Test void cancelStopsTheStandingQuerysPass() throws Exception {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE STANDING QUERY slow AS " + SLOW);
      planned(s);
      final CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
        try (ResultSet rs = s.executeQuery("SELECT * FROM slow")) {
          int n = 0;
          while (rs.next()) {
            n++;
          }
          return n;
        } catch (SQLException e) {
          throw new CompletionException(e);
        }
      });
      // A cancel issued before the statement runs is kept and stops it before its pass (#14):
      // let the pass start (it takes many seconds), then cancel until the read ends.
      Thread.sleep(1_000);
      while (!read.isDone()) {
        s.cancel();
        Thread.sleep(50);
      }
      final CompletionException e = assertThrows(CompletionException.class, read::join);
      assertTrue(messages(e).contains("cancelled (query timeout or cancel)"),
          messages(e));
      assertTrue(steps(dashboard().summaries().values().iterator().next()) >= MIN_STEPS,
          dashboard().summaries().toString());
      nothingKeptAndUsable(s);
    }
  }

  /** Test case for #6: a query with a target, run once without CREATE, stops at its timeout. */
  @Test void queryTimeoutStopsABareQueryWithATarget() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      final SQLException e = assertThrows(SQLException.class, () -> {
        try (ResultSet rs = s.executeQuery(SLOW)) {
          rs.next();
        }
      });
      assertEquals("HYT00", sqlState(e), messages(e));
      assertTrue(messages(e).contains("query timed out after 1 s"), messages(e));
      s.setQueryTimeout(0);
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM requests")) {
        assertTrue(rs.next());
        assertEquals(ROWS, rs.getLong(1));
      }
    }
  }
}
