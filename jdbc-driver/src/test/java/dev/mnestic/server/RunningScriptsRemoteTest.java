package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;

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
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ::running} and {@code ::kill} over the server (issue 17, point 6): a script a thin
 * client runs is listed by an embedded connection to the server's store and by another
 * client, which kills it; it fails as a cancelled statement and writes nothing.
 */
class RunningScriptsRemoteTest {
  /** A loop that never ends on its own, writing a stored relation each lap. */
  private static final String ENDLESS = "{?[a] <- [[0]] :create _n {a}}\n%loop\n"
      + "  {?[a] := *_n[b], a = b + 1 :replace _n {a}}\n  {?[a] := *_n[a] :put r {a}}\n%end";

  private static MnesticServer server;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).build();
    server.start();
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  private static Connection client() throws SQLException {
    final Properties info = new Properties();
    info.setProperty("lang", "datalog");
    return ThinClient.connect(server, info);
  }

  private static Connection embedded() throws SQLException {
    return DriverManager.getConnection(Driver.CONNECT_STRING_PREFIX + "db=" + server.db()
        + ";lang=datalog");
  }

  private static List<List<Object>> rows(Statement s, String script) throws SQLException {
    final List<List<Object>> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(script)) {
      while (rs.next()) {
        final List<Object> row = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          row.add(rs.getObject(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  @Test void aClientsScriptIsListedEverywhereAndKilledByAnotherClient() throws Exception {
    final ExecutorService runner = Executors.newSingleThreadExecutor();
    try (Connection a = client(); Statement sa = a.createStatement();
         Connection local = embedded(); Statement sl = local.createStatement();
         Connection b = client(); Statement sb = b.createStatement()) {
      sa.executeQuery("?[a] <- [[-1]] :create r {a: Int}").close();
      assertEquals(List.of(), rows(sb, "::running"));

      final Future<?> endless = runner.submit(() -> {
        sa.executeQuery(ENDLESS).close();
        return null;
      });
      List<List<Object>> running = List.of();
      final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (running.isEmpty() && System.nanoTime() < giveUp) {
        Thread.sleep(20);
        running = rows(sl, "::running");
      }
      assertEquals(1, running.size(), "the client's script, listed on the embedded connection");
      assertEquals(running, rows(sb, "::running"), "and to the other client");
      final Object id = running.get(0).get(0);

      assertEquals(List.of(List.of("KILLING")), rows(sb, "::kill " + id));
      final ExecutionException e = assertThrows(ExecutionException.class,
          () -> endless.get(60, TimeUnit.SECONDS));
      final SQLException killed = assertInstanceOf(SQLException.class, e.getCause());
      assertEquals("57014", killed.getSQLState(), killed.getMessage());
      assertTrue(killed.getMessage().contains("eval::killed"), killed.getMessage());

      assertEquals(List.of(List.of(-1L)), rows(sl, "?[a] := *r[a]"));
      assertEquals(List.of(), rows(sb, "::running"));
      assertEquals(List.of(List.of("NOT_FOUND")), rows(sb, "::kill " + id));
    } finally {
      runner.shutdownNow();
    }
  }
}
