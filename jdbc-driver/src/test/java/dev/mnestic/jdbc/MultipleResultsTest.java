package dev.mnestic.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

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

  /** Relation {@code name} as the connection reads it alone. */
  private static List<List<Object>> alone(Connection c, String name, String columns)
      throws SQLException {
    try (Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("?[" + columns + "] := *" + name + "[" + columns + "]")) {
      return ReturnResults.read(rs);
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
      ReturnResults.assertWalk(c, "%return " + String.join(", ", names), expected);
    }
  }
}
