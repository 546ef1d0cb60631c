package dev.mnestic.planner.workload;

/** The expression of a standing query: the spec's PromQL forms. */
public sealed interface QueryExpr {
  /** {@code quantile_over_time(phi, metric[width])}, evaluated on the query's schedule. */
  record Quantile(double phi, String metric, Window window) implements QueryExpr {
    public Quantile {
      if (!(phi >= 0 && phi <= 1)) {
        throw new IllegalArgumentException("quantile must be in [0, 1]: " + phi);
      }
    }

    @Override public String toString() {
      return "quantile_over_time(" + phi + ", " + metric + "[" + Durations.format(window.width())
          + "])";
    }
  }

  /** {@code numerator / denominator}, both quantiles. */
  record Ratio(Quantile numerator, Quantile denominator) implements QueryExpr {
    @Override public String toString() {
      return numerator + " / " + denominator;
    }
  }
}
