package dev.mnestic.value;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
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
public final class Pareto implements BoundedMeet {
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
    return new Frontier();
  }

  /**
   * A group's frontier: its points with their components as doubles (exact
   * for Floats and for Ints up to 2^53; larger Ints compare exactly, by
   * {@link #compareNumbers}), unordered while points arrive, sorted into
   * value order when read.
   */
  private final class Frontier implements Survivors {
    private final List<Object> points = new ArrayList<>();
    private final List<double[]> coordinates = new ArrayList<>();
    private boolean sorted = true;

    @Override public boolean offer(Object value) {
      check(value);
      final List<?> point = (List<?>) value;
      final double[] x = coordinates(point);
      final int n = point.size();
      for (int i = 0; i < points.size(); i++) {
        final double[] y = coordinates.get(i);
        if (n != (y != null ? y.length : ((List<?>) points.get(i)).size())) {
          continue;
        }
        final int c = x == null || y == null ? compareExactly(points.get(i), point)
            : compare(y, x);
        if (c == DOMINATES || c == EQUAL && Values.equal(points.get(i), value)) {
          return false;
        }
        if (c == DOMINATED) {
          // swap-remove: the order is restored when read
          final int last = points.size() - 1;
          points.set(i, points.get(last));
          coordinates.set(i, coordinates.get(last));
          points.remove(last);
          coordinates.remove(last);
          i--;
        }
      }
      points.add(value);
      coordinates.add(x);
      sorted = false;
      return true;
    }

    @Override public boolean contains(Object value) {
      for (Object p : points) {
        if (Values.equal(p, value)) {
          return true;
        }
      }
      return false;
    }

    @Override public Collection<Object> values() {
      if (!sorted) {
        points.sort(Values.ORDER);
        sorted = true;
        coordinates.clear();
        for (Object p : points) {
          coordinates.add(coordinates((List<?>) p));
        }
      }
      return Collections.unmodifiableList(points);
    }

    /** How survivor {@code a} relates to newcomer {@code b}, under this aggregation's direction. */
    private int compare(double[] a, double[] b) {
      boolean aBetter = false;
      boolean bBetter = false;
      for (int k = 0; k < a.length; k++) {
        if (a[k] < b[k]) {
          aBetter |= min;
          bBetter |= !min;
        } else if (a[k] > b[k]) {
          aBetter |= !min;
          bBetter |= min;
        }
        if (aBetter && bBetter) {
          return INCOMPARABLE;
        }
      }
      return aBetter ? DOMINATES : bBetter ? DOMINATED : EQUAL;
    }

    private int compareExactly(Object a, Object b) {
      return Pareto.this.dominates(a, b) ? DOMINATES : Pareto.this.dominates(b, a) ? DOMINATED
          : ((List<?>) a).size() == ((List<?>) b).size() && equalNumbers((List<?>) a, (List<?>) b)
              ? EQUAL : INCOMPARABLE;
    }
  }

  private static final int DOMINATES = 0;
  private static final int DOMINATED = 1;
  private static final int EQUAL = 2;
  private static final int INCOMPARABLE = 3;

  /**
   * A point's components as doubles, or null when one is an Int that a
   * double cannot hold exactly (the point is then compared by
   * {@link #compareNumbers}).
   */
  private static double[] coordinates(List<?> point) {
    final double[] x = new double[point.size()];
    for (int k = 0; k < x.length; k++) {
      final Object n = point.get(k);
      if (n instanceof Long && Math.abs((Long) n) > (long) EXACT_LONGS) {
        return null;
      }
      x[k] = ((Number) n).doubleValue();
    }
    return x;
  }

  private static boolean equalNumbers(List<?> a, List<?> b) {
    for (int k = 0; k < a.size(); k++) {
      if (compareNumbers(a.get(k), b.get(k)) != 0) {
        return false;
      }
    }
    return true;
  }

  /** Fails ({@link BoundedMeet#badOperand}) unless {@code value} is a non-empty list of numbers, none NaN. */
  void check(Object value) {
    if (!(value instanceof List) || ((List<?>) value).isEmpty()) {
      throw BoundedMeet.badOperand(name, "a non-empty list of numbers", value);
    }
    for (Object x : (List<?>) value) {
      if (!(x instanceof Long || x instanceof Double) || x instanceof Double && ((Double) x).isNaN()) {
        throw BoundedMeet.badOperand(name, "a non-empty list of numbers (not NaN)", value);
      }
    }
  }

  /** Whether point {@code a} dominates point {@code b} in this aggregation's direction. */
  boolean dominates(Object a, Object b) {
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
