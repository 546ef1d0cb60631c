package dev.mnestic.value;

import java.math.BigDecimal;
import java.util.List;

/**
 * {@code pareto_min(p)} and {@code pareto_max(p)}: per group, the points no
 * other point of the group dominates, each survivor a row, in {@link Values}'
 * order (so permuting the input gives the same output). A point is a
 * non-empty list of numbers (Int or Float, not NaN): one candidate scored on
 * several objectives. {@code a} dominates {@code b} when they have the same
 * length, {@code a} is at least as good on every component and strictly
 * better on one; pareto_min counts smaller as better, pareto_max larger.
 * Lists of different lengths are incomparable, and numbers compare by value
 * ({@code [1, 2]} and {@code [1.0, 2.0]} tie on every component, so neither
 * dominates, and both survive as the distinct values they are). Exact
 * duplicates are one survivor. Anything else as a point is an error naming
 * the aggregation and the value, never a dropped row.
 *
 * <p>The names take no arguments: direction lives in the name, and mixed
 * objectives negate the components to maximise under pareto_min
 * ({@code [price, -quality]}).
 */
public final class Pareto implements BoundedMeet, Antichain.Order {
  public static final Pareto MIN = new Pareto("pareto_min", true);
  public static final Pareto MAX = new Pareto("pareto_max", false);

  private static final double EXACT_LONGS = 0x1p53;

  private final String name;
  private final boolean min;

  private Pareto(String name, boolean min) {
    this.name = name;
    this.min = min;
  }

  @Override public String name() {
    return name;
  }

  @Override public Survivors survivors() {
    return new Antichain(name, this, Integer.MAX_VALUE);
  }

  @Override public void check(Object value) {
    if (!(value instanceof List) || ((List<?>) value).isEmpty()) {
      throw BoundedMeet.badOperand(name, "a non-empty list of numbers", value);
    }
    for (Object x : (List<?>) value) {
      if (!(x instanceof Long || x instanceof Double) || x instanceof Double && ((Double) x).isNaN()) {
        throw BoundedMeet.badOperand(name, "a non-empty list of numbers (not NaN)", value);
      }
    }
  }

  @Override public boolean dominates(Object a, Object b) {
    return dominates((List<?>) a, (List<?>) b, min);
  }

  /**
   * Componentwise dominance of two lists of numbers: the same length, no
   * component worse, one better (smaller with {@code min}, else larger).
   */
  public static boolean dominates(List<?> a, List<?> b, boolean min) {
    final int n = a.size();
    if (n != b.size()) {
      return false;
    }
    boolean better = false;
    for (int i = 0; i < n; i++) {
      final int c = compareNumbers(a.get(i), b.get(i));
      if (min ? c > 0 : c < 0) {
        return false;
      }
      better |= c != 0;
    }
    return better;
  }

  /**
   * Two numbers (Long or Double, not NaN) by value, exactly: {@code 1} and
   * {@code 1.0} are equal, {@code -0.0} and {@code 0.0} too, and an Int
   * past 2^53 is not rounded.
   */
  static int compareNumbers(Object x, Object y) {
    if (x instanceof Long && y instanceof Long) {
      return Long.compare((Long) x, (Long) y);
    }
    final double dx = ((Number) x).doubleValue();
    final double dy = ((Number) y).doubleValue();
    if (dx < dy) {
      return -1;
    }
    if (dx > dy) {
      return 1;
    }
    if (Double.isInfinite(dx) || Math.abs(dx) < EXACT_LONGS) {
      return 0;
    }
    return exact(x).compareTo(exact(y));
  }

  private static BigDecimal exact(Object n) {
    return n instanceof Long ? BigDecimal.valueOf((Long) n) : new BigDecimal((Double) n);
  }
}
