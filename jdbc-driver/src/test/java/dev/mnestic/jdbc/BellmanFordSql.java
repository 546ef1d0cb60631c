package dev.mnestic.jdbc;

/**
 * Shortest distances from one airport over {@code route(fr, "to", dist)} in SQL, which cannot
 * aggregate inside WITH RECURSIVE: Bellman-Ford. Each round holds every reached airport's best
 * distance so far, relaxes every route once (a zero-length loop at each airport keeps the old
 * best), and the recursion ends after the first round that improves nothing. The step holds
 * windows and DISTINCT over the store: {@link RecursiveStepOracleTest} checks it against
 * PostgreSQL, and bench's {@code RecursionBench} (through this module's test-jar) times it on
 * air-routes against its peers.
 */
public final class BellmanFordSql {
  private BellmanFordSql() {
  }

  /**
   * The query: {@code best(node, dist, improved)}, each round's distances from {@code source},
   * then {@code select} over {@code best}.
   */
  public static String shortestDistances(String source, String select) {
    return """
        WITH RECURSIVE best (node, dist, improved) AS (
          SELECT "to", MIN(dist), 1 FROM route WHERE fr = '%s' GROUP BY "to"
          UNION ALL
          SELECT DISTINCT node, dist,
              MAX(CASE WHEN former IS NULL OR dist < former THEN 1 ELSE 0 END) OVER ()
          FROM (SELECT e.dst AS node,
                       MIN(b.dist + e.w) OVER (PARTITION BY e.dst) AS dist,
                       MIN(CASE WHEN e.is_loop = 1 THEN b.dist END) OVER (PARTITION BY e.dst) AS former
                FROM best b
                JOIN (SELECT fr AS src, "to" AS dst, dist AS w, 0 AS is_loop FROM route
                      UNION ALL
                      SELECT n, n, CAST(0 AS DOUBLE PRECISION), 1
                      FROM (SELECT fr AS n FROM route UNION SELECT "to" FROM route) airports) e
                  ON e.src = b.node
                WHERE b.improved = 1) relaxed
        )
        %s
        """.formatted(source, select);
  }
}
