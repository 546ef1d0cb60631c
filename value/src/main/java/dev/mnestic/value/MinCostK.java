package dev.mnestic.value;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code min_cost_k([payload, cost], k)}: per group, the k cheapest distinct
 * derivations, each a row, in cost order. A derivation is a list of two, a
 * payload and a numeric cost (Int or Float, not NaN); identical ones are
 * one. Derivations of equal cost are ordered by {@link Values}' order, so
 * which of them make the k does not depend on the order they arrive in.
 * Under that total order a derivation is beaten once k others beat it, and
 * stays beaten, so the aggregation runs inside recursion: over paths it
 * keeps each node's k shortest (walks, which a cycle of positive cost only
 * makes dearer).
 */
public final class MinCostK implements BoundedMeet {
  /** The aggregation's name. */
  public static final String NAME = "min_cost_k";

  /** Cost order, then value order: the order of a group's survivors, also in a query's result. */
  public static final Comparator<Object> ORDER = (a, b) -> {
    final int c = Pareto.compareNumbers(((List<?>) a).get(1), ((List<?>) b).get(1));
    return c != 0 ? c : Values.compare(a, b);
  };

  private final int k;

  public MinCostK(int k) {
    if (k <= 0) {
      throw new IllegalArgumentException("min_cost_k keeps a positive number, got " + k);
    }
    this.k = k;
  }

  @Override public String name() {
    return NAME;
  }

  @Override public Survivors survivors() {
    return new Cheapest();
  }

  /** The k cheapest so far, in cost order. */
  private final class Cheapest implements Survivors {
    private final TreeSet<Object> kept = new TreeSet<>(ORDER);

    @Override public boolean offer(Object value) {
      check(value);
      if (kept.size() == k && ORDER.compare(value, kept.last()) >= 0 || !kept.add(value)) {
        return false;
      }
      if (kept.size() > k) {
        kept.pollLast();
      }
      return true;
    }

    @Override public boolean contains(Object value) {
      return kept.contains(value);
    }

    @Override public Collection<Object> values() {
      return kept;
    }
  }

  private static void check(Object value) {
    if (!(value instanceof List) || ((List<?>) value).size() != 2) {
      throw BoundedMeet.badOperand(NAME, "a list of two, [payload, cost]", value);
    }
    final Object cost = ((List<?>) value).get(1);
    if (!(cost instanceof Long || cost instanceof Double) || cost instanceof Double
        && ((Double) cost).isNaN()) {
      throw BoundedMeet.badOperand(NAME, "[payload, cost] with a numeric cost (not NaN)", value);
    }
  }
}
