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

  private long shared() throws SQLException {
    return Session.of(c.unwrap(CalciteConnection.class).getRootSchema()).sharedReads();
  }

  private static Set<List<Object>> set(Connection c, String sql) throws SQLException {
    return new HashSet<>(Rows.query(c, sql));
  }
}
