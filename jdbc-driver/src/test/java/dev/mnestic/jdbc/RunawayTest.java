package dev.mnestic.jdbc;

import dev.mnestic.store.Session;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13, point 4: every statement stops at its timeout, its cancel or its memory
 * budget wherever it is, with the stop's SQLSTATE (HYT00, 57014, 53200), and the connection
 * then still works. Each runaway would run for minutes or hours (a 3-way cross join of 1,000
 * rows is 10^9 rows); each test asserts, as a safety bound, that it stopped within
 * {@value #BOUND_SECONDS} seconds: far below a runaway's minutes, and above what a stop takes
 * on two cores shared with a dozen other JVMs (the memory runaway once took 16 s there).
 */
class RunawayTest {
  private static final double BOUND_SECONDS = 30;
  private static final String URL = "jdbc:mnestic:db=mem:runaway";
  /** 10^9 rows counted: no row reaches the caller before the end. */
  private static final String CROSS3 = "SELECT COUNT(*) FROM t a, t b, t c";

  /** Holds the shared store open. */
  private static Connection keep;

  @BeforeAll static void load() throws SQLException {
    keep = DriverManager.getConnection(URL);
    try (Statement s = keep.createStatement()) {
      s.execute("CREATE TABLE t (x INT PRIMARY KEY)");
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE)");
    }
    // The store directly: a test fixture, not what is under test.
    final Connection store = Session.of(keep.unwrap(CalciteConnection.class).getRootSchema())
        .getConnection();
    try (PreparedStatement insert =
        store.prepareStatement("INSERT INTO \"PUBLIC\".\"t\" VALUES (?)")) {
      for (int i = 0; i < 1000; i++) {
        insert.setInt(1, i);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    final long start = Timestamp.valueOf("2026-11-30 00:00:00").getTime();
    try (PreparedStatement insert =
        store.prepareStatement("INSERT INTO \"PUBLIC\".\"requests\" VALUES (?, ?)")) {
      for (int i = 0; i < 20_000; i++) {
        insert.setTimestamp(1, new Timestamp(start + i * 10L));
        insert.setDouble(2, i % 977);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    // What a JVM does once (Calcite's first plan and code: seconds, not interruptible)
    // before the runaways are timed.
    try (Statement s = keep.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t a, t b WHERE a.x = b.x")) {
      assertTrue(rs.next());
    }
  }

  @AfterAll static void drop() throws SQLException {
    try (Statement s = keep.createStatement()) {
      s.execute("DROP TABLE t");
      s.execute("DROP TABLE requests");
    }
    keep.close();
  }

  private static Connection connect(String properties) throws SQLException {
    return DriverManager.getConnection(URL + ";" + properties);
  }

  /** Runs {@code sql} to its end, expecting it to fail; the failure, within the bound. */
  private static SQLException runaway(Statement s, String sql) {
    final long start = System.nanoTime();
    final SQLException e = assertThrows(SQLException.class, () -> {
      try (ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          // every row read
        }
      }
    });
    final double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(seconds < BOUND_SECONDS, "stopped after " + seconds + " s: " + messages(e));
    return e;
  }

  private static void stillWorks(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT COUNT(*) FROM t WHERE x < 10")) {
      assertTrue(rs.next());
      assertEquals(10, rs.getLong(1));
    }
  }

  @Test void crossJoinStopsAtItsTimeout() throws SQLException {
    try (Connection c = connect(""); Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      final SQLException e = runaway(s, CROSS3);
      assertEquals("HYT00", e.getSQLState(), messages(e));
      assertTrue(e instanceof java.sql.SQLTimeoutException, messages(e));
      stillWorks(c);
    }
  }

  /** Rows of a cross join that a filter drops: the join emits nothing for a long time. */
  @Test void filteredCrossJoinStopsAtItsTimeout() throws SQLException {
    try (Connection c = connect(""); Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      final SQLException e = runaway(s,
          "SELECT a.x, b.x, c.x FROM t a, t b, t c WHERE a.x + b.x * c.x = -1");
      assertEquals("HYT00", e.getSQLState(), messages(e));
      stillWorks(c);
    }
  }

  /**
   * A statement stopped while its caller holds a result set (between two {@code next()}
   * calls: its timeout passed, a cancel, its memory) fails the next {@code next()} with the
   * stop's SQLSTATE, not with Avatica's "Statement canceled", which has none.
   */
  @Test void aStopBetweenRowsFailsTheNextRowWithItsState() throws Exception {
    try (Connection c = connect(""); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT x FROM t")) {
        assertTrue(rs.next());
        s.cancel();
        final SQLException e = assertThrows(SQLException.class, rs::next);
        assertEquals("57014", e.getSQLState(), messages(e));
      }
      s.setQueryTimeout(1);
      try (ResultSet rs = s.executeQuery("SELECT x FROM t")) {
        assertTrue(rs.next());
        Thread.sleep(1_500);
        final SQLException e = assertThrows(SQLException.class, rs::next);
        assertEquals("HYT00", e.getSQLState(), messages(e));
      }
      stillWorks(c);
    }
  }

  @Test void cancelFromAnotherThreadStopsACrossJoin() throws Exception {
    try (Connection c = connect(""); Statement s = c.createStatement()) {
      final CompletableFuture<Void> canceller = CompletableFuture.runAsync(() -> {
        try {
          Thread.sleep(700);
          s.cancel();
        } catch (InterruptedException | SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      final SQLException e = runaway(s, CROSS3);
      canceller.get();
      assertEquals("57014", e.getSQLState(), messages(e));
      stillWorks(c);
    }
  }

  /**
   * #14, point 4: a cancel while the statement is still being prepared (a 30,000-item IN list
   * takes 0.75-1 s to parse, validate and plan in a warm JVM; 3,000 items took 90-150 ms, so
   * the cancel 100 ms in could come after the preparation) returns at once, while the
   * statement is still being prepared (it has no result set yet; Avatica's cancel waited for
   * the preparation's lock, so it returned only once the result set was there), and is kept:
   * the statement fails with 57014 instead of running its cross join.
   */
  @Test void cancelWhilePreparingReturnsAtOnceAndStops() throws Exception {
    final StringBuilder sql = new StringBuilder(CROSS3 + " WHERE a.x IN (0");
    for (int i = 1; i < 30_000; i++) {
      sql.append(", ").append(i);
    }
    sql.append(')');
    try (Connection c = connect(""); Statement s = c.createStatement()) {
      final CompletableFuture<Boolean> preparedWhenCancelReturned =
          CompletableFuture.supplyAsync(() -> {
            try {
              Thread.sleep(100);
              s.cancel();
              return s.getResultSet() != null;
            } catch (InterruptedException | SQLException e) {
              throw new IllegalStateException(e);
            }
          });
      final SQLException e = runaway(s, sql.toString());
      assertFalse(preparedWhenCancelReturned.get(), "cancel() waited for the preparation");
      assertEquals("57014", e.getSQLState(), messages(e));
      stillWorks(c);
    }
  }

  /** The connection's statementTimeout stops a statement; setQueryTimeout cannot raise it. */
  @Test void statementTimeoutPropertyStopsEveryStatement() throws SQLException {
    try (Connection c = connect(Driver.STATEMENT_TIMEOUT + "=1");
         Statement s = c.createStatement()) {
      final SQLException e = runaway(s, CROSS3);
      assertEquals("HYT00", e.getSQLState(), messages(e));
      s.setQueryTimeout(3600);
      final SQLException raised = runaway(s, "SELECT COUNT(*) FROM t a, t b, t c WHERE a.x <> c.x");
      assertEquals("HYT00", raised.getSQLState(), messages(raised));
      assertTrue(raised.getMessage().contains("after 1 s"), messages(raised));
      stillWorks(c);
    }
  }

  @Test void badLimitsAreRefused() {
    final SQLException e = assertThrows(SQLException.class,
        () -> connect(Driver.STATEMENT_MEMORY + "=lots"));
    assertEquals("08001", e.getSQLState(), messages(e));
    assertTrue(e.getMessage().contains("statementMemory must be a whole number"), messages(e));
  }

  @Test void datalogIntRangeStopsAtItsTimeout() throws SQLException {
    try (Connection c = connect("lang=datalog"); Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      final SQLException e = runaway(s, "?[count(x)] := x in int_range(100000000)");
      assertEquals("HYT00", e.getSQLState(), messages(e));
      s.setQueryTimeout(0); // the statement runs on, however loaded the machine
      try (ResultSet rs = s.executeQuery("?[x] := x in int_range(3)")) {
        int n = 0;
        while (rs.next()) {
          n++;
        }
        assertEquals(3, n);
      }
    }
  }

  @Test void datalogProductOfRelationsStopsAtCancel() throws Exception {
    try (Connection c = connect("lang=datalog"); Statement s = c.createStatement()) {
      final CompletableFuture<Void> canceller = CompletableFuture.runAsync(() -> {
        try {
          Thread.sleep(700);
          s.cancel();
        } catch (InterruptedException | SQLException e) {
          throw new IllegalStateException(e);
        }
      });
      final SQLException e = runaway(s,
          "r[a] := a in int_range(2000)\n?[count(a)] := r[a], r[b], r[c]");
      canceller.get();
      assertEquals("57014", e.getSQLState(), messages(e));
    }
  }

  /**
   * A standing query sliding by 1 ms over 200 s of rows (200,000 windows a minute wide): the
   * sketch planner's search, which looks at no flag, and then the pass stop at the timeout.
   */
  @Test void standingQueryWithAMillisecondStepStopsAtItsTimeout() throws SQLException {
    try (Connection c = connect(""); Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      final String window = "(ts, INTERVAL '0.001' SECOND, INTERVAL '1' MINUTE)";
      final SQLException e = runaway(s, "SELECT HOP_START" + window + " AS w,"
          + " APPROX_QUANTILE(latency, 0.5) AS p50 FROM requests GROUP BY HOP" + window
          + " WITHIN RANK ERROR 0.01");
      assertEquals("HYT00", e.getSQLState(), messages(e));
      stillWorks(c);
    }
  }

  /**
   * A statement holding more than its statementMemory (a sort of 10^6 rows of a kilobyte or
   * more keeps every one)
   * fails alone with 53200, while a small statement of another connection runs meanwhile.
   */
  @Test void statementOverItsMemoryFailsAlone() throws Exception {
    final Properties limits = new Properties();
    limits.setProperty(Driver.STATEMENT_MEMORY, String.valueOf(64L << 20));
    try (Connection c = DriverManager.getConnection(URL, limits);
         Connection other = DriverManager.getConnection(URL, limits);
         Statement s = c.createStatement()) {
      final CompletableFuture<Long> small = CompletableFuture.supplyAsync(() -> {
        long total = 0;
        try (Statement o = other.createStatement()) {
          for (int i = 0; i < 20; i++) {
            try (ResultSet rs = o.executeQuery("SELECT SUM(x) FROM t WHERE x < 100")) {
              rs.next();
              total += rs.getLong(1);
            }
          }
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
        return total;
      });
      final SQLException e = runaway(s, "SELECT a.x, b.x, CAST(a.x + b.x AS VARCHAR(8)) || '"
          + "x".repeat(1000) + "' FROM t a, t b ORDER BY a.x + b.x DESC, 1, 2");
      assertEquals("53200", e.getSQLState(), messages(e));
      assertTrue(e.getMessage().contains("statementMemory"), messages(e));
      assertEquals(20 * 4950L, small.get());
      stillWorks(c);
    }
  }

  /**
   * A script holding more than its statementMemory (up to 10^6 rows of 10 kB, more than the
   * test JVM's heap, all held to be sorted by {@code :order}) fails with 53200: a script runs
   * on a {@code DeepStack} thread, not the caller's, and what that thread allocates for it
   * counts toward its budget. (A count over such a rule held nothing: its rows were garbage as
   * soon as counted, so it ran its 10 GB of allocation through young collections, stopped only
   * when one happened to find 32 MB in flight, after 40-60 s on a busy machine.)
   */
  @Test void datalogScriptOverItsMemoryFails() throws SQLException {
    final Properties limits = new Properties();
    limits.setProperty(Driver.LANG, Driver.DATALOG);
    limits.setProperty(Driver.STATEMENT_MEMORY, String.valueOf(32L << 20));
    try (Connection c = DriverManager.getConnection(URL, limits);
         Statement s = c.createStatement()) {
      final SQLException e = runaway(s, "?[a, t] := a in int_range(1000000), t = to_string(a)"
          + " ++ '" + "x".repeat(10_000) + "'\n:order t");
      assertEquals("53200", e.getSQLState(), messages(e));
      assertTrue(e.getMessage().contains("statementMemory"), messages(e));
      assertTrue(e.getMessage().contains("it held more heap than it may"), messages(e));
      try (ResultSet rs = s.executeQuery("?[x] := x in int_range(3)")) {
        int n = 0;
        while (rs.next()) {
          n++;
        }
        assertEquals(3, n);
      }
    }
  }

  private static String messages(Throwable e) {
    final StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t).append('\n');
    }
    return b.toString();
  }
}
