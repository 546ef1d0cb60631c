package dev.mnestic.jdbc;

import dev.mnestic.store.Session;
import dev.mnestic.store.StoreLocation;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static dev.mnestic.jdbc.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A whole-table read leaves the columns it read for later reads of the same committed rows
 * (StoreSnapshot, TableVersions): a read of a table nobody has changed since is served from
 * them, and every change, by whatever connection and statement, is seen by the next read.
 */
class SharedReadTest {
  private String name;
  private Connection c;
  /** A plain HSQLDB connection to the same store: writes that do not go through mnestic. */
  private Connection raw;

  @BeforeEach void open() throws SQLException {
    name = "shared-" + UUID.randomUUID();
    c = DriverManager.getConnection("jdbc:mnestic:db=mem:" + name);
    raw = DriverManager.getConnection(StoreLocation.sharedMemory(name).hsqldbUrl(), "SA", "");
    Rows.update(c, "CREATE TABLE t (k INT PRIMARY KEY, v VARCHAR(10), d DOUBLE)");
    Rows.update(c, "INSERT INTO t VALUES (1, 'a', 1.5), (2, 'b', 2.5), (3, 'c', NULL)");
  }

  @AfterEach void close() throws SQLException {
    raw.close();
    c.close();
  }

  private static final String ALL = "SELECT * FROM t";

  @Test void unchangedTableIsServedFromTheFirstRead() throws SQLException {
    final Set<List<Object>> first = set(c, ALL);
    assertEquals(Set.of(row(1, "a", 1.5), row(2, "b", 2.5), row(3, "c", null)), first);
    final long before = shared();
    assertEquals(first, set(c, ALL));
    assertEquals(Set.of(row(2.5)), set(c, "SELECT MAX(d) FROM t"));
    assertEquals(before + 2, shared());
    // another connection reads the same committed rows
    try (Connection other = DriverManager.getConnection("jdbc:mnestic:db=mem:" + name)) {
      assertEquals(first, set(other, ALL));
    }
    assertEquals(before + 3, shared());
  }

  @Test void writesOfEveryKindAreSeen() throws SQLException {
    set(c, ALL);
    Rows.update(c, "INSERT INTO t VALUES (4, 'd', 4.5)");
    assertEquals(Set.of(row(4)), set(c, "SELECT COUNT(*) FROM t"));
    Rows.update(c, "UPDATE t SET v = 'bb' WHERE k = 2");
    assertEquals(Set.of(row("bb")), set(c, "SELECT v FROM t WHERE d = 2.5"));
    Rows.update(c, "DELETE FROM t WHERE k = 1");
    assertEquals(Set.of(row(2, "bb", 2.5), row(3, "c", null), row(4, "d", 4.5)), set(c, ALL));
    Rows.update(c, "MERGE INTO t USING (VALUES (3, 'cc')) AS s (k, v) ON t.k = s.k"
        + " WHEN MATCHED THEN UPDATE SET v = s.v");
    assertEquals(Set.of(row(2, "bb", 2.5), row(3, "cc", null), row(4, "d", 4.5)), set(c, ALL));
    assertEquals(Set.of(row(2, "bb", 2.5), row(3, "cc", null), row(4, "d", 4.5)), set(c, ALL));
  }

  /** Writes that never pass through mnestic: HSQLDB's own statements on another session. */
  @Test void writesOfAnotherHsqldbSessionAreSeen() throws SQLException {
    set(c, ALL);
    raw.createStatement().executeUpdate("INSERT INTO \"PUBLIC\".\"t\" VALUES (9, 'z', 9.0)");
    assertEquals(Set.of(row(4)), set(c, "SELECT COUNT(*) FROM t"));
    raw.createStatement().executeUpdate("UPDATE \"PUBLIC\".\"t\" SET \"d\" = 0 WHERE \"k\" = 9");
    assertEquals(Set.of(row(9, "z", 0.0)), set(c, "SELECT * FROM t WHERE v = 'z'"));
    raw.createStatement().execute("TRUNCATE TABLE \"PUBLIC\".\"t\"");
    assertEquals(Set.of(), set(c, ALL));
  }

  /**
   * HSQLDB's own SET DATABASE TRANSACTION CONTROL puts another transaction manager in place of
   * the one counting table versions: reads stop trusting the versions and see later writes.
   */
  @Test void anotherTransactionManagerEndsSharing() throws SQLException {
    set(c, ALL);
    raw.createStatement().execute("SET DATABASE TRANSACTION CONTROL LOCKS");
    raw.createStatement().execute("SET DATABASE TRANSACTION CONTROL MVCC");
    raw.createStatement().executeUpdate("UPDATE \"PUBLIC\".\"t\" SET \"v\" = 'q' WHERE \"k\" = 1");
    assertEquals(Set.of(row(1, "q", 1.5), row(2, "b", 2.5), row(3, "c", null)), set(c, ALL));
    assertEquals(Set.of(row(1, "q", 1.5), row(2, "b", 2.5), row(3, "c", null)), set(c, ALL));
  }

  /** Another session's uncommitted writes are not read, and are read once committed. */
  @Test void uncommittedWritesOfOthersAreNotRead() throws SQLException {
    final Set<List<Object>> committed = set(c, ALL);
    try (Connection other = DriverManager.getConnection("jdbc:mnestic:db=mem:" + name)) {
      other.setAutoCommit(false);
      Rows.update(other, "INSERT INTO t VALUES (5, 'e', 5.5)");
      Rows.update(other, "DELETE FROM t WHERE k = 2");
      assertEquals(committed, set(c, ALL));
      assertEquals(committed, set(c, ALL));
      assertEquals(Set.of(row(1, "a", 1.5), row(3, "c", null), row(5, "e", 5.5)),
          set(other, ALL));
      other.commit();
      assertEquals(Set.of(row(1, "a", 1.5), row(3, "c", null), row(5, "e", 5.5)), set(c, ALL));
    }
  }

  /** The reading session's own uncommitted writes are read; after a rollback, they are gone. */
  @Test void ownUncommittedWritesAreRead() throws SQLException {
    final Set<List<Object>> committed = set(c, ALL);
    set(c, ALL);
    c.setAutoCommit(false);
    Rows.update(c, "INSERT INTO t VALUES (6, 'f', 6.5)");
    assertEquals(Set.of(row(4)), set(c, "SELECT COUNT(*) FROM t"));
    c.rollback();
    assertEquals(committed, set(c, ALL));
    Rows.update(c, "DELETE FROM t");
    assertEquals(Set.of(), set(c, ALL));
    c.commit();
    assertEquals(Set.of(), set(c, ALL));
  }

  /**
   * A REPEATABLE READ transaction keeps reading the rows of its start, though another
   * session committed and read the newer rows meanwhile.
   */
  @Test void repeatableReadKeepsItsSnapshot() throws SQLException {
    final Set<List<Object>> start = set(c, ALL);
    c.setAutoCommit(false);
    c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    assertEquals(start, set(c, ALL));
    try (Connection other = DriverManager.getConnection("jdbc:mnestic:db=mem:" + name)) {
      Rows.update(other, "INSERT INTO t VALUES (7, 'g', 7.5)");
      assertEquals(4, set(other, ALL).size());
      assertEquals(4, set(other, ALL).size());
    }
    assertEquals(start, set(c, ALL));
    c.commit();
    assertEquals(4, set(c, ALL).size());
  }

  /** A failed statement changes nothing, and reads after it read what was there. */
  @Test void failedWriteChangesNothing() throws SQLException {
    final Set<List<Object>> committed = set(c, ALL);
    assertThrows(SQLException.class,
        () -> Rows.update(c, "INSERT INTO t VALUES (10, 'x', 0), (1, 'dup', 0)"));
    assertEquals(committed, set(c, ALL));
    assertEquals(committed, set(c, ALL));
  }

  /** A table altered, or dropped and created again, is read as it is now. */
  @Test void tableDefinitionChangesAreRead() throws SQLException {
    set(c, ALL);
    raw.createStatement().execute("ALTER TABLE \"PUBLIC\".\"t\" ADD COLUMN \"w\" INT DEFAULT 7");
    assertEquals(Set.of(row(1, "a", 1.5, 7), row(2, "b", 2.5, 7), row(3, "c", null, 7)),
        set(c, ALL));
    Rows.update(c, "DROP TABLE t");
    Rows.update(c, "CREATE TABLE t (k INT PRIMARY KEY, v VARCHAR(10), d DOUBLE)");
    Rows.update(c, "INSERT INTO t VALUES (8, 'h', 8.5)");
    assertEquals(Set.of(row(8, "h", 8.5)), set(c, ALL));
    assertEquals(Set.of(row(8, "h", 8.5)), set(c, ALL));
  }

  /** Rows committed by transactions that only inserted are added to the shared columns. */
  @Test void insertsAreAddedToWhatWasShared() throws SQLException {
    set(c, ALL);
    final long before = shared();
    try (Connection other = DriverManager.getConnection("jdbc:mnestic:db=mem:" + name)) {
      Rows.update(other, "INSERT INTO t VALUES (4, 'd', 4.5)");
      Rows.update(other, "INSERT INTO t VALUES (5, 'e', 5.5), (6, 'f', NULL)");
    }
    raw.createStatement().executeUpdate("INSERT INTO \"PUBLIC\".\"t\" VALUES (7, 'g', 7.5)");
    final Set<List<Object>> all = Set.of(row(1, "a", 1.5), row(2, "b", 2.5), row(3, "c", null),
        row(4, "d", 4.5), row(5, "e", 5.5), row(6, "f", null), row(7, "g", 7.5));
    assertEquals(all, set(c, ALL));
    assertEquals(before + 1, shared());
    Rows.update(c, "INSERT INTO t VALUES (8, 'h', 8.5)");
    assertEquals(Set.of(row(8), row(30.0)), set(c, "SELECT COUNT(*) FROM t UNION ALL"
        + " SELECT SUM(d) FROM t"));
    assertEquals(before + 3, shared());
    // a delete is not an insert: the next read walks the rows
    Rows.update(c, "DELETE FROM t WHERE k > 3");
    final long afterDelete = shared();
    assertEquals(Set.of(row(1, "a", 1.5), row(2, "b", 2.5), row(3, "c", null)), set(c, ALL));
    assertEquals(afterDelete, shared());
  }

  /**
   * Rows added to what was shared come in the order their transactions committed, not in the
   * order a walk of the table gives them (by key): a column read later, by a walk, must not be
   * put beside them.
   */
  @Test void columnReadAfterInsertsOutOfKeyOrderKeepsRowsWhole() throws SQLException {
    assertEquals(Set.of(row(4.0)), set(c, "SELECT SUM(d) FROM t"));
    Rows.update(c, "INSERT INTO t VALUES (10, 'j', 10.5)");
    Rows.update(c, "INSERT INTO t VALUES (5, 'e', 5.5)");
    final long before = shared();
    assertEquals(Set.of(row(20.0)), set(c, "SELECT SUM(d) FROM t"));
    assertEquals(before + 1, shared());
    final Set<List<Object>> all = Set.of(row(1, 1.5), row(2, 2.5), row(3, null), row(5, 5.5),
        row(10, 10.5));
    assertEquals(all, set(c, "SELECT k, d FROM t"));
    assertEquals(all, set(c, "SELECT k, d FROM t"));
    assertEquals(Set.of(row(1, "a", 1.5), row(2, "b", 2.5), row(3, "c", null),
        row(5, "e", 5.5), row(10, "j", 10.5)), set(c, ALL));
  }

  /**
   * Rows a transaction inserted and then took back, by a failed statement or to a savepoint,
   * are not read, though the rest of the transaction only inserted.
   */
  @Test void insertsTakenBackAreNotAdded() throws SQLException {
    set(c, ALL);
    try (Connection other = DriverManager.getConnection("jdbc:mnestic:db=mem:" + name)) {
      other.setAutoCommit(false);
      Rows.update(other, "INSERT INTO t VALUES (4, 'd', 4.5)");
      assertThrows(SQLException.class,
          () -> Rows.update(other, "INSERT INTO t VALUES (5, 'e', 5.5), (1, 'dup', 0)"));
      other.commit();
    }
    assertEquals(Set.of(row(1, "a", 1.5), row(2, "b", 2.5), row(3, "c", null), row(4, "d", 4.5)),
        set(c, ALL));
    raw.setAutoCommit(false);
    raw.createStatement().executeUpdate("INSERT INTO \"PUBLIC\".\"t\" VALUES (6, 'f', 6.5)");
    final java.sql.Savepoint s = raw.setSavepoint();
    raw.createStatement().executeUpdate("INSERT INTO \"PUBLIC\".\"t\" VALUES (7, 'g', 7.5)");
    raw.rollback(s);
    raw.commit();
    raw.setAutoCommit(true);
    assertEquals(Set.of(row(1, "a", 1.5), row(2, "b", 2.5), row(3, "c", null), row(4, "d", 4.5),
        row(6, "f", 6.5)), set(c, ALL));
  }

  /**
   * Writers inserting while readers read: every read sees whole transactions (each inserts rows
   * summing to zero, an even number of them), and the last read is what HSQLDB itself reads.
   */
  @Test void concurrentInsertsAreAddedWhole() throws Exception {
    Rows.update(c, "CREATE TABLE g (k INT PRIMARY KEY, v INT NOT NULL)");
    final java.util.concurrent.atomic.AtomicInteger keys = new java.util.concurrent.atomic.AtomicInteger();
    final List<java.util.concurrent.CompletableFuture<Void>> writers = new java.util.ArrayList<>();
    for (int w = 0; w < 2; w++) {
      final int seed = w;
      writers.add(java.util.concurrent.CompletableFuture.runAsync(() -> {
        try (Connection wc = DriverManager.getConnection("jdbc:mnestic:db=mem:" + name);
             java.sql.PreparedStatement add = wc.prepareStatement("INSERT INTO g VALUES (?, ?)")) {
          wc.setAutoCommit(false);
          final java.util.Random random = new java.util.Random(seed);
          for (int i = 0; i < 150; i++) {
            final int pairs = 1 + random.nextInt(3);
            for (int p = 0; p < pairs; p++) {
              final int v = random.nextInt(100);
              for (int sign : new int[] {1, -1}) {
                add.setInt(1, keys.incrementAndGet());
                add.setInt(2, sign * v);
                add.executeUpdate();
              }
            }
            wc.commit();
          }
        } catch (SQLException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      }));
    }
    final java.util.concurrent.CompletableFuture<Void> all =
        java.util.concurrent.CompletableFuture.allOf(writers.toArray(new java.util.concurrent.CompletableFuture<?>[0]));
    int reads = 0;
    while (!all.isDone() || reads < 20) {
      final List<List<Object>> r = Rows.query(c, "SELECT COALESCE(SUM(v), 0), COUNT(*) FROM g");
      assertEquals(0, ((Number) r.get(0).get(0)).intValue(), "read " + reads + ": " + r);
      assertEquals(0, ((Number) r.get(0).get(1)).intValue() % 2, "read " + reads + ": " + r);
      reads++;
    }
    all.join();
    final Set<List<Object>> hsqldb = new HashSet<>();
    try (java.sql.ResultSet rs = raw.createStatement().executeQuery(
        "SELECT \"k\", \"v\" FROM \"PUBLIC\".\"g\"")) {
      while (rs.next()) {
        hsqldb.add(row(rs.getInt(1), rs.getInt(2)));
      }
    }
    assertEquals(hsqldb, set(c, "SELECT k, v FROM g"));
    assertEquals(hsqldb, set(c, "SELECT k, v FROM g"));
  }

  /**
   * Random writes by a mnestic connection and a plain HSQLDB one (inserts, updates, deletes,
   * failed statements, savepoints rolled back, transactions committed or rolled back, each in
   * auto-commit or not): after every step, a read through mnestic finds what HSQLDB itself reads
   * on a session of its own, the committed rows.
   */
  @Test void randomWritesReadAsHsqldbReads() throws SQLException {
    Rows.update(c, "CREATE TABLE r (k INT PRIMARY KEY, v INT)");
    final java.util.Random random = new java.util.Random(42);
    try (Connection w = DriverManager.getConnection("jdbc:mnestic:db=mem:" + name);
         Connection h = DriverManager.getConnection(
             StoreLocation.sharedMemory(name).hsqldbUrl(), "SA", "")) {
      final long before = shared();
      for (int step = 0; step < 400; step++) {
        final boolean onMnestic = random.nextBoolean();
        final Connection on = onMnestic ? w : h;
        final String table = onMnestic ? "r" : "\"PUBLIC\".\"r\"";
        final String k = onMnestic ? "k" : "\"k\"";
        final String v = onMnestic ? "v" : "\"v\"";
        final int key = random.nextInt(40);
        switch (random.nextInt(9)) {
        case 0, 1, 2 -> {
          try {
            on.createStatement().executeUpdate("INSERT INTO " + table + " VALUES (" + key + ", "
                + step + "), (" + (key + 100) + ", " + step + ")");
          } catch (SQLException duplicate) {
            // the statement is taken back whole
          }
        }
        case 3 -> on.createStatement().executeUpdate(
            "UPDATE " + table + " SET " + v + " = " + step + " WHERE " + k + " = " + key);
        case 4 -> on.createStatement().executeUpdate(
            "DELETE FROM " + table + " WHERE " + k + " = " + key);
        case 5 -> {
          if (!onMnestic && !h.getAutoCommit()) {
            final java.sql.Savepoint point = h.setSavepoint();
            h.createStatement().executeUpdate("INSERT INTO " + table + " VALUES ("
                + (key + 200) + ", " + step + ")");
            h.rollback(point);
          }
        }
        case 6 -> on.setAutoCommit(!on.getAutoCommit());
        case 7 -> {
          if (!on.getAutoCommit()) {
            on.commit();
          }
        }
        default -> {
          if (!on.getAutoCommit()) {
            on.rollback();
          }
        }
        }
        final Set<List<Object>> hsqldb = new HashSet<>();
        try (Connection fresh = DriverManager.getConnection(
                StoreLocation.sharedMemory(name).hsqldbUrl(), "SA", "");
             java.sql.ResultSet rs = fresh.createStatement().executeQuery(
                 "SELECT \"k\", \"v\" FROM \"PUBLIC\".\"r\"")) {
          while (rs.next()) {
            hsqldb.add(row(rs.getInt(1), rs.getInt(2)));
          }
        }
        assertEquals(hsqldb, set(c, "SELECT k, v FROM r"), "step " + step);
      }
      // and most reads were served from what an earlier one left
      assertTrue(shared() - before > 100, "shared reads: " + (shared() - before));
    }
  }

  private long shared() throws SQLException {
    return Session.of(c.unwrap(CalciteConnection.class).getRootSchema()).sharedReads();
  }

  private static Set<List<Object>> set(Connection c, String sql) throws SQLException {
    return new HashSet<>(Rows.query(c, sql));
  }
}
