package dev.mnestic.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JDBC's walk over the multiple results of a CozoScript's {@code %return a, b, c}, asserted the
 * same way for the embedded driver ({@code MultipleResultsTest}) and the thin client
 * ({@code MultipleResultsRemoteTest}).
 */
public final class ReturnResults {
  private ReturnResults() {
  }

  /**
   * The column names, then the rows, of {@code rs}; integers as Longs (the embedded driver gives
   * an Int as a Long, the wire as the narrowest number).
   */
  public static List<List<Object>> read(ResultSet rs) throws SQLException {
    final List<List<Object>> out = new ArrayList<>();
    final List<Object> names = new ArrayList<>();
    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
      names.add(rs.getMetaData().getColumnLabel(i));
    }
    out.add(names);
    while (rs.next()) {
      final List<Object> row = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        final Object o = rs.getObject(i);
        row.add(o instanceof Number n && !(o instanceof Double) ? (Object) n.longValue() : o);
      }
      out.add(row);
    }
    return out;
  }

  /**
   * Runs {@code script} (a {@code %return} of three relations) on {@code c} every way JDBC reads
   * multiple results, and checks each result against {@code expected} (each relation read on its
   * own): {@code execute} then {@code getMoreResults}, {@code KEEP_CURRENT_RESULT} and
   * {@code CLOSE_ALL_RESULTS}, a bad mode (HY024), a new execution dropping the results the last
   * left unread, and a prepared script run twice in frames of 7 rows.
   */
  public static void assertWalk(Connection c, String script, List<List<List<Object>>> expected)
      throws SQLException {
    try (Statement s = c.createStatement()) {
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
      // KEEP_CURRENT_RESULT leaves the first readable (its later frames too) after the second
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
      // an execution's results are its own: a new one drops the results the last left unread,
      // and a script of one result has no more
      assertTrue(s.execute(script));
      try (ResultSet rs = s.executeQuery("?[a] <- [[1]]")) {
        assertTrue(rs.next());
        assertEquals(1L, ((Number) rs.getObject(1)).longValue());
        assertFalse(s.getMoreResults());
      }
    }
    try (PreparedStatement ps = c.prepareStatement(script)) {
      ps.setFetchSize(7);
      for (int run = 0; run < 2; run++) {
        assertTrue(ps.execute());
        final List<List<List<Object>>> prepared = new ArrayList<>();
        do {
          prepared.add(read(ps.getResultSet()));
        } while (ps.getMoreResults());
        assertEquals(expected, prepared);
      }
    }
  }
}
