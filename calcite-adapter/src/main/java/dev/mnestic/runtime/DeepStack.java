package dev.mnestic.runtime;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs work that recurses as deep as its input nests on threads with a
 * large stack. Calcite's parser, validator, SQL-to-relational converter,
 * rules, code generator and Janino all recurse once per level of an
 * expression, and a chain of binary operators ({@code a OR b OR ...},
 * {@code a || b || ...}) is a tree as deep as it is long: on a thread's
 * default stack (about 1 MB) a few hundred levels overflow it.
 *
 * <p>The threads come from a pool that keeps none idle for longer than
 * {@link #IDLE_SECONDS} (a stack keeps the memory its deepest use touched
 * while its thread lives) and starts one per concurrent caller. The work runs
 * as part of the caller's {@link RunningStatement}, if any: the same one is
 * current on the worker while it runs. SQL preparation and CozoScript scripts
 * both run here.
 */
public final class DeepStack {
  /**
   * Stack reserved for each thread; it is address space, touched only as deep as the work
   * goes. 2,000 nested parentheses or subqueries and a chain of 10,000 operators run in it.
   */
  static final long STACK_BYTES = 1L << 30;

  /** Seconds a thread waits for more work before it ends. */
  static final int IDLE_SECONDS = 30;

  private static final AtomicInteger THREADS = new AtomicInteger();

  private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(0, Integer.MAX_VALUE,
      IDLE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
        final Thread t = new Thread(null, r, "mnestic-deep-" + THREADS.incrementAndGet(),
            STACK_BYTES);
        t.setDaemon(true);
        return t;
      });

  private DeepStack() {
  }

  /**
   * The result of {@code work}, run on a thread with a {@link #STACK_BYTES} stack while the
   * caller waits; what it throws, the caller's call throws.
   */
  public static <T> T call(Supplier<T> work) {
    if (Thread.currentThread().getName().startsWith("mnestic-deep-")) {
      return work.get();
    }
    final RunningStatement running = RunningStatement.current();
    final Future<T> future =
        POOL.submit(() -> running == null ? work.get() : running.runAs(work::get));
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return future.get();
        } catch (InterruptedException e) {
          // The work stops at its statement's cancel flag, not at an interrupt of the caller;
          // the caller's interrupt is kept for it to see.
          interrupted = true;
        }
      }
    } catch (ExecutionException e) {
      final Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw DeepStack.<RuntimeException>sneaky(cause);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Throws a checked exception of the work through {@link #call}, which declares none. */
  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E sneaky(Throwable e) throws E {
    throw (E) e;
  }
}
