package dev.mnestic.jdbc;

import dev.mnestic.server.MnesticServer;
import dev.mnestic.store.Session;

import org.apache.calcite.jdbc.CalciteConnection;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16 (fast ingest): a batch of {@code INSERT INTO t VALUES (?, ...)} is bound
 * straight into the store ({@link DirectInsertSignature}), in one transaction, and stores
 * exactly what running the plan once per row stores.
 */
class DirectInsertTest {
  /** Every column type the store holds, NULLs allowed but in {@code id} and {@code n}. */
  private static final String COLUMNS = "(id INT PRIMARY KEY, n BIGINT NOT NULL, b BOOLEAN,"
      + " ti TINYINT, si SMALLINT, i INT, bi BIGINT, d DECIMAL(10,2), d0 DECIMAL(5,0), r REAL,"
      + " f FLOAT, db DOUBLE, ch CHAR(5), vc VARCHAR(8), bn BINARY(4), vb VARBINARY(6), dt DATE,"
      + " tm TIME, tm3 TIME(3), ts TIMESTAMP, ts6 TIMESTAMP(6))";

  private static long directRows(Connection c) throws SQLException {
    return Session.of(c.unwrap(CalciteConnection.class).getRootSchema()).directRows();
  }

  /** Binds one parameter; each column has several ways, some not of the plan's own class. */
  @FunctionalInterface
  private interface Setter {
    void set(PreparedStatement ps, int parameter) throws SQLException;
  }

  /** A random way to set column {@code column} (1-based in {@link #COLUMNS}) of row {@code id}. */
  private static Setter setter(Random random, int column, int id) {
    if (column > 2 && random.nextInt(8) == 0) {
      final int type = random.nextBoolean() ? Types.NULL : Types.VARCHAR;
      return (ps, p) -> ps.setNull(p, type);
    }
    // mostly the last way of each column, the column's own class, so that most rows are good
    final int way = random.nextInt(20) == 0 ? random.nextInt(3) : 3;
    return switch (column) {
    case 1 -> (ps, p) -> ps.setInt(p, id);
    case 2 -> way == 0 ? (ps, p) -> ps.setNull(p, Types.BIGINT) // NULL into NOT NULL
        : way == 1 ? (ps, p) -> ps.setInt(p, id) : (ps, p) -> ps.setLong(p, -id * 1_000_003L);
    case 3 -> way == 0 ? (ps, p) -> ps.setString(p, "true")
        : (ps, p) -> ps.setBoolean(p, id % 2 == 0);
    case 4 -> way == 0 ? (ps, p) -> ps.setInt(p, 200) // out of range
        : way == 1 ? (ps, p) -> ps.setInt(p, id % 100) : (ps, p) -> ps.setByte(p, (byte) -id);
    case 5 -> way == 0 ? (ps, p) -> ps.setInt(p, id) : (ps, p) -> ps.setShort(p, (short) id);
    case 6 -> way == 0 ? (ps, p) -> ps.setLong(p, id) : way == 1 ? (ps, p) -> ps.setString(p, "7")
        : (ps, p) -> ps.setInt(p, Integer.MIN_VALUE + id);
    case 7 -> way == 0 ? (ps, p) -> ps.setInt(p, id) : (ps, p) -> ps.setLong(p, Long.MAX_VALUE - id);
    case 8, 9 -> way == 0 ? (ps, p) -> ps.setDouble(p, id + 0.125)
        : way == 1 ? (ps, p) -> ps.setBigDecimal(p, new BigDecimal("12345678.999"))
        : decimal(BigDecimal.valueOf(random.nextLong() % 10_000_000, random.nextInt(5)));
    case 10, 11, 12 -> way == 0 ? (ps, p) -> ps.setFloat(p, id / 3f)
        : way == 1 ? (ps, p) -> ps.setInt(p, id) : way == 2 ? (ps, p) -> ps.setString(p, "2.5")
        : (ps, p) -> ps.setDouble(p, id / 7d);
    case 13, 14 -> way == 0 ? (ps, p) -> ps.setString(p, "abcdefghij".substring(0, id % 11))
        : way == 1 ? (ps, p) -> ps.setInt(p, id) : (ps, p) -> ps.setString(p, "é" + id);
    case 15, 16 -> way == 0 ? (ps, p) -> ps.setBytes(p, new byte[id % 8])
        : (ps, p) -> ps.setBytes(p, new byte[] {1, (byte) id, -1});
    case 17 -> way == 0 ? (ps, p) -> ps.setString(p, "2024-02-29")
        : way == 1 ? (ps, p) -> ps.setDate(p, Date.valueOf("1500-03-01"))
        : (ps, p) -> ps.setDate(p, new Date(Date.valueOf("2000-01-01").getTime() + id * 86_400_000L));
    case 18, 19 -> way == 0 ? (ps, p) -> ps.setString(p, "12:34:56")
        : (ps, p) -> ps.setTime(p, new Time(Time.valueOf("01:02:03").getTime() + id * 1_001L));
    case 20, 21 -> way == 0 ? (ps, p) -> ps.setString(p, "2024-01-01 10:00:00")
        : way == 1 ? (ps, p) -> ps.setTimestamp(p, Timestamp.valueOf("1400-01-01 00:00:00.5"))
        : (ps, p) -> {
          final Timestamp t = new Timestamp(1_700_000_000_000L + id * 1_234L);
          t.setNanos(123_456_789);
          ps.setTimestamp(p, t);
        };
    default -> throw new AssertionError(column);
    };
  }

  private static Setter decimal(BigDecimal value) {
    return (ps, p) -> ps.setBigDecimal(p, value);
  }

  /** Each row's columns as the driver reads them back, as text. */
  private static List<String> rows(Statement s, String table) throws SQLException {
    final List<String> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY id")) {
      while (rs.next()) {
        final StringBuilder row = new StringBuilder();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          row.append(rs.getString(i)).append(" | ");
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  /**
   * The oracle: random rows, each column set in a random way (NULLs, values of the column's
   * own class, of another class, out of range, too long, unparsable text), run once per row
   * through the plan into {@code planned}, and as batches into {@code direct}: the same rows
   * are stored, alike to the last digit; a row the plan refuses fails its batch with the
   * plan's SQLSTATE and that row's index, and leaves {@code direct} as it was.
   */
  @Test void batchesStoreWhatThePlanStores() throws SQLException {
    assertBatchesStoreWhatThePlanStores(COLUMNS,
        java.util.stream.IntStream.rangeClosed(1, 21).toArray());
  }

  /**
   * The oracle of {@link #batchesStoreWhatThePlanStores} on a table of only the types whose
   * values the store hands to HSQLDB's statement itself (INT, BIGINT, BOOLEAN, DOUBLE, CHAR,
   * VARCHAR, TIMESTAMP of any precision: the metric rows' path), so that batches of more than
   * the 64 rows a statement takes, bad rows among them, pass where a table of every type
   * passes through HSQLDB's JDBC batches.
   */
  @Test void batchesOfTheStoresOwnTypesStoreWhatThePlanStores() throws SQLException {
    assertBatchesStoreWhatThePlanStores("(id INT PRIMARY KEY, n BIGINT NOT NULL, b BOOLEAN,"
        + " i INT, bi BIGINT, db DOUBLE, ch CHAR(5), vc VARCHAR(8), ts TIMESTAMP,"
        + " ts6 TIMESTAMP(6))", new int[] {1, 2, 3, 6, 7, 12, 13, 14, 20, 21});
  }

  /**
   * Random rows into a table of {@code columns}, each column set as {@link #setter} sets the
   * column {@code setters[k]} of {@link #COLUMNS}.
   */
  private static void assertBatchesStoreWhatThePlanStores(String columns, int[] setters)
      throws SQLException {
    final Random random = new Random(16);
    final int width = setters.length;
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE planned " + columns);
      s.execute("CREATE TABLE direct " + columns);
      final String values = " VALUES (?" + ", ?".repeat(width - 1) + ")";
      final List<List<Setter>> good = new ArrayList<>();
      final List<List<Setter>> bad = new ArrayList<>();
      final List<String> badStates = new ArrayList<>();
      try (PreparedStatement planned = c.prepareStatement("INSERT INTO planned" + values)) {
        for (int id = 0; id < 400; id++) {
          final List<Setter> row = new ArrayList<>();
          for (int column = 1; column <= width; column++) {
            row.add(setter(random, setters[column - 1], id));
            row.get(column - 1).set(planned, column);
          }
          try {
            assertEquals(1, planned.executeUpdate());
            good.add(row);
          } catch (SQLException e) {
            bad.add(row);
            badStates.add(e.getSQLState());
          }
        }
      }
      assertTrue(good.size() > 50 && bad.size() > 30, good.size() + " good, " + bad.size());
      final long before = directRows(c);
      try (PreparedStatement direct = c.prepareStatement("INSERT INTO direct" + values)) {
        for (int from = 0; from < good.size(); from += 150) {
          for (List<Setter> row : good.subList(from, Math.min(from + 150, good.size()))) {
            for (int column = 1; column <= width; column++) {
              row.get(column - 1).set(direct, column);
            }
            direct.addBatch();
          }
          for (long count : direct.executeLargeBatch()) {
            assertEquals(1, count);
          }
        }
        assertTrue(directRows(c) - before > good.size() / 4, "rows bound straight into the store: "
            + (directRows(c) - before) + " of " + good.size());
        assertEquals(rows(s, "planned"), rows(s, "direct"));
        // A bad row after a good one (whose key is new) fails the batch; nothing is stored.
        for (int k = 0; k < bad.size(); k++) {
          for (int column = 1; column <= width; column++) {
            good.get(0).get(column - 1).set(direct, column);
          }
          direct.setInt(1, 10_000 + k);
          direct.addBatch();
          for (int column = 1; column <= width; column++) {
            bad.get(k).get(column - 1).set(direct, column);
          }
          direct.addBatch();
          final BatchUpdateException e =
              assertThrows(BatchUpdateException.class, direct::executeBatch);
          assertEquals(badStates.get(k), e.getSQLState(), e.getMessage());
          assertTrue(e.getMessage().startsWith("batch row 1 (counting from 0) failed"),
              e.getMessage());
          assertArrayEquals(new long[] {Statement.EXECUTE_FAILED}, e.getLargeUpdateCounts());
        }
        assertEquals(rows(s, "planned"), rows(s, "direct"));
      }
    }
  }

  /**
   * {@code setTimestamp(p, x)} binds what Avatica's binding with the connection zone's calendar
   * binds ({@code setTimestamp(p, x, calendar)}, which mnestic leaves as Avatica's), with the
   * JVM's zone changed since Avatica started to zones with and without summer time, at and
   * around their changes, before and after the Gregorian reform and before 1970.
   */
  @Test void timestampsBindAsAvaticaBindsThem() throws SQLException {
    final Random random = new Random(17);
    final java.util.TimeZone jvmZone = java.util.TimeZone.getDefault();
    for (String zone : List.of("UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
        "Europe/London", "Pacific/Chatham")) {
      java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone(zone));
      try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE own (id INT PRIMARY KEY, ts TIMESTAMP(3))");
        s.execute("CREATE TABLE avatica (id INT PRIMARY KEY, ts TIMESTAMP(3))");
        // the connection's zone, as Avatica's setTimestamp(p, x) takes it
        final java.util.Calendar calendar = java.util.Calendar.getInstance(
            c.unwrap(org.apache.calcite.avatica.AvaticaConnection.class).getTimeZone(),
            java.util.Locale.ROOT);
        try (PreparedStatement own = c.prepareStatement("INSERT INTO own VALUES (?, ?)");
             PreparedStatement avatica = c.prepareStatement("INSERT INTO avatica VALUES (?, ?)")) {
          for (int id = 0; id < 3000; id++) {
            // random instants from 1400 to 2400, and the hours around 2024's changes
            final long time = id % 3 == 0
                ? 1_704_067_200_000L + random.nextInt(366) * 86_400_000L
                    + random.nextInt(3_600_000) * (random.nextBoolean() ? 1L : -1L)
                : -17_987_443_200_000L + (long) (random.nextDouble() * 31_556_952_000_000L);
            final Timestamp t = new Timestamp(time);
            t.setNanos(t.getNanos() / 1_000_000 * 1_000_000);
            own.setInt(1, id);
            own.setTimestamp(2, t);
            own.addBatch();
            avatica.setInt(1, id);
            avatica.setTimestamp(2, t, calendar);
            avatica.addBatch();
          }
          own.executeBatch();
          avatica.executeBatch();
        }
        final List<String> avatica = rows(s, "avatica");
        final List<String> own = rows(s, "own");
        assertEquals(3000, own.size());
        for (int id = 0; id < avatica.size(); id++) {
          // row by row: a failure shows the first row that differs
          assertEquals(avatica.get(id), own.get(id), zone);
        }
      } finally {
        java.util.TimeZone.setDefault(jvmZone);
      }
    }
  }

  /**
   * Metric rows go straight into the store, all of them; a duplicate key, a NULL into NOT
   * NULL, a string too long or a parameter left unset fails the batch naming the row, with
   * the SQLSTATE a single INSERT gives, and stores nothing of it.
   */
  @Test void badRowsNameTheirIndexAndStoreNothing() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE m (ts TIMESTAMP NOT NULL, host VARCHAR(8) NOT NULL, v DOUBLE,"
          + " PRIMARY KEY (ts, host))");
      final long before = directRows(c);
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO m (host, ts, v) VALUES (?, ?, ?)")) {
        for (int i = 0; i < 10_000; i++) {
          ps.setString(1, "h" + i % 10);
          ps.setTimestamp(2, new Timestamp(1_700_000_000_000L + i / 10 * 1000L));
          ps.setDouble(3, i * 0.25);
          ps.addBatch();
        }
        assertEquals(10_000, ps.executeBatch().length);
        assertEquals(10_000, directRows(c) - before);
        assertEquals(List.of("10000 2499.75"), rows(s,
            "(SELECT 0 AS id, COUNT(*) AS n, MAX(v) AS v FROM m) x").stream()
            .map(r -> r.split(" \\| ")[1] + " " + r.split(" \\| ")[2]).toList());
        final Object[][] bad = {
          {"h1", new Timestamp(1_700_000_000_000L), "23505"}, // key stored already
          {null, new Timestamp(1_800_000_000_000L), "23502"},
          {"toolonghost", new Timestamp(1_800_000_000_000L), "22001"},
        };
        for (Object[] row : bad) {
          // the bad row sits inside the batch's second statement of 64 rows, good rows after
          for (int i = 0; i < 130; i++) {
            if (i == 70) {
              ps.setString(1, (String) row[0]);
              ps.setTimestamp(2, (Timestamp) row[1]);
              ps.setNull(3, Types.DOUBLE);
            } else {
              ps.setString(1, "new");
              ps.setTimestamp(2, new Timestamp(1_900_000_000_000L + i));
              ps.setDouble(3, 1);
            }
            ps.addBatch();
          }
          final BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
          assertEquals(row[2], e.getSQLState(), e.getMessage());
          assertTrue(e.getMessage().startsWith("batch row 70 (counting from 0) failed"),
              e.getMessage());
          ps.setString(1, (String) row[0]);
          ps.setTimestamp(2, (Timestamp) row[1]);
          ps.setNull(3, Types.DOUBLE);
          final SQLException single = assertThrows(SQLException.class, ps::executeUpdate);
          assertEquals(row[2], single.getSQLState());
        }
        ps.setString(1, "x");
        ps.addBatch(); // parameters 2 and 3 keep their last values
        ps.clearParameters();
        ps.setString(1, "y");
        ps.addBatch();
        final BatchUpdateException unset = assertThrows(BatchUpdateException.class, ps::executeBatch);
        assertEquals("07001", unset.getSQLState());
        assertTrue(unset.getMessage().startsWith("batch row 1 "), unset.getMessage());
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM m")) {
        assertTrue(rs.next());
        assertEquals(10_000, rs.getLong(1));
      }
    }
  }

  /**
   * Inside a transaction a failed batch takes back only itself: what the transaction wrote
   * before stays, and commits.
   */
  @Test void aFailedBatchKeepsTheTransaction() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE k (id INT PRIMARY KEY, v DOUBLE)");
      c.setAutoCommit(false);
      s.execute("INSERT INTO k VALUES (1, 1.0)");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO k VALUES (?, ?)")) {
        ps.setInt(1, 2);
        ps.setDouble(2, 2);
        ps.addBatch();
        ps.setInt(1, 1);
        ps.addBatch();
        assertEquals("23505", assertThrows(BatchUpdateException.class, ps::executeBatch)
            .getSQLState());
        ps.setInt(1, 3);
        ps.addBatch();
        assertArrayEquals(new int[] {1}, ps.executeBatch());
      }
      c.commit();
      assertEquals(List.of("1 | 1.0 | ", "3 | 2.0 | "), rows(s, "k"));
    }
  }

  /** A batch prepared before DDL replaced its table with other columns fails, storing nothing. */
  @Test void aTableReplacedSincePreparingFailsTheBatch() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:");
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE r (a INT, b INT)");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO r VALUES (?, ?)")) {
        s.execute("DROP TABLE r");
        s.execute("CREATE TABLE r (a INT, b INT, x INT)");
        ps.setInt(1, 1);
        ps.setInt(2, 2);
        ps.addBatch();
        final SQLException e = assertThrows(SQLException.class, ps::executeBatch);
        assertEquals("42000", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains("prepare it again"), e.getMessage());
      }
      assertEquals(List.of(), rows(s, "(SELECT 0 AS id FROM r) x"));
    }
  }

  /**
   * Through the server: a thin client's {@code executeBatch} stores its rows in one go and
   * fails as the embedded driver's does, with a {@link BatchUpdateException} naming the row.
   */
  @Test void remoteBatchesGoStraightIntoTheStore() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).db("mem:direct-insert-remote")
        .build()) {
      server.start();
      try (Connection embedded = DriverManager.getConnection("jdbc:mnestic:db=mem:direct-insert-remote");
           Connection c = DriverManager.getConnection(
               "jdbc:mnestic:remote:url=http://127.0.0.1:" + server.port());
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE m (ts TIMESTAMP(3), host VARCHAR(16) NOT NULL, v DOUBLE)");
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO m VALUES (?, ?, ?)")) {
          for (int i = 0; i < 5_000; i++) {
            ps.setTimestamp(1, new Timestamp(1_700_000_000_000L + i));
            ps.setString(2, "h" + i % 7);
            ps.setDouble(3, i);
            ps.addBatch();
          }
          assertEquals(5_000, ps.executeBatch().length);
          ps.setNull(1, Types.TIMESTAMP);
          ps.setString(2, "ok");
          ps.setDouble(3, 1);
          ps.addBatch();
          ps.setNull(2, Types.VARCHAR);
          ps.addBatch();
          final BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
          assertEquals("23502", e.getSQLState());
          assertTrue(e.getMessage().contains("batch row 1 (counting from 0) failed"),
              e.getMessage());
          assertEquals(0, e.getUpdateCounts().length); // the thin client cannot tell
        }
        try (Statement es = embedded.createStatement();
             ResultSet rs = es.executeQuery("SELECT COUNT(*), SUM(v), MIN(ts) FROM m")) {
          assertTrue(rs.next());
          assertEquals(5_000, rs.getLong(1));
          assertEquals(4999 * 5000 / 2, rs.getLong(2));
          assertEquals(new Timestamp(1_700_000_000_000L), rs.getTimestamp(3));
        }
      }
    }
  }
}
