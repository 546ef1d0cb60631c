package dev.mnestic.planner.memo;

import dev.mnestic.planner.workload.ErrorMetric;

import org.apache.datasketches.kll.KllSketch;

/**
 * θ: a candidate's summary parameters, drawn from predefined lists ({@link ParameterLists}).
 * A {@link Fixed} θ carries its precomputed guarantee (ε, δ); an {@link Inherited} one has no
 * parameters of its own: its accuracy is composed from what it reads, along the chosen edges.
 */
public sealed interface Parameters {
  /** The metric the result's error is stated in. */
  ErrorMetric metric();

  /** Parameters that fix a guarantee on their own. */
  sealed interface Fixed extends Parameters {
    Guarantee guarantee();

    @Override default ErrorMetric metric() {
      return guarantee().metric();
    }
  }

  /**
   * KLL with size k. ε is DataSketches' own normalized rank error for a single quantile
   * ({@link KllSketch#getNormalizedRankError(int, boolean)}), which holds with 99% confidence:
   * δ = 0.01.
   */
  record Kll(int k, Guarantee guarantee) implements Fixed {
    /** The confidence of DataSketches' published KLL rank error. */
    public static final double DELTA = 0.01;

    public Kll(int k) {
      this(k, new Guarantee(ErrorMetric.RANK, checkedRankError(k), DELTA));
    }

    public Kll {
      if (guarantee.epsilon() != checkedRankError(k) || guarantee.metric() != ErrorMetric.RANK) {
        throw new IllegalArgumentException("KLL k=" + k + " has rank error "
            + checkedRankError(k) + ", not " + guarantee);
      }
    }

    private static double checkedRankError(int k) {
      if (k < 8 || k > KllSketch.MAX_K) {
        throw new IllegalArgumentException("KLL k must be in [8, " + KllSketch.MAX_K + "]: " + k);
      }
      return KllSketch.getNormalizedRankError(k, false);
    }

    @Override public String toString() {
      return "k=" + k;
    }
  }

  /** DDSketch with relative accuracy α: every quantile's value within α relative error (δ = 0). */
  record DdSketch(double alpha) implements Fixed {
    public DdSketch {
      if (!(alpha > 0 && alpha < 1)) {
        throw new IllegalArgumentException("DDSketch α must be in (0, 1): " + alpha);
      }
    }

    @Override public Guarantee guarantee() {
      return new Guarantee(ErrorMetric.RELATIVE_VALUE, alpha, 0);
    }

    @Override public String toString() {
      return "α=" + alpha;
    }
  }

  /** Every value kept: the raw rows, or the exact accumulator. */
  record Exact() implements Fixed {
    @Override public Guarantee guarantee() {
      return Guarantee.EXACT;
    }

    @Override public String toString() {
      return "exact";
    }
  }

  /** No parameters of its own; its error, in {@code metric}, comes from its inputs. */
  record Inherited(ErrorMetric metric) implements Parameters {
    @Override public String toString() {
      return "inherited " + metric.phrase;
    }
  }
}
