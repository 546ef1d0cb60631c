package dev.mnestic.jdbc;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13 (point 5, SQL): chains of 10,000 operators of each kind either run, with
 * the answer Java computes from the same rows, or are refused at once with SQLSTATE 54001 at
 * the line and column where the statement passes {@link StatementShape}'s limits.
 */
class OperatorChainTest {
  private static final int TERMS = 10_000;

  /** Rows of x: (3i, -i) for i below 1,000, and (NULL, 5). */
  private static final int ROWS = 1_000;

  private static Connection c;

  @BeforeAll static void open() throws SQLException {
    c = DriverManager.getConnection("jdbc:mnestic:");
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE x (a INT, b INT)");
      final StringBuilder values = new StringBuilder("INSERT INTO x VALUES (NULL, 5)");
      for (int i = 0; i < ROWS; i++) {
        values.append(", (").append(3 * i).append(", ").append(-i).append(')');
      }
      s.executeUpdate(values.toString());
    }
  }

  @AfterAll static void close() throws SQLException {
    c.close();
  }

  private static String chain(String separator, IntFunction<String> term) {
    return chain(TERMS, separator, term);
  }

  private static String chain(int terms, String separator, IntFunction<String> term) {
    final StringBuilder b = new StringBuilder();
    for (int i = 0; i < terms; i++) {
      b.append(i == 0 ? "" : separator).append(term.apply(i));
    }
    return b.toString();
  }

  private static long[] row(String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      assertTrue(r.next(), sql);
      final long[] row = new long[r.getMetaData().getColumnCount()];
      for (int i = 0; i < row.length; i++) {
        row[i] = r.getLong(i + 1);
      }
      return row;
    }
  }

  /** An OR of 10,000 terms: equalities of one column, either way round, and two others. */
  @Test void orOfEqualitiesInWhere() throws SQLException {
    final String sql = "SELECT COUNT(*) FROM x WHERE b < -990 OR "
        + chain(TERMS - 2, " OR ", i -> i % 2 == 0 ? "a = " + 2 * i : 2 * i + " = a")
        + " OR b = 5";
    long expected = 1; // (NULL, 5)
    for (int i = 0; i < ROWS; i++) {
      // 3i is one of the even numbers below 19,996 when i is even.
      expected += -i < -990 || (3 * i) % 2 == 0 && 3 * i < 2 * (TERMS - 2) ? 1 : 0;
    }
    assertEquals(expected, row(sql)[0]);
  }

  /**
   * The same in a select item, negated: a NULL column is neither in nor out of the list (the
   * IN list keeps SQL's three-valued logic).
   */
  @Test void orOfEqualitiesInSelect() throws SQLException {
    long out = 0;
    for (int i = 0; i < ROWS; i++) {
      // The chain holds the even numbers below 20,000.
      out += (3 * i) % 2 == 1 ? 1 : 0;
    }
    assertEquals(out, row("SELECT SUM(CASE WHEN NOT (" + chain(" OR ", i -> "a = " + 2 * i)
        + ") THEN 1 ELSE 0 END) FROM x")[0]);
  }

  /** Just under the limit of operators, a statement runs. */
  @Test void underTheLimit() throws SQLException {
    final int plus = StatementShape.MAX_OPERATORS - 20;
    long expected = 0;
    for (int i = 0; i < ROWS; i++) {
      expected += 3 * i + plus;
    }
    assertEquals(expected, row("SELECT SUM(a" + " + 1".repeat(plus) + ") FROM x")[0]);
  }

  /**
   * Chains past the limits fail at once with 54001, at the place where the count of their
   * operators (counted here from the text) passes the limit.
   */
  @Test void longChainsRefused() {
    final int operators = StatementShape.MAX_OPERATORS;
    refused("SELECT COUNT(*) FROM x WHERE " + chain(" AND ", i -> "a <> " + i),
        "AND|<>", operators);
    refused("SELECT SUM(a" + " + 1".repeat(TERMS) + ") FROM x", "\\+", operators);
    refused("SELECT CHAR_LENGTH('a'" + " || 'b'".repeat(TERMS) + ") FROM x", "\\|\\|",
        operators);
    refused("SELECT SUM(CASE " + chain(" ", i -> "WHEN a = " + i + " THEN " + i % 7)
        + " ELSE 0 END) FROM x", "WHEN|=", operators);
    refused("SELECT " + chain(", ", i -> "b AS c" + i) + " FROM x", "b AS", operators,
        " items");
    // Past the parser's limit, before parsing: a 15,000-term OR, 100,000 equalities.
    refused("SELECT COUNT(*) FROM x WHERE " + chain(15_000, " OR ",
        i -> i % 2 == 0 ? "a + b > " + i : "b < -" + i), "OR|\\+|>|<", StatementShape.MAX_CHAIN);
    final StringBuilder equalities = new StringBuilder("SELECT COUNT(*) FROM x WHERE a = 0");
    for (int i = 1; i < 100_000; i++) {
      equalities.append(" OR a = ").append(i);
    }
    refused(equalities.toString(), "OR|=", StatementShape.MAX_CHAIN);
  }

  private static final Pattern PLACE = Pattern.compile("^At line 2, column (\\d+): ");

  /**
   * Asserts that {@code sql}, on the statement's second line, fails within a minute (Calcite
   * parses an expression of 20,000 operators in up to 14 s on a loaded machine) with
   * 54001 naming {@code limit}, at a column before which {@code operator} occurs about
   * {@code limit} times.
   */
  private static void refused(String sql, String operator, int limit) {
    refused(sql, operator, limit, " operators");
  }

  /** As {@link #refused(String, String, int)}, the limit being of {@code what}. */
  private static void refused(String sql, String operator, int limit, String what) {
    final String text = "-- " + limit + "\n" + sql;
    final SQLException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> assertThrows(SQLException.class, () -> row(text)));
    assertEquals(SqlFailures.TOO_COMPLEX, e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains("limit of " + limit + what), e.getMessage());
    final Matcher place = PLACE.matcher(e.getMessage());
    assertTrue(place.find(), e.getMessage());
    final String before = sql.substring(0, Integer.parseInt(place.group(1)) - 1);
    final Matcher m = Pattern.compile(operator).matcher(before);
    int count = 0;
    while (m.find()) {
      count++;
    }
    assertTrue(count >= limit - 3 && count <= limit + 1, count + " before " + e.getMessage());
  }
}
