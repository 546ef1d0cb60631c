package dev.mnestic.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Avatica server as DBeaver uses it: a real server on a free loopback
 * port, reached with the real Avatica thin client over protobuf.
 */
class RemoteServerTest {
  private static MnesticServer server;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).build();
    server.start();
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  private static Connection connect(MnesticServer s, Properties info) throws SQLException {
    return DriverManager.getConnection(s.jdbcUrl(), info);
  }

  private static Connection connect() throws SQLException {
    return connect(server, new Properties());
  }

  @Test void urlIsLoopbackProtobuf() {
    assertEquals("jdbc:avatica:remote:url=http://127.0.0.1:" + server.port()
        + ";serialization=protobuf", server.jdbcUrl());
  }

  /** Bound to loopback: this machine's other addresses refuse the port. */
  @Test void listensOnLoopbackOnly() throws Exception {
    final List<InetAddress> others = new ArrayList<>();
    for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      for (InetAddress address : Collections.list(nic.getInetAddresses())) {
        if (!address.isLoopbackAddress() && address instanceof Inet4Address) {
          others.add(address);
        }
      }
    }
    Assumptions.assumeFalse(others.isEmpty(), "no non-loopback address on this machine");
    for (InetAddress address : others) {
      assertThrows(ConnectException.class,
          () -> new Socket(address, server.port()).close(), address.toString());
    }
    new Socket(InetAddress.getLoopbackAddress(), server.port()).close();
  }

  @Test void walksMetadataAndRunsQueries() throws SQLException {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE hotel (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL,"
          + " price DOUBLE, stars INT)");
      s.execute("INSERT INTO hotel VALUES (1, 'Ritz', 900.0, 5), (2, 'Inn', 80.5, 2),"
          + " (3, 'Lodge', 120.0, 3)");
      final DatabaseMetaData md = c.getMetaData();
      assertEquals(1, count(md.getCatalogs()));
      assertTrue(strings(md.getSchemas(), "TABLE_SCHEM").contains("PUBLIC"));
      assertTrue(strings(md.getTables(null, "PUBLIC", "%", new String[] {"TABLE"}), "TABLE_NAME")
          .contains("hotel"));
      assertEquals(List.of("id", "name", "price", "stars"),
          strings(md.getColumns(null, "PUBLIC", "hotel", "%"), "COLUMN_NAME"));
      // Avatica's wire protocol has no primary-key request: the thin client
      // answers getPrimaryKeys itself, with the JDBC columns and no rows.
      try (ResultSet keys = md.getPrimaryKeys(null, "PUBLIC", "hotel")) {
        assertEquals("COLUMN_NAME", keys.getMetaData().getColumnName(4));
      }
      assertTrue(strings(md.getTypeInfo(), "TYPE_NAME").contains("VARCHAR"));

      try (ResultSet rs = s.executeQuery(
          "SELECT name, price FROM hotel WHERE stars >= 3 ORDER BY price")) {
        assertTrue(rs.next());
        assertEquals("Lodge", rs.getString(1));
        assertEquals(120.0, rs.getDouble(2));
        assertTrue(rs.next());
        assertEquals("Ritz", rs.getString(1));
        assertFalse(rs.next());
      }
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT COUNT(*) FROM hotel WHERE price < ? AND name <> ?")) {
        ps.setDouble(1, 500.0);
        ps.setString(2, "Inn");
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          assertEquals(1, rs.getLong(1));
        }
      }
      s.execute("DROP TABLE hotel");
    }
  }

  @Test void transactionsCommitAndRollBackRemotely() throws SQLException {
    try (Connection c = connect(); Connection other = connect()) {
      c.createStatement().execute("CREATE TABLE acct (id INT PRIMARY KEY, balance INT)");
      c.setAutoCommit(false);
      c.createStatement().executeUpdate("INSERT INTO acct VALUES (1, 100), (2, 50)");
      c.commit();
      try (PreparedStatement ps = c.prepareStatement("UPDATE acct SET balance = balance + ? WHERE id = ?")) {
        ps.setInt(1, -30);
        ps.setInt(2, 1);
        assertEquals(1, ps.executeUpdate());
        ps.setInt(1, 30);
        ps.setInt(2, 2);
        assertEquals(1, ps.executeUpdate());
      }
      assertEquals(List.of("100", "50"), balances(other), "uncommitted is invisible to others");
      assertEquals(List.of("70", "80"), balances(c));
      c.rollback();
      assertEquals(List.of("100", "50"), balances(c));
      c.setAutoCommit(true);
      c.createStatement().execute("DROP TABLE acct");
    }
  }

  @Test void sixteenConcurrentClientsLoseNoRow() throws Exception {
    try (Connection c = connect()) {
      c.createStatement().execute("CREATE TABLE events (client INT, seq INT, PRIMARY KEY (client, seq))");
    }
    final int clients = 16;
    final int rowsEach = 40;
    final ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      final List<Future<Integer>> results = new ArrayList<>();
      for (int k = 0; k < clients; k++) {
        final int client = k;
        results.add(pool.submit(() -> {
          try (Connection c = connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO events VALUES (?, ?)")) {
              for (int i = 0; i < rowsEach; i++) {
                ps.setInt(1, client);
                ps.setInt(2, i);
                ps.executeUpdate();
                if (i % 10 == 9) {
                  c.commit();
                }
              }
            }
            c.commit();
            try (ResultSet rs = c.createStatement().executeQuery(
                "SELECT COUNT(*) FROM events WHERE client = " + client)) {
              rs.next();
              return rs.getInt(1);
            }
          }
        }));
      }
      for (Future<Integer> f : results) {
        assertEquals(rowsEach, f.get(120, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
    try (Connection c = connect(); ResultSet rs = c.createStatement().executeQuery(
        "SELECT COUNT(*), COUNT(DISTINCT client) FROM events")) {
      rs.next();
      assertEquals(clients * rowsEach, rs.getInt(1));
      assertEquals(clients, rs.getInt(2));
    }
  }

  @Test void basicAuthenticationRefusesWrongOrMissingCredentials() throws Exception {
    try (MnesticServer secured = MnesticServer.newBuilder().port(0)
        .credentials("ana", "s3cret, with: odd chars").build()) {
      secured.start();
      assertTrue(secured.jdbcUrl().endsWith(";authentication=BASIC"));
      final String plainUrl = secured.jdbcUrl().replace(";authentication=BASIC", "");
      assertThrows(Exception.class,
          () -> DriverManager.getConnection(plainUrl).createStatement().executeQuery("SELECT 1"));
      final Properties wrong = new Properties();
      wrong.setProperty("avatica_user", "ana");
      wrong.setProperty("avatica_password", "nope");
      assertThrows(Exception.class,
          () -> connect(secured, wrong).createStatement().executeQuery("SELECT 1"));
      final Properties right = new Properties();
      right.setProperty("avatica_user", "ana");
      right.setProperty("avatica_password", "s3cret, with: odd chars");
      try (Connection c = connect(secured, right);
           ResultSet rs = c.createStatement().executeQuery("SELECT 40 + 2")) {
        rs.next();
        assertEquals(42, rs.getInt(1));
      }
    }
  }

  @Test void idleConnectionsExpireAfterTheIdleTimeout() throws Exception {
    try (MnesticServer shortLived = MnesticServer.newBuilder().port(0)
        .idleTimeout(Duration.ofMillis(500)).build()) {
      shortLived.start();
      try (Connection dropped = connect(shortLived, new Properties());
           Connection kept = connect()) {
        assertEquals(1, one(dropped));
        assertEquals(1, one(kept));
        Thread.sleep(2_000);
        assertThrows(Exception.class, () -> one(dropped), "expired on the short-lived server");
        assertEquals(1, one(kept), "the default server (10 minutes) keeps one idle 2 s");
      }
    }
  }

  private static int one(Connection c) throws SQLException {
    try (ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static List<String> balances(Connection c) throws SQLException {
    return strings(c.createStatement().executeQuery("SELECT balance FROM acct ORDER BY id"),
        "balance");
  }

  private static int count(ResultSet rs) throws SQLException {
    int n = 0;
    try (rs) {
      while (rs.next()) {
        n++;
      }
    }
    return n;
  }

  private static List<String> strings(ResultSet rs, String column) throws SQLException {
    final List<String> values = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        values.add(rs.getString(column));
      }
    }
    return values;
  }
}
