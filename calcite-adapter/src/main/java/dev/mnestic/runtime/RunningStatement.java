package dev.mnestic.runtime;

import com.sun.management.GarbageCollectionNotificationInfo;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.runtime.Hook;

import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * A statement while it runs, and what stops it: its cancel flag (Calcite's
 * {@code DataContext.Variable.CANCEL_FLAG}, which the engine's long loops check: store scans,
 * {@link #checked} above the inputs of joins, correlates, recursions, aggregates, sorts and
 * the like (rel.EnumerableStopCheck), recursion rounds, sketch passes, materialising
 * functions), why the flag was set, its deadline and its share of the heap.
 *
 * <p>Lifecycle:
 * <ol>
 *   <li>{@link #start}: the flag as it is (the JDBC driver clears it when the caller's
 *       {@code execute} call begins, so a cancel during the call, also before the execution
 *       starts, stops it, and one before the call does not), the timer armed, the statement
 *       registered with the heap watch;
 *   <li>the statement runs; its loops check the flag ({@link #check}, {@link #checkCurrent});
 *   <li>{@link #stop} (by the timer, the heap watch or a script's {@code :timeout}) records its
 *       cause, the first one only, then sets the flag; {@code Statement.cancel} sets the flag
 *       alone, a cancel;
 *   <li>{@link #close}: the timer disarmed, the statement unregistered.
 * </ol>
 * A failure while the flag is set is the stop's: {@link #error} gives its SQLSTATE
 * (HYT00 timeout, 57014 cancel, 53200 memory).
 *
 * <p>Memory, what is counted: after every garbage collection the heap watch reads the heap
 * still in use ({@code live}, the collector's own figure of every heap pool after it). A
 * statement's share is {@code live} now less {@code live} after the last collection before
 * it started, or after any collection since that left less (the heap counted then held
 * garbage, an earlier statement's rows in the old generation, say): the heap that stayed in
 * use since it started, less what it held at that collection. That is exact for one statement
 * running alone from a collected heap; with several, each one's figure also holds what the
 * others kept, so a statement is over its budget only when it also allocated more than the
 * budget since it started (JVM's per-thread allocation counter, summed over its thread and the
 * threads that work for it meanwhile: preparation and scripts on {@link DeepStack},
 * compilation and searches by {@link #await}, but not the sketch planner's own pool nor a
 * solver's native threads; it cannot hold more than it allocated), and the heap watch stops,
 * of the statements over their budget, the one that allocated the most. When {@code live}
 * passes {@value #HEAP_FULL_PERCENT}% of the heap's maximum after a full collection (one is asked for
 * when a minor collection leaves that much: the old generation may hold garbage), the
 * statement that allocated the most is stopped whatever its budget. A collection that comes
 * late lets a statement pass its budget until it comes; an {@code OutOfMemoryError} in a
 * statement is its 53200 too (its rows are then garbage, so others keep running). A statement
 * that lives on between bursts of work (a followed standing query) is counted from the start of
 * each burst, on the thread doing it, and passed by between bursts ({@link #measured}).
 */
public final class RunningStatement implements AutoCloseable {
  /** Why a statement was stopped, with the SQLSTATE it fails with. */
  public enum Cause {
    CANCEL("57014"), TIMEOUT("HYT00"), MEMORY("53200");

    public final String sqlState;

    Cause(String sqlState) {
      this.sqlState = sqlState;
    }
  }

  /** Past this share of the heap's maximum in use after a collection, the biggest statement stops. */
  static final int HEAP_FULL_PERCENT = 90;

  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(r -> {
        final Thread t = new Thread(r, "mnestic-statement-timeout");
        t.setDaemon(true);
        return t;
      });

  static final int AWAIT_POLL_MILLIS = 10;

  /**
   * Where {@link #await} runs work; Janino recurses once per level of the code it compiles,
   * so the threads have {@link DeepStack}'s stack.
   */
  private static final ExecutorService WORKERS = Executors.newCachedThreadPool(r -> {
    final Thread t = new Thread(null, r, "mnestic-statement-work", DeepStack.STACK_BYTES);
    t.setDaemon(true);
    return t;
  });

  /** The running statements, by their cancel flag. */
  private static final Map<AtomicBoolean, RunningStatement> RUNNING = new IdentityHashMap<>();

  private static final ThreadLocal<RunningStatement> CURRENT = new ThreadLocal<>();

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** Heap in use after the last garbage collection, in bytes. */
  private static volatile long live = heapUsed();

  static {
    HeapWatch.install();
  }

  private final AtomicBoolean flag;
  private final AtomicReference<Cause> cause = new AtomicReference<>();
  private final int timeoutSeconds;
  private final long memoryBudget;
  /** Where its memory is counted from: {@link #start}, or its latest {@link #measured} work. */
  private volatile Baseline baseline;
  /** Whether the heap watch passes it by: between two pieces of {@link #measured} work. */
  private volatile boolean idle;
  private final ScheduledFuture<?> timer;
  /** The threads working for it now ({@link #runAs}), with what each had allocated before. */
  private final Map<Thread, Long> helpers = new ConcurrentHashMap<>();
  /** Bytes the threads that worked for it allocated while they did. */
  private final AtomicLong helped = new AtomicLong();
  /** What stopped it, for its message. */
  private volatile String detail = "";
  /** The statement current on this thread when this one was entered. */
  private RunningStatement outer;

  private RunningStatement(AtomicBoolean flag, int timeoutSeconds, long memoryBudget) {
    this.flag = flag;
    this.timeoutSeconds = timeoutSeconds;
    this.memoryBudget = memoryBudget;
    this.baseline = Baseline.now();
    this.timer = timeoutSeconds <= 0 ? null
        : TIMER.schedule(() -> stop(Cause.TIMEOUT,
            "query timed out after " + timeoutSeconds + " s and was cancelled"),
            timeoutSeconds, TimeUnit.SECONDS);
  }

  /**
   * Starts a statement stopped by {@code flag}; already set, it is stopped at its first check.
   *
   * @param timeoutSeconds it stops after so many seconds; 0 for no limit
   * @param memoryBudget it stops when it holds more heap than this, in bytes; 0 for no limit
   */
  public static RunningStatement start(AtomicBoolean flag, int timeoutSeconds,
      long memoryBudget) {
    final RunningStatement s = new RunningStatement(flag, timeoutSeconds, memoryBudget);
    synchronized (RUNNING) {
      final RunningStatement before = RUNNING.put(flag, s);
      if (before != null && before.timer != null) {
        before.timer.cancel(false);
      }
    }
    return s;
  }

  /**
   * Where a statement's memory is counted from: the thread it runs on, with the bytes that
   * thread had allocated, and the heap in use after the last collection, then (lowered by
   * later collections that left less: {@link HeapWatch#collected}).
   */
  private record Baseline(Thread thread, long allocated, long live) {
    static Baseline now() {
      final Thread t = Thread.currentThread();
      return new Baseline(t, THREADS.getThreadAllocatedBytes(t.getId()), RunningStatement.live);
    }
  }

  /**
   * {@code work} of the running statement whose flag is {@code flag} (run at once when none
   * runs), its memory counted as if the statement started now on this thread; after it, until
   * its next such work, the heap watch passes the statement by. For a statement that lives on
   * between bursts of work, a followed standing query: each read of its closed windows is
   * held to the budget alone (with the rows it keeps for the client to fetch), and the heap
   * others fill meanwhile, or its thread's own allocations for other work, do not count
   * toward it.
   */
  public static <T> T measured(AtomicBoolean flag, Supplier<T> work) {
    final RunningStatement s;
    synchronized (RUNNING) {
      s = RUNNING.get(flag);
      if (s != null) {
        s.helped.set(0);
        s.baseline = Baseline.now();
        s.idle = false;
      }
    }
    try {
      return work.get();
    } finally {
      if (s != null) {
        s.idle = true;
      }
    }
  }

  /** The statement running on this thread (between {@link #enter} and {@link #exit}), or null. */
  public static RunningStatement current() {
    return CURRENT.get();
  }

  /** Makes this the statement running on this thread, for code that has no context. */
  public RunningStatement enter() {
    outer = CURRENT.get();
    CURRENT.set(this);
    return this;
  }

  /**
   * {@code work}, run on this thread with this statement current (as on the thread that
   * entered it): for work handed to another thread, such as {@link DeepStack}'s.
   */
  <T> T runAs(Callable<T> work) throws Exception {
    final RunningStatement before = CURRENT.get();
    CURRENT.set(this);
    // what this thread allocates meanwhile is the statement's (once, if it nests)
    final Thread helper = Thread.currentThread();
    final boolean counted = helper != baseline.thread
        && helpers.putIfAbsent(helper, THREADS.getThreadAllocatedBytes(helper.getId())) == null;
    try {
      return work.call();
    } finally {
      if (counted) {
        helped.addAndGet(THREADS.getThreadAllocatedBytes(helper.getId()) - helpers.remove(helper));
      }
      CURRENT.set(before);
    }
  }

  /** Ends {@link #enter}. */
  public void exit() {
    CURRENT.set(outer);
    outer = null;
  }

  public AtomicBoolean flag() {
    return flag;
  }

  /** Stops the statement for {@code why}: the first cause stays; the flag is set. */
  public void stop(Cause why, String message) {
    if (cause.compareAndSet(null, why)) {
      detail = message;
    }
    flag.set(true);
  }

  /** Stops the running statement whose flag is {@code flag} (or only sets the flag: none runs). */
  public static void stop(AtomicBoolean flag, Cause why, String message) {
    final RunningStatement s;
    synchronized (RUNNING) {
      s = RUNNING.get(flag);
    }
    if (s != null) {
      s.stop(why, message);
    } else {
      flag.set(true);
    }
  }

  /**
   * The failure of the statement whose flag is {@code flag}, set: as {@link #error} of the one
   * running with it (its timeout, its cancel, its memory), else a cancel's.
   */
  public static SQLException stopped(AtomicBoolean flag) {
    final RunningStatement s;
    synchronized (RUNNING) {
      s = RUNNING.get(flag);
    }
    final SQLException e = s != null ? s.error(null) : null;
    return e != null ? e : new SQLException("statement cancelled", Cause.CANCEL.sqlState);
  }

  /** Why it was stopped; null while it runs. A flag set by no {@link #stop} is a cancel. */
  public Cause cause() {
    if (!flag.get()) {
      return null;
    }
    final Cause c = cause.get();
    return c != null ? c : Cause.CANCEL;
  }

  /** Its failure: null while it runs, else an SQLException with the stop's SQLSTATE. */
  public SQLException error(Throwable where) {
    final Cause c = cause();
    if (c == null) {
      return null;
    }
    final SQLException e = switch (c) {
      case TIMEOUT -> new SQLTimeoutException(detail, c.sqlState);
      case CANCEL -> new SQLException("statement cancelled", c.sqlState);
      case MEMORY -> new SQLException(detail, c.sqlState);
    };
    if (where != null) {
      e.initCause(where);
    }
    return e;
  }

  /** The failure of a statement that ran out of heap: SQLSTATE 53200. */
  public static SQLException outOfMemory(OutOfMemoryError e) {
    return new SQLException("statement ran out of memory (" + e.getMessage()
        + "); it was stopped and holds nothing now", Cause.MEMORY.sqlState, e);
  }

  /** Throws if the statement was stopped. */
  public void check() {
    if (flag.get()) {
      throw new StatementStoppedException(cause());
    }
  }

  /** Throws if {@code flag} (a context's cancel flag, may be null) is set. */
  public static void check(AtomicBoolean flag) {
    if (flag != null && flag.get()) {
      throw new StatementStoppedException(null);
    }
  }

  /**
   * The rows of {@code input}, each read after a look at the context's cancel flag: a join
   * or a correlate reading them stops with its statement however few rows it emits.
   */
  public static <T> Enumerable<T> checked(Enumerable<T> input, DataContext root) {
    final AtomicBoolean flag = DataContext.Variable.CANCEL_FLAG.get(root);
    if (flag == null) {
      return input;
    }
    return new AbstractEnumerable<T>() {
      @Override public Enumerator<T> enumerator() {
        check(flag);
        final Enumerator<T> rows = input.enumerator();
        return new Enumerator<T>() {
          @Override public T current() {
            return rows.current();
          }

          @Override public boolean moveNext() {
            // A volatile read: on x86 a plain load (bench/RESULTS.md, "Stop checks").
            if (flag.get()) {
              throw new StatementStoppedException(null);
            }
            return rows.moveNext();
          }

          @Override public void reset() {
            rows.reset();
          }

          @Override public void close() {
            rows.close();
          }
        };
      }
    };
  }

  /**
   * Runs {@code work} on a thread of its own, with this statement current there (its loops may
   * look at the flag with {@link #checkCurrent}), and waits for it, looking at the statement's
   * flag every {@value #AWAIT_POLL_MILLIS} ms: a statement stopped meanwhile fails at once, and
   * the work ends unobserved on its daemon thread, its result dropped. For work that cannot look
   * at the flag often enough itself: Janino compiling a statement's program. The work must not
   * need this thread's other thread-locals, nor leave anything that the statement's failure
   * would have to undo.
   */
  public <T> T await(Callable<T> work) {
    return await(work, () -> { });
  }

  /**
   * {@link #await}, calling {@code abandon} (from this thread) when the statement is stopped
   * while the work runs, before the statement fails: how work that can be told to end, such as
   * the sketch planner's solver search, stops burning CPU for a statement that is gone.
   */
  public <T> T await(Callable<T> work, Runnable abandon) {
    final Future<T> result = WORKERS.submit(() -> runAs(work));
    try {
      while (true) {
        try {
          return result.get(AWAIT_POLL_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          if (flag.get()) {
            abandon.run();
            check();
          }
        }
      }
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the statement's work", e);
    }
  }

  /**
   * Longest Java program, in characters, that a statement's plan may generate: a longer one is
   * refused (54001) before Janino compiles it. Janino looks at no flag and compiled about
   * 40,000 characters a second here (docs/reliability.md, section 4); a compilation that a
   * stopped statement abandons runs to its end on its own thread, so this bounds the CPU it
   * burns for nobody (about 25 s). A longer program nearly always fails anyway, after its
   * compilation, on the JVM's limit of 64 KB of bytecode per method.
   */
  public static final int MAX_PROGRAM_CHARS = 1 << 20;

  /**
   * The result of {@code implement}, which generates the Java program of a statement's plan
   * and compiles it (Calcite's {@code EnumerableInterpretable.toBindable}), run by
   * {@link #await} for the statement running on this thread (if any, else here). Between the
   * two, at Calcite's {@code Hook.JAVA_PLAN}, the program is compiled only if the statement
   * still runs and the program is no longer than {@link #MAX_PROGRAM_CHARS} (else an
   * SQLException 54001 is the failure's cause).
   */
  public static <T> T compiled(Supplier<T> implement) {
    final RunningStatement running = current();
    return running == null ? programChecked(implement)
        : running.await(() -> programChecked(implement));
  }

  private static <T> T programChecked(Supplier<T> implement) {
    try (Hook.Closeable program = Hook.JAVA_PLAN.addThread((Consumer<Object>) code -> {
      checkCurrent();
      final int length = code.toString().length();
      if (length > MAX_PROGRAM_CHARS) {
        final String message = String.format(Locale.ROOT, "statement too complex: the Java"
            + " program generated for it is %,d characters long, over the limit of %,d that is"
            + " compiled; split it, or give long lists of values as literals (IN lists and"
            + " VALUES of literals are data, not code)", length, MAX_PROGRAM_CHARS);
        throw new IllegalStateException(message, new SQLException(message, "54001"));
      }
    })) {
      return implement.get();
    }
  }

  /**
   * {@code text} read with a look at the flag of the statement running on this thread before
   * each read: a parser reading a huge statement stops with it.
   */
  public static Reader checked(Reader text) {
    return new FilterReader(text) {
      @Override public int read() throws IOException {
        checkCurrent();
        return super.read();
      }

      @Override public int read(char[] into, int offset, int length) throws IOException {
        checkCurrent();
        return super.read(into, offset, length);
      }
    };
  }

  /** Throws if the statement running on this thread, if any, was stopped. */
  public static void checkCurrent() {
    final RunningStatement s = CURRENT.get();
    if (s != null) {
      s.check();
    }
  }

  @Override public void close() {
    if (timer != null) {
      timer.cancel(false);
    }
    synchronized (RUNNING) {
      RUNNING.remove(flag, this);
    }
  }

  /**
   * Bytes allocated for it since it started: by its thread, and by the threads that worked for
   * it ({@link #runAs}: preparation and scripts on {@link DeepStack}, compilation and searches
   * by {@link #await}).
   */
  private long allocated() {
    final Baseline b = baseline;
    long bytes = THREADS.getThreadAllocatedBytes(b.thread.getId()) - b.allocated + helped.get();
    for (Map.Entry<Thread, Long> helper : helpers.entrySet()) {
      bytes += Math.max(0, THREADS.getThreadAllocatedBytes(helper.getKey().getId())
          - helper.getValue());
    }
    return bytes;
  }

  private static long heapUsed() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Thrown where a stopped statement's loop looks at its flag. */
  public static final class StatementStoppedException extends RuntimeException {
    StatementStoppedException(Cause cause) {
      super("statement stopped (" + (cause == null ? "cancel, timeout or memory" : cause)
          + ")", null, false, false);
    }
  }

  /** Reads the heap in use after each collection and stops a statement holding too much. */
  static final class HeapWatch {
    /** Whether a full collection was asked for and has not ended yet. */
    private static final AtomicBoolean FULL_COLLECTION_ASKED = new AtomicBoolean();

    static void install() {
      final Set<String> heapPools = new HashSet<>();
      for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        if (pool.getType() == MemoryType.HEAP) {
          heapPools.add(pool.getName());
        }
      }
      for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        if (gc instanceof NotificationEmitter emitter) {
          emitter.addNotificationListener((n, handback) -> {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION
                .equals(n.getType())) {
              final GarbageCollectionNotificationInfo info =
                  GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
              long used = 0;
              for (Map.Entry<String, MemoryUsage> pool
                  : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                if (heapPools.contains(pool.getKey())) {
                  used += pool.getValue().getUsed();
                }
              }
              collected(used, !info.getGcAction().contains("minor"));
            }
          }, null, null);
        }
      }
    }

    /**
     * After a collection that left {@code used} bytes of heap in use; a {@code whole} one
     * collected the old generation too. A heap nearly full after a minor collection may be
     * full of garbage in the old generation (the rows of a statement just stopped, say):
     * a full collection is asked for, and only after a whole one is the heap full.
     */
    static void collected(long used, boolean whole) {
      live = used;
      final long max = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
      final boolean nearlyFull = max > 0 && used * 100 > max * HEAP_FULL_PERCENT;
      if (nearlyFull && !whole && FULL_COLLECTION_ASKED.compareAndSet(false, true)) {
        TIMER.execute(() -> {
          try {
            System.gc();
          } finally {
            FULL_COLLECTION_ASKED.set(false);
          }
        });
      }
      final boolean full = nearlyFull && whole;
      final List<RunningStatement> over = new ArrayList<>();
      synchronized (RUNNING) {
        for (RunningStatement s : RUNNING.values()) {
          // What others held as it started is at most what any collection since left in use:
          // what was counted then and collected since was garbage (an earlier statement's
          // rows in the old generation), not theirs to keep.
          if (used < s.baseline.live) {
            s.baseline = new Baseline(s.baseline.thread, s.baseline.allocated, used);
          }
          // it holds no more than it allocated: a small statement beside a big one is not
          // over its budget for what the big one keeps
          if (!s.flag.get() && !s.idle && (full || s.memoryBudget > 0
              && used - s.baseline.live > s.memoryBudget && s.allocated() > s.memoryBudget)) {
            over.add(s);
          }
        }
      }
      RunningStatement biggest = null;
      long most = -1;
      for (RunningStatement s : over) {
        final long a = s.allocated();
        if (a > most) {
          most = a;
          biggest = s;
        }
      }
      if (biggest != null) {
        final long held = used - biggest.baseline.live;
        biggest.stop(Cause.MEMORY, full && (biggest.memoryBudget == 0
                || held <= biggest.memoryBudget)
            ? "statement stopped: the heap was nearly full (" + mb(used) + " of " + mb(max)
                + " in use after a full collection) and it was the statement allocating the"
                + " most (" + mb(most) + " since it started)"
            : "statement stopped: it held about " + mb(held) + " of heap, over its budget of "
                + mb(biggest.memoryBudget) + " (statementMemory)");
      }
    }

    private static String mb(long bytes) {
      return String.format(Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }
  }
}
