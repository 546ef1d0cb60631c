package dev.mnestic.planner.memo;

import dev.mnestic.planner.workload.Durations;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.Window;

import java.time.Duration;

/**
 * G: the identity of a memo group, one logical result or one state family over specified
 * input data. Sizes (θ) and physical properties are not part of it, so a mergeable state with
 * several sizes is one group with several candidates. Two queries that need the same result
 * name the same key and so share its group. A state's or quantile's key holds how often it is
 * read ({@code read}: the query's read interval, {@link Query#ONCE} for a statement), which its
 * cost depends on: two queries read at different intervals do not share it.
 */
public sealed interface GroupKey {
  /**
   * Whether this key comes strictly before {@code other} in the memo's well-founded order:
   * rows, then states (narrower windows first), quantiles, ratios, answers. Every candidate
   * reads only groups before its own, so the group graph has no cycle.
   */
  default boolean precedes(GroupKey other) {
    final int byKind = Integer.compare(kind(this), kind(other));
    if (byKind != 0) {
      return byKind < 0;
    }
    return this instanceof State s && other instanceof State o
        && s.window().width().compareTo(o.window().width()) < 0;
  }

  private static int kind(GroupKey k) {
    return k instanceof Rows ? 0 : k instanceof State ? 1 : k instanceof Quantile ? 2
        : k instanceof Ratio ? 3 : 4;
  }

  /** The raw rows of a metric, as the store holds them. */
  record Rows(String metric) implements GroupKey {
    @Override public String toString() {
      return "rows(" + metric + ")";
    }
  }

  /** The state of one summary family over each window of a metric, read every {@code read}. */
  record State(Family family, String metric, Window window, Duration read) implements GroupKey {
    /** Read every step. */
    public State(Family family, String metric, Window window) {
      this(family, metric, window, window.step());
    }

    @Override public String toString() {
      return "state(" + family + ", " + metric + ", " + window + reading(window, read) + ")";
    }
  }

  /** The φ-quantile of a metric over each window, read every {@code read}. */
  record Quantile(double phi, String metric, Window window, Duration read) implements GroupKey {
    /** Read every step. */
    public Quantile(double phi, String metric, Window window) {
      this(phi, metric, window, window.step());
    }

    @Override public String toString() {
      return "quantile(" + phi + ", " + metric + ", " + window + reading(window, read) + ")";
    }
  }

  /** How often a key over {@code window} is read, said only when not every step. */
  private static String reading(Window window, Duration read) {
    return read.equals(window.step()) ? ""
        : read.isZero() ? ", read once" : ", read every " + Durations.format(read);
  }

  /** The ratio of two quantile groups, numerator over denominator. */
  record Ratio(int numerator, int denominator) implements GroupKey {
    @Override public String toString() {
      return "ratio(G" + numerator + ", G" + denominator + ")";
    }
  }

  /** What query {@code query} answers. */
  record Answer(String query) implements GroupKey {
    @Override public String toString() {
      return "answer(" + query + ")";
    }
  }
}
