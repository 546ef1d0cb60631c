package dev.mnestic.value;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * A group's survivors under a strict partial order: the values no other
 * value of the group dominates, kept in {@link Values}' order (an antichain
 * has no order of its own, and arrival order would leak evaluation order
 * into the answer). Exact duplicates are one survivor.
 *
 * <p>The order must be irreflexive and transitive (so asymmetric) and pure:
 * a dominated value then stays dominated, which is what lets the
 * aggregation prune inside recursion. With assertions enabled
 * ({@code -ea}), every value offered is checked not to dominate itself, and
 * every dominance found is checked not to hold both ways; a lie is an error
 * ({@code mnestic::aggregate_order}). More survivors than {@code maxSurvivors} in one
 * group is an error ({@code mnestic::aggregate_overflow}), never a truncation: an antichain
 * has no canonical subset to cut it to.
 */
public final class Antichain implements BoundedMeet.Survivors {
  private static final boolean PROBE = Antichain.class.desiredAssertionStatus();

  /** A strict partial order on the values an aggregation takes. */
  public interface Order {
    /** Whether {@code a} dominates (beats) {@code b}. */
    boolean dominates(Object a, Object b);
  }

  private final String name;
  private final Order order;
  private final int maxSurvivors;
  private final TreeSet<Object> survivors = new TreeSet<>(Values.ORDER);

  public Antichain(String name, Order order, int maxSurvivors) {
    this.name = name;
    this.order = order;
    this.maxSurvivors = maxSurvivors;
  }

  @Override public boolean offer(Object value) {
    if (survivors.contains(value)) {
      return false;
    }
    if (PROBE && order.dominates(value, value)) {
      throw notStrict("a value dominates itself", value, value);
    }
    List<Object> beaten = null;
    for (Object s : survivors) {
      if (order.dominates(s, value)) {
        if (PROBE && order.dominates(value, s)) {
          throw notStrict("two values dominate each other", s, value);
        }
        return false;
      }
      if (order.dominates(value, s)) {
        if (beaten == null) {
          beaten = new ArrayList<>();
        }
        beaten.add(s);
      }
    }
    if (beaten != null) {
      beaten.forEach(survivors::remove);
    }
    survivors.add(value);
    if (survivors.size() > maxSurvivors) {
      throw new ValueException(ErrorCode.MNESTIC_AGGREGATE_OVERFLOW, "'" + name + "' has more than " + maxSurvivors
          + " survivors in one group (its max_survivors); an antichain has no canonical subset"
          + " to truncate to", null);
    }
    return true;
  }

  private ValueException notStrict(String what, Object a, Object b) {
    return new ValueException(ErrorCode.MNESTIC_AGGREGATE_ORDER, "the dominance of '" + name
        + "' is not a strict partial order: " + what + " (" + Values.display(a) + ", "
        + Values.display(b) + ")", null);
  }

  @Override public boolean contains(Object value) {
    return survivors.contains(value);
  }

  @Override public Collection<Object> values() {
    return survivors;
  }
}
