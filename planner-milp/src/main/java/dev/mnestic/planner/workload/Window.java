package dev.mnestic.planner.workload;

import java.time.Duration;

/**
 * The time window a standing query aggregates over: at each evaluation point t (every
 * {@code step}) the rows with timestamps in [t - width, t). Tumbling when step equals width,
 * sliding (overlapping) when step is shorter.
 */
public record Window(Duration width, Duration step) {
  public Window {
    if (width.isNegative() || width.isZero() || step.isNegative() || step.isZero()) {
      throw new IllegalArgumentException("a window's width and step must be positive: " + this);
    }
    if (step.compareTo(width) > 0) {
      throw new IllegalArgumentException("a window's step " + Durations.format(step)
          + " is longer than its width " + Durations.format(width) + ": rows would be skipped");
    }
    if (width.toMillis() % step.toMillis() != 0) {
      throw new IllegalArgumentException("a window's width " + Durations.format(width)
          + " is not a multiple of its step " + Durations.format(step));
    }
  }

  public static Window tumbling(Duration width) {
    return new Window(width, width);
  }

  public boolean isTumbling() {
    return width.equals(step);
  }

  /** Windows open at one time per row: width / step. */
  public long overlap() {
    return width.toMillis() / step.toMillis();
  }

  /**
   * Whether each of this window's ranges is a union of whole tumbling sub-windows of width
   * {@code sub}, aligned at every evaluation point.
   */
  public boolean isUnionOf(Duration sub) {
    return sub.compareTo(width) < 0 && width.toMillis() % sub.toMillis() == 0
        && step.toMillis() % sub.toMillis() == 0;
  }

  @Override public String toString() {
    return isTumbling() ? Durations.format(width)
        : Durations.format(width) + " every " + Durations.format(step);
  }
}
