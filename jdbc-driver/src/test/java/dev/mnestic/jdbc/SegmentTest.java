package dev.mnestic.jdbc;

import dev.mnestic.store.Session;

import org.apache.calcite.jdbc.CalciteConnection;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16, point 5 (fast ingest): batches into a metric table of an in-memory store
 * are appended to the table's columnar segment ({@code store.Segment}), and every other
 * operation sees exactly what it would see had they been HSQLDB's rows. The oracle: the same
 * operations, in the same order, on a file store, whose batches take HSQLDB's INSERT.
 */
class SegmentTest {
  private static final String TABLE = "CREATE TABLE m (ts TIMESTAMP(3) NOT NULL,"
      + " host VARCHAR(8), v DOUBLE, k BIGINT)";
  private static final String INSERT = "INSERT INTO m VALUES (?, ?, ?, ?)";
  private static final String[] READS = {
      "SELECT COUNT(*), COUNT(host), SUM(v), SUM(k), MIN(ts), MAX(ts) FROM m",
      "SELECT host, COUNT(*), SUM(k) FROM m GROUP BY host ORDER BY host",
      "SELECT ts, host, v, k FROM m WHERE k % 7 = 2 ORDER BY k, ts, host, v"};

  private static long segmentRows(Connection c) throws SQLException {
    return Session.of(c.unwrap(CalciteConnection.class).getRootSchema()).segmentRows();
  }

  /** Two sessions on the store under test and two on the oracle, doing the same. */
  private static final class Pair {
    final Connection tested;
    final Connection oracle;

    Pair(Connection tested, Connection oracle) {
      this.tested = tested;
      this.oracle = oracle;
    }

    void execute(String sql) throws SQLException {
      Integer a = null;
      Integer b = null;
      try (Statement s = tested.createStatement()) {
        a = s.executeUpdate(sql);
      }
      try (Statement s = oracle.createStatement()) {
        b = s.executeUpdate(sql);
      }
      assertEquals(b, a, sql);
    }

    void read(String sql) throws SQLException {
      assertEquals(rows(oracle, sql), rows(tested, sql), sql);
    }

    void batch(List<Object[]> rows) throws SQLException {
      final String a = SegmentTest.batch(tested, rows);
      final String b = SegmentTest.batch(oracle, rows);
      assertEquals(b, a, "batch outcome");
    }

    void commit() throws SQLException {
      tested.commit();
      oracle.commit();
    }

    void rollback() throws SQLException {
      tested.rollback();
      oracle.rollback();
    }
  }

  /** The rows of {@code sql}, each as text. */
  private static List<String> rows(Connection c, String sql) throws SQLException {
    final List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        final StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          b.append(rs.getString(i)).append('|');
        }
        out.add(b.toString());
      }
    }
    return out;
  }

  /** Runs a batch of {@code rows}; its outcome: the update counts' sum, or the failure. */
  private static String batch(Connection c, List<Object[]> rows) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      for (Object[] row : rows) {
        if (row[0] == null) {
          ps.setNull(1, Types.TIMESTAMP);
        } else {
          ps.setTimestamp(1, (Timestamp) row[0]);
        }
        ps.setString(2, (String) row[1]);
        if (row[2] == null) {
          ps.setNull(3, Types.DOUBLE);
        } else {
          ps.setDouble(3, (Double) row[2]);
        }
        ps.setLong(4, (Long) row[3]);
        ps.addBatch();
      }
      long sum = 0;
      for (long n : ps.executeLargeBatch()) {
        sum += n;
      }
      return "stored " + sum;
    } catch (BatchUpdateException e) {
      // the row named and the SQLSTATE, not HSQLDB's wording
      final String m = e.getMessage();
      return m.substring(0, m.indexOf(" failed")) + " " + e.getSQLState();
    }
  }

  private static long nextKey;

  /** A random batch; now and then one bad row (NULL ts, a host too long). */
  private static List<Object[]> rows(Random random) {
    final int n = 1 + random.nextInt(random.nextInt(8) == 0 ? 1000 : 40);
    final List<Object[]> rows = new ArrayList<>();
    final int bad = random.nextInt(6) == 0 ? random.nextInt(n) : -1;
    for (int i = 0; i < n; i++) {
      final long k = nextKey++;
      final Timestamp ts = new Timestamp(1_700_000_000_000L + random.nextInt(1_000_000) * 7L);
      String host = random.nextInt(5) == 0 ? null : "h" + random.nextInt(6);
      if (random.nextInt(9) == 0) {
        host = "h1        "; // spaces past the length, which HSQLDB cuts
      }
      final Double v = random.nextInt(6) == 0 ? null : random.nextInt(1000) / 8.0;
      rows.add(new Object[] {ts, host, v, k});
      if (i == bad) {
        if (random.nextBoolean()) {
          rows.get(i)[0] = null;
        } else {
          rows.get(i)[1] = "host-too-long";
        }
      }
    }
    return rows;
  }

  @Test void randomInterleavingsSeeWhatHsqldbRowsWouldShow(@TempDir Path dir)
      throws SQLException {
    for (int seed = 0; seed < 3; seed++) {
      interleave(seed, dir.resolve("oracle" + seed));
    }
  }

  private static void interleave(int seed, Path oracleDir) throws SQLException {
    final Random random = new Random(seed);
    final String mem = "jdbc:mnestic:db=mem:segment" + seed;
    final String file = "jdbc:mnestic:db=" + oracleDir;
    try (Connection a1 = DriverManager.getConnection(mem);
        Connection a2 = DriverManager.getConnection(mem);
        Connection b1 = DriverManager.getConnection(file);
        Connection b2 = DriverManager.getConnection(file)) {
      final Pair p1 = new Pair(a1, b1);
      final Pair p2 = new Pair(a2, b2);
      p1.execute(TABLE);
      // the second session only appends and reads, in transactions at REPEATABLE READ or READ
      // COMMITTED; the first does everything (no session waits for another's row locks)
      final int isolation = seed % 2 == 0 ? Connection.TRANSACTION_REPEATABLE_READ
          : Connection.TRANSACTION_READ_COMMITTED;
      for (Connection c : List.of(a2, b2)) {
        c.setTransactionIsolation(isolation);
        c.setAutoCommit(false);
      }
      final long before = segmentRows(a1);
      for (int step = 0; step < 60; step++) {
        final Pair p = random.nextBoolean() ? p1 : p2;
        final int op = random.nextInt(p == p1 ? 10 : 6);
        switch (op) {
        case 0, 1, 2 -> p.batch(rows(random));
        case 3, 4 -> p.read(READS[random.nextInt(READS.length)]);
        case 5 -> {
          if (p.tested.getAutoCommit()) {
            p.read(READS[0]);
          } else if (random.nextInt(3) == 0) {
            p.rollback();
          } else {
            p.commit();
          }
        }
        case 6 -> p.execute("UPDATE m SET v = v + 1, host = 'u' WHERE k % 3 = "
            + random.nextInt(3));
        case 7 -> p.execute("DELETE FROM m WHERE k % 5 = " + random.nextInt(5));
        case 8 -> {
          final boolean auto = !p.tested.getAutoCommit();
          if (auto) {
            p.commit();
          }
          p.tested.setAutoCommit(auto);
          p.oracle.setAutoCommit(auto);
        }
        case 9 -> p.read("SELECT COUNT(*) FROM m WHERE k = " + random.nextLong(nextKey + 1));
        default -> throw new AssertionError(op);
        }
      }
      for (Pair p : List.of(p1, p2)) {
        if (!p.tested.getAutoCommit()) {
          p.commit();
        }
      }
      for (String read : READS) {
        p1.read(read);
        p2.read(read);
      }
      assertTrue(segmentRows(a1) > before, "no batch took the segment");
      assertEquals(0, segmentRows(b1), "the file store's batches take HSQLDB's INSERT");
      for (Pair p : List.of(p1, p2)) {
        if (!p.tested.getAutoCommit()) {
          p.commit();
        }
      }
      // DDL of another table leaves the rows
      p1.execute("CREATE TABLE other (x INT)");
      p1.read(READS[0]);
      p1.execute("DROP TABLE m");
    }
  }

  @Test void aFailedStatementKeepsTheBatchesBeforeIt() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=mem:segment-failed")) {
      c.createStatement().execute(TABLE);
      c.setAutoCommit(false);
      final List<Object[]> rows = new ArrayList<>();
      for (long k = 0; k < 50; k++) {
        rows.add(new Object[] {new Timestamp(k), "h", 1.0, k});
      }
      assertEquals("stored 50", batch(c, rows));
      // a bad batch, then an UPDATE that moves the first batch's rows into HSQLDB's and fails:
      // each rolled back alone, to the savepoint set as it began
      rows.get(7)[0] = null;
      assertEquals("batch row 7 (counting from 0) 23502", batch(c, rows));
      assertThrows(SQLException.class, () -> c.createStatement()
          .executeUpdate("UPDATE m SET host = 'much-too-long' WHERE k < 10"));
      c.commit();
      assertEquals(List.of("50|50|"),
          rows(c, "SELECT COUNT(*), COUNT(CASE WHEN host = 'h' THEN 1 END) FROM m"));
    }
  }

  /**
   * DROP TABLE drops a table's segment without first moving its rows into HSQLDB's (which
   * cost a bulk load's time again: each run of the ingest bench dropped the last run's table);
   * the dropped table's segment, with the blocks published to it, is let go at the next DDL
   * statement (its table object held it in the store's weak map of segments, so every load
   * into a table since dropped stayed in memory), and one replaced by DDL that rebuilt its
   * table (which moves its rows first) likewise; the table of the same name made again starts
   * without one.
   */
  @Test void aDroppedTablesSegmentIsLetGo() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=mem:segment-dropped")) {
      final Session session = Session.of(c.unwrap(CalciteConnection.class).getRootSchema());
      final List<Object[]> rows = new ArrayList<>();
      for (long k = 0; k < 50; k++) {
        rows.add(new Object[] {new Timestamp(k), "h", 1.0, k});
      }
      for (int round = 0; round < 3; round++) {
        c.createStatement().execute(TABLE);
        assertEquals("stored 50", batch(c, rows));
        assertEquals(1, session.segmentTables());
        c.createStatement().execute("DROP TABLE m");
        c.createStatement().execute("CREATE TABLE other (x INT)");
        assertEquals(0, session.segmentTables());
        c.createStatement().execute("DROP TABLE other");
      }
      assertEquals(0, session.foldedRows());
      c.createStatement().execute(TABLE);
      assertEquals("stored 50", batch(c, rows));
      // HSQLDB's own DDL on the store (mnestic's SQL has no ALTER TABLE): a new table object
      session.getConnection().createStatement()
          .execute("ALTER TABLE \"m\" ADD COLUMN \"extra\" INT");
      assertEquals(50, session.foldedRows());
      c.createStatement().execute("CREATE TABLE other (x INT)");
      assertEquals(0, session.segmentTables());
      assertEquals(List.of("50|"), rows(c, "SELECT COUNT(*) FROM m"));
    }
  }

  @Test void aBadRowIsNamedAndNothingOfItsBatchStored() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=mem:segment-bad")) {
      c.createStatement().execute(TABLE);
      final List<Object[]> rows = new ArrayList<>();
      for (long k = 0; k < 100; k++) {
        rows.add(new Object[] {new Timestamp(k), "h", 1.0, k});
      }
      rows.get(41)[1] = "abcdefghi";
      final BatchUpdateException e = assertThrows(BatchUpdateException.class,
          () -> { try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            for (Object[] r : rows) {
              ps.setTimestamp(1, (Timestamp) r[0]);
              ps.setString(2, (String) r[1]);
              ps.setDouble(3, (Double) r[2]);
              ps.setLong(4, (Long) r[3]);
              ps.addBatch();
            }
            ps.executeBatch();
          } });
      assertTrue(e.getMessage().startsWith("batch row 41 "), e.getMessage());
      assertEquals("22001", e.getSQLState());
      assertEquals(List.of("0|"), rows(c, "SELECT COUNT(*) FROM m"));
    }
  }

  /**
   * A prepared INSERT's batches bound straight into the segment's block as the parameters
   * are set (the driver's {@code SegmentBinder}) store what HSQLDB's INSERT stores: random
   * values of every column type the segment holds, NULLs, each setter and {@code setObject}
   * with each Java type (values the plan converts, or refuses), parameters left as the last
   * row set them or cleared, bad rows mid-batch, {@code clearBatch}, single executions
   * between batches, and one statement reused across batches. The oracle: the same calls on a
   * file store, whose batches take HSQLDB's INSERT.
   */
  @Test void boundBatchesStoreWhatHsqldbInsertStores(@TempDir Path dir) throws SQLException {
    for (int seed = 0; seed < 4; seed++) {
      final Random random = new Random(100 + seed);
      try (Connection tested = DriverManager.getConnection("jdbc:mnestic:db=mem:bound" + seed);
          Connection oracle = DriverManager.getConnection(
              "jdbc:mnestic:db=" + dir.resolve("bound" + seed))) {
        final String table = "CREATE TABLE b (i INTEGER, n BIGINT NOT NULL, f BOOLEAN,"
            + " d DOUBLE, s VARCHAR(6), ts TIMESTAMP(3))";
        final long before = segmentRows(tested);
        tested.createStatement().execute(table);
        oracle.createStatement().execute(table);
        try (PreparedStatement a = tested.prepareStatement("INSERT INTO b VALUES (?,?,?,?,?,?)");
            PreparedStatement b = oracle.prepareStatement("INSERT INTO b VALUES (?,?,?,?,?,?)")) {
          for (int step = 0; step < 400; step++) {
            final int op = random.nextInt(40);
            final long state = random.nextLong();
            if (op == 0) {
              assertEquals(outcome(b, ps -> {
                ps.clearParameters();
                return "ok";
              }),
                  outcome(a, ps -> {
                ps.clearParameters();
                return "ok";
              }), "clearParameters");
            } else if (op == 1) {
              assertEquals(outcome(b, ps -> {
                ps.clearBatch();
                return "ok";
              }), outcome(a, ps -> {
                ps.clearBatch();
                return "ok";
              }));
            } else if (op < 5) {
              assertEquals(outcome(b, ps -> ps.executeLargeBatch()),
                  outcome(a, ps -> ps.executeLargeBatch()), "executeBatch at step " + step);
            } else if (op == 5) {
              assertEquals(outcome(b, ps -> ps.executeUpdate()),
                  outcome(a, ps -> ps.executeUpdate()), "executeUpdate at step " + step);
            } else {
              // set some parameters (the others keep their values), then add the row
              final String set = outcome(b, ps -> bind(ps, new Random(state)));
              assertEquals(set, outcome(a, ps -> bind(ps, new Random(state))), "bind");
              assertEquals(outcome(b, ps -> {
                ps.addBatch();
                return "ok";
              }), outcome(a, ps -> {
                ps.addBatch();
                return "ok";
              }));
            }
          }
          assertEquals(outcome(b, ps -> ps.executeLargeBatch()),
              outcome(a, ps -> ps.executeLargeBatch()));
        }
        final String all = "SELECT i, n, f, d, s, ts FROM b ORDER BY n, i, f, d, s, ts";
        assertEquals(rows(oracle, all), rows(tested, all), "seed " + seed);
        final int stored = rows(tested, all).size();
        assertTrue(stored > 20, "too few rows stored to tell: " + stored);
        assertTrue(segmentRows(tested) > before, "no batch took the segment");
      }
    }
  }

  /** A call on a prepared statement. */
  private interface Call {
    Object run(PreparedStatement ps) throws SQLException;
  }

  /** What {@code call} gave: its update counts' sum, or its failure's row and SQLSTATE. */
  private static String outcome(PreparedStatement ps, Call call) {
    try {
      final Object r = call.run(ps);
      if (r instanceof long[] counts) {
        return "stored " + java.util.Arrays.stream(counts).sum();
      }
      return String.valueOf(r);
    } catch (BatchUpdateException e) {
      final String m = e.getMessage();
      return (m.contains(" failed") ? m.substring(0, m.indexOf(" failed")) : "batch") + " "
          + e.getSQLState();
    } catch (SQLException e) {
      return "failed " + e.getSQLState();
    }
  }

  /** Sets some of the six parameters of table b's INSERT at random, each by some setter. */
  private static Object bind(PreparedStatement ps, Random random) throws SQLException {
    final int[] types = {Types.INTEGER, Types.BIGINT, Types.BOOLEAN, Types.DOUBLE,
        Types.VARCHAR, Types.TIMESTAMP};
    // mostly the columns' own setters (rows the segment takes); one row in 8 any setter
    final boolean any = random.nextInt(8) == 0;
    for (int p = 1; p <= 6; p++) {
      if (random.nextInt(5) == 0) {
        continue; // keeps the value the last row set, or none
      }
      final int how = random.nextInt(any ? 14 : 2);
      final long n = random.nextInt(100) == 0 ? random.nextLong() : random.nextInt(50) - 10;
      switch (how) {
      case 0 -> { // the setter of the column's own type
        switch (p) {
        case 1 -> ps.setInt(p, (int) n);
        case 2 -> ps.setLong(p, n);
        case 3 -> ps.setBoolean(p, n % 2 == 0);
        case 4 -> ps.setDouble(p, n / 4.0);
        case 5 -> ps.setString(p, text(random));
        default -> ps.setTimestamp(p, new Timestamp(1_700_000_000_000L + n * 1_000_003L));
        }
      }
      case 1 -> { // the setter of the column's own type, the other common value
        switch (p) {
        case 1 -> ps.setInt(p, random.nextInt());
        case 2 -> ps.setLong(p, random.nextInt(7));
        case 3 -> ps.setBoolean(p, random.nextBoolean());
        case 4 -> ps.setDouble(p, random.nextGaussian());
        case 5 -> ps.setString(p, "h" + random.nextInt(4));
        default -> ps.setTimestamp(p, new Timestamp(random.nextInt(1 << 30) * 1000L));
        }
      }
      case 2 -> ps.setNull(p, types[p - 1]);
      case 3 -> ps.setInt(p, (int) n);
      case 4 -> ps.setLong(p, n);
      case 5 -> ps.setDouble(p, n / 2.0);
      case 6 -> ps.setString(p, random.nextBoolean() ? Long.toString(n) : text(random));
      case 7 -> ps.setBoolean(p, random.nextBoolean());
      case 8 -> ps.setString(p, null);
      case 9 -> ps.setObject(p, null);
      case 10 -> ps.setTimestamp(p, new Timestamp(n % 1_000_000 * 86_400_000L));
      default -> ps.setObject(p, switch (random.nextInt(12)) {
        case 0 -> (int) n;
        case 1 -> n;
        case 2 -> (short) n;
        case 3 -> (byte) n;
        case 4 -> n / 3.0;
        case 5 -> (float) (n / 3.0);
        case 6 -> java.math.BigDecimal.valueOf(n, 1);
        case 7 -> random.nextBoolean();
        case 8 -> text(random);
        case 9 -> new Timestamp(1_600_000_000_000L + n * 1_000L);
        case 10 -> java.time.LocalDateTime.of(2024, 2, 29, 12, 0).plusSeconds(n % 1_000_000_000L);
        default -> Long.toString(n);
      });
      }
    }
    return "set";
  }

  /** A VARCHAR(6)'s value, now and then too long, or long only by its trailing spaces. */
  private static String text(Random random) {
    return switch (random.nextInt(20)) {
    case 0 -> "toolong" + random.nextInt(9);
    case 1 -> "ab    " + "  ";
    case 2 -> "";
    default -> "s" + random.nextInt(100);
    };
  }
}
