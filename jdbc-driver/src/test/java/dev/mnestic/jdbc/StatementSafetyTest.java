package dev.mnestic.jdbc;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13 (points 5 and 6, SQL): each failure is an SQLException with a SQLSTATE
 * and a short message; deep nesting runs or is refused at its place; VALUES and IN lists of
 * 100,000 items run.
 */
class StatementSafetyTest {
  private Connection c;

  @BeforeEach void open() throws SQLException {
    c = DriverManager.getConnection("jdbc:mnestic:");
    execute("CREATE TABLE x (a INT, b INT)");
    execute("CREATE TABLE d (v DOUBLE)");
    execute("CREATE TABLE t (ts TIMESTAMP, v DOUBLE)");
  }

  @AfterEach void close() throws SQLException {
    c.close();
  }

  private boolean execute(String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      return s.execute(sql);
    }
  }

  /** Asserts that {@code sql} fails with {@code state} and a message containing {@code words}. */
  private void fails(String state, String words, String sql) {
    final SQLException e = assertThrows(SQLException.class, () -> execute(sql), sql);
    assertEquals(state, e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains(words), e.getMessage());
    assertTrue(e.getMessage().length() <= SqlFailures.MAX_MESSAGE + 1, e.getMessage());
  }

  private long count(String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test void listedInternalErrorsAreUserErrors() {
    fails("42601", "empty statement", "  -- nothing\n ");
    fails("42000", "EXISTS takes a query", "SELECT EXISTS 'f'");
    fails("42000", "Number of INSERT target columns (2) does not equal number of source items (3)",
        "INSERT INTO x VALUES (1, 2, 3)");
    fails("42000", "TUMBLE's interval must be positive",
        "SELECT COUNT(*) FROM t GROUP BY TUMBLE(ts, INTERVAL '0' SECOND)");
    fails("42000", "recursive step", "WITH RECURSIVE r(n, s) AS (SELECT 1, CAST(0.5 AS"
        + " DECIMAL(10, 2)) UNION ALL SELECT n + 1, s + 0.1 FROM r WHERE n < 5) SELECT * FROM r");
    fails("42S02", "Object 'nosuch' not found", "SELECT * FROM nosuch");
    fails("42S22", "Column 'nosuch' not found", "SELECT nosuch FROM x");
    fails("42601", "line 1, column 8", "SELECT FROM WHERE");
    fails("22012", "division by zero", "SELECT 1 / 0");
    fails("0A000", "not supported", "SELECT COUNT(*) FROM t GROUP BY TUMBLE(ts, INTERVAL '1' SECOND)");
    fails("0A000", "not supported: TABLE `PUBLIC`.`t`", "TABLE t");
  }

  /** A PreparedStatement's failures, preparing and running, carry their SQLSTATE too. */
  @Test void preparedStatementFailures() throws SQLException {
    final SQLException unknown = assertThrows(SQLException.class,
        () -> c.prepareStatement("SELECT * FROM nosuch"));
    assertEquals("42S02", unknown.getSQLState(), unknown.getMessage());
    assertTrue(unknown.getMessage().contains("Object 'nosuch' not found"), unknown.getMessage());
    try (PreparedStatement p = c.prepareStatement("SELECT a FROM x WHERE a = ?")) {
      final SQLException unset = assertThrows(SQLException.class, p::executeQuery);
      assertEquals("07002", unset.getSQLState(), unset.getMessage());
    }
    try (PreparedStatement p = c.prepareStatement("SELECT 1 / (SELECT COUNT(*) FROM x)")) {
      final SQLException zero = assertThrows(SQLException.class, () -> {
        try (ResultSet r = p.executeQuery()) {
          r.next();
        }
      });
      assertEquals("22012", zero.getSQLState(), zero.getMessage());
    }
  }

  @Test void exactLiteralsIntoDouble() throws SQLException {
    assertEquals(2, c.createStatement().executeUpdate("INSERT INTO d VALUES (1.5), (NULL)"));
    assertEquals(1, count("SELECT COUNT(*) FROM d WHERE v = 1.5"));
  }

  @Test void deepNesting() throws SQLException {
    final int levels = 1_000;
    assertEquals(1, count("SELECT " + "(".repeat(levels) + "1" + ")".repeat(levels)));
    assertEquals(0, count("SELECT COUNT(*) FROM " + "(SELECT * FROM ".repeat(levels / 10) + "x"
        + ")".repeat(levels / 10)));
    final int past = StatementShape.MAX_DEPTH + 1;
    fails("54001", "At line 2, column " + (past + 7) + ": expressions nested deeper than the"
        + " limit of " + StatementShape.MAX_DEPTH, "\nSELECT " + "(".repeat(past) + "1"
        + ")".repeat(past));
  }

  /** A chain of 10,000 operators is a tree 10,000 deep: no stack overflow, a clear answer. */
  @Test void longChain() throws SQLException {
    final String chain = "NOT ".repeat(10_000);
    assertEquals(3, count("SELECT COUNT(*) FROM (VALUES (1), (2), (3)) AS v (a) WHERE "
        + chain + "a > 0"));
  }

  /**
   * Test case for #13: an IN list of 10,000 values, an INSERT of 5,000 rows, failed. Here
   * 100,000 of each: values in 50,000 rows of two, and values in the list.
   */
  @Test void manyValues() throws SQLException {
    final int rows = 50_000;
    final StringBuilder values = new StringBuilder("INSERT INTO x VALUES ");
    for (int i = 0; i < rows; i++) {
      values.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(-i).append(')');
    }
    assertEquals(rows, c.createStatement().executeUpdate(values.toString()));
    final StringBuilder in = new StringBuilder("SELECT COUNT(*) FROM x WHERE a IN (");
    for (int i = 0; i < 100_000; i++) {
      in.append(i == 0 ? "" : ", ").append(2 * i);
    }
    assertEquals(rows / 2, count(in.append(')').toString()));
    assertEquals(-1, count("SELECT MIN(b) FROM x WHERE a = 1"));
  }

  /** Every failure leaves the store as it was: a failed INSERT of many rows adds none. */
  @Test void failedStatementChangesNothing() throws SQLException {
    execute("INSERT INTO x VALUES (1, 1)");
    final StringBuilder values = new StringBuilder("INSERT INTO x VALUES ");
    for (int i = 0; i < 20; i++) {
      values.append(i == 0 ? "" : ", ").append('(').append(i).append(", 1 / ").append(19 - i)
          .append(')');
    }
    final SQLException e = assertThrows(SQLException.class, () -> execute(values.toString()));
    assertEquals("22012", e.getSQLState(), e.getMessage());
    assertEquals(1, count("SELECT COUNT(*) FROM x"));
  }
}
