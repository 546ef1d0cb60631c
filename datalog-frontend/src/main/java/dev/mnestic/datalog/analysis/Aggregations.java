package dev.mnestic.datalog.analysis;

import dev.mnestic.value.Aggregators;

import java.util.HashSet;
import java.util.Set;

/** CozoDB's aggregations, by kind. */
public final class Aggregations {
  /**
   * The aggregations that may run inside their own recursion: the meet ones
   * (idempotent, commutative and associative), keeping each group's best
   * value, and the bounded-meet ones ({@code pareto_min}, {@code pareto_max}),
   * keeping each group's survivors.
   */
  public static final Set<String> MEET = meet();

  private Aggregations() {
  }

  private static Set<String> meet() {
    final Set<String> names = new HashSet<>(Aggregators.meetNames());
    names.addAll(Aggregators.boundedMeetNames());
    return Set.copyOf(names);
  }
}
