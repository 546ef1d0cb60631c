package dev.mnestic.value;

import java.util.Collection;

/**
 * A bounded-meet aggregation: per group it keeps a set of survivors, the
 * values that the group's other values do not beat, and each survivor is a
 * row of its own. {@code pareto_min} and {@code pareto_max} keep the points
 * no other point dominates ({@link Pareto}); a host's own dominance keeps
 * an {@link Antichain};
 * {@code min_cost_k} the k cheapest derivations ({@link MinCostK}).
 *
 * <p>Such an aggregation may run inside its own recursion: a value, once
 * beaten, stays beaten (the order is transitive), so a group's survivors
 * only ever improve, and a round's change is the survivors it added. Its
 * head has it as its only aggregation, in the last position.
 */
public interface BoundedMeet {
  /** The aggregation's name, as a script writes it. */
  String name();

  /** A group's survivors, none yet. */
  Survivors survivors();

  /** One group's survivors. */
  interface Survivors {
    /**
     * Offers a value: it joins the survivors (and the survivors it beats
     * leave) unless a survivor beats it or it is one already.
     *
     * @return whether it joined
     * @throws ValueException for a value the aggregation does not take
     */
    boolean offer(Object value);

    /** Whether {@code value} is a survivor now. */
    boolean contains(Object value);

    /** The survivors, in the aggregation's canonical order. */
    Collection<Object> values();
  }

  /**
   * The error for an operand the aggregation cannot take, with the code
   * {@code mnestic::aggregate_operand} that evaluation completes with the rule's name and
   * place.
   */
  static ValueException badOperand(String name, String expected, Object value) {
    return new ValueException(ErrorCode.MNESTIC_AGGREGATE_OPERAND, "'" + name + "' takes "
        + expected + ", got " + Values.display(value), null);
  }
}
