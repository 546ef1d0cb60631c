package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreLocation;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * {@code ::running} and {@code ::kill} across two connections of one store, and
 * {@code ::compact} on a file store ({@code conformance/queries/running.json} has what an
 * idle store answers).
 */
class RunningScriptsTest {
  /** A loop that never ends on its own, writing a stored relation each lap. */
  private static final String ENDLESS = "{?[a] <- [[0]] :create _n {a}}\n%loop\n"
      + "  {?[a] := *_n[b], a = b + 1 :replace _n {a}}\n  {?[a] := *_n[a] :put r {a}}\n%end";

  private final List<AutoCloseable> open = new ArrayList<>();
  private final ExecutorService other = Executors.newSingleThreadExecutor();

  @AfterEach void close() throws Exception {
    other.shutdownNow();
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  @Test void aScriptOfOneConnectionIsListedAndKilledByAnother() throws Exception {
    final StoreLocation store = StoreLocation.sharedMemory("running-" + System.nanoTime());
    final Engine first = engine(store);
    final Engine second = engine(store);
    first.run("?[a] <- [[-1]] :create r {a: Int}", Map.of());
    assertEquals(List.of(), second.run("::running", Map.of()).rows());

    final Future<Engine.Result> endless = other.submit(() -> first.run(ENDLESS, Map.of()));
    final List<List<Object>> running = waitForOneRunning(second);
    assertEquals(List.of("id", "started_at"),
        second.run("::running", Map.of()).headers());
    final long id = (Long) running.get(0).get(0);
    final double startedAt = Double.parseDouble((String) running.get(0).get(1));
    assertTrue(Math.abs(startedAt - System.currentTimeMillis() / 1000.0) < 600, "seconds since the epoch");

    assertEquals("[[KILLING]]", second.run("::kill " + id, Map.of()).rows().toString());
    final ExecutionException e = assertThrows(ExecutionException.class,
        () -> endless.get(60, TimeUnit.SECONDS));
    assertEquals("eval::killed", assertInstanceOf(DatalogException.class, e.getCause()).code());
    assertEquals("[[-1]]", second.run("?[a] := *r[a]", Map.of()).rows().toString());
    assertEquals(List.of(), second.run("::running", Map.of()).rows());
    assertEquals("[[NOT_FOUND]]", second.run("::kill " + id, Map.of()).rows().toString());
  }

  @Test void anotherStoresScriptsAreNotListed() throws Exception {
    final Engine first = engine(StoreLocation.sharedMemory("running-a-" + System.nanoTime()));
    final Engine elsewhere = engine(StoreLocation.sharedMemory("running-b-" + System.nanoTime()));
    first.run("?[a] <- [[-1]] :create r {a: Int}", Map.of());
    final Future<Engine.Result> endless = other.submit(() -> first.run(ENDLESS, Map.of()));
    final long id = (Long) waitForOneRunning(first).get(0).get(0);
    assertEquals(List.of(), elsewhere.run("::running", Map.of()).rows());
    assertEquals("[[NOT_FOUND]]", elsewhere.run("::kill " + id, Map.of()).rows().toString());
    first.run("::kill " + id, Map.of());
    assertThrows(ExecutionException.class, () -> endless.get(60, TimeUnit.SECONDS));
  }

  @Test void compactDefragmentsAFileStore(@TempDir Path dir) throws SQLException {
    final Engine engine = engine(StoreLocation.directory(dir));
    engine.run("?[a] := a in int_range(1000) :create r {a: Int}", Map.of());
    engine.run("?[a] := a in int_range(900) :rm r {a}", Map.of());
    assertEquals("[[OK]]", engine.run("::compact", Map.of()).rows().toString());
    assertEquals("[[100]]", engine.run("?[count(a)] := *r[a]", Map.of()).rows().toString());
  }

  private static List<List<Object>> waitForOneRunning(Engine engine) throws Exception {
    final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < giveUp) {
      final List<List<Object>> rows = engine.run("::running", Map.of()).rows();
      if (!rows.isEmpty()) {
        assertEquals(1, rows.size());
        return rows;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the script was never listed as running");
  }

  /** An engine on a connection of its own to {@code store}. */
  private Engine engine(StoreLocation store) throws SQLException {
    final Properties info = new Properties();
    info.setProperty("caseSensitive", "false");
    final Connection connection = DriverManager.getConnection("jdbc:calcite:", info);
    final Session session = Session.open(store);
    open.add(session);
    open.add(connection);
    session.attachTo(connection.unwrap(CalciteConnection.class).getRootSchema());
    return new Engine(connection);
  }
}
