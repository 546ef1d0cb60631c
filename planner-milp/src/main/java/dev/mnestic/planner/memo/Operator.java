package dev.mnestic.planner.memo;

import dev.mnestic.planner.workload.Target;

/** e_v: the operator of a candidate, over its child groups. */
public sealed interface Operator {
  /** How many child groups it reads. */
  int arity();

  /** Reads the metric's rows from the store. Group {@link GroupKey.Rows}. */
  record Scan(String metric) implements Operator {
    @Override public int arity() {
      return 0;
    }
  }

  /** Builds one summary per window from rows. Group {@link GroupKey.State}; child: rows. */
  record Build(Family family) implements Operator {
    @Override public int arity() {
      return 1;
    }
  }

  /**
   * Merges the tumbling sub-window summaries that tile each window. Group
   * {@link GroupKey.State}; child: the same family's state over the sub-windows.
   */
  record Merge(Family family) implements Operator {
    @Override public int arity() {
      return 1;
    }
  }

  /** Sorts each window's rows and reads the φ-quantile exactly. Group quantile; child: rows. */
  record SortQuantile(double phi) implements Operator {
    @Override public int arity() {
      return 1;
    }
  }

  /** Reads the φ-quantile from each window's summary. Group quantile; child: a state. */
  record Readout(double phi) implements Operator {
    @Override public int arity() {
      return 1;
    }
  }

  /** Divides two quantiles. Group ratio; children: numerator, denominator. */
  record Divide() implements Operator {
    @Override public int arity() {
      return 2;
    }
  }

  /** Hands a query its answer, within {@code target}. Group answer; child: the query's root. */
  record Answer(String query, Target target) implements Operator {
    @Override public int arity() {
      return 1;
    }
  }
}
