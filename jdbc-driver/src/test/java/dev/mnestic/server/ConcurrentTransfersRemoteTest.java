package dev.mnestic.server;

import dev.mnestic.jdbc.Contention;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Test case for #13 (lost updates): 32 clients of a started server, each through the real
 * Avatica thin client, move money between accounts at once; the total stays what it was and
 * every account holds exactly what the acknowledged transfers left it (none lost, none applied
 * twice), auto-committed and in transactions at each isolation level the store has. A
 * transfer that fails with SQLSTATE 40001 is run again by its client.
 */
class ConcurrentTransfersRemoteTest {
  private static final int CLIENTS = 32;
  private static final int TRANSFERS = 8;
  private static final int ACCOUNTS = 20;
  private static final long OPENING = 5_000;

  private static MnesticServer server;

  static {
    // 32 clients in one JVM: more requests at once than the thin client's pool lets through by
    // default (25 a server), which would keep a client holding row locks waiting for the pool
    // while the requests in flight wait for its locks (jdbc-driver's pom sets it for Maven)
    if (System.getProperty("avatica.pooled.connections.per.route") == null) {
      System.setProperty("avatica.pooled.connections.per.route", "64");
    }
  }

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).build();
    server.start();
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection(server.jdbcUrl());
  }

  /**
   * Test case for #13: through the server, 32 clients transferring between accounts moved the
   * constant total (100,000 to 101,665 and to 106,466).
   */
  @ParameterizedTest(name = "auto-commit {0}, {1}")
  @CsvSource({
      "true, READ_COMMITTED",
      "false, READ_COMMITTED",
      "false, REPEATABLE_READ",
      "false, SERIALIZABLE"})
  void transfersKeepTheTotal(boolean autoCommit, String level) throws Exception {
    final String table = "acct_" + (autoCommit ? "auto" : level.toLowerCase());
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, bal BIGINT NOT NULL)");
      for (int a = 0; a < ACCOUNTS; a++) {
        s.executeUpdate("INSERT INTO " + table + " VALUES (" + a + ", " + OPENING + ")");
      }
    }
    // what the acknowledged transfers moved, by account
    final AtomicLongArray moved = new AtomicLongArray(ACCOUNTS);
    final Contention.Outcome outcome = Contention.run(ConcurrentTransfersRemoteTest::connect,
        CLIENTS, TRANSFERS, autoCommit, Contention.isolation(level), (c, client, i) -> {
          final Random random = new Random(client * 1_000L + i);
          final int from = random.nextInt(ACCOUNTS);
          final int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
          final int amount = 1 + random.nextInt(100);
          if (autoCommit) {
            // one statement: both accounts or neither
            try (PreparedStatement p = c.prepareStatement("UPDATE " + table
                + " SET bal = bal + CASE WHEN id = ? THEN CAST(? AS BIGINT) ELSE CAST(? AS BIGINT)"
                + " END WHERE id = ? OR id = ?")) {
              p.setInt(1, from);
              p.setLong(2, -amount);
              p.setLong(3, amount);
              p.setInt(4, from);
              p.setInt(5, to);
              assertEquals(2, p.executeUpdate());
            }
          } else {
            try (PreparedStatement p = c.prepareStatement(
                "UPDATE " + table + " SET bal = bal + ? WHERE id = ?")) {
              p.setLong(1, -amount);
              p.setInt(2, from);
              assertEquals(1, p.executeUpdate());
              p.setLong(1, amount);
              p.setInt(2, to);
              assertEquals(1, p.executeUpdate());
            }
          }
          // counted once acknowledged: committed here, the count undone when the commit fails
          // (Contention then runs the unit again)
          moved.addAndGet(from, -amount);
          moved.addAndGet(to, amount);
          if (!autoCommit) {
            try {
              c.commit();
            } catch (SQLException e) {
              moved.addAndGet(from, amount);
              moved.addAndGet(to, -amount);
              throw e;
            }
          }
        });
    long total = 0;
    try (Connection c = connect(); Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT id, bal FROM " + table + " ORDER BY id")) {
      for (int a = 0; a < ACCOUNTS; a++) {
        rs.next();
        assertEquals(a, rs.getInt(1));
        assertEquals(OPENING + moved.get(a), rs.getLong(2), "account " + a);
        total += rs.getLong(2);
      }
    }
    System.out.printf("transfers over the server, %d clients, auto-commit=%s %s: %d"
        + " acknowledged, total %d, %d serialization failures retried by the clients%n",
        CLIENTS, autoCommit, level, outcome.acknowledged(), total, outcome.retries());
    assertEquals(CLIENTS * TRANSFERS, outcome.acknowledged());
    assertEquals(ACCOUNTS * OPENING, total);
  }
}
