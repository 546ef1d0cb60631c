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
 * A CozoScript access level and triggers through a real MnesticServer and the Avatica thin
 * client: set by one client's script, a level refuses another client's SQL write (and a hidden
 * one its read) with SQLSTATE 42501, and triggers run for its SQL writes; no thin client can
 * register code of its own.
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

  @Test void aHiddenRelationRefusesARemoteSqlRead() throws SQLException {
    final Properties datalog = new Properties();
    datalog.setProperty("lang", "datalog");
    try (Connection script = DriverManager.getConnection(server.jdbcUrl(), datalog);
         Connection sql = DriverManager.getConnection(server.jdbcUrl());
         Statement s = script.createStatement();
         Statement q = sql.createStatement()) {
      s.execute(":create remote_h {k: Int => v: String}");
      s.execute("?[k, v] <- [[1, 'secret']] :put remote_h {k => v}");
      s.execute("::access_level hidden remote_h");
      for (String read : new String[] {"SELECT * FROM remote_h", "SELECT v FROM remote_h WHERE k = 1"}) {
        final SQLException e = assertThrows(SQLException.class, () -> q.executeQuery(read));
        assertEquals("42501", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains(
            "Insufficient access level hidden for reading rows on stored relation 'remote_h'"),
            e.getMessage());
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
      }
    }
  }

  @Test void aRemoteSqlWriteFiresTriggers() throws SQLException {
    final Properties datalog = new Properties();
    datalog.setProperty("lang", "datalog");
    try (Connection script = DriverManager.getConnection(server.jdbcUrl(), datalog);
         Connection sql = DriverManager.getConnection(server.jdbcUrl());
         Statement s = script.createStatement();
         Statement q = sql.createStatement()) {
      s.execute(":create remote_t {k: Int => v: String}");
      s.execute(":create remote_log {k: Int, v: String}");
      s.execute("::set_triggers remote_t on put { ?[k, v] := _new[k, v] :put remote_log {k, v} }"
          + " on put { ?[k, v] := _new[k, v], v == 'boom' :ensure_not remote_t {k => v} }");
      assertEquals(2, q.executeUpdate("INSERT INTO remote_t VALUES (1, 'a'), (2, 'b')"));
      final SQLException e = assertThrows(SQLException.class,
          () -> q.executeUpdate("INSERT INTO remote_t VALUES (3, 'boom')"));
      assertEquals("23000", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("in the put trigger of remote_t"), e.getMessage());
      try (ResultSet rs = q.executeQuery("SELECT k, v FROM remote_log ORDER BY k")) {
        assertTrue(rs.next());
        assertEquals(1, rs.getInt(1));
        assertTrue(rs.next());
        assertEquals(2, rs.getInt(1));
        assertFalse(rs.next());
      }
    }
  }

  @Test void aThinClientCannotRegisterCode() throws SQLException {
    try (Connection sql = DriverManager.getConnection(server.jdbcUrl())) {
      assertFalse(sql.isWrapperFor(dev.mnestic.jdbc.MnesticConnection.class));
      assertThrows(SQLException.class, () -> sql.unwrap(dev.mnestic.jdbc.MnesticConnection.class));
    }
  }
}
