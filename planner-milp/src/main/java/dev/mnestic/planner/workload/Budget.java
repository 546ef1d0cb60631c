package dev.mnestic.planner.workload;

/**
 * An optional resource budget (constraint (B)): the chosen plan's total of {@code resource}
 * at most {@code limit}.
 */
public record Budget(Resource resource, double limit) {
  /** What a budget limits. */
  public enum Resource {
    /** Bytes of sketches and results held in the JVM heap. */
    HEAP_BYTES,
    /** Bytes of sketches and results held in the store. */
    STORE_BYTES,
    /** CPU nanoseconds spent per second of ingested time. */
    CPU_NANOS_PER_SECOND
  }

  public Budget {
    if (!(limit > 0)) {
      throw new IllegalArgumentException("a budget must be positive: " + limit);
    }
  }
}
