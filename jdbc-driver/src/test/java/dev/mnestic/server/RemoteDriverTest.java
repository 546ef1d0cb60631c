package dev.mnestic.server;

import dev.mnestic.remote.RemoteDriver;

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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code jdbc:mnestic:remote:} against a real server that requires a user: SQL tools' standard
 * {@code user} and {@code password} properties (DBeaver's login fields) authenticate, the URL
 * {@code mnestic serve} prints works after the new prefix, and every bad URL, key or credential
 * is an SQLException with a SQLSTATE naming what was wrong, never an unchecked exception.
 */
class RemoteDriverTest {
  private static MnesticServer server;
  /** The server's URL, {@code jdbc:mnestic:remote:url=http://127.0.0.1:PORT}. */
  private static String url;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).credentials("ana", "s3;cret").build();
    server.start();
    url = RemoteDriver.PREFIX + "url=http://127.0.0.1:" + server.port();
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  private static Properties login(String user, String password) {
    final Properties p = new Properties();
    p.setProperty("user", user);
    p.setProperty("password", password);
    return p;
  }

  private static int answer(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      assertTrue(rs.next());
      // as text: a Datalog column's type is ANY, which Avatica's client reads as no number
      return Integer.parseInt(rs.getString(1));
    }
  }

  @Test void userAndPasswordAuthenticate() throws SQLException {
    try (Connection c = DriverManager.getConnection(url, "ana", "s3;cret")) {
      assertEquals(42, answer(c, "SELECT 42"));
    }
    try (Connection c = DriverManager.getConnection(url, login("ana", "s3;cret"))) {
      assertEquals(7, answer(c, "SELECT 7"));
    }
    // The URL mnestic serve prints, after jdbc:mnestic:remote: instead of jdbc:avatica:remote:.
    final String printed = server.jdbcUrl().replace("jdbc:avatica:remote:", RemoteDriver.PREFIX);
    try (Connection c = DriverManager.getConnection(printed, login("ana", "s3;cret"))) {
      assertEquals(1, answer(c, "SELECT 1"));
    }
    // Through the embedded driver's class too (a tool configured with dev.mnestic.jdbc.Driver).
    try (Connection c = new dev.mnestic.jdbc.Driver().connect(url, login("ana", "s3;cret"))) {
      assertEquals(2, answer(c, "SELECT 2"));
    }
  }

  @Test void serverPropertiesReachTheServer() throws SQLException {
    final Properties p = login("ana", "s3;cret");
    p.setProperty("lang", "datalog");
    try (Connection c = DriverManager.getConnection(url, p)) {
      assertEquals(3, answer(c, "?[x] := x = 1 + 2"));
    }
    // in the URL too (Avatica's own client would not send it)
    try (Connection c = DriverManager.getConnection(url + ";lang=datalog", login("ana", "s3;cret"))) {
      assertEquals(5, answer(c, "?[x] := x = 2 + 3"));
    }
    final SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection(url + ";lang=cobol", login("ana", "s3;cret")));
    assertEquals("08001", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains("lang must be sql or datalog"), e.getMessage());
  }

  @Test void badCredentialsAre28000() {
    SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection(url, login("ana", "wrong")));
    assertEquals("28000", e.getSQLState());
    assertTrue(e.getMessage().contains("refused the credentials of user ana"), e.getMessage());
    e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url));
    assertEquals("28000", e.getSQLState());
    assertTrue(e.getMessage().contains("none were given: set user and password"), e.getMessage());
  }

  @Test void badUrlsAndKeysAreSqlExceptions() {
    assertRefused(RemoteDriver.PREFIX, "missing url: expected jdbc:mnestic:remote:url=");
    assertRefused(RemoteDriver.PREFIX + "url=ftp://127.0.0.1:1",
        "bad url 'ftp://127.0.0.1:1': expected http://HOST:PORT or https://HOST:PORT");
    assertRefused(RemoteDriver.PREFIX + "url=http//127.0.0.1", "bad url 'http//127.0.0.1'");
    assertRefused(url + ";serialization=json",
        "serialization must be protobuf, the only one mnestic serve speaks; was 'json'");
    assertRefused(url + ";colour=blue", "connection property 'colour' is not accepted;"
        + " jdbc:mnestic:remote: accepts authentication, avatica_password, avatica_user,"
        + " password, serialization, truststore, truststore_password, url, user, followLateness,"
        + " lang, statementTimeout");
    assertRefused(url + ";url='http://a", "cannot parse ");
    // Nothing listens there: a clear failure to connect, not a transport exception.
    assertRefused(RemoteDriver.PREFIX + "url=http://127.0.0.1:1", "cannot connect to");
  }

  private static void assertRefused(String badUrl, String message) {
    final SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection(badUrl, login("ana", "s3;cret")));
    assertEquals("08001", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains(message), e.getMessage());
  }
}
