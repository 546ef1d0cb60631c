package dev.mnestic.planner.physical;

import dev.mnestic.planner.workload.Durations;

import java.time.Duration;

/** How long a candidate's result is kept: one dimension of p^phys. */
public sealed interface Lifetime {
  /** Not kept: streamed into its one consumer as it is computed. */
  record None() implements Lifetime {
    @Override public String toString() {
      return "none";
    }
  }

  /** Kept in {@code medium} until the evaluation that reads it ends; read by any consumer of it. */
  record OneEvaluation(StorageMedium medium) implements Lifetime {
    @Override public String toString() {
      return "one evaluation in " + medium;
    }
  }

  /** Kept in {@code medium} for {@code keep}: results of the last {@code keep} are readable. */
  record AcrossEvaluations(StorageMedium medium, Duration keep) implements Lifetime {
    public AcrossEvaluations {
      if (keep.isNegative() || keep.isZero()) {
        throw new IllegalArgumentException("a result kept across evaluations is kept for a positive "
            + "time, not " + keep);
      }
    }

    @Override public String toString() {
      return "kept " + Durations.format(keep) + " in " + medium;
    }
  }
}
