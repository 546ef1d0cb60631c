package dev.mnestic.runtime;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Runtime of the SQL aggregates {@code PARETO_MIN(point)} and
 * {@code PARETO_MAX(point)}: the frontier of a group's points, the points
 * no other point dominates under the componentwise order (every component
 * no worse, one better; smaller better for MIN, larger for MAX).
 *
 * <p>A point is a non-empty array of numbers, every point of a group of
 * the same length; a NULL point, and a point with a NULL component (its
 * place in the order is unknown), is skipped, as SQL's aggregates skip
 * NULLs; an empty point or points of different lengths are errors. Equal
 * points collapse to one. The result lists the frontier in ascending
 * lexicographic order of its points (the order arrays compare in), so it
 * does not depend on the order of the rows; a group with no point left
 * gives NULL, as {@code MIN} of only NULLs does.
 *
 * <p>Each group keeps its frontier so far: a new point is dropped if a
 * kept one dominates or equals it, and otherwise removes the points it
 * dominates and is kept (block-nested-loop, O(n · frontier)).
 *
 * <p>Datalog's {@code pareto_min}/{@code pareto_max}
 * ({@link dev.mnestic.value.Pareto}) work on CozoDB's values (Int and Float
 * only, lists of different lengths incomparable, CozoDB's value order);
 * these take SQL's numbers exactly (INTEGER, BIGINT, DECIMAL, DOUBLE) and
 * reject points of different lengths.
 */
public final class Pareto {
  private Pareto() {
  }

  /** The frontier of one group so far. */
  public static final class Frontier {
    private final String name;
    private final int sign;
    private final List<List<Object>> points = new ArrayList<>();

    Frontier(String name, int sign) {
      this.name = name;
      this.sign = sign;
    }

    void add(List<?> point) {
      for (Object component : point) {
        if (component == null) {
          return;
        }
      }
      check(point);
      final List<Object> p = new ArrayList<>(point);
      for (Iterator<List<Object>> i = points.iterator(); i.hasNext(); ) {
        final int c = dominance(i.next(), p);
        if (c <= 0) {
          return;
        }
        if (c == 2) {
          i.remove();
        }
      }
      points.add(p);
    }

    private void check(List<?> point) {
      if (point.isEmpty()) {
        throw new IllegalArgumentException(name + ": a point needs at least one component, got []");
      }
      if (!points.isEmpty() && points.get(0).size() != point.size()) {
        throw new IllegalArgumentException(name + ": points of one group must have the same"
            + " number of components; got " + points.get(0) + " and " + point);
      }
      for (Object component : point) {
        if (!(component instanceof Number)) {
          throw new IllegalArgumentException(name + ": a point's components must be numbers;"
              + " got " + point);
        }
      }
    }

    /**
     * Compares kept point {@code q} with new point {@code p}: -1 if q
     * dominates p, 0 if they are equal, 2 if p dominates q, 1 otherwise.
     */
    private int dominance(List<Object> q, List<Object> p) {
      boolean qBetter = false;
      boolean pBetter = false;
      for (int i = 0; i < q.size(); i++) {
        final int c = sign * compare(q.get(i), p.get(i));
        qBetter |= c < 0;
        pBetter |= c > 0;
      }
      return qBetter ? (pBetter ? 1 : -1) : pBetter ? 2 : 0;
    }

    /** The frontier, or null when no point was added (a group of NULL points only). */
    List<List<Object>> result() {
      if (points.isEmpty()) {
        return null;
      }
      final List<List<Object>> sorted = new ArrayList<>(points);
      sorted.sort((a, b) -> {
        for (int i = 0; i < a.size(); i++) {
          final int c = compare(a.get(i), b.get(i));
          if (c != 0) {
            return c;
          }
        }
        return 0;
      });
      return sorted;
    }
  }

  /** Numbers by value: 1, 1.0 and 1.00 are equal, as are 0.0 and -0.0. */
  static int compare(Object a, Object b) {
    if (isIntegral(a) && isIntegral(b)) {
      return Long.compare(((Number) a).longValue(), ((Number) b).longValue());
    }
    if (a instanceof BigDecimal || b instanceof BigDecimal) {
      return toBigDecimal(a).compareTo(toBigDecimal(b));
    }
    return Double.compare(((Number) a).doubleValue() + 0.0, ((Number) b).doubleValue() + 0.0);
  }

  private static boolean isIntegral(Object o) {
    return o instanceof Integer || o instanceof Long || o instanceof Short || o instanceof Byte;
  }

  private static BigDecimal toBigDecimal(Object o) {
    return o instanceof BigDecimal d ? d
        : isIntegral(o) ? BigDecimal.valueOf(((Number) o).longValue())
        : new BigDecimal(((Number) o).doubleValue());
  }

  /** {@code PARETO_MIN}, as Calcite calls a user-defined aggregate. */
  public static final class Min {
    public Frontier init() {
      return new Frontier("PARETO_MIN", 1);
    }

    public Frontier add(Frontier frontier, List<?> point) {
      frontier.add(point);
      return frontier;
    }

    public List<List<Object>> result(Frontier frontier) {
      return frontier.result();
    }
  }

  /** {@code PARETO_MAX}, as Calcite calls a user-defined aggregate. */
  public static final class Max {
    public Frontier init() {
      return new Frontier("PARETO_MAX", -1);
    }

    public Frontier add(Frontier frontier, List<?> point) {
      frontier.add(point);
      return frontier;
    }

    public List<List<Object>> result(Frontier frontier) {
      return frontier.result();
    }
  }
}
