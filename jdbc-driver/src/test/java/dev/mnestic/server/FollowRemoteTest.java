package dev.mnestic.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16, point 4, over a real MnesticServer: a followed standing query
 * ({@code SELECT STREAM * FROM p}) read by Avatica's thin client and by mnestic's gets each
 * 1-second window's row as the window closes (the server sends the rows ready, not a full
 * frame), equal to the pull read; mnestic's client's cancel, the statement timeout and closing
 * the connection stop it.
 */
class FollowRemoteTest {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
  private static MnesticServer server;
  private static final AtomicBoolean WRITING = new AtomicBoolean(true);
  private static Thread writer;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).statementTimeout(600).build();
    server.start();
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE)");
      s.execute("CREATE STANDING QUERY p AS SELECT TUMBLE_START(ts, INTERVAL '1' SECOND) AS w,"
          + " APPROX_QUANTILE(latency, 0.9) AS p90 FROM requests"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' SECOND) WITHIN RANK ERROR 0.01");
    }
    // rows stamped now, every 20 ms, through the server
    writer = new Thread(() -> {
      try (Connection w = DriverManager.getConnection(server.jdbcUrl());
           Statement s = w.createStatement()) {
        for (int i = 0; WRITING.get(); i++) {
          final long now = now();
          s.execute("INSERT INTO requests VALUES (TIMESTAMP '" + STAMP.format(
              LocalDateTime.ofEpochSecond(Math.floorDiv(now, 1000),
                  Math.floorMod(now, 1000) * 1_000_000, ZoneOffset.UTC)) + "', " + i % 89 + ")");
          Thread.sleep(20);
        }
      } catch (SQLException | InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    writer.start();
  }

  @AfterAll static void stop() throws Exception {
    WRITING.set(false);
    writer.join();
    server.close();
  }

  /** The wall clock of the lateness rule: a TIMESTAMP of the JVM's zone, in ms. */
  private static long now() {
    final long now = System.currentTimeMillis();
    return now + TimeZone.getDefault().getOffset(now);
  }

  private static Properties lateness(String millis) {
    final Properties info = new Properties();
    info.setProperty("followLateness", millis);
    return info;
  }

  /** A row of {@code p}: its window start in ms and its p90. */
  private static Object[] row(ResultSet rs) throws SQLException {
    return new Object[] {
        rs.getTimestamp(1).toLocalDateTime().toInstant(ZoneOffset.UTC).toEpochMilli(),
        rs.getObject(2)};
  }

  /**
   * Reads 2 rows of {@code rs}, checking each came once its window closed (1 s after its end:
   * slack for a busy machine's slow inserts), then that they are windows in order, each once,
   * equal to the pull read's.
   */
  private static void followed(Connection c, ResultSet rs) throws Exception {
    final List<Object[]> rows = new ArrayList<>();
    final List<Long> arrived = new ArrayList<>();
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      while (rows.size() < 2 && rs.next()) {
        arrived.add(now());
        rows.add(row(rs));
      }
    });
    rs.close();
    final Map<Long, Object[]> pulled = new HashMap<>();
    try (Statement s = c.createStatement(); ResultSet pull = s.executeQuery("SELECT * FROM p")) {
      while (pull.next()) {
        final Object[] row = row(pull);
        pulled.put((Long) row[0], row);
      }
    }
    for (int i = 0; i < rows.size(); i++) {
      final long start = (Long) rows.get(i)[0];
      if (i > 0) {
        final long previous = (Long) rows.get(i - 1)[0];
        assertTrue(start > previous && (start - previous) % 1000 == 0,
            "windows in order, once each: " + previous + ", " + start);
      }
      assertTrue(arrived.get(i) >= start + 1000 + 1000, "given only once closed");
      // a safety bound: the first read plans the query; Avatica's client reads a row ahead
      assertTrue(arrived.get(i) < start + 1000 + 1000 + 10_000, "given soon after it closed");
      assertArrayEquals(pulled.get(start), rows.get(i), "the pull read's row");
    }
  }

  @Test void avaticaThinClient() throws Exception {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), lateness("1000"));
         Statement s = c.createStatement()) {
      followed(c, assertTimeoutPreemptively(Duration.ofSeconds(5),
          () -> s.executeQuery("SELECT STREAM * FROM p")));
    }
  }

  @Test void mnesticThinClientPrepared() throws Exception {
    try (Connection c = ThinClient.connect(server, lateness("1000"));
         PreparedStatement p = c.prepareStatement("SELECT STREAM * FROM p")) {
      followed(c, assertTimeoutPreemptively(Duration.ofSeconds(5), () -> p.executeQuery()));
    }
  }

  /**
   * Executing {@code SELECT STREAM * FROM p} on {@code s} and reading its rows fails soon after
   * {@code stop} (Avatica's thin client fails a later frame's request unchecked).
   */
  private static Exception stopped(Statement s, Runnable stop) throws Exception {
    final Thread stopper = new Thread(() -> {
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      stop.run();
    });
    stopper.start();
    final Exception e = assertTimeoutPreemptively(Duration.ofSeconds(15),
        () -> assertThrows(Exception.class, () -> {
          try (ResultSet rs = s.executeQuery("SELECT STREAM * FROM p")) {
            while (rs.next()) {
              // rows until the stop
            }
          }
        }));
    stopper.join();
    return e;
  }

  @Test void cancelStopsIt() throws Exception {
    try (Connection c = ThinClient.connect(server); Statement s = c.createStatement()) {
      final SQLException e = assertInstanceOf(SQLException.class, stopped(s, () -> {
        try {
          s.cancel();
        } catch (SQLException x) {
          throw new IllegalStateException(x);
        }
      }));
      assertEquals("57014", e.getSQLState(), e.getMessage());
    }
  }

  @Test void statementTimeoutStopsIt() throws Exception {
    final Properties info = new Properties();
    info.setProperty("statementTimeout", "2");
    try (Connection c = ThinClient.connect(server, info); Statement s = c.createStatement()) {
      final SQLException e = assertInstanceOf(SQLException.class, stopped(s, () -> { }));
      assertEquals("HYT00", e.getSQLState(), e.getMessage());
    }
  }

  @Test void closingTheConnectionStopsIt() throws Exception {
    for (Connection c : List.of(ThinClient.connect(server),
        DriverManager.getConnection(server.jdbcUrl()))) {
      final Statement s = c.createStatement();
      stopped(s, () -> {
        try {
          c.close();
        } catch (SQLException x) {
          throw new IllegalStateException(x);
        }
      });
    }
  }

  @Test void closingTheStatementStopsIt() throws Exception {
    for (Connection c : List.of(ThinClient.connect(server),
        DriverManager.getConnection(server.jdbcUrl()))) {
      try (c) {
        final Statement s = c.createStatement();
        stopped(s, () -> {
          try {
            s.close();
          } catch (SQLException x) {
            throw new IllegalStateException(x);
          }
        });
      }
    }
  }
}
