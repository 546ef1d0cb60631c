package dev.mnestic.planner.workload;

/**
 * What an accuracy guarantee bounds. Rank error and relative value error do not bound each
 * other (the metric rule): a KLL sketch's rank error says nothing about how far a quantile's
 * value, or a ratio of two of them, is off, and a DDSketch's relative error says nothing about
 * ranks. An exact answer satisfies either.
 */
public enum ErrorMetric {
  /**
   * The answer holds a rank within ε·n of the true φ-quantile's, ⌈φ·n⌉ of n values (a value v
   * holds ranks #(&lt; v) + 1 to #(≤ v)), with probability at least 1 - δ.
   */
  RANK("rank error"),
  /**
   * |answer - true| ≤ ε·|true|, true the ⌈φ·n⌉-th smallest value, with probability at least
   * 1 - δ.
   */
  RELATIVE_VALUE("relative error"),
  /** No error at all. */
  EXACT("exact");

  public final String phrase;

  ErrorMetric(String phrase) {
    this.phrase = phrase;
  }

  /** Whether a guarantee of this metric can meet a target or requirement stated in {@code m}. */
  public boolean bounds(ErrorMetric m) {
    return this == EXACT || this == m;
  }
}
