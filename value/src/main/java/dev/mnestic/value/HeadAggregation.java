package dev.mnestic.value;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Supplier;

/**
 * The aggregation of one rule head, resolved once when a script is lowered
 * ({@link HostAggregations#resolve}): per column a grouping key or an
 * aggregation, with its implementation looked up and its argument parsed,
 * and how the head as a whole aggregates. Plans carry it and hand it to the
 * runtime as it is; its text ({@link #toString}) is the list of its specs,
 * as {@code [null, min_cost_k(3)]}, and two heads are equal when their specs
 * are.
 *
 * <p>Exactly one way of aggregating is resolved: the
 * {@linkplain #boundedMeetKind bounded-meet} one (the last column's
 * {@link BoundedMeet}), else the {@linkplain #meetKind meet} one (a
 * {@link Aggregators.Meet} per aggregated column), else, for a head with any
 * aggregation, the normal one (a factory of one group's
 * {@link Aggregators.Aggregator} per aggregated column).
 */
public final class HeadAggregation {
  private final List<String> specs;
  private final boolean meetKind;
  private final boolean boundedMeetKind;
  private final boolean orderBlind;
  /** Per column a normal aggregator's factory, null for a key; null unless of normal kind. */
  private final List<Supplier<? extends Aggregators.Aggregator>> factories;
  /** Per column a meet, null for a key; null unless of meet kind. */
  private final List<Aggregators.Meet> meets;
  /** The last column's; null unless of bounded-meet kind. */
  private final BoundedMeet boundedMeet;

  HeadAggregation(List<String> specs, boolean meetKind, boolean boundedMeetKind,
      boolean orderBlind, List<Supplier<? extends Aggregators.Aggregator>> factories,
      List<Aggregators.Meet> meets, BoundedMeet boundedMeet) {
    this.specs = Collections.unmodifiableList(new ArrayList<>(specs));
    this.meetKind = meetKind;
    this.boundedMeetKind = boundedMeetKind;
    this.orderBlind = orderBlind;
    this.factories = factories;
    this.meets = meets;
    this.boundedMeet = boundedMeet;
  }

  /** Per column, the aggregation's spec ({@link Aggregators#spec}), or null for a grouping key. */
  public List<String> specs() {
    return specs;
  }

  /** Number of the head's columns. */
  public int width() {
    return specs.size();
  }

  /** Whether column {@code i} is a grouping key. */
  public boolean isKey(int i) {
    return specs.get(i) == null;
  }

  /** Whether some column is aggregated; without, the head means its distinct rows. */
  public boolean aggregated() {
    return specs.stream().anyMatch(s -> s != null);
  }

  /** Whether every column is aggregated: all rows are one group. */
  public boolean noKeys() {
    return specs.stream().allMatch(s -> s != null);
  }

  /** As {@link Aggregators#meetKind}, registered aggregations included. */
  public boolean meetKind() {
    return meetKind;
  }

  /** As {@link Aggregators#boundedMeetKind}, registered aggregations included. */
  public boolean boundedMeetKind() {
    return boundedMeetKind;
  }

  /** As {@link HostAggregations#orderBlind}: whether the order of the values cannot matter. */
  public boolean orderBlind() {
    return orderBlind;
  }

  /**
   * A fresh normal aggregator for column {@code i}, or null for a grouping key.
   *
   * @throws IllegalStateException for a head of meet or bounded-meet kind
   */
  public Aggregators.Aggregator create(int i) {
    if (factories == null) {
      throw new IllegalStateException("a head of meet kind has no normal aggregators: " + this);
    }
    final Supplier<? extends Aggregators.Aggregator> factory = factories.get(i);
    return factory == null ? null : factory.get();
  }

  /**
   * The meet form of column {@code i}, or null for a grouping key.
   *
   * @throws IllegalStateException for a head not of meet kind
   */
  public Aggregators.Meet meet(int i) {
    if (meets == null) {
      throw new IllegalStateException("not a head of meet kind: " + this);
    }
    return meets.get(i);
  }

  /**
   * The last column's bounded-meet aggregation.
   *
   * @throws IllegalStateException for a head not of bounded-meet kind
   */
  public BoundedMeet boundedMeet() {
    if (boundedMeet == null) {
      throw new IllegalStateException("not a head of bounded-meet kind: " + this);
    }
    return boundedMeet;
  }

  @Override public boolean equals(Object o) {
    return o instanceof HeadAggregation h && specs.equals(h.specs);
  }

  @Override public int hashCode() {
    return specs.hashCode();
  }

  /** The specs' list, as plans have always shown a head's aggregations. */
  @Override public String toString() {
    return specs.toString();
  }
}
