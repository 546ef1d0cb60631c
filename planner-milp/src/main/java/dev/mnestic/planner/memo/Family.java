package dev.mnestic.planner.memo;

import dev.mnestic.planner.workload.ErrorMetric;

/** A summary family: the kind of state a state group holds. */
public enum Family {
  /** KLL quantile sketch (DataSketches): rank error from its k. */
  KLL(ErrorMetric.RANK),
  /** DDSketch: relative value error α. */
  DDSKETCH(ErrorMetric.RELATIVE_VALUE),
  /** The exact accumulator: every value of the window, kept. */
  EXACT_VALUES(ErrorMetric.EXACT);

  public final ErrorMetric metric;

  Family(ErrorMetric metric) {
    this.metric = metric;
  }
}
