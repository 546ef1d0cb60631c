package dev.mnestic.jdbc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.mnestic.jdbc.Rows.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Test case for #13 (point 7): MERGE, now validated and planned by Calcite and written by
 * StoreWrites, against plain HSQLDB (which ran it before) as the oracle: each statement runs on
 * both, and the row counts and the table's rows must agree; a failing MERGE changes nothing
 * on either.
 */
class MergeTest {
  private static final String TABLE = "CREATE TABLE acct (k INT PRIMARY KEY, v INT,"
      + " note VARCHAR(20) DEFAULT 'new')";
  private static final String ROWS = "INSERT INTO acct VALUES (1, 10, 'a'), (2, 20, 'b'),"
      + " (3, 30, 'c')";
  private static final String ALL = "SELECT k, v, note FROM acct ORDER BY k";

  private Connection mnestic;
  private Connection hsqldb;

  @BeforeEach void open() throws SQLException {
    mnestic = DriverManager.getConnection("jdbc:mnestic:");
    hsqldb = DriverManager.getConnection("jdbc:hsqldb:mem:merge" + UUID.randomUUID(), "SA", "");
    for (Connection c : List.of(mnestic, hsqldb)) {
      Rows.update(c, TABLE);
      Rows.update(c, ROWS);
    }
  }

  @AfterEach void close() throws SQLException {
    mnestic.close();
    hsqldb.createStatement().execute("SHUTDOWN");
    hsqldb.close();
  }

  /** Runs {@code merge} on both and compares row counts and rows. */
  private void same(String merge) throws SQLException {
    assertEquals(Rows.update(hsqldb, merge), Rows.update(mnestic, merge), merge);
    assertEquals(query(hsqldb, ALL), query(mnestic, ALL), merge);
  }

  @Test void matchedUpdateAndUnmatchedInsert() throws SQLException {
    same("MERGE INTO acct t USING (VALUES (1, 5), (4, 40)) AS s (k, v) ON t.k = s.k"
        + " WHEN MATCHED THEN UPDATE SET v = t.v + s.v"
        + " WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, s.v)");
  }

  @Test void insertOnlyLeavesMatchedRows() throws SQLException {
    same("MERGE INTO acct t USING (VALUES (2, 0), (5, 50)) AS s (k, v) ON t.k = s.k"
        + " WHEN NOT MATCHED THEN INSERT VALUES (s.k, s.v, 'ins')");
  }

  @Test void updateOnly() throws SQLException {
    same("MERGE INTO acct USING (VALUES (3, 'z'), (9, 'y')) AS s (k, n) ON acct.k = s.k"
        + " WHEN MATCHED THEN UPDATE SET note = s.n, v = acct.v * 2");
  }

  /** The source reads the target: both branches see the table as it was before. */
  @Test void subquerySourceOverTheTarget() throws SQLException {
    same("MERGE INTO acct t USING (SELECT k + 1 AS k, v * 2 AS v FROM acct WHERE v > 15) s"
        + " ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v"
        + " WHEN NOT MATCHED THEN INSERT (k, v, note) VALUES (s.k, s.v, 'sub')");
  }

  /** Updating the ON column does not make the row look unmatched to the insert branch. */
  @Test void updateOfTheMatchedColumn() throws SQLException {
    same("MERGE INTO acct t USING (VALUES (1), (2), (7)) AS s (k) ON t.k = s.k"
        + " WHEN MATCHED THEN UPDATE SET k = t.k + 100"
        + " WHEN NOT MATCHED THEN INSERT (k) VALUES (s.k)");
  }

  @Test void conditionOnANonKeyColumn() throws SQLException {
    same("MERGE INTO acct t USING (VALUES (20, 'x'), (25, 'w')) AS s (v, n) ON t.v = s.v"
        + " WHEN MATCHED THEN UPDATE SET note = s.n"
        + " WHEN NOT MATCHED THEN INSERT (k, v, note) VALUES (s.v, s.v, s.n)");
  }

  /** SET and INSERT values of another type are written as their column's type. */
  @Test void valuesTakeTheirColumnsTypes() throws SQLException {
    for (Connection c : List.of(mnestic, hsqldb)) {
      Rows.update(c, "CREATE TABLE ev (k INT PRIMARY KEY, ts TIMESTAMP(3), amount DECIMAL(10, 2))");
      Rows.update(c, "INSERT INTO ev VALUES (1, TIMESTAMP '2026-01-01 10:00:00', 1.25)");
    }
    final String merge = "MERGE INTO ev t USING (VALUES (1), (2)) AS s (k) ON t.k = s.k"
        + " WHEN MATCHED THEN UPDATE SET ts = DATE '2026-01-02', amount = 7"
        + " WHEN NOT MATCHED THEN INSERT VALUES (s.k, DATE '2026-01-03', 2.5)";
    assertEquals(Rows.update(hsqldb, merge), Rows.update(mnestic, merge));
    final String all = "SELECT k, ts, amount FROM ev ORDER BY k";
    assertEquals(query(hsqldb, all), query(mnestic, all));
  }

  @Test void parameters() throws SQLException {
    final String merge = "MERGE INTO acct t USING (VALUES (CAST(? AS INT))) AS s (k)"
        + " ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = ?"
        + " WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, ?)";
    try (PreparedStatement m = mnestic.prepareStatement(merge);
         PreparedStatement h = hsqldb.prepareStatement(merge)) {
      for (int[] p : new int[][] {{1, 11, 12}, {6, 61, 62}, {6, 63, 64}}) {
        final List<Integer> counts = new ArrayList<>();
        for (PreparedStatement ps : List.of(h, m)) {
          for (int i = 0; i < 3; i++) {
            ps.setInt(i + 1, p[i]);
          }
          counts.add(ps.executeUpdate());
        }
        assertEquals(counts.get(0), counts.get(1));
        assertEquals(query(hsqldb, ALL), query(mnestic, ALL));
      }
    }
  }

  /**
   * A target row matched by two source rows fails the statement (cardinality violation), and
   * so does a second insert of one key; the rows already written by the statement are undone.
   */
  @Test void failingMergeChangesNothing() throws SQLException {
    final List<List<Object>> before = query(mnestic, ALL);
    for (String merge : List.of(
        "MERGE INTO acct t USING (VALUES (3, 1), (1, 1), (1, 2)) AS s (k, v) ON t.k = s.k"
            + " WHEN MATCHED THEN UPDATE SET v = s.v",
        "MERGE INTO acct t USING (VALUES (1, 1), (5, 1), (5, 2)) AS s (k, v) ON t.k = s.k"
            + " WHEN MATCHED THEN UPDATE SET v = s.v"
            + " WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, s.v)")) {
      for (Connection c : List.of(hsqldb, mnestic)) {
        assertThrows(SQLException.class, () -> Rows.update(c, merge), merge);
      }
      assertEquals(before, query(mnestic, ALL), merge);
      assertEquals(query(hsqldb, ALL), query(mnestic, ALL), merge);
    }
  }

  /** In an open transaction a MERGE is undone by ROLLBACK, kept by COMMIT. */
  @Test void inATransaction() throws SQLException {
    final String merge = "MERGE INTO acct t USING (VALUES (1, 0), (8, 80)) AS s (k, v)"
        + " ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v"
        + " WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, s.v)";
    final List<List<Object>> before = query(mnestic, ALL);
    mnestic.setAutoCommit(false);
    assertEquals(2, Rows.update(mnestic, merge));
    mnestic.rollback();
    assertEquals(before, query(mnestic, ALL));
    Rows.update(mnestic, merge);
    mnestic.commit();
    mnestic.setAutoCommit(true);
    Rows.update(hsqldb, merge);
    assertEquals(query(hsqldb, ALL), query(mnestic, ALL));
  }
}
