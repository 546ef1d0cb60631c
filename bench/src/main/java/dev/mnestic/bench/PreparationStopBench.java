package dev.mnestic.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * How long after its timeout a huge statement stops while Calcite prepares it (#13, point 4):
 * {@code bench/run PreparationStopBench SHAPE N TIMEOUT} runs one statement of the shape with
 * {@code setQueryTimeout(TIMEOUT)} (0: none) on an embedded in-memory store and prints its
 * outcome, the time it took and how far past the timeout that was. Shapes:
 * <ul>
 *   <li>{@code values}: {@code SELECT SUM(x + y) FROM (VALUES (0, 0), ...)} of N rows;
 *   <li>{@code valuesexpr}: VALUES of N rows each an expression ({@code (i + i % 7 * 2)}),
 *       which become code, not data;
 *   <li>{@code literal}: a string literal of N characters;
 *   <li>{@code nest}: N nested subqueries;
 *   <li>{@code union}: N blocks under UNION ALL;
 *   <li>{@code cols}: N select items.
 * </ul>
 */
public final class PreparationStopBench {
  private PreparationStopBench() {
  }

  static String statement(String shape, int n) {
    final StringBuilder b = new StringBuilder();
    switch (shape) {
    case "values" -> {
      b.append("SELECT SUM(x + y) FROM (VALUES ");
      for (int i = 0; i < n; i++) {
        b.append(i == 0 ? "" : ",").append('(').append(i).append(", ").append(i * 7 % 13)
            .append(')');
      }
      b.append(") AS v(x, y)");
    }
    case "valuesexpr" -> {
      b.append("SELECT SUM(x) FROM (VALUES ");
      for (int i = 0; i < n; i++) {
        b.append(i == 0 ? "" : ",").append('(').append(i).append(" + ").append(i % 7)
            .append(" * 2)");
      }
      b.append(") AS v(x)");
    }
    case "literal" -> b.append("SELECT CHAR_LENGTH('").append("x".repeat(n)).append("') FROM t");
    case "nest" -> b.append("SELECT x FROM ").append("(SELECT x FROM ".repeat(n)).append('t')
        .append(")".repeat(n));
    case "union" -> {
      for (int i = 0; i < n; i++) {
        b.append(i == 0 ? "" : " UNION ALL ").append("SELECT x + ").append(i)
            .append(" FROM t WHERE x > ").append(i % 5);
      }
    }
    case "cols" -> {
      b.append("SELECT x");
      for (int i = 0; i < n; i++) {
        b.append(", x + ").append(i).append(" AS c").append(i);
      }
      b.append(" FROM t");
    }
    default -> throw new IllegalArgumentException("shape must be values, valuesexpr, literal,"
        + " nest, union or cols, not " + shape);
    }
    return b.toString();
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: PreparationStopBench SHAPE N TIMEOUT_SECONDS");
    }
    final String sql = statement(args[0], Integer.parseInt(args[1]));
    final int timeout = Integer.parseInt(args[2]);
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=mem:preparationstop");
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (x INT PRIMARY KEY)");
      s.execute("INSERT INTO t VALUES (1), (2)");
      // Calcite's first plan and code, done once per JVM, before the statement is timed
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM t a, t b WHERE a.x = b.x")) {
        rs.next();
      }
      s.setQueryTimeout(timeout);
      final long start = System.nanoTime();
      String outcome;
      try (ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          // every row read
        }
        outcome = "ok";
      } catch (SQLException e) {
        outcome = e.getSQLState();
      }
      final double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf(Locale.ROOT, "%s %s (%,d chars), timeout %d s: %s after %.2f s (%.2f s"
          + " past the timeout)%n", args[0], args[1], sql.length(), timeout, outcome, seconds,
          timeout == 0 ? 0 : seconds - timeout);
    }
    // the statement's abandoned work (a compilation) may still run on a daemon thread
    System.exit(0);
  }
}
