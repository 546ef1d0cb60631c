package dev.mnestic.runtime;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The true φ-quantile of a window and an answer's errors against it, as README.md ("Standing
 * quantile queries") defines them, worked out from the window's values sorted here: the tests'
 * oracle for every summary family, written apart from {@link Sketches}.
 *
 * <p>The true φ-quantile of n values is the r-th smallest, r = ⌈φ·n⌉ (1-based), r = 1 for
 * φ = 0. A value v holds every rank in [#(&lt; v) + 1, #(≤ v)], so one of several equal values
 * holds them all.
 */
public final class TrueQuantile {
  private TrueQuantile() {
  }

  /** r = ⌈φ·n⌉, at least 1, of φ as written ({@code "0.999"}). */
  public static int rank(String phi, int n) {
    return Math.max(1, new BigDecimal(phi).multiply(BigDecimal.valueOf(n))
        .setScale(0, RoundingMode.CEILING).intValueExact());
  }

  /** The true φ-quantile of {@code sorted}: its r-th smallest. */
  public static double value(double[] sorted, String phi) {
    return sorted[rank(phi, sorted.length) - 1];
  }

  /** {@link #value(double[], String)} of φ as it prints. */
  public static double value(double[] sorted, double phi) {
    return value(sorted, Double.toString(phi));
  }

  /**
   * The rank error of {@code answer}: the distance from r to the ranks it holds, over n (0 when
   * it holds r; a value not among {@code sorted} holds none, and is as far as the next one).
   */
  public static double rankError(double[] sorted, String phi, double answer) {
    final int r = rank(phi, sorted.length);
    int below = 0;
    int atOrBelow = 0;
    for (double v : sorted) {
      below += v < answer ? 1 : 0;
      atOrBelow += v <= answer ? 1 : 0;
    }
    return Math.max(0, Math.max(below + 1 - r, r - atOrBelow)) / (double) sorted.length;
  }

  /** {@link #rankError(double[], String, double)} of φ as it prints. */
  public static double rankError(double[] sorted, double phi, double answer) {
    return rankError(sorted, Double.toString(phi), answer);
  }

  /**
   * Whether |answer - truth| ≤ α·|truth| (so a true 0 is met by 0 alone), up to the rounding of
   * a double: DDSketch answers a value at a bucket's lower bound b with (1 + α)·b rounded, which
   * may land an ulp beyond (1.0 within 0.01: 1.01, and 1.01 - 1.0 is 0.010000000000000009).
   */
  public static boolean withinRelative(double truth, double answer, double alpha) {
    return Math.abs(answer - truth)
        <= alpha * Math.abs(truth) + 2 * Math.ulp(Math.max(Math.abs(truth), Math.abs(answer)));
  }

  /**
   * The most of {@code w} independent windows that may miss a target met with probability at
   * least 1 - δ each, but for 10^-9: the smallest m with P(Binomial(w, δ) > m) ≤ 10^-9. A test
   * allowing m failures then fails wrongly once in 10^9 runs at worst.
   */
  public static int allowedFailures(int w, double delta) {
    double pmf = Math.pow(1 - delta, w);
    double atMost = pmf;
    int m = 0;
    while (1 - atMost > 1e-9 && m < w) {
      pmf *= (double) (w - m) / (m + 1) * delta / (1 - delta);
      atMost += pmf;
      m++;
    }
    return m;
  }
}
