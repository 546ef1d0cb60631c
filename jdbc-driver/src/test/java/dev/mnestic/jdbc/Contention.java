package dev.mnestic.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Concurrent writers, for tests: each thread has its own connection and runs its units of work,
 * each a transaction (or one auto-committed statement), running a unit again from its start
 * while it fails with SQLSTATE 40001 (serialization failure), as a client of any SQL database
 * should. A unit that fails otherwise fails the run.
 */
public final class Contention {
  /** How long a run may take before it fails: a safety bound, not a speed check. */
  private static final long LIMIT_SECONDS = 120;

  private Contention() {
  }

  /** Opens a connection. */
  @FunctionalInterface
  public interface Connect {
    Connection open() throws SQLException;
  }

  /** Unit {@code i} of thread {@code thread}, on its connection. */
  @FunctionalInterface
  public interface Unit {
    void run(Connection c, int thread, int i) throws SQLException;
  }

  /** Units acknowledged (committed), and serialization failures met and run again. */
  public record Outcome(long acknowledged, long retries) {
  }

  /** The JDBC isolation level of a test parameter's name: READ_COMMITTED, REPEATABLE_READ, SERIALIZABLE. */
  public static int isolation(String level) {
    switch (level) {
    case "READ_COMMITTED":
      return Connection.TRANSACTION_READ_COMMITTED;
    case "REPEATABLE_READ":
      return Connection.TRANSACTION_REPEATABLE_READ;
    default:
      return Connection.TRANSACTION_SERIALIZABLE;
    }
  }

  /**
   * Runs {@code units} units on each of {@code threads} threads, with auto-commit as given and,
   * without it, the transaction isolation {@code isolation} (a {@link Connection} level).
   */
  public static Outcome run(Connect connect, int threads, int units, boolean autoCommit,
      int isolation, Unit unit) throws Exception {
    final AtomicLong acknowledged = new AtomicLong();
    final AtomicLong retries = new AtomicLong();
    // the first failure stops every thread after its unit: none is left holding a transaction
    final AtomicReference<Exception> failed = new AtomicReference<>();
    final ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      final List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        final int thread = t;
        done.add(pool.submit(() -> {
          try (Connection c = connect.open()) {
            c.setAutoCommit(autoCommit);
            if (!autoCommit) {
              c.setTransactionIsolation(isolation);
            }
            for (int i = 0; i < units && failed.get() == null; i++) {
              while (true) {
                try {
                  unit.run(c, thread, i);
                  if (!autoCommit) {
                    c.commit();
                  }
                  acknowledged.incrementAndGet();
                  break;
                } catch (SQLException e) {
                  if (!serializationFailure(e)) {
                    throw e;
                  }
                  retries.incrementAndGet();
                  if (!autoCommit) {
                    c.rollback();
                  }
                }
              }
            }
          } catch (Exception | AssertionError e) {
            failed.compareAndSet(null, e instanceof Exception ? (Exception) e : new Exception(e));
          }
          return null;
        }));
      }
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIMIT_SECONDS);
      for (Future<?> f : done) {
        f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    if (failed.get() != null) {
      throw failed.get();
    }
    return new Outcome(acknowledged.get(), retries.get());
  }

  /**
   * Whether {@code e} is a serialization failure: SQLSTATE 40001 on it or a cause. Avatica's
   * thin client gets the server's exception as text, its causes' SQLSTATEs in it.
   */
  public static boolean serializationFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && "40001".equals(s.getSQLState())) {
        return true;
      }
    }
    return false;
  }
}
