package dev.mnestic.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A CozoScript access level through a real MnesticServer and the Avatica thin client: set by
 * one client's script, it refuses another client's SQL write with SQLSTATE 42501.
 */
class AccessLevelRemoteTest {
  private static MnesticServer server;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).build();
    server.start();
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  @Test void aReadOnlyRelationRefusesARemoteSqlWrite() throws SQLException {
    final Properties datalog = new Properties();
    datalog.setProperty("lang", "datalog");
    try (Connection script = DriverManager.getConnection(server.jdbcUrl(), datalog);
         Connection sql = DriverManager.getConnection(server.jdbcUrl());
         Statement s = script.createStatement();
         Statement q = sql.createStatement()) {
      assertTrue(sql.getClass().getName().startsWith("org.apache.calcite.avatica"));
      s.execute(":create remote_r {k: Int => v: String}");
      s.execute("::access_level read_only remote_r");
      final SQLException e = assertThrows(SQLException.class,
          () -> q.executeUpdate("INSERT INTO remote_r VALUES (1, 'a')"));
      assertEquals("42501", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("Insufficient access level read_only"), e.getMessage());
      try (ResultSet rs = q.executeQuery("SELECT * FROM remote_r")) {
        assertFalse(rs.next());
      }
    }
  }
}
