package dev.mnestic.bench;

import java.util.Arrays;
import java.util.concurrent.Callable;

/** Warm-up, then timed runs; reports the median. */
final class Harness {
  private final int warmups;
  private final int runs;

  Harness(int warmups, int runs) {
    this.warmups = warmups;
    this.runs = runs;
  }

  /** Runs {@code work} (whose result must not change between runs) and returns the median seconds. */
  <T> Timing<T> time(Callable<T> work) throws Exception {
    T result = null;
    for (int i = 0; i < warmups; i++) {
      result = check(result, work.call());
    }
    final double[] seconds = new double[runs];
    for (int i = 0; i < runs; i++) {
      final long start = System.nanoTime();
      final T r = work.call();
      seconds[i] = (System.nanoTime() - start) / 1e9;
      result = check(result, r);
    }
    Arrays.sort(seconds);
    return new Timing<>(seconds[runs / 2], result);
  }

  private static <T> T check(T previous, T current) {
    if (previous != null && !previous.equals(current)) {
      throw new IllegalStateException("result changed between runs: " + previous + " vs " + current);
    }
    return current;
  }

  /** A median time and the result it produced. */
  record Timing<T>(double seconds, T result) {
  }
}
