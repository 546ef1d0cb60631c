package dev.mnestic.planner.memo;

/** The least accurate θ a consumer can read on one input. */
public sealed interface ParameterFloor {
  /** Why {@code p} fails this floor, or null when it satisfies it. */
  String rejects(Parameters p);

  /** Any θ. */
  record Any() implements ParameterFloor {
    @Override public String rejects(Parameters p) {
      return null;
    }

    @Override public String toString() {
      return "any";
    }
  }

  /**
   * A KLL of size at least k: merging KLL sketches whose least k is at least k leaves the
   * merged sketch within the rank error of k.
   */
  record KllAtLeast(int k) implements ParameterFloor {
    @Override public String rejects(Parameters p) {
      if (!(p instanceof Parameters.Kll kll)) {
        return "needs a KLL, not " + p;
      }
      return kll.k() >= k ? null : "KLL k=" + kll.k() + " < k=" + k + ": the merge would lose accuracy";
    }

    @Override public String toString() {
      return "KLL k>=" + k;
    }
  }

  /** A DDSketch of exactly this α: DDSketches merge only when they share one index mapping. */
  record DdSketchEqual(double alpha) implements ParameterFloor {
    @Override public String rejects(Parameters p) {
      if (!(p instanceof Parameters.DdSketch dd)) {
        return "needs a DDSketch, not " + p;
      }
      return dd.alpha() == alpha ? null : "DDSketch merge needs one index mapping: α=" + dd.alpha()
          + " is not α=" + alpha;
    }

    @Override public String toString() {
      return "DDSketch α=" + alpha;
    }
  }

  /** Every value. */
  record ExactValues() implements ParameterFloor {
    @Override public String rejects(Parameters p) {
      return p instanceof Parameters.Exact ? null : "needs every value, not " + p;
    }

    @Override public String toString() {
      return "exact";
    }
  }

  /** The floor a merge into θ needs of each sub-window it reads. */
  static ParameterFloor forMergeInto(Parameters.Fixed theta) {
    if (theta instanceof Parameters.Kll kll) {
      return new KllAtLeast(kll.k());
    }
    if (theta instanceof Parameters.DdSketch dd) {
      return new DdSketchEqual(dd.alpha());
    }
    return new ExactValues();
  }
}
