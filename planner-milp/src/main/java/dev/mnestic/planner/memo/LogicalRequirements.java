package dev.mnestic.planner.memo;

import dev.mnestic.planner.workload.ErrorMetric;

/**
 * r^log_{c,i}: what consumer c needs of the producer on its input i, one field per dimension.
 * {@code parameterFloorForRequiredAccuracy} bounds θ; {@code errorMetric}, when not null, is the
 * metric the producer's error must be stated in (the metric rule: a ratio needs relative value
 * errors of its operands).
 */
public record LogicalRequirements(ParameterFloor parameterFloorForRequiredAccuracy,
    ErrorMetric errorMetric) {
  public static final LogicalRequirements ANY = new LogicalRequirements(new ParameterFloor.Any(), null);

  /** α^log's reason to reject a producer with properties {@code p}, or null when it satisfies. */
  public String rejects(LogicalProperties p) {
    final Parameters theta = p.parameters();
    if (errorMetric != null && !theta.metric().bounds(errorMetric)) {
      return theta.metric().phrase + " does not bound " + errorMetric.phrase + " (metric rule)";
    }
    return parameterFloorForRequiredAccuracy.rejects(theta);
  }

  @Override public String toString() {
    return errorMetric == null ? "θ " + parameterFloorForRequiredAccuracy
        : "θ " + parameterFloorForRequiredAccuracy + ", " + errorMetric.phrase;
  }
}
