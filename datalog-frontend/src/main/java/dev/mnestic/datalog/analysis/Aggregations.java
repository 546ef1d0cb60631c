package dev.mnestic.datalog.analysis;

import dev.mnestic.value.Aggregators;

import java.util.Set;

/** CozoDB's aggregations, by kind. */
public final class Aggregations {
  /**
   * The meet aggregations: idempotent, commutative and associative, so they
   * may run inside their own recursion, keeping each group's best value.
   */
  public static final Set<String> MEET = Set.copyOf(Aggregators.meetNames());

  private Aggregations() {
  }
}
