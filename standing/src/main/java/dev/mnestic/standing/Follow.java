package dev.mnestic.standing;

import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.sql.StandingQueries;

import java.util.ArrayDeque;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * A standing query followed ({@code SELECT STREAM * FROM name}): each window's row as the window
 * closes, in window order, each window once. The rows are those of the query's pull read
 * ({@link Dashboard#read}) at the moment the window closes.
 *
 * <p>The lateness rule, on the wall clock ({@link #WALL_CLOCK}: the time now as a
 * {@code TIMESTAMP} of the JVM's time zone, as {@code LOCALTIMESTAMP} reads it) with an allowed
 * lateness L ({@code followLateness}, milliseconds):
 * <ol>
 *   <li>a window [start, end) closes at wall-clock time end + L;
 *   <li>a follow started at time t0 gives the windows that close after t0 (end &gt; t0 − L; the
 *       earlier ones are a pull read's);
 *   <li>once the clock passes one or more windows' close, the query is read, and the rows of
 *       those windows are given, in window order: a window's followed row is its pull read's at
 *       that moment, with every row committed before it;
 *   <li>a row committed later for a closed window (a late row) is counted by later pull reads,
 *       but its window's row is not given again;
 *   <li>a window with no rows (or only NULL values) gives no row, as in a pull read.
 * </ol>
 *
 * <p>State: {@code closed}, the end of the latest window closed and read (every window ending
 * at or before it was given or is history), and {@code ready}, the rows read but not yet given.
 */
final class Follow implements StandingQueries.Feed {
  /** The wall clock of the lateness rule: the time now as a TIMESTAMP of the JVM's time zone. */
  static final LongSupplier WALL_CLOCK = () -> {
    final long now = System.currentTimeMillis();
    return now + TimeZone.getDefault().getOffset(now);
  };

  /** Longest wait between looks at the cancel flag, the close and the clock. */
  private static final long POLL_MILLIS = 50;

  private final Dashboard dashboard;
  private final String name;
  private final long step;
  /** Added to the value of the select item {@code bound} to make the window's end. */
  private final long toEnd;
  private final int bound;
  private final long lateness;
  private final LongSupplier clock;
  private final AtomicBoolean cancel;
  private final Object wake = new Object();
  private volatile boolean closedFeed;
  private long closed;
  private final ArrayDeque<Object[]> ready = new ArrayDeque<>();

  /**
   * Follows {@code query}, a standing query of {@code dashboard}, from now on {@code clock};
   * stopped when {@code cancel} (may be null) is set.
   */
  Follow(Dashboard dashboard, StandingQuery query, long lateness, LongSupplier clock,
      AtomicBoolean cancel) {
    this.dashboard = dashboard;
    this.name = query.name();
    this.step = query.window().step().toMillis();
    this.bound = boundColumn(query);
    if (bound < 0) {
      throw new IllegalArgumentException("standing query " + name + " selects no window bound");
    }
    this.toEnd = ((StandingQuery.Column.Bound) query.columns().get(bound)).end() ? 0
        : query.window().width().toMillis();
    this.lateness = lateness;
    this.clock = clock;
    this.cancel = cancel;
    this.closed = latestClosed();
  }

  /**
   * The index of {@code query}'s first window bound, by which its rows are told apart as
   * windows; -1 when it selects none, and cannot be followed.
   */
  static int boundColumn(StandingQuery query) {
    final List<StandingQuery.Column> columns = query.columns();
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i) instanceof StandingQuery.Column.Bound) {
        return i;
      }
    }
    return -1;
  }

  /** The end of the latest window closed now: the latest multiple of the step ≤ now − L. */
  private long latestClosed() {
    return Math.floorDiv(clock.getAsLong() - lateness, step) * step;
  }

  @Override public int await(long millis) {
    final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (true) {
      check();
      if (ready.isEmpty()) {
        readClosed();
      }
      if (!ready.isEmpty()) {
        return ready.size();
      }
      final long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        return 0;
      }
      // until the next window closes, but looking at the flags every POLL_MILLIS
      final long toClose = closed + step + lateness - clock.getAsLong();
      synchronized (wake) {
        if (!closedFeed) {
          try {
            wake.wait(Math.max(1, Math.min(Math.min(left, POLL_MILLIS), toClose)));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while following standing query " + name,
                e);
          }
        }
      }
    }
  }

  @Override public Object[] next() {
    while (await(Long.MAX_VALUE / 2_000_000) == 0) {
      // a window closes at last, or the statement stops
    }
    return ready.poll();
  }

  /**
   * When windows closed since the last read: reads the query and keeps the rows of the windows
   * that closed since, in window order (the pull read's order). The read is the statement's
   * memory as its budget counts it ({@link RunningStatement#measured}): the follow holds nothing
   * else but these rows until they are given, and is passed by between reads.
   */
  private void readClosed() {
    final long latest = latestClosed();
    if (latest <= closed) {
      return;
    }
    RunningStatement.measured(cancel, () -> {
      for (Object[] row : dashboard.read(name, cancel)) {
        // a bound is a Long, or a Double beside a quantile's Double (as the pull read makes it)
        final long end = ((Number) row[bound]).longValue() + toEnd;
        if (end > closed && end <= latest) {
          ready.add(row);
        }
      }
      return null;
    });
    closed = latest;
  }

  private void check() {
    RunningStatement.check(cancel);
    if (closedFeed) {
      throw new IllegalStateException("standing query " + name + " is no longer followed: its"
          + " result set was closed");
    }
  }

  @Override public void close() {
    closedFeed = true;
    synchronized (wake) {
      wake.notifyAll();
    }
  }
}
