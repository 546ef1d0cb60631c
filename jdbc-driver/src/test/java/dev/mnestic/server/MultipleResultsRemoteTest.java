package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JDBC's multiple results for a CozoScript's {@code %return a, b, c} through a real
 * MnesticServer and mnestic's thin client, as the embedded driver gives them
 * ({@code MultipleResultsTest}): the statement's first result set is {@code a}'s rows,
 * {@code getMoreResults} moves to {@code b}'s, then {@code c}'s, then answers false. The
 * results are longer than a frame, so their later rows are fetched from the server by each
 * result's own statement id. The oracle is each relation read alone by an embedded connection
 * to the server's store.
 */
class MultipleResultsRemoteTest {
  private static MnesticServer server;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).build();
    server.start();
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  private static Connection client() throws SQLException {
    final Properties info = new Properties();
    info.setProperty("lang", "datalog");
    return ThinClient.connect(server, info);
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
        final Object o = rs.getObject(i);
        // the embedded driver gives an Int as a Long, the wire as the narrowest number
        row.add(o instanceof Number n && !(o instanceof Double) ? (Object) n.longValue() : o);
      }
      out.add(row);
    }
    return out;
  }

  @Test void returnChainsAreMultipleResults() throws SQLException {
    final Random random = new Random(3);
    final String[] names = {"mrr_a", "mrr_b", "mrr_c"};
    final String[] columns = {"k, v", "x", "k, v"};
    final List<List<List<Object>>> expected = new ArrayList<>();
    try (Connection local = DriverManager.getConnection(Driver.CONNECT_STRING_PREFIX + "db="
        + server.db() + ";lang=datalog"); Statement l = local.createStatement()) {
      // three relations of random rows, one of them empty, the others past a frame (100 rows)
      for (int r = 0; r < 3; r++) {
        final StringBuilder rows = new StringBuilder();
        final int n = r == 1 ? 0 : 150 + random.nextInt(300);
        for (int i = 0; i < n; i++) {
          rows.append(i > 0 ? ", " : "").append("[" + i + ", 'w" + random.nextInt(50) + "']");
        }
        l.execute(r == 1 ? ":create " + names[r] + " {x}"
            : "?[" + columns[r] + "] <- [" + rows + "] :create " + names[r] + " {k => v}");
      }
      for (int r = 0; r < 3; r++) {
        try (ResultSet rs = l.executeQuery("?[" + columns[r] + "] := *" + names[r] + "["
            + columns[r] + "]")) {
          expected.add(read(rs));
        }
      }
    }
    assertTrue(expected.get(0).size() > 101 && expected.get(2).size() > 101, "past a frame");
    final String script = "%return " + String.join(", ", names);
    try (Connection c = client(); Statement s = c.createStatement()) {
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
      // an execution's results are its own: a new one drops the results the last left unread
      assertTrue(s.execute(script));
      try (ResultSet rs = s.executeQuery("?[a] <- [[1]]")) {
        assertTrue(rs.next());
        assertEquals(1L, ((Number) rs.getObject(1)).longValue());
        assertFalse(s.getMoreResults());
      }
      // a prepared script, run twice, read in frames of 7 rows: each execution's own results
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
}
