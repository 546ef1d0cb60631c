package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.remote.ProtobufTranslation;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;

import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13, point 4, the server's side: statement timeouts, the
 * limit on statements executing at once, work stopped when its statement
 * is closed or its client vanishes (its socket closed, its process killed), and a stop within 5 s while statements
 * run. The statements are Datalog recursions that never settle and stop at
 * their statement's cancel flag; the limit of statements at once shows
 * whether one still runs on the server.
 */
class StatementLimitsTest {
  /** A recursion that never settles (see DatalogJdbcTest): it runs until cancelled. */
  private static final String NEVER_SETTLES =
      "p[n] := n = 0\np[m] := p[n], k in int_range(1000), m = n + 1\n?[n] := p[n]";
  /** A safety bound: far above what each stop should take. */
  private static final long BOUND_SECONDS = 30;
  /**
   * A safety bound on stopping the work of a client that vanished: the server notices within
   * a second or so (ClientWatch); without noticing, it would run to its 600 s timeout.
   */
  private static final long VANISHED_BOUND_SECONDS = 10;

  private static Connection datalog(MnesticServer server, String timeout) throws SQLException {
    final Properties info = new Properties();
    info.setProperty(Driver.LANG, Driver.DATALOG);
    if (timeout != null) {
      info.setProperty(Driver.STATEMENT_TIMEOUT, timeout);
    }
    return DriverManager.getConnection(server.jdbcUrl(), info);
  }

  /** Seconds a never-settling script runs before it fails. */
  private static double secondsUntilStopped(Connection c) {
    final long start = System.nanoTime();
    assertThrows(SQLException.class, () -> {
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(NEVER_SETTLES)) {
        while (rs.next()) {
          rs.getObject(1);
        }
      }
    });
    return (System.nanoTime() - start) / 1e9;
  }

  @Test void theServersTimeoutStopsAStatement() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).statementTimeout(1).build()) {
      server.start();
      try (Connection c = datalog(server, null)) {
        final double seconds = secondsUntilStopped(c);
        assertTrue(seconds < BOUND_SECONDS, "stopped after " + seconds + " s");
      }
    }
  }

  @Test void aClientMayOnlyLowerTheTimeout() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).statementTimeout(120)
        .build()) {
      server.start();
      try (Connection c = datalog(server, "1")) {
        final double seconds = secondsUntilStopped(c);
        assertTrue(seconds < BOUND_SECONDS, "stopped after " + seconds + " s");
      }
      final AvaticaClientRuntimeException e = assertThrows(AvaticaClientRuntimeException.class,
          () -> datalog(server, "121").close());
      assertEquals("08001", e.getSqlState());
      assertTrue(e.getMessage().contains("at most") || e.getMessage().contains("1 to 120"),
          e.getMessage());
    }
  }

  /** Runs {@code SELECT 1}; false when the server refused it for its limit of statements. */
  private static boolean admitted(MnesticServer server) throws SQLException {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl());
         ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
      rs.next();
      return true;
    } catch (SQLException e) {
      if ("53000".equals(e.getSQLState())) {
        assertTrue(e.getMessage().contains("--max-statements"), e.getMessage());
        return false;
      }
      throw e;
    }
  }

  /** Waits until the server is full (its running statements take every slot) or not. */
  private static void awaitFull(MnesticServer server, boolean full) throws Exception {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
    while (admitted(server) == full) {
      assertTrue(System.nanoTime() < deadline, "server " + (full ? "never" : "still") + " full");
      Thread.sleep(100);
    }
  }

  /**
   * Runs a never-settling script; how it failed. While {@link #admitted}'s probe holds a
   * slot, the server may refuse it for its limit: then it runs again.
   */
  private static CompletableFuture<Throwable> runInBackground(Connection c) {
    return CompletableFuture.supplyAsync(() -> {
      while (true) {
        try (Statement s = c.createStatement()) {
          s.executeQuery(NEVER_SETTLES).close();
          return null;
        } catch (SQLException e) {
          if (!"53000".equals(e.getSQLState())) {
            return e;
          }
        } catch (RuntimeException e) {
          return e;
        }
      }
    });
  }

  /**
   * Closing the connection stops its statement's work. (Avatica's thin client
   * cannot close or cancel a statement while it executes: Avatica 1.28 holds
   * the statement's lock for the whole request. Its connection it can close.)
   */
  @Test void closingTheConnectionStopsItsWork() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).maxStatements(1)
        .statementTimeout(600).build()) {
      server.start();
      assertTrue(admitted(server));
      final Connection c = datalog(server, null);
      final CompletableFuture<Throwable> run = runInBackground(c);
      awaitFull(server, true);
      c.close();
      awaitFull(server, false);
      assertTrue(run.get(BOUND_SECONDS, TimeUnit.SECONDS) != null, "the statement failed");
    }
  }

  /** A Datalog connection of mnestic's thin client ({@code jdbc:mnestic:remote:}). */
  private static Connection mnesticClient(MnesticServer server) throws SQLException {
    final Properties info = new Properties();
    info.setProperty(Driver.LANG, Driver.DATALOG);
    return ThinClient.connect(server, info);
  }

  /**
   * #14, point 4: the thin client's {@code cancel()} returns at once (Avatica's waited for
   * the execution's request to end: here, the server's 600 s timeout) and stops the work on
   * the server: its statement fails with 57014 and its slot is free.
   */
  @Test void aThinClientsCancelStopsTheWork() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).maxStatements(1)
        .statementTimeout(600).build()) {
      server.start();
      try (Connection c = mnesticClient(server); Statement s = c.createStatement();
           PreparedStatement p = c.prepareStatement(NEVER_SETTLES)) {
        for (Statement statement : List.of(s, p)) {
          final FutureTask<Throwable> run = new FutureTask<>(() -> {
            while (true) {
              try {
                if (statement instanceof PreparedStatement prepared) {
                  prepared.executeQuery().close();
                } else {
                  statement.executeQuery(NEVER_SETTLES).close();
                }
                return null;
              } catch (SQLException e) {
                // Refused while awaitFull's probe held the one slot: run again.
                if (!"53000".equals(e.getSQLState())) {
                  return e;
                }
              }
            }
          });
          new Thread(run, "run").start();
          awaitFull(server, true);
          // On a thread of its own: the common pool may have one, running the statement.
          final FutureTask<Void> cancel = new FutureTask<>(() -> {
            statement.cancel();
            return null;
          });
          new Thread(cancel, "cancel").start();
          cancel.get(BOUND_SECONDS, TimeUnit.SECONDS);
          final Throwable e = run.get(BOUND_SECONDS, TimeUnit.SECONDS);
          assertTrue(e instanceof SQLException, "the statement failed: " + e);
          assertEquals("57014", ((SQLException) e).getSQLState(), e.getMessage());
          awaitFull(server, false);
        }
      }
    }
  }

  /**
   * #14, point 4: the thin client's {@code setQueryTimeout} is enforced on the server: the
   * statement fails with HYT00, its work stopped, though the server's timeout is 600 s.
   */
  @Test void aThinClientsQueryTimeoutStopsTheWork() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).maxStatements(1)
        .statementTimeout(600).build()) {
      server.start();
      try (Connection c = mnesticClient(server); Statement s = c.createStatement();
           PreparedStatement p = c.prepareStatement(NEVER_SETTLES)) {
        s.setQueryTimeout(1);
        p.setQueryTimeout(1);
        final long start = System.nanoTime();
        final SQLException e = assertThrows(SQLException.class,
            () -> s.executeQuery(NEVER_SETTLES).close());
        assertEquals("HYT00", e.getSQLState(), e.getMessage());
        final SQLException prepared = assertThrows(SQLException.class,
            () -> p.executeQuery().close());
        assertEquals("HYT00", prepared.getSQLState(), prepared.getMessage());
        final double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(seconds < 2 * BOUND_SECONDS, "stopped after " + seconds + " s");
        awaitFull(server, false);
      }
    }
  }

  /** A client of Avatica's protocol speaking it request by request. */
  private static final class RawClient {
    private final ProtobufTranslation protobuf = new ProtobufTranslationImpl();
    private final HttpClient http = HttpClient.newHttpClient();
    private final MnesticServer server;
    final String connection = UUID.randomUUID().toString();

    RawClient(MnesticServer server) {
      this.server = server;
    }

    Service.Response send(Service.Request request) throws Exception {
      return protobuf.parseResponse(http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
              .POST(HttpRequest.BodyPublishers.ofByteArray(protobuf.serializeRequest(request)))
              .build(), HttpResponse.BodyHandlers.ofByteArray()).body());
    }

    /** Opens a Datalog connection and a statement on it; the statement's id. */
    int openStatement() throws Exception {
      send(new Service.OpenConnectionRequest(connection, Map.of(Driver.LANG, Driver.DATALOG)));
      return ((Service.CreateStatementResponse) send(
          new Service.CreateStatementRequest(connection))).statementId;
    }

    /**
     * Sends a never-settling script on its own socket and waits until it runs: the server is
     * full ({@link #admitted}'s probe refused). The probe may take the one slot first: then
     * the server refuses the script (53000, answered at once) and it is sent again.
     */
    Socket startNeverSettling(int statement) throws Exception {
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
      while (true) {
        final Socket socket = send(statement);
        while (socket.getInputStream().available() == 0) {
          if (!admitted(server)) {
            return socket; // the slot the probe was refused is the script's
          }
          assertTrue(System.nanoTime() < deadline, "the script never ran");
          Thread.sleep(100);
        }
        // answered before it ran: it can only have been refused
        try (socket) {
          final Service.Response answer = answer(socket);
          assertTrue(answer instanceof Service.ErrorResponse error
              && "53000".equals(error.sqlState), "refused for the limit: " + answer);
        }
      }
    }

    /** Sends a never-settling script on its own socket, without waiting for the answer. */
    private Socket send(int statement) throws Exception {
      final byte[] execute = protobuf.serializeRequest(
          new Service.PrepareAndExecuteRequest(connection, statement, NEVER_SETTLES, -1));
      final Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
      final OutputStream out = socket.getOutputStream();
      // closed after the answer: an answer is read to the end of the stream
      out.write(("POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
          + "Content-Length: " + execute.length + "\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      out.write(execute);
      out.flush();
      return socket;
    }

    /** The answer on {@code socket}, sent with {@code Connection: close}: its body parsed. */
    Service.Response answer(Socket socket) throws Exception {
      socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
      final byte[] http = socket.getInputStream().readAllBytes();
      final String head = new String(http, StandardCharsets.ISO_8859_1);
      final int body = head.indexOf("\r\n\r\n") + 4;
      assertTrue(body >= 4 && !head.substring(0, body).toLowerCase(Locale.ROOT)
          .contains("transfer-encoding"), "a whole answer: " + head);
      return protobuf.parseResponse(Arrays.copyOfRange(http, body, http.length));
    }
  }

  /**
   * Closing a statement while it executes stops its work, and its request fails as cancelled.
   * Issue 16: the script is sent again when the server refused it for the slot the probe held.
   */
  @Test void closingTheStatementStopsItsWork() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).maxStatements(1)
        .statementTimeout(600).build()) {
      server.start();
      final RawClient client = new RawClient(server);
      final int statement = client.openStatement();
      try (Socket socket = client.startNeverSettling(statement)) {
        client.send(new Service.CloseStatementRequest(client.connection, statement));
        awaitFull(server, false);
        final Service.Response answer = client.answer(socket);
        assertTrue(answer instanceof Service.ErrorResponse error
            && "57014".equals(error.sqlState), "its request failed, cancelled: " + answer);
      }
    }
  }

  /**
   * A client that sends a statement and vanishes (its socket closed mid-request): its work
   * stops within seconds, long before the server's statement timeout.
   */
  @Test void aVanishedClientsWorkStops() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).maxStatements(1)
        .statementTimeout(600).build()) {
      server.start();
      final RawClient client = new RawClient(server);
      final int statement = client.openStatement();
      client.startNeverSettling(statement).close();
      final long vanished = System.nanoTime();
      awaitFull(server, false);
      final double seconds = (System.nanoTime() - vanished) / 1e9;
      assertTrue(seconds < VANISHED_BOUND_SECONDS,
          "stopped " + seconds + " s after the client vanished");
    }
  }

  /**
   * A thin client in its own process, SIGKILLed while the server runs its cross join: the
   * join stops within seconds.
   */
  @Test void aKilledClientsWorkStops() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).maxStatements(1)
        .statementTimeout(600).build()) {
      server.start();
      try (Connection c = DriverManager.getConnection(server.jdbcUrl());
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (x INT PRIMARY KEY)");
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?)")) {
          for (int i = 0; i < 1000; i++) {
            insert.setInt(1, i);
            insert.addBatch();
          }
          insert.executeBatch();
        }
      }
      final Process child = new ProcessBuilder(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"),
          CrossJoinClient.class.getName(), server.jdbcUrl())
          .redirectErrorStream(true)
          .start();
      try {
        awaitFull(server, true);
        child.destroyForcibly(); // SIGKILL on Linux
        assertTrue(child.waitFor(BOUND_SECONDS, TimeUnit.SECONDS));
        final long killed = System.nanoTime();
        awaitFull(server, false);
        final double seconds = (System.nanoTime() - killed) / 1e9;
        assertTrue(seconds < VANISHED_BOUND_SECONDS,
            "stopped " + seconds + " s after the client was killed");
      } finally {
        child.destroyForcibly();
      }
    }
  }

  /** A thin client running a 3-way cross join of 1,000 rows (hours of work) until killed. */
  public static final class CrossJoinClient {
    public static void main(String[] args) throws SQLException {
      try (Connection c = DriverManager.getConnection(args[0]);
           Statement s = c.createStatement()) {
        while (true) {
          try {
            s.executeQuery("SELECT COUNT(*) FROM t a, t b, t c").close();
            return;
          } catch (SQLException e) {
            if (!"53000".equals(e.getSQLState())) {
              throw e;
            }
          }
        }
      }
    }
  }

  /**
   * A connection idle past the idle timeout is closed, without waiting for another request,
   * and what it had not committed is rolled back; one whose statement runs longer is not idle.
   */
  @Test void anIdleConnectionIsClosedAndRolledBack() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0)
        .idleTimeout(java.time.Duration.ofSeconds(1)).build()) {
      server.start();
      try (Connection c = DriverManager.getConnection(server.jdbcUrl());
           Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (x INT PRIMARY KEY)");
      }
      final Connection idle = DriverManager.getConnection(server.jdbcUrl());
      idle.setAutoCommit(false);
      idle.createStatement().executeUpdate("INSERT INTO t VALUES (1)");
      // The uncommitted row holds its lock until the idle connection is rolled back: a
      // writer of the same row waits for that, then succeeds.
      try (Connection other = DriverManager.getConnection(server.jdbcUrl())) {
        assertEquals(1, other.createStatement().executeUpdate("INSERT INTO t VALUES (1)"));
      }
      // Avatica's thin client raises it unchecked.
      final AvaticaClientRuntimeException e = assertThrows(AvaticaClientRuntimeException.class,
          () -> idle.createStatement().executeQuery("SELECT 1").close());
      assertEquals("08003", e.getSqlState());
      assertTrue(e.getMessage().contains("idle timeout"), e.getMessage());
      try (Connection c = datalog(server, "3")) {
        final SQLException stopped = assertThrows(SQLException.class,
            () -> c.createStatement().executeQuery(NEVER_SETTLES).close());
        assertTrue(String.valueOf(stopped.getMessage()).contains("timed out"),
            "stopped by its timeout, not closed as idle: " + stopped.getMessage());
      }
    }
  }

  @Test void stopsWithinFiveSecondsWhileStatementsRun() throws Exception {
    final MnesticServer server = MnesticServer.newBuilder().port(0).maxStatements(3).build();
    server.start();
    final List<Connection> clients = new ArrayList<>();
    final List<CompletableFuture<Throwable>> runs = new ArrayList<>();
    try {
      for (int i = 0; i < 3; i++) {
        clients.add(datalog(server, null));
        runs.add(runInBackground(clients.get(i)));
      }
      awaitFull(server, true);
    } finally {
      final long start = System.nanoTime();
      server.close();
      final double seconds = (System.nanoTime() - start) / 1e9;
      assertTrue(seconds < 5, "stopped after " + seconds + " s");
    }
    for (CompletableFuture<Throwable> run : runs) {
      try {
        assertTrue(run.get(BOUND_SECONDS, TimeUnit.SECONDS) != null, "each statement failed");
      } catch (ExecutionException e) {
        // Failed in the client: as good.
      }
    }
  }
}
