package dev.mnestic.server;

import dev.mnestic.jdbc.PlanCache;

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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SKYLINE OF as a DBeaver user types it: through a real MnesticServer and
 * the Avatica thin client (protobuf).
 */
class SkylineRemoteTest {
  private static MnesticServer server;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).build();
    server.start();
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE hotels (name VARCHAR(10), city VARCHAR(10), price INT, dist INT)");
      s.execute("INSERT INTO hotels VALUES ('alder', 'oslo', 100, 2), ('birch', 'oslo', 80, 3),"
          + " ('cedar', 'oslo', 130, 3), ('elm', 'rome', 50, 9), ('fir', 'rome', 60, 9),"
          + " ('gum', 'rome', NULL, 1)");
    }
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  private static List<String> names(ResultSet rs) throws SQLException {
    final List<String> names = new ArrayList<>();
    while (rs.next()) {
      names.add(rs.getString(1));
    }
    return names;
  }

  @Test void skylineOverTheServer() throws SQLException {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery(
             "SELECT name FROM hotels SKYLINE OF price MIN, dist MIN ORDER BY name")) {
      assertEquals(List.of("alder", "birch", "elm", "gum"), names(rs));
    }
  }

  @Test void preparedWithParameters() throws SQLException {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         PreparedStatement ps = c.prepareStatement("SELECT name FROM hotels WHERE city = ?"
             + " SKYLINE OF price MIN, dist MIN ORDER BY name")) {
      ps.setString(1, "oslo");
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals(List.of("alder", "birch"), names(rs));
      }
      ps.setString(1, "rome");
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals(List.of("elm", "gum"), names(rs));
      }
    }
  }

  /** The server's connection keeps the plan: the same text on a fresh statement is a cache hit. */
  @Test void repeatedTextReusesThePlan() throws SQLException {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl())) {
      final String sql = "SELECT name AS again FROM hotels SKYLINE OF price MIN, dist MIN"
          + " ORDER BY name";
      final List<Long> hits = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        final long before = PlanCache.hitsInProcess();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
          assertEquals(List.of("alder", "birch", "elm", "gum"), names(rs));
        }
        hits.add(PlanCache.hitsInProcess() - before);
      }
      assertEquals(List.of(0L, 1L), hits);
    }
  }

  @Test void errorsNameLineAndColumn() throws SQLException {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      final SQLException e = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT name FROM hotels\nSKYLINE OF price MIN, nope MAX"));
      assertTrue(e.getMessage().contains("line 2, column 23"), e.getMessage());
    }
  }
}
