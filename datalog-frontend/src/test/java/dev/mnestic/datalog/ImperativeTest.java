package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What of imperative scripts and {@code :sleep} CozoDB's WASM build cannot record
 * ({@code conformance/queries/imperative.json} has the rest): {@code :sleep}, which it
 * refuses; a script stopped by its cancel flag or deadline, which leaves the store as it
 * was; {@code %debug}'s output.
 */
class ImperativeTest {
  /** A loop that never ends on its own, writing a stored relation each lap. */
  private static final String ENDLESS = "{?[a] <- [[0]] :create _n {a}}\n%loop\n"
      + "  {?[a] := *_n[b], a = b + 1 :replace _n {a}}\n  {?[a] := *_n[a] :put r {a}}\n%end";

  private QueryConformanceTest.Store store;

  @BeforeEach void open() throws SQLException {
    store = new QueryConformanceTest.Store();
    store.engine().run("?[a] <- [[-1]] :create r {a: Int}", Map.of());
  }

  @AfterEach void close() throws SQLException {
    store.close();
  }

  @Test void sleepSleepsAfterTheBlock() throws SQLException {
    final long start = System.nanoTime();
    final Engine.Result result = store.engine()
        .run("{?[a] <- [[1]] :put r {a} :sleep 0.2} {?[a] := *r[a]}", Map.of());
    assertTrue(System.nanoTime() - start >= 200_000_000L, "slept at least 0.2 s");
    assertEquals("[[-1], [1]]", result.rows().toString());
  }

  @Test void timeoutStopsASleepAndNothingIsWritten() throws SQLException {
    final DatalogException e = assertThrows(DatalogException.class, () -> store.engine()
        .run("{?[a] <- [[1]] :put r {a}} {?[a] <- [[2]] :put r {a} :timeout 1 :sleep 100}",
            Map.of()));
    assertEquals("eval::killed", e.code());
    assertEquals("[[-1]]", rows());
  }

  @Test void sleepTakesAPositiveNumber() {
    assertEquals("parser::option_not_pos", assertThrows(DatalogException.class,
        () -> store.engine().run("?[a] <- [[1]] :sleep 0", Map.of())).code());
    assertEquals("parser::option_not_non_neg", assertThrows(DatalogException.class,
        () -> store.engine().run("?[a] <- [[1]] :sleep 'long'", Map.of())).code());
  }

  @Test void aCancelStopsAnEndlessLoopAndNothingIsWritten() throws Exception {
    final AtomicBoolean cancel = new AtomicBoolean();
    final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    try {
      timer.schedule(() -> cancel.set(true), 300, TimeUnit.MILLISECONDS);
      final DatalogException e = assertThrows(DatalogException.class,
          () -> store.engine().stoppedBy(0, cancel).run(ENDLESS, Map.of()));
      assertEquals("eval::killed", e.code());
    } finally {
      timer.shutdownNow();
    }
    assertEquals("[[-1]]", rows());
  }

  @Test void aDeadlineStopsAnEndlessLoop() {
    final DatalogException e = assertThrows(DatalogException.class, () -> store.engine()
        .stoppedBy(System.nanoTime() + 300_000_000L, new AtomicBoolean()).run(ENDLESS, Map.of()));
    assertEquals("eval::killed", e.code());
  }

  @Test void debugPrintsTheRelationOnTheTerminal() throws SQLException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final Engine.Result result = store.engine()
        .showingProgressOn(new PrintStream(out, true, StandardCharsets.UTF_8))
        .run("{?[a, b] <- [[2, 'y'], [1, 'x']] :create _t {a => b}} %debug _t", Map.of());
    assertEquals("_t: {\"headers\":[\"a\",\"b\"],\"rows\":[[1,\"x\"],[2,\"y\"]]}",
        out.toString(StandardCharsets.UTF_8).strip());
    assertEquals("{\"headers\":[],\"rows\":[]}", result.toJson());
  }

  private String rows() throws SQLException {
    return store.engine().run("?[a] := *r[a]", Map.of()).rows().toString();
  }
}
