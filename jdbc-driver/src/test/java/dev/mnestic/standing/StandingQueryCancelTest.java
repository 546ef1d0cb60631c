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
 * <p>The pass cannot finish first on any machine. Its {@value #ROWS} rows, one every
 * {@value #GAP} ms (20 a second), span {@value #SPAN_SECONDS} s (about seven hours) under
 * windows of four hours every {@value #STEP_SECONDS} s. An exact accumulator keeps 8 bytes a
 * value, 1,616 bytes for a step's 200 rows, where a KLL of k = 100 (what RANK ERROR 0.05 takes)
 * keeps at most 1,380, and more windows of them than of the sketches (the cost model's choice,
 * by a few per cent for the bare query, which keeps the span of its rows; by far for the standing
 * query's seven days): the plan keeps KLL sketches of each step's rows and merges them into the
 * windows. The executor's first read makes every window ending before the latest sub-window's
 * end from its own sub-windows (MergeChargeTest counts it so): of the 2,500 windows, the i-th
 * merges min(i, 1,440) of them, each a sketch holding at least k / 2 values, 2.56 million
 * merges and at least {@value #MIN_STEPS} steps, many seconds at any speed against a timeout of
 * one second (about 30 µs a merge here: 77 s for the pass's sketches alone). Before, each window
 * holding the latest sub-window merged its own sub-windows too; they all end at or after it, so
 * one summary merged backwards now gives each in turn: this test's pass before, four-hour
 * windows every second over 50 s of rows (whose windows all hold the latest second), merges its
 * 50 sub-windows about once each and finishes within the second. The standing query's tests
 * check that size on the plan the pass ran (and that it keeps sketches, whose memory stays
 * small, not the rows), and each test that the failure is the pass's own (or its store scan's,
 * where the cancel lands while the rows are read).
 */
class StandingQueryCancelTest {
  private static final int ROWS = 500_000;
  private static final long MIN_STEPS = 100_000_000L;
  /** Milliseconds from one row to the next. */
  private static final long GAP = 50;
  private static final long SPAN_SECONDS = ROWS * GAP / 1000;
  private static final long STEP_SECONDS = 10;
  private static final String WINDOW = "(ts, INTERVAL '" + STEP_SECONDS + "' SECOND,"
      + " INTERVAL '4' HOUR)";
  private static final String SLOW = "SELECT HOP_START" + WINDOW + " AS w,"
      + " APPROX_QUANTILE(latency, 0.5) AS p50 FROM requests GROUP BY HOP" + WINDOW
      + " WITHIN RANK ERROR 0.05";
  /** The first row's time. */
  private static final long START = Timestamp.valueOf("2026-11-30 00:00:00").getTime();

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
    final Random r = new Random(6);
    // The store directly: a test fixture, not what is under test.
    final Connection store = Session.of(c.unwrap(CalciteConnection.class).getRootSchema())
        .getConnection();
    try (PreparedStatement insert = store.prepareStatement(
        "INSERT INTO \"PUBLIC\".\"requests\" VALUES (?, ?)")) {
      for (int i = 0; i < ROWS; i++) {
        insert.setTimestamp(1, new Timestamp(START + i * GAP));
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
        insert.setTimestamp(1, new Timestamp(START + i * 1000L));
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
   * The steps a pass of {@code summaries} over the {@link #ROWS} rows (one every {@link #GAP}
   * ms) takes at least, as the executor runs it: a row's update of each window holding it (one
   * for tumbling sub-windows); for a merge, each sub-window summary it merges, counted as
   * MergeChargeTest's first read counts them (each window ending before the first step end at
   * or after the latest sub-window's end L merges the sub-windows under it; those from there on
   * merge the sub-windows of [that end - width, L) once between them), times the values each
   * holds: a KLL of n values keeps at least min(n, k / 2) (a compaction halves a level of at
   * least k), a DDSketch at least one bin.
   */
  private static long steps(List<Sketches.Summary> summaries) {
    long steps = 0;
    for (Sketches.Summary s : summaries) {
      assertTrue(s.family() != Sketches.Family.EXACT, "a sketch: " + s);
      if (s.builtFromRows()) {
        steps += (long) ROWS * (s.width() / s.step());
        continue;
      }
      final long sub = s.subWidth();
      assertTrue(sub % GAP == 0 && START % sub == 0 && ROWS * GAP % sub == 0,
          "every sub-window holds sub / GAP rows: " + s);
      final long first = START;
      final long latest = START + ROWS * GAP;
      final long tail = Math.floorDiv(latest + s.step() - 1, s.step()) * s.step();
      long merges = (latest - Math.max(first, tail - s.width())) / sub;
      for (long end = Math.floorDiv(first, s.step()) * s.step() + s.step(); end < tail;
          end += s.step()) {
        merges += (end - Math.max(first, end - s.width())) / sub;
      }
      final long values = sub / GAP;
      steps += merges * (s.family() == Sketches.Family.KLL
          ? Math.min(values, (long) s.parameter() / 2) : 1);
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
