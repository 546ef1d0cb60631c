package dev.mnestic.planner.workload;

/** A query's accuracy target: its answer's error, in {@code metric}, at most {@code bound}. */
public record Target(ErrorMetric metric, double bound) {
  public Target {
    if (metric == ErrorMetric.EXACT) {
      if (bound != 0) {
        throw new IllegalArgumentException("an exact target has bound 0");
      }
    } else if (!(bound > 0 && bound < 1)) {
      throw new IllegalArgumentException(metric.phrase + " target must be in (0, 1): " + bound);
    }
  }

  @Override public String toString() {
    return metric == ErrorMetric.EXACT ? "exact" : metric.phrase + " " + bound;
  }
}
