package dev.mnestic.planner.workload;

import java.time.Duration;

/**
 * A metric: the {@code valueColumn} of the store's table {@code table}, timestamped by
 * {@code timeColumn}. {@code rowsPerSecond} is its ingest rate and {@code rawRetention} how long
 * the store keeps its rows (an evaluation-time computation over rows older than that is
 * impossible); the cost model reads both. Values are expected within [{@code minValue},
 * {@code maxValue}], which sizes a DDSketch.
 */
public record Metric(String name, String table, String timeColumn, String valueColumn,
    double rowsPerSecond, Duration rawRetention, double minValue, double maxValue) {
  public Metric {
    if (!(rowsPerSecond > 0)) {
      throw new IllegalArgumentException("metric " + name + ": rate must be positive");
    }
    if (!(minValue > 0 && maxValue > minValue)) {
      throw new IllegalArgumentException("metric " + name + ": value range must be 0 < min < max");
    }
  }
}
