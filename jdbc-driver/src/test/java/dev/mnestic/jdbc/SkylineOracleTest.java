package dev.mnestic.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * SKYLINE OF and PARETO_MIN against the NOT EXISTS form run by HSQLDB (the
 * store's own table, read by both) and by PostgreSQL 15 on the same rows:
 * for each d from 1 to 6, batches of random tables ({@link SkylineTables}:
 * independent, correlated and anti-correlated; ties; duplicates; NULLs)
 * under random queries (MIN and MAX, DIFF, DISTINCT). Results compare as
 * multisets of rows.
 */
@ExtendWith(Postgres.Extension.class)
class SkylineOracleTest {
  private static final int BATCHES_PER_D = 3;
  private static final int TABLES_PER_BATCH = 20;
  private static final int MAX_ROWS = 150;

  private static Connection mnestic;
  private static Connection hsqldb;
  private static Connection postgres;

  @BeforeAll static void open(Postgres cluster) throws SQLException {
    final Connection[] connections = SkylineTables.open("skyline-" + UUID.randomUUID());
    mnestic = connections[0];
    hsqldb = connections[1];
    postgres = cluster.connect();
  }

  @AfterAll static void close() throws SQLException {
    mnestic.close();
    hsqldb.close();
    postgres.close();
  }

  /** Loads a batch into the store (so mnestic and HSQLDB read it) and into PostgreSQL. */
  private static void load(SkylineTables.Batch rows) throws SQLException {
    for (Connection c : new Connection[] {hsqldb, postgres}) {
      rows.load(c);
      Rows.update(c, "CREATE INDEX t_tid ON t (tid)");
    }
  }

  /** mnestic's answer, equal as a multiset to each oracle's. */
  private static void assertSameRows(String mnesticSql, String oracleSql, String message)
      throws SQLException {
    final List<List<Object>> actual = sorted(Rows.query(mnestic, mnesticSql));
    assertEquals(sorted(Rows.query(hsqldb, oracleSql)), actual, "HSQLDB: " + message);
    assertEquals(sorted(Rows.query(postgres, oracleSql)), actual, "PostgreSQL: " + message);
  }

  @ParameterizedTest(name = "d = {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6})
  void sameRowsAsNotExists(int d) throws SQLException {
    final SkylineTables tables = new SkylineTables(1000 + d);
    for (int batch = 0; batch < BATCHES_PER_D; batch++) {
      final SkylineTables.Batch rows = tables.batch(d, TABLES_PER_BATCH, MAX_ROWS);
      load(rows);
      for (int q = 0; q < 3; q++) {
        final SkylineTables.Query query = tables.query(d);
        assertSameRows(query.skylineOf(), query.notExists(),
            query.skylineOf() + "\nover " + rows.create());
      }
    }
  }

  /**
   * PARETO_MIN per table (MAX items by the sign flip), unnested, against
   * the distinct rows without NULLs that no other row dominates; and each
   * frontier lists its points in ascending order.
   */
  @ParameterizedTest(name = "d = {0}")
  @ValueSource(ints = {1, 2, 3, 4, 6})
  void paretoMinIsTheDistinctSkyline(int d) throws SQLException {
    final SkylineTables tables = new SkylineTables(2000 + d);
    for (int batch = 0; batch < 2; batch++) {
      load(tables.batch(d, TABLES_PER_BATCH, MAX_ROWS));
      final SkylineTables.Query query = tables.query(d);
      assertSameRows(query.paretoMin(), query.notExistsWithoutNulls(), query.paretoMin());
      for (List<Object> row : Rows.query(mnestic,
          "SELECT PARETO_MIN(ARRAY[a1, tid]) FROM t WHERE a1 IS NOT NULL GROUP BY g")) {
        @SuppressWarnings("unchecked")
        final List<List<BigDecimal>> frontier = (List<List<BigDecimal>>) row.get(0);
        final List<List<BigDecimal>> ascending = new ArrayList<>(frontier);
        ascending.sort((x, y) -> {
          final int c = x.get(0).compareTo(y.get(0));
          return c != 0 ? c : x.get(1).compareTo(y.get(1));
        });
        assertFalse(frontier.isEmpty());
        assertEquals(ascending, frontier);
      }
    }
  }

  static List<List<Object>> sorted(List<List<Object>> rows) {
    return rows.stream().sorted(Comparator.comparing(List::toString)).toList();
  }
}
