package dev.mnestic.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * SKYLINE OF through JDBC prepared statements: parameters in WHERE and in
 * an item, one statement executed with several bindings. Each answer is
 * checked against the NOT EXISTS form run with the same bindings by HSQLDB
 * and by PostgreSQL 15.
 */
@ExtendWith(Postgres.Extension.class)
class SkylineJdbcTest {
  private static Connection mnestic;
  private static Connection hsqldb;
  private static Connection postgres;

  @BeforeAll static void load(Postgres cluster) throws SQLException {
    final Connection[] connections = SkylineTables.open("skyline-jdbc-" + UUID.randomUUID());
    mnestic = connections[0];
    hsqldb = connections[1];
    postgres = cluster.connect();
    final SkylineTables.Batch rows = new SkylineTables(17).batch(3, 12, 80);
    rows.load(hsqldb);
    rows.load(postgres);
  }

  @AfterAll static void close() throws SQLException {
    mnestic.close();
    hsqldb.close();
    postgres.close();
  }

  /** The oracles' answer to the NOT EXISTS form, after checking HSQLDB and PostgreSQL agree. */
  private static List<List<Object>> notExists(String sql, Object... parameters)
      throws SQLException {
    final List<List<Object>> expected = run(hsqldb, sql, parameters);
    assertEquals(expected, run(postgres, sql, parameters), "HSQLDB and PostgreSQL differ: " + sql);
    return expected;
  }

  private static List<List<Object>> run(Connection c, String sql, Object... parameters)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        ps.setObject(i + 1, parameters[i]);
      }
      return SkylineOracleTest.sorted(Rows.read(ps.executeQuery()));
    }
  }

  /** Parameters in WHERE: the skyline of the rows they select, one plan for every binding. */
  @Test void parametersInWhere() throws SQLException {
    try (PreparedStatement ps = mnestic.prepareStatement(
        "SELECT id, a1, a2 FROM t WHERE tid = ? AND a3 >= ? SKYLINE OF a1 MIN, a2 MAX")) {
      for (int tid = 0; tid < 12; tid++) {
        for (int floor : new int[] {0, 300}) {
          ps.setInt(1, tid);
          ps.setInt(2, floor);
          final List<List<Object>> actual = SkylineOracleTest.sorted(Rows.read(ps.executeQuery()));
          final List<List<Object>> expected = notExists("SELECT r.id, r.a1, r.a2 FROM t r"
              + " WHERE r.tid = ? AND r.a3 >= ? AND NOT EXISTS (SELECT 1 FROM t s"
              + " WHERE s.tid = ? AND s.a3 >= ? AND s.a1 <= r.a1 AND s.a2 >= r.a2"
              + " AND (s.a1 < r.a1 OR s.a2 > r.a2))", tid, floor, tid, floor);
          assertEquals(expected, actual, "tid " + tid + ", a3 >= " + floor);
        }
      }
    }
  }

  /** A parameter in an item: nearest to a target on a1, and small on a2, per table. */
  @Test void parameterInAnItem() throws SQLException {
    for (int target : new int[] {0, 500, 1000}) {
      final List<List<Object>> actual = run(mnestic,
          "SELECT id FROM t SKYLINE OF ABS(a1 - ?) MIN, a2 MIN, tid DIFF", target);
      final List<List<Object>> expected = notExists("SELECT r.id FROM t r WHERE NOT EXISTS"
          + " (SELECT 1 FROM t s WHERE s.tid = r.tid AND ABS(s.a1 - ?) <= ABS(r.a1 - ?)"
          + " AND s.a2 <= r.a2 AND (ABS(s.a1 - ?) < ABS(r.a1 - ?) OR s.a2 < r.a2))",
          target, target, target, target);
      assertFalse(expected.isEmpty());
      assertEquals(expected, actual, "target " + target);
    }
  }
}
