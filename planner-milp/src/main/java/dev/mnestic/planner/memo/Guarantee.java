package dev.mnestic.planner.memo;

import dev.mnestic.planner.workload.ErrorMetric;
import dev.mnestic.planner.workload.Target;

/**
 * ε and δ: a result's error in {@code metric} is at most {@code epsilon} with probability at
 * least 1 - {@code delta}.
 */
public record Guarantee(ErrorMetric metric, double epsilon, double delta) {
  public static final Guarantee EXACT = new Guarantee(ErrorMetric.EXACT, 0, 0);

  public Guarantee {
    if (!(epsilon >= 0) || !(delta >= 0 && delta < 1)) {
      throw new IllegalArgumentException("ε must be >= 0 and δ in [0, 1): " + epsilon + ", " + delta);
    }
    if (metric == ErrorMetric.EXACT && (epsilon != 0 || delta != 0)) {
      throw new IllegalArgumentException("an exact guarantee has ε = δ = 0");
    }
  }

  /**
   * The guarantee of a / b for a within {@code numerator} and b within {@code denominator}, both
   * relative value errors (or exact): |a'/b' - a/b| ≤ (ε_a + ε_b) / (1 - ε_b) · |a/b|; the
   * failure probabilities add (union bound).
   */
  public static Guarantee ratio(Guarantee numerator, Guarantee denominator) {
    for (Guarantee g : new Guarantee[] {numerator, denominator}) {
      if (!g.metric.bounds(ErrorMetric.RELATIVE_VALUE)) {
        throw new IllegalArgumentException("a ratio's relative error needs relative errors of its "
            + "operands, not " + g.metric.phrase);
      }
    }
    if (numerator.metric == ErrorMetric.EXACT && denominator.metric == ErrorMetric.EXACT) {
      return EXACT;
    }
    final double b = denominator.epsilon;
    if (!(b < 1)) {
      throw new IllegalArgumentException("a denominator within relative error " + b
          + " may be 0: the ratio is unbounded");
    }
    return new Guarantee(ErrorMetric.RELATIVE_VALUE, (numerator.epsilon + b) / (1 - b),
        Math.min(numerator.delta + denominator.delta, 0.999999));
  }

  /** Whether this guarantee meets {@code target}: its metric, ε within ε_q, δ within δ_q. */
  public boolean meets(Target target) {
    return metric.bounds(target.metric()) && epsilon <= target.bound() && delta <= target.failure();
  }

  /**
   * As a record's own equals (each component by {@code ==}, the doubles by {@link Double#compare}),
   * written out: the generated one goes through a method handle, which C1 alone (what
   * {@code bin/mnestic plan} runs) does not inline; comparing levels in the trees' dynamic
   * programme was then three fifths of growing the plans in a fresh JVM.
   */
  @Override public boolean equals(Object o) {
    return o == this || o instanceof Guarantee g && metric == g.metric
        && Double.compare(epsilon, g.epsilon) == 0 && Double.compare(delta, g.delta) == 0;
  }

  @Override public int hashCode() {
    return (31 * metric.hashCode() + Double.hashCode(epsilon)) * 31 + Double.hashCode(delta);
  }

  @Override public String toString() {
    return metric == ErrorMetric.EXACT ? "exact"
        : String.format("%s ε=%.5g δ=%.3g", metric.phrase, epsilon, delta);
  }
}
