package dev.mnestic.datalog.analysis;

import java.util.Set;

/** CozoDB's aggregations, by kind. */
public final class Aggregations {
  /**
   * The meet aggregations: idempotent, commutative and associative, so they
   * may run inside their own recursion, keeping each group's best value.
   */
  public static final Set<String> MEET = Set.of("min", "max", "and", "or", "union",
      "intersection", "choice", "min_cost", "shortest", "bit_and", "bit_or");

  private Aggregations() {
  }
}
