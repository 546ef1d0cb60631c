package dev.mnestic.server;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13 (points 5 and 6): through the server, a failed statement reaches the thin
 * client as an SQLException with the embedded driver's SQLSTATE and message (JdbcMeta gave
 * 00000), and a statement nested 700 deep, which overflowed the server's stack and left the
 * client an unparseable reply, runs.
 */
class RemoteFailureTest {
  @Test void sqlStatesReachTheClient() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).build()) {
      server.start();
      try (Connection c = DriverManager.getConnection(server.jdbcUrl());
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE x (a INT, b INT)");
        assertState(s, "42S02", "Object 'nosuch' not found", "SELECT * FROM nosuch");
        assertState(s, "42000", "EXISTS takes a query", "SELECT EXISTS 'f'");
        assertState(s, "22012", "division by zero", "SELECT 1 / 0");
        assertState(s, "42601", "empty statement", " ");
        try (ResultSet r = s.executeQuery("SELECT " + "(".repeat(700) + "1" + ")".repeat(700))) {
          assertTrue(r.next());
          assertEquals(1, r.getInt(1));
        }
      }
    }
  }

  private static void assertState(Statement s, String state, String words, String sql) {
    final SQLException e = assertThrows(SQLException.class, () -> s.execute(sql));
    assertEquals(state, e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains(words), e.getMessage());
  }
}
