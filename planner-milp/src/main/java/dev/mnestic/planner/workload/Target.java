package dev.mnestic.planner.workload;

/**
 * A query's accuracy target: its answer's error, in {@code metric}, at most {@code bound} (ε_q),
 * except with probability at most {@code failure} (δ_q; 1 when only the error is stated, 0 for
 * an exact target).
 */
public record Target(ErrorMetric metric, double bound, double failure) {
  public Target {
    if (metric == ErrorMetric.EXACT) {
      if (bound != 0 || failure != 0) {
        throw new IllegalArgumentException("an exact target has bound 0 and failure probability 0");
      }
    } else if (!(bound > 0 && bound < 1)) {
      throw new IllegalArgumentException(metric.phrase + " target must be in (0, 1): " + bound);
    } else if (!(failure >= 0 && failure <= 1)) {
      throw new IllegalArgumentException("a failure probability must be in [0, 1]: " + failure);
    }
  }

  /** A target on the error alone, with any failure probability (exact: none). */
  public Target(ErrorMetric metric, double bound) {
    this(metric, bound, metric == ErrorMetric.EXACT ? 0 : 1);
  }

  @Override public String toString() {
    return metric == ErrorMetric.EXACT ? "exact" : metric.phrase + " " + bound
        + (failure < 1 ? " with probability " + (1 - failure) : "");
  }
}
