package dev.mnestic.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WITH RECURSIVE whose recursive step holds a window, DISTINCT or a
 * grouping, against PostgreSQL 15 on the same rows. Calcite's own
 * EnumerableRepeatUnion built such a step once, before the seed filled the
 * working table, so the step read no rows and the answer was the seed's
 * alone; mnestic builds the step once per round (EnumerableEachRound).
 */
@ExtendWith(Postgres.Extension.class)
class RecursiveStepOracleTest {
  private static final int AIRPORTS = 60;
  private static final int ROUTES = 240;

  private static Connection mnestic;
  private static Connection postgres;

  @BeforeAll static void load(Postgres cluster) throws SQLException {
    mnestic = DriverManager.getConnection("jdbc:mnestic:");
    postgres = cluster.connect();
    for (Connection c : List.of(mnestic, postgres)) {
      Rows.update(c, "DROP TABLE IF EXISTS route");
      Rows.update(c, "DROP TABLE IF EXISTS edge");
      Rows.update(c, "CREATE TABLE route (fr VARCHAR(8) NOT NULL, \"to\" VARCHAR(8) NOT NULL,"
          + " dist DOUBLE PRECISION NOT NULL, PRIMARY KEY (fr, \"to\"))");
      Rows.update(c, "CREATE TABLE edge (src INT NOT NULL, dst INT NOT NULL, PRIMARY KEY (src, dst))");
      Rows.update(c, "INSERT INTO edge VALUES (1, 2), (2, 3), (3, 4), (2, 5), (5, 3)");
    }
    // A random weighted graph; a chain A0 -> A1 -> ... keeps most airports reachable from A0
    // in several rounds, and the random routes give shorter ways found in later rounds.
    final Random random = new Random(7);
    final StringBuilder routes = new StringBuilder("INSERT INTO route VALUES ");
    final Set<String> seen = new HashSet<>();
    for (int i = 0; i < AIRPORTS + ROUTES; i++) {
      final int fr = i < AIRPORTS - 1 ? i : random.nextInt(AIRPORTS);
      final int to = i < AIRPORTS - 1 ? i + 1 : random.nextInt(AIRPORTS);
      if (fr != to && seen.add(fr + " " + to)) {
        routes.append(seen.size() > 1 ? ", " : "").append("('A").append(fr).append("', 'A")
            .append(to).append("', ").append(1 + random.nextInt(900)).append(')');
      }
    }
    for (Connection c : List.of(mnestic, postgres)) {
      Rows.update(c, routes.toString());
    }
  }

  @AfterAll static void close() throws SQLException {
    mnestic.close();
    postgres.close();
  }

  private static List<List<Object>> assertSameRows(String sql) throws SQLException {
    final List<List<Object>> expected = SkylineOracleTest.sorted(Rows.query(postgres, sql));
    assertEquals(expected, SkylineOracleTest.sorted(Rows.query(mnestic, sql)), sql);
    return expected;
  }

  @ParameterizedTest
  @ValueSource(strings = {
      // the smallest: a window over one row per round
      "WITH RECURSIVE r (n) AS (VALUES (1) UNION ALL SELECT MAX(n) OVER () + 1 FROM r WHERE n < 4)"
          + " SELECT * FROM r",
      "WITH RECURSIVE r (n) AS (VALUES (1) UNION ALL SELECT DISTINCT n + 1 FROM r WHERE n < 4)"
          + " SELECT * FROM r",
      "WITH RECURSIVE r (n) AS (VALUES (1), (2) UNION SELECT DISTINCT n + 1 FROM r WHERE n < 6)"
          + " SELECT * FROM r",
      // a window over a join of the working table with a store table
      "WITH RECURSIVE r (n, k) AS (SELECT 1, 0 FROM (VALUES (0)) v UNION ALL"
          + " SELECT e.dst, MAX(r.k) OVER () + 1 FROM r JOIN edge e ON e.src = r.n)"
          + " SELECT * FROM r",
      "WITH RECURSIVE r (n, depth, rank_in_round) AS (SELECT 1, 0, CAST(1 AS BIGINT) FROM (VALUES (0)) v"
          + " UNION ALL"
          + " SELECT e.dst, r.depth + 1, ROW_NUMBER() OVER (PARTITION BY r.depth ORDER BY e.dst)"
          + " FROM r JOIN edge e ON e.src = r.n WHERE r.depth < 5)"
          + " SELECT * FROM r",
      "WITH RECURSIVE r (n, depth) AS (SELECT 1, 0 FROM (VALUES (0)) v UNION ALL"
          + " SELECT DISTINCT e.dst, r.depth + 1 FROM r JOIN edge e ON e.src = r.n)"
          + " SELECT * FROM r"})
  void sameRowsAsPostgres(String sql) throws SQLException {
    assertSameRows(sql);
  }

  /**
   * bench RecursionBench's air-routes query ({@link BellmanFordSql}). Before,
   * it answered with the first hop's airports only (on air-routes, 221 of 3462).
   */
  @Test void shortestDistancesAsPostgres() throws SQLException {
    final String sql = BellmanFordSql.shortestDistances("A0",
        "SELECT node, MIN(dist) AS dist FROM best GROUP BY node");
    final List<List<Object>> expected = assertSameRows(sql);
    final int firstHop = Rows.query(postgres,
        "SELECT COUNT(*) FROM route WHERE fr = 'A0'").get(0).get(0) instanceof Number n
        ? n.intValue() : -1;
    assertTrue(expected.size() > firstHop + 10,
        "the graph must need several rounds: " + expected.size() + " airports, " + firstHop
            + " one hop away");
  }
}
