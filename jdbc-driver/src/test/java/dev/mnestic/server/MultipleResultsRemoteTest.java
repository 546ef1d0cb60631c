package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;
import dev.mnestic.jdbc.ReturnResults;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;

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
          expected.add(ReturnResults.read(rs));
        }
      }
    }
    assertTrue(expected.get(0).size() > 101 && expected.get(2).size() > 101, "past a frame");
    try (Connection c = client()) {
      ReturnResults.assertWalk(c, "%return " + String.join(", ", names), expected);
    }
  }
}
