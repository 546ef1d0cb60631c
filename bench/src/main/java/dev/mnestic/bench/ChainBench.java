package dev.mnestic.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Long chains of SQL operators (#13 point 5): each kind of chain of the given number of terms,
 * prepared and run once (a plan is cached: a second run would time the cache) over 1,000 rows
 * of {@code x(a, b)}; prints what came back (the value, or the SQLSTATE and message) and the
 * seconds it took. {@code bench/run ChainBench 10000}; {@code bench/run ChainBench 480 or-mixed}
 * for some kinds.
 */
public final class ChainBench {
  /** SQL of each kind of chain, of n terms. */
  private static final Map<String, IntFunction<String>> KINDS = new LinkedHashMap<>();

  static {
    KINDS.put("or-eq", n -> "SELECT COUNT(*) FROM x WHERE " + chain(n, " OR ", i -> "a = " + i));
    KINDS.put("or-eq-select", n -> "SELECT SUM(CASE WHEN " + chain(n, " OR ", i -> "a = " + i)
        + " THEN 1 ELSE 0 END) FROM x");
    KINDS.put("or-mixed", n -> "SELECT COUNT(*) FROM x WHERE " + chain(n, " OR ",
        i -> i % 3 == 0 ? "a = " + i : i % 3 == 1 ? "b < " + -5 * i : "a + b > " + i));
    KINDS.put("and", n -> "SELECT COUNT(*) FROM x WHERE " + chain(n, " AND ", i -> "a <> -" + i));
    KINDS.put("plus-where", n -> "SELECT COUNT(*) FROM x WHERE a" + " + 1".repeat(n) + " > 0");
    KINDS.put("plus-select", n -> "SELECT SUM(a" + " + 1".repeat(n) + ") FROM x");
    KINDS.put("concat", n -> "SELECT MAX(CHAR_LENGTH('a'" + " || 'b'".repeat(n) + ")) FROM x");
    KINDS.put("case", n -> "SELECT SUM(CASE " + chain(n, " ", i -> "WHEN a = " + i + " THEN "
        + i % 7) + " ELSE 0 END) FROM x");
    KINDS.put("select-list", n -> "SELECT " + chain(n, ", ", i -> "a + " + i)
        + " FROM x WHERE a = 3");
    KINDS.put("select-columns", n -> "SELECT " + chain(n, ", ", i -> "b AS c" + i)
        + " FROM x WHERE a = 3");
  }

  private ChainBench() {
  }

  private static String chain(int n, String separator, IntFunction<String> term) {
    final StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : separator).append(term.apply(i));
    }
    return b.toString();
  }

  public static void main(String[] args) throws SQLException {
    final int terms = Integer.parseInt(args[0]);
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:")) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE x (a INT, b INT)");
        s.executeUpdate("INSERT INTO x VALUES " + chain(1_000, ", ",
            i -> "(" + 3 * i + ", " + -i + ")"));
      }
      for (Map.Entry<String, IntFunction<String>> kind : KINDS.entrySet()) {
        if (args.length > 1 && !List.of(args).subList(1, args.length).contains(kind.getKey())) {
          continue;
        }
        final long start = System.nanoTime();
        String outcome;
        try (Statement s = c.createStatement()) {
          s.setQueryTimeout(300);
          try (ResultSet r = s.executeQuery(kind.getValue().apply(terms))) {
            outcome = r.next() ? "= " + r.getString(1) : "no row";
          }
        } catch (SQLException e) {
          outcome = e.getSQLState() + " " + e.getMessage().lines().findFirst().orElse("");
        }
        System.out.printf(Locale.ROOT, "%-14s %6d terms %6.1f s  %s%n", kind.getKey(), terms,
            (System.nanoTime() - start) / 1e9, outcome);
      }
    }
  }
}
