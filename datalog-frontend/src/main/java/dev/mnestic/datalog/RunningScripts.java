package dev.mnestic.datalog;

import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.store.StoreLocation;
import dev.mnestic.value.Values;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The scripts running on each store in this process, for {@code ::running} and
 * {@code ::kill}: every script but a system op, on every connection (embedded, and the
 * server's, which run here), from when it starts to when it ends.
 *
 * <p>Who sees and stops what: {@code ::running} lists every running script of the store
 * with CozoDB's columns only (its id and when it started, never its text, so no client reads
 * another's script), and {@code ::kill id} stops any of them, as PostgreSQL's
 * {@code pg_cancel_backend} lets a role cancel the backends of the same role: the store has
 * one user (the server's one credential, or the process that opened it), and whoever may run
 * scripts on it may already change or remove every relation. A killed script stops as a
 * cancelled one does (SQLSTATE 57014 through JDBC), failing with {@code eval::killed}, and
 * leaves the store as it was.
 */
final class RunningScripts {
  /** The columns of {@code ::running}, CozoDB's. */
  static final List<String> HEADERS = List.of("id", "started_at");

  /** The next script's id: one sequence for the process, as CozoDB has one per database. */
  private static final AtomicLong IDS = new AtomicLong();
  /** The running scripts of each store, by id. */
  private static final Map<StoreLocation, Map<Long, Running>> RUNNING = new ConcurrentHashMap<>();

  private RunningScripts() {
  }

  /** A running script: its id, when it started (seconds since the epoch), its cancel flag. */
  record Running(StoreLocation store, long id, double startedAt, AtomicBoolean flag)
      implements AutoCloseable {
    /** The script ended: it is no longer listed. */
    @Override public void close() {
      RUNNING.computeIfPresent(store, (s, scripts) -> {
        scripts.remove(id);
        return scripts.isEmpty() ? null : scripts;
      });
    }
  }

  /** Lists a script starting on {@code store}, stopped by {@code flag}, until it is closed. */
  static Running start(StoreLocation store, AtomicBoolean flag) {
    final Running running = new Running(store, IDS.incrementAndGet(),
        System.currentTimeMillis() / 1000.0, flag);
    RUNNING.compute(store, (s, scripts) -> {
      final Map<Long, Running> all = scripts != null ? scripts : new ConcurrentSkipListMap<>();
      all.put(running.id(), running);
      return all;
    });
    return running;
  }

  /**
   * {@code ::running}: the scripts running on {@code store} in id order, each its id and
   * when it started, seconds since the epoch written as CozoDB writes a float.
   */
  static Engine.Result list(StoreLocation store) {
    final List<List<Object>> rows = new ArrayList<>();
    for (Running r : RUNNING.getOrDefault(store, Map.of()).values()) {
      String started = BigDecimal.valueOf(r.startedAt()).toPlainString();
      if (!started.contains(".")) {
        started += ".0";
      }
      rows.add(Values.list(r.id(), started));
    }
    return new Engine.Result(HEADERS, rows);
  }

  /** {@code ::kill id}: stops the script {@code id} of {@code store}; KILLING, or NOT_FOUND. */
  static Engine.Result kill(StoreLocation store, long id) {
    final Running r = RUNNING.getOrDefault(store, Map.of()).get(id);
    if (r != null) {
      RunningStatement.stop(r.flag(), RunningStatement.Cause.CANCEL, "killed by ::kill " + id);
    }
    return new Engine.Result(List.of("status"), List.of(Values.list(r != null ? "KILLING"
        : "NOT_FOUND")));
  }
}
