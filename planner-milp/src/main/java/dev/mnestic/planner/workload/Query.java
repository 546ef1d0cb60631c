package dev.mnestic.planner.workload;

import java.time.Duration;

/**
 * A standing query q: {@code expr} evaluated every {@code every}, its answer within
 * {@code target}, and every answer of the last {@code retention} available (constraint (R)),
 * read every {@code read} ({@link #ONCE} for a statement, which reads its windows once, in one
 * pass; a standing query a dashboard refreshes each step reads every {@code every}).
 * {@code line} is where the workload states it.
 */
public record Query(String name, QueryExpr expr, Target target, Duration every,
    Duration retention, Duration read, int line) {
  /** The read interval of a query read once (a statement). */
  public static final Duration ONCE = Duration.ZERO;

  public Query {
    if (read.isNegative() || !read.isZero() && (read.compareTo(every) > 0
        || every.toMillis() % read.toMillis() != 0)) {
      throw new IllegalArgumentException("a query's read interval " + Durations.format(read)
          + " does not divide its evaluation interval " + Durations.format(every));
    }
  }

  /** A query read every step, as a standing query a dashboard refreshes each step is. */
  public Query(String name, QueryExpr expr, Target target, Duration every, Duration retention,
      int line) {
    this(name, expr, target, every, retention, every, line);
  }
}
