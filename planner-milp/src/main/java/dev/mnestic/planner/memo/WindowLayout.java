package dev.mnestic.planner.memo;

import dev.mnestic.planner.workload.Durations;

import java.time.Duration;

/** How a candidate's results are laid out over time (the window part of p^log). */
public sealed interface WindowLayout {
  /** Raw rows, one per event. */
  record Rows() implements WindowLayout {
    @Override public String toString() {
      return "rows";
    }
  }

  /**
   * One summary per window of the group, fed row by row: width / step summaries are open at
   * once when the window slides.
   */
  record Direct() implements WindowLayout {
    @Override public String toString() {
      return "direct";
    }
  }

  /** Each window merged from the tumbling sub-windows of width {@code sub} that tile it. */
  record Merged(Duration sub) implements WindowLayout {
    public Merged {
      if (sub.isNegative() || sub.isZero()) {
        throw new IllegalArgumentException("sub-window width must be positive");
      }
    }

    @Override public String toString() {
      return "merged from " + Durations.format(sub);
    }
  }

  /** One value per evaluation point. */
  record Pointwise() implements WindowLayout {
    @Override public String toString() {
      return "pointwise";
    }
  }
}
