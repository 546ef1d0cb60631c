package dev.mnestic.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

/**
 * Where should work over the store run: in HSQLDB, or in Calcite's
 * Enumerable code over rows HSQLDB scans? Runs the same queries on the same
 * rows in mnestic (which pushes only scans, filters and projections to
 * HSQLDB) and in HSQLDB itself, and prints a markdown table of medians.
 *
 * <p>Reproduce: {@code bench/run StoreWorkBench [ROWS]} (default 200000).
 */
public final class StoreWorkBench {
  private StoreWorkBench() {
  }

  public static void main(String[] args) throws Exception {
    final int rows = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    try (Connection mnestic = DriverManager.getConnection("jdbc:mnestic:");
         Connection hsqldb = DriverManager.getConnection(
             "jdbc:hsqldb:mem:bench-" + UUID.randomUUID() + ";shutdown=true;hsqldb.tx=mvcc",
             "SA", "")) {
      // a, b: ROWS rows each; c, d: ROWS / 10 (HSQLDB joins without an index by nested loops).
      for (Connection c : List.of(mnestic, hsqldb)) {
        load(c, "a", "b", rows);
        load(c, "c", "d", rows / 10);
      }
      final String[][] queries = {
          {"filtered scan", "SELECT COUNT(*), SUM(v) FROM a WHERE v < 1000"},
          {"group by 100 keys", "SELECT MOD(k, 100), COUNT(*), SUM(v) FROM a GROUP BY MOD(k, 100)"},
          {"join on key (b.k is b's primary key)",
              "SELECT COUNT(*), SUM(a.v + b.w) FROM a JOIN b ON a.k = b.k"},
          {"join on non-key (c.v = d.w, ROWS/10 each)", "SELECT COUNT(*) FROM c JOIN d ON c.v = d.w"},
          {"sort, top 10", "SELECT k, v FROM a ORDER BY v DESC, k LIMIT 10"},
      };
      final Harness harness = new Harness(2, 5);
      System.out.printf(Locale.ROOT,
          "ROWS = %d; medians of 5 runs after 2 warm-ups; each run plans and executes the query%n%n",
          rows);
      System.out.println("| query | mnestic (s) | HSQLDB (s) | HSQLDB / mnestic |");
      System.out.println("|---|---|---|---|");
      for (String[] q : queries) {
        final Harness.Timing<List<String>> m = harness.time(() -> run(mnestic, q[1]));
        final Harness.Timing<List<String>> h = harness.time(() -> run(hsqldb, q[1]));
        if (!m.result().equals(h.result())) {
          throw new IllegalStateException(q[0] + ": results differ: " + m.result() + " vs " + h.result());
        }
        System.out.printf(Locale.ROOT, "| %s | %.3f | %.3f | %.1f× |%n",
            q[0], m.seconds(), h.seconds(), h.seconds() / m.seconds());
      }
    }
  }

  /** Creates {@code left (k, v)} and {@code right (k PRIMARY KEY, w)} with {@code rows} random rows each. */
  private static void load(Connection c, String left, String right, int rows) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + left + " (k INT NOT NULL, v INT NOT NULL)");
      s.execute("CREATE TABLE " + right + " (k INT PRIMARY KEY, w INT NOT NULL)");
    }
    c.setAutoCommit(false);
    final Random random = new Random(7);
    for (String table : List.of(left, right)) {
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
        for (int i = 0; i < rows; i++) {
          ps.setInt(1, i);
          ps.setInt(2, random.nextInt(rows));
          ps.addBatch();
          if (i % 10_000 == 9_999 || i == rows - 1) {
            ps.executeBatch();
          }
        }
      }
    }
    c.commit();
    c.setAutoCommit(true);
  }

  private static List<String> run(Connection c, String sql) throws SQLException {
    final List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        final StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          b.append(rs.getLong(i)).append(' ');
        }
        rows.add(b.toString());
      }
    }
    rows.sort(null);
    return rows;
  }
}
