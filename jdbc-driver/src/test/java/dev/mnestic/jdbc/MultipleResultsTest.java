package dev.mnestic.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JDBC's multiple results for a CozoScript's {@code %return a, b, c}: the statement's first
 * result set is {@code a}'s rows, and {@code getMoreResults} moves to {@code b}'s, then
 * {@code c}'s, then answers false (the embedded driver; the thin client's:
 * {@code MultipleResultsRemoteTest}).
 * The oracle is each relation read on its own by the same connection.
 */
class MultipleResultsTest {
  private static Connection datalog() throws SQLException {
    return DriverManager.getConnection("jdbc:mnestic:db=mem:results-" + UUID.randomUUID()
        + ";lang=datalog");
  }

  /** The column names, then the rows, of {@code rs}. */
  private static List<List<Object>> read(ResultSet rs) throws SQLException {
    final List<List<Object>> out = new ArrayList<>();
    final List<Object> names = new ArrayList<>();
    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
      names.add(rs.getMetaData().getColumnLabel(i));
    }
    out.add(names);
    while (rs.next()) {
      final List<Object> row = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        row.add(rs.getObject(i));
      }
      out.add(row);
    }
    return out;
  }

  /** Relation {@code name} as the connection reads it alone. */
  private static List<List<Object>> alone(Connection c, String name, String columns)
      throws SQLException {
    try (Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("?[" + columns + "] := *" + name + "[" + columns + "]")) {
      return read(rs);
    }
  }

  @Test void returnChainsAreMultipleResults() throws SQLException {
    final Random random = new Random(1);
    final String p = "mr_" + UUID.randomUUID().toString().substring(0, 8).replace('-', '_');
    try (Connection c = datalog(); Statement s = c.createStatement()) {
      // three relations of random rows, one of them empty
      final String[] names = {p + "_a", p + "_b", p + "_c"};
      final String[] columns = {"k, v", "x", "k, v"};
      for (int r = 0; r < 3; r++) {
        final StringBuilder rows = new StringBuilder();
        final int n = r == 1 ? 0 : 1 + random.nextInt(300);
        for (int i = 0; i < n; i++) {
          rows.append(i > 0 ? ", " : "").append(columns[r].equals("x")
              ? "[" + random.nextInt(1000) + "]"
              : "[" + random.nextInt(1000) + ", 'w" + random.nextInt(50) + "']");
        }
        s.execute("?[" + columns[r] + "] <- [" + rows + "] :create " + names[r] + " {"
            + (columns[r].equals("x") ? "x" : "k => v") + "}");
      }
      final List<List<List<Object>>> expected = new ArrayList<>();
      for (int r = 0; r < 3; r++) {
        expected.add(alone(c, names[r], columns[r]));
      }
      final String script = "%return " + String.join(", ", names);
      // Statement.execute, then getMoreResults as JDBC's loop over results reads them
      assertTrue(s.execute(script));
      final List<List<List<Object>>> got = new ArrayList<>();
      boolean more = true;
      while (more) {
        got.add(read(s.getResultSet()));
        more = s.getMoreResults();
      }
      assertEquals(expected, got);
      assertNull(s.getResultSet());
      assertEquals(-1, s.getUpdateCount());
      // KEEP_CURRENT_RESULT leaves the first readable after the second is opened
      try (ResultSet first = s.executeQuery(script)) {
        assertTrue(s.getMoreResults(Statement.KEEP_CURRENT_RESULT));
        assertEquals(expected.get(1), read(s.getResultSet()));
        assertEquals(expected.get(0), read(first));
        assertTrue(s.getMoreResults(Statement.CLOSE_ALL_RESULTS));
        assertEquals(expected.get(2), read(s.getResultSet()));
        assertFalse(s.getMoreResults());
      }
      final SQLException bad = assertThrows(SQLException.class, () -> s.getMoreResults(17));
      assertEquals("HY024", bad.getSQLState(), bad.getMessage());
      // a prepared script, run twice: each execution's own results
      try (PreparedStatement ps = c.prepareStatement(script)) {
        for (int run = 0; run < 2; run++) {
          assertTrue(ps.execute());
          final List<List<List<Object>>> prepared = new ArrayList<>();
          do {
            prepared.add(read(ps.getResultSet()));
          } while (ps.getMoreResults());
          assertEquals(expected, prepared);
        }
      }
      // a script of one result has no more
      try (ResultSet rs = s.executeQuery("?[a] <- [[1]]")) {
        assertTrue(rs.next());
        assertEquals(1L, ((Number) rs.getObject(1)).longValue());
        assertFalse(s.getMoreResults());
      }
    }
  }
}
