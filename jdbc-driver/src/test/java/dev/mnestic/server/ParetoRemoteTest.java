package dev.mnestic.server;

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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The built-in skyline aggregates over the server (issue 4): a remote
 * client, through Avatica's own thin client, runs CozoScript with
 * {@code pareto_min}, also in recursion; an aggregation a host registers
 * on an embedded engine is not there.
 */
class ParetoRemoteTest {
  private static MnesticServer server;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).build();
    server.start();
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  private static Connection datalog() throws SQLException {
    final Properties info = new Properties();
    info.setProperty("lang", "datalog");
    return DriverManager.getConnection(server.jdbcUrl(), info);
  }

  private static List<String> rows(ResultSet rs) throws SQLException {
    final List<String> rows = new ArrayList<>();
    while (rs.next()) {
      final List<String> row = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        row.add(String.valueOf(rs.getObject(i)));
      }
      rows.add(String.join(" ", row));
    }
    return rows;
  }

  @Test void paretoRunsOverTheServer() throws SQLException {
    try (Connection c = datalog(); Statement s = c.createStatement()) {
      assertTrue(c.getClass().getName().startsWith("org.apache.calcite.avatica"),
          c.getClass().getName());
      try (ResultSet rs = s.executeQuery("""
          p[g, x] <- [['a', [1, 5]], ['a', [2, 2]], ['a', [3, 3]], ['a', [5, 1]]]
          ?[g, pareto_min(x)] := p[g, x]""")) {
        assertEquals("pareto_min(x)", rs.getMetaData().getColumnLabel(2));
        assertEquals(List.of("a [1, 5]", "a [2, 2]", "a [5, 1]"), rows(rs));
      }
      try (ResultSet rs = s.executeQuery("""
          e[a, b, x, y] <- [[0, 1, 1, 5], [0, 2, 2, 1], [1, 2, 1, 1], [2, 0, 1, 1]]
          r[to, pareto_min(p)] := e[0, to, x, y], p = [x, y]
          r[to, pareto_min(p)] := r[m, q], e[m, to, x, y], p = [get(q, 0) + x, get(q, 1) + y]
          ?[to, p] := r[to, p]""")) {
        assertEquals(List.of("0 [3, 2]", "1 [1, 5]", "2 [2, 1]"), rows(rs));
      }
      final SQLException registeredOnly = assertThrows(SQLException.class,
          () -> s.executeQuery("?[eps_frontier(x)] := x in [[1, 2]]"));
      assertTrue(registeredOnly.getMessage().contains("Aggregation 'eps_frontier' not found"),
          registeredOnly.getMessage());
    }
  }
}
