package dev.mnestic.jdbc;

import dev.mnestic.store.Session;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static dev.mnestic.jdbc.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A whole store table is read from HSQLDB's row store (EnumerableStoreScan), a lookup by
 * primary key through HSQLDB's JDBC (JdbcFilter): both give the same values of every column
 * type, and the direct read sees what the statement's transaction sees.
 */
class StoreScanTest {
  private String db;
  private Connection c;

  @BeforeEach void open() throws SQLException {
    db = "jdbc:mnestic:db=mem:scan-" + UUID.randomUUID();
    c = DriverManager.getConnection(db);
  }

  @AfterEach void close() throws SQLException {
    c.close();
  }

  private static final String TYPES = "CREATE TABLE t (id INT PRIMARY KEY, b BOOLEAN,"
      + " ti TINYINT, si SMALLINT, i INTEGER, bi BIGINT, de DECIMAL(12, 3), re REAL,"
      + " fl FLOAT, do DOUBLE, ch CHAR(5), vc VARCHAR(20), bn BINARY(3), vb VARBINARY(8),"
      + " da DATE, tm TIME, ts TIMESTAMP, ts3 TIMESTAMP(3), ia INTEGER ARRAY,"
      + " da2 DOUBLE ARRAY, va VARCHAR(5) ARRAY)";

  /** Rows written by HSQLDB itself, so that values mnestic's SQL could not write are there too. */
  private static final List<String> VALUES = List.of(
      "(1, TRUE, -128, -32768, -2147483648, -9223372036854775808, -123456789.125, -1.5E-3,"
          + " 2.5, -1.0E300, 'ab', 'hello wörld', X'000102', X'FFFE', DATE '2026-11-30',"
          + " TIME '23:59:59', TIMESTAMP '2026-11-30 04:05:06.789123', TIMESTAMP '1969-12-31 23:59:59.999',"
          + " ARRAY[1, -2, 3], ARRAY[1.5, -0.25], ARRAY['x', ''])",
      "(2, FALSE, 127, 32767, 2147483647, 9223372036854775807, 0.001, 3.4E38, -0.0,"
          + " 4.9E-324, '', '', X'FFFFFF', X'', DATE '1500-03-01', TIME '00:00:00',"
          + " TIMESTAMP '1582-10-04 12:00:00', TIMESTAMP '0001-01-01 00:00:00', ARRAY[],"
          + " ARRAY[], ARRAY[])",
      "(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
          + " NULL, NULL, NULL, NULL, NULL, NULL)",
      "(4, TRUE, 0, 0, 0, 0, 0, 0, 0, 0, 'x', 'y', X'010203', X'01', DATE '1970-01-01',"
          + " TIME '12:34:56', TIMESTAMP '1582-10-15 00:00:00', TIMESTAMP '1969-06-15 11:22:33.5',"
          + " ARRAY[0], ARRAY[1E300], ARRAY[NULL])");

  @Test void everyTypeReadsAsThroughJdbc() throws SQLException {
    Rows.update(c, TYPES);
    try (Statement s = store().createStatement()) {
      for (String v : VALUES) {
        s.executeUpdate("INSERT INTO \"PUBLIC\".\"t\" VALUES " + v);
      }
    }
    assertTrue(plan("SELECT * FROM t").contains("EnumerableStoreScan"), plan("SELECT * FROM t"));
    assertTrue(plan("SELECT * FROM t WHERE id = 1").contains("JdbcFilter"),
        plan("SELECT * FROM t WHERE id = 1"));
    final List<List<Object>> scanned = exact("SELECT * FROM t ORDER BY id");
    assertEquals(VALUES.size(), scanned.size());
    for (List<Object> row : scanned) {
      assertEquals(exact("SELECT * FROM t WHERE id = " + row.get(1)), List.of(row));
    }
    // one column alone is a scalar row
    final List<List<Object>> one = exact("SELECT ts FROM t");
    final List<List<Object>> byKey = new ArrayList<>();
    for (int id = 1; id <= VALUES.size(); id++) {
      byKey.addAll(exact("SELECT ts FROM t WHERE id = " + id));
    }
    assertEquals(new HashSet<>(byKey), new HashSet<>(one));
  }

  /**
   * A query that uses some of a table's columns reads only those (the scan's {@code columns}),
   * with the same values as the whole read's; {@code COUNT(*)} reads none. The oracle: the same
   * columns of {@code SELECT *}, which reads every column.
   */
  @Test void aProjectionReadsOnlyItsColumns() throws SQLException {
    Rows.update(c, TYPES);
    try (Statement s = store().createStatement()) {
      for (String v : VALUES) {
        s.executeUpdate("INSERT INTO \"PUBLIC\".\"t\" VALUES " + v);
      }
    }
    final String[] names = {"id", "b", "ti", "si", "i", "bi", "de", "re", "fl", "do", "ch", "vc",
        "bn", "vb", "da", "tm", "ts", "ts3", "ia", "da2", "va"};
    final List<List<Object>> all = exact("SELECT * FROM t ORDER BY id");
    final java.util.Random random = new java.util.Random(7);
    for (int trial = 0; trial < 12; trial++) {
      final List<Integer> picked = new ArrayList<>();
      for (int k = 1 + random.nextInt(4); k > 0; k--) {
        picked.add(1 + random.nextInt(names.length - 1));
      }
      final String sql = "SELECT " + picked.stream().map(k -> names[k])
          .collect(java.util.stream.Collectors.joining(", ")) + " FROM t ORDER BY id";
      assertTrue(plan(sql).contains("columns=[["), plan(sql));
      final List<List<Object>> expected = new ArrayList<>();
      for (List<Object> row : all) {
        final List<Object> projected = new ArrayList<>();
        for (int k : picked) {
          // exact() gives each value and its text: two entries per column
          projected.add(row.get(2 * k));
          projected.add(row.get(2 * k + 1));
        }
        expected.add(projected);
      }
      assertEquals(expected, exact(sql), sql);
    }
    assertTrue(plan("SELECT COUNT(*) FROM t").contains("columns=[[]]"),
        plan("SELECT COUNT(*) FROM t"));
    assertEquals(List.of(row((long) VALUES.size())), Rows.query(c, "SELECT COUNT(*) FROM t"));
  }

  /**
   * Null elements of an INTEGER ARRAY read as HSQLDB's own JDBC reads them, both ways (Calcite
   * made the elements NOT NULL, so Avatica read them into an {@code int[]}: a
   * NullPointerException).
   */
  @Test void nullArrayElementsReadAsHsqldbReadsThem() throws SQLException {
    Rows.update(c, "CREATE TABLE n (id INT PRIMARY KEY, ia INTEGER ARRAY)");
    try (Statement s = store().createStatement()) {
      s.executeUpdate("INSERT INTO \"PUBLIC\".\"n\" VALUES (1, ARRAY[1, NULL, -3]),"
          + " (2, ARRAY[NULL]), (3, NULL), (4, ARRAY[])");
    }
    final String hsqldb = "SELECT * FROM \"PUBLIC\".\"n\"";
    assertEquals(objects(exact(store(), hsqldb + " ORDER BY \"id\"")),
        objects(exact("SELECT * FROM n ORDER BY id")));
    for (int id = 1; id <= 4; id++) {
      assertEquals(objects(exact(store(), hsqldb + " WHERE \"id\" = " + id)),
          objects(exact("SELECT * FROM n WHERE id = " + id)));
    }
    assertEquals(objects(exact(store(), "SELECT \"ia\"[2], \"ia\"[3] FROM \"PUBLIC\".\"n\""
        + " WHERE \"id\" = 1")), objects(exact("SELECT ia[2], ia[3] FROM n WHERE id + 0 = 1")));
  }

  /**
   * Arrays of TIMESTAMP and DATE elements read as HSQLDB's own JDBC reads them, whole and
   * element by element (Calcite's code holds a TIMESTAMP element as milliseconds, a DATE one
   * as days), both ways.
   */
  @Test void timestampArraysReadAsHsqldbReadsThem() throws SQLException {
    Rows.update(c, "CREATE TABLE a (id INT PRIMARY KEY, tsa TIMESTAMP ARRAY, dta DATE ARRAY)");
    try (Statement s = store().createStatement()) {
      s.executeUpdate("INSERT INTO \"PUBLIC\".\"a\" VALUES (1,"
          + " ARRAY[TIMESTAMP '2026-11-30 04:05:06.789', NULL, TIMESTAMP '1500-03-01 12:00:00'],"
          + " ARRAY[DATE '2026-11-30', NULL, DATE '1500-03-01']), (2, ARRAY[], NULL)");
    }
    final String hsqldb = "SELECT * FROM \"PUBLIC\".\"a\"";
    assertEquals(objects(exact(store(), hsqldb + " ORDER BY \"id\"")),
        objects(exact("SELECT * FROM a ORDER BY id")));
    for (int id = 1; id <= 2; id++) {
      assertEquals(objects(exact(store(), hsqldb + " WHERE \"id\" = " + id)),
          objects(exact("SELECT * FROM a WHERE id = " + id)));
    }
    final String items = "SELECT tsa[1], tsa[3], dta[1], dta[3] FROM a WHERE ";
    final List<List<Object>> oracle = objects(exact(store(), "SELECT \"tsa\"[1], \"tsa\"[3],"
        + " \"dta\"[1], \"dta\"[3] FROM \"PUBLIC\".\"a\" WHERE \"id\" = 1"));
    assertEquals(oracle, objects(exact(items + "id = 1")));
    assertEquals(oracle, objects(exact(items + "id + 0 = 1")));
  }

  /**
   * A date before the Gregorian reform reads as HSQLDB reads it (the same calendar fields); a
   * Julian leap day, which no value of Calcite's DATE or TIMESTAMP holds, fails naming its
   * column, both ways.
   */
  @Test void julianDatesReadAsHsqldbReadsThem() throws SQLException {
    Rows.update(c, "CREATE TABLE j (id INT PRIMARY KEY, born DATE, seen TIMESTAMP)");
    try (Statement s = store().createStatement()) {
      s.executeUpdate("INSERT INTO \"PUBLIC\".\"j\" VALUES"
          + " (1, DATE '1500-03-01', TIMESTAMP '1500-03-01 12:00:00'),"
          + " (2, DATE '1500-02-28', TIMESTAMP '1400-02-28 23:59:59.5')");
    }
    final List<List<Object>> hsqldb = dates(store(), "SELECT * FROM \"PUBLIC\".\"j\" ORDER BY 1");
    assertEquals(hsqldb, dates(c, "SELECT * FROM j ORDER BY id"));
    assertEquals(hsqldb.subList(0, 1), dates(c, "SELECT * FROM j WHERE id = 1"));
    assertEquals(hsqldb.subList(1, 2), dates(c, "SELECT * FROM j WHERE id = 2"));
    try (Statement s = store().createStatement()) {
      s.executeUpdate("INSERT INTO \"PUBLIC\".\"j\" VALUES (3, DATE '1500-02-29', NULL),"
          + " (4, NULL, TIMESTAMP '1300-02-29 06:00:00')");
    }
    for (String sql : List.of("SELECT * FROM j", "SELECT * FROM j WHERE id = 3")) {
      final SQLException e = assertThrows(SQLException.class, () -> dates(c, sql));
      assertTrue(messages(e).contains("column born holds DATE '1500-02-29', a leap day of the"
          + " Julian calendar"), sql + ": " + messages(e));
    }
    final SQLException e = assertThrows(SQLException.class,
        () -> dates(c, "SELECT * FROM j WHERE id = 4"));
    assertTrue(messages(e).contains("column seen holds TIMESTAMP '1300-02-29 06:00:00"),
        messages(e));
  }

  /**
   * Dates and times before the Gregorian reform written through mnestic's SQL are stored with
   * the calendar fields written, as HSQLDB's own literals store them: HSQLDB shows the same
   * text, mnestic reads them back, and a filter on the value finds them.
   */
  @Test void julianDatesWrittenAsWritten() throws SQLException {
    Rows.update(c, "CREATE TABLE w (id INT PRIMARY KEY, born DATE, seen TIMESTAMP(3))");
    Rows.update(c, "INSERT INTO w VALUES (1, DATE '1500-03-01', TIMESTAMP '1400-02-28 23:59:59.5'),"
        + " (2, DATE '1582-10-04', TIMESTAMP '1582-10-15 00:00:00'),"
        + " (3, DATE '0001-01-01', TIMESTAMP '1000-06-15 12:34:56')");
    Rows.update(c, "UPDATE w SET born = DATE '1200-07-14' WHERE id = 3");
    final List<List<Object>> hsqldb = new ArrayList<>();
    try (Statement s = store().createStatement();
         ResultSet rs = s.executeQuery("SELECT \"id\", CAST(\"born\" AS VARCHAR(10)),"
             + " CAST(\"seen\" AS VARCHAR(30)) FROM \"PUBLIC\".\"w\" ORDER BY 1")) {
      while (rs.next()) {
        hsqldb.add(List.of(rs.getInt(1), rs.getString(2), rs.getString(3)));
      }
    }
    assertEquals(List.of(
        List.of(1, "1500-03-01", "1400-02-28 23:59:59.500"),
        List.of(2, "1582-10-04", "1582-10-15 00:00:00.000"),
        List.of(3, "1200-07-14", "1000-06-15 12:34:56.000")), hsqldb);
    assertEquals(List.of(row(1, "1500-03-01"), row(2, "1582-10-04"), row(3, "1200-07-14")),
        Rows.query(c, "SELECT id, CAST(born AS VARCHAR(10)) FROM w ORDER BY id"));
    assertEquals(List.of(row(1)), Rows.query(c, "SELECT id FROM w WHERE born = DATE '1500-03-01'"));
    assertEquals(List.of(row(3)),
        Rows.query(c, "SELECT id FROM w WHERE seen = TIMESTAMP '1000-06-15 12:34:56'"));
    // A Julian leap day is no day of the calendar SQL's dates count: refused, not moved.
    final SQLException e = assertThrows(SQLException.class,
        () -> Rows.update(c, "INSERT INTO w VALUES (4, DATE '1500-02-29', NULL)"));
    assertTrue(messages(e).contains("line 1, column 26")
        && messages(e).contains("Illegal DATE literal '1500-02-29': no such day in the"
            + " proleptic Gregorian calendar"), messages(e));
    assertEquals(List.of(row(3)), Rows.query(c, "SELECT COUNT(*) FROM w"));
  }

  /**
   * A TIMESTAMP or TIME column keeps the fraction of a second written through mnestic's SQL, to
   * the milliseconds Calcite holds (HSQLDB's TIMESTAMP keeps microseconds).
   */
  @Test void fractionsOfSecondsAreWritten() throws SQLException {
    Rows.update(c, "CREATE TABLE f (id INT PRIMARY KEY, t TIMESTAMP, t1 TIMESTAMP(1), tm TIME(3))");
    Rows.update(c, "INSERT INTO f VALUES (1, TIMESTAMP '2026-11-30 08:15:30.123',"
        + " TIMESTAMP '2026-11-30 08:15:30.5', TIME '08:15:30.25')");
    Rows.update(c, "UPDATE f SET t1 = TIMESTAMP '2026-11-30 08:15:31.75' WHERE id = 1");
    try (Statement s = store().createStatement();
         ResultSet rs = s.executeQuery("SELECT CAST(\"t\" AS VARCHAR(30)),"
             + " CAST(\"t1\" AS VARCHAR(30)), CAST(\"tm\" AS VARCHAR(30)) FROM \"PUBLIC\".\"f\"")) {
      assertTrue(rs.next());
      assertEquals(List.of("2026-11-30 08:15:30.123000", "2026-11-30 08:15:31.7",
          "8:15:30.250"), List.of(rs.getString(1), rs.getString(2), rs.getString(3)));
    }
    assertEquals(List.of(row(1)), Rows.query(c,
        "SELECT id FROM f WHERE t = TIMESTAMP '2026-11-30 08:15:30.123'"));
  }

  /** Each value as getObject, getString, getDate and getTimestamp give it. */
  private static List<List<Object>> dates(Connection on, String sql) throws SQLException {
    try (Statement s = on.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final List<List<Object>> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(java.util.Arrays.asList(rs.getObject(1), rs.getObject(2),
            rs.getString(2), rs.getDate(2), rs.getObject(3), rs.getTimestamp(3)));
      }
      return rows;
    }
  }

  /** The messages of an exception and its causes. */
  private static String messages(Throwable e) {
    final StringBuilder all = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append(" / ");
    }
    return all.toString();
  }

  /** A Datalog relation's UUID and Bytes columns, as read both ways. */
  @Test void uuidColumnsReadAsThroughJdbc() throws SQLException {
    try (Connection datalog = DriverManager.getConnection(db + ";lang=datalog");
         Statement s = datalog.createStatement()) {
      s.executeQuery(":create doc {id: Uuid => body: Bytes}").close();
      s.executeQuery("?[id, body] <- [['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'AQI=']]"
          + " :put doc {id, body}").close();
    }
    final List<List<Object>> scanned = exact("SELECT * FROM doc");
    assertEquals(exact("SELECT * FROM doc WHERE id = X'a0eebc999c0b4ef8bb6d6bb9bd380a11'"),
        scanned);
    assertEquals(List.of(List.of("a0eebc999c0b4ef8bb6d6bb9bd380a11", "0102")),
        scanned.stream().map(r -> List.of(r.get(0), r.get(2))).toList());
  }

  @Test void emptyTable() throws SQLException {
    Rows.update(c, "CREATE TABLE e (k INT PRIMARY KEY, v VARCHAR(3))");
    assertEquals(List.of(), exact("SELECT * FROM e"));
    assertEquals(List.of(row(0)), Rows.query(c, "SELECT COUNT(*) FROM e"));
  }

  /** Its own uncommitted writes are seen; another connection's are not, until committed. */
  @Test void seesWhatItsTransactionSees() throws SQLException {
    Rows.update(c, "CREATE TABLE r (k INT PRIMARY KEY, v INT)");
    Rows.update(c, "INSERT INTO r VALUES (1, 10), (2, 20)");
    try (Connection other = DriverManager.getConnection(db)) {
      c.setAutoCommit(false);
      other.setAutoCommit(false);
      Rows.update(c, "INSERT INTO r VALUES (3, 30)");
      Rows.update(c, "DELETE FROM r WHERE k = 1");
      Rows.update(other, "INSERT INTO r VALUES (4, 40)");
      Rows.update(other, "UPDATE r SET v = 21 WHERE k = 2");
      assertEquals(Set.of(row(2, 20), row(3, 30)), set(c, "SELECT * FROM r"));
      assertEquals(Set.of(row(1, 10), row(2, 21), row(4, 40)), set(other, "SELECT * FROM r"));
      other.commit();
      // read committed: the next statement sees what the other committed
      assertEquals(Set.of(row(2, 21), row(3, 30), row(4, 40)), set(c, "SELECT * FROM r"));
      c.rollback();
      assertEquals(Set.of(row(1, 10), row(2, 21), row(4, 40)), set(c, "SELECT * FROM r"));
    }
  }

  /**
   * Another connection committing while this one reads never tears a read: each of its
   * transactions moves an amount between two rows, or adds or removes a pair of rows summing to
   * zero, so every read that sees whole transactions sums to the same and counts an even number
   * of rows beyond the first hundred. The reads run until the writer is done, at least 20.
   */
  @Test void concurrentWriterNeverTearsARead() throws Exception {
    Rows.update(c, "CREATE TABLE acct (k INT PRIMARY KEY, v INT NOT NULL)");
    final StringBuilder rows = new StringBuilder("INSERT INTO acct VALUES ");
    for (int k = 0; k < 100; k++) {
      rows.append(k > 0 ? ", " : "").append("(").append(k).append(", 100)");
    }
    Rows.update(c, rows.toString());
    final java.util.concurrent.CompletableFuture<Void> writer =
        java.util.concurrent.CompletableFuture.runAsync(() -> {
          try (Connection w = DriverManager.getConnection(db);
               PreparedStatement move = w.prepareStatement("UPDATE acct SET v = v + ? WHERE k = ?");
               PreparedStatement add = w.prepareStatement("INSERT INTO acct VALUES (?, ?)");
               PreparedStatement remove = w.prepareStatement("DELETE FROM acct WHERE k >= 100")) {
            w.setAutoCommit(false);
            final java.util.Random random = new java.util.Random(5);
            for (int i = 0; i < 200; i++) {
              final int a = random.nextInt(100);
              final int b = random.nextInt(100);
              move.setInt(1, -7);
              move.setInt(2, a);
              move.executeUpdate();
              move.setInt(1, 7);
              move.setInt(2, b);
              move.executeUpdate();
              if (i % 2 == 0) {
                for (int j = 0; j < 2; j++) {
                  add.setInt(1, 100 + j);
                  add.setInt(2, j == 0 ? 3 : -3);
                  add.executeUpdate();
                }
              } else {
                remove.executeUpdate();
              }
              w.commit();
            }
          } catch (SQLException e) {
            throw new java.util.concurrent.CompletionException(e);
          }
        });
    int reads = 0;
    while (!writer.isDone() || reads < 20) {
      final List<List<Object>> r = Rows.query(c, "SELECT SUM(v), COUNT(*) FROM acct");
      assertEquals(row(10_000), r.get(0).subList(0, 1), "read " + reads);
      assertEquals(0, ((Number) r.get(0).get(1)).intValue() % 2, "read " + reads + ": " + r);
      reads++;
    }
    writer.join();
  }

  /** A prepared statement read again after the table changed reads the new rows. */
  @Test void preparedStatementSeesChanges() throws SQLException {
    Rows.update(c, "CREATE TABLE p (k INT PRIMARY KEY, v VARCHAR(5))");
    Rows.update(c, "INSERT INTO p VALUES (1, 'a')");
    try (PreparedStatement ps = c.prepareStatement("SELECT v FROM p WHERE v <> ?")) {
      ps.setString(1, "z");
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals(List.of(row("a")), Rows.read(rs));
      }
      Rows.update(c, "INSERT INTO p VALUES (2, 'b')");
      Rows.update(c, "DELETE FROM p WHERE k = 1");
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals(List.of(row("b")), Rows.read(rs));
      }
    }
  }

  /** A statement writing the table it reads does not read its own rows. */
  @Test void insertSelectFromItself() throws SQLException {
    Rows.update(c, "CREATE TABLE h (k INT PRIMARY KEY)");
    Rows.update(c, "INSERT INTO h VALUES (1), (2), (3)");
    assertEquals(3, Rows.update(c, "INSERT INTO h SELECT k + 10 FROM h"));
    assertEquals(List.of(row(6)), Rows.query(c, "SELECT COUNT(*) FROM h"));
  }

  /** Statement.cancel stops a scan being read: its next rows fail instead of coming. */
  @Test void cancelStopsAScan() throws SQLException {
    Rows.update(c, "CREATE TABLE big (k INT PRIMARY KEY)");
    try (PreparedStatement insert = store().prepareStatement(
        "INSERT INTO \"PUBLIC\".\"big\" VALUES (?)")) {
      for (int i = 0; i < 50_000; i++) {
        insert.setInt(1, i);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT k FROM big")) {
      assertTrue(rs.next());
      s.cancel();
      final SQLException e = assertThrows(SQLException.class, () -> {
        while (rs.next()) {
          rs.getInt(1);
        }
      });
      assertTrue(String.valueOf(e.getMessage()).toLowerCase().contains("cancel"), e.getMessage());
    }
  }

  private Connection store() {
    try {
      return Session.of(c.unwrap(CalciteConnection.class).getRootSchema()).getConnection();
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  private String plan(String sql) throws SQLException {
    return String.valueOf(Rows.query(c, "EXPLAIN PLAN FOR " + sql));
  }

  private static Set<List<Object>> set(Connection c, String sql) throws SQLException {
    return new HashSet<>(Rows.query(c, sql));
  }

  /** Rows with each value as JDBC gives it (its class kept), binaries and arrays as lists, and its text. */
  private List<List<Object>> exact(String sql) throws SQLException {
    return exact(c, sql);
  }

  private static List<List<Object>> exact(Connection on, String sql) throws SQLException {
    try (Statement s = on.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final int n = rs.getMetaData().getColumnCount();
      final List<List<Object>> rows = new ArrayList<>();
      while (rs.next()) {
        final List<Object> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          row.add(value(rs.getObject(i)));
          row.add(rs.getString(i));
        }
        rows.add(row);
      }
      return rows;
    }
  }

  /** The values of {@link #exact}'s rows without their texts. */
  private static List<List<Object>> objects(List<List<Object>> exact) {
    return exact.stream().map(row -> java.util.stream.IntStream.range(0, row.size() / 2)
        .mapToObj(i -> row.get(2 * i)).toList()).toList();
  }

  private static Object value(Object o) throws SQLException {
    if (o instanceof byte[] b) {
      final StringBuilder hex = new StringBuilder();
      for (byte x : b) {
        hex.append(String.format("%02x", x));
      }
      return hex.toString();
    }
    if (o instanceof Array a) {
      final Object elements = a.getArray();
      final List<Object> list = new ArrayList<>();
      for (int i = 0; i < java.lang.reflect.Array.getLength(elements); i++) {
        list.add(value(java.lang.reflect.Array.get(elements, i)));
      }
      return list;
    }
    return o == null ? null : List.of(o.getClass().getName(), o);
  }
}
