package dev.mnestic.planner.physical;

import dev.mnestic.planner.workload.Budget;

/**
 * What one candidate costs while it runs: CPU nanoseconds per second of ingested time, and the
 * bytes it holds on average in the heap and in the store. {@link #weight} folds them into w_v.
 * A property of a physical candidate, as its timing and lifetime are: {@code cost.CostModel}
 * computes it from them, and the plan space carries it to Stage 3.
 */
public record Cost(double cpuNanosPerSecond, double heapBytes, double storeBytes) {
  public static final Cost ZERO = new Cost(0, 0, 0);

  /** Cost units per nanosecond of CPU per second: 1 per microsecond per second. */
  public static final double PER_CPU_NANO = 1e-3;
  /** Cost units per byte held in the heap: 1 per KiB. */
  public static final double PER_HEAP_BYTE = 1.0 / 1024;
  /** Cost units per byte held in the store: 1 per 16 KiB. */
  public static final double PER_STORE_BYTE = 1.0 / (16 * 1024);

  public Cost {
    if (!(cpuNanosPerSecond >= 0 && heapBytes >= 0 && storeBytes >= 0)) {
      throw new IllegalArgumentException("a cost is not negative: " + this);
    }
  }

  /** w_v: CPU, heap and store folded into one number by the rates above. */
  public double weight() {
    return cpuNanosPerSecond * PER_CPU_NANO + heapBytes * PER_HEAP_BYTE + storeBytes * PER_STORE_BYTE;
  }

  /** r_v of constraint (B): how much of a budgeted resource this uses. */
  public double of(Budget.Resource resource) {
    switch (resource) {
      case HEAP_BYTES:
        return heapBytes;
      case STORE_BYTES:
        return storeBytes;
      default:
        return cpuNanosPerSecond;
    }
  }

  public Cost plus(Cost o) {
    return new Cost(cpuNanosPerSecond + o.cpuNanosPerSecond, heapBytes + o.heapBytes,
        storeBytes + o.storeBytes);
  }
}
