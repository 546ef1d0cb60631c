package dev.mnestic.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    return timeAfter(() -> null, work);
  }

  /** As {@link #time}, each run of {@code work} right after {@code before}, which is not timed. */
  <T> Timing<T> timeAfter(Callable<?> before, Callable<T> work) throws Exception {
    T result = null;
    for (int i = 0; i < warmups; i++) {
      before.call();
      result = check(result, work.call());
    }
    final double[] seconds = new double[runs];
    for (int i = 0; i < runs; i++) {
      before.call();
      final long start = System.nanoTime();
      final T r = work.call();
      seconds[i] = (System.nanoTime() - start) / 1e9;
      result = check(result, r);
    }
    return new Timing<>(median(seconds), result);
  }

  /**
   * Times contenders side by side: each round runs every contender once, in
   * order, so that a change of load on the machine falls on all of them
   * alike; the warm-up rounds are not timed. A contender that throws
   * {@link Stopped} (it passed the time cap, or failed) is not run again,
   * and its outcome says why.
   */
  <T> List<Outcome<T>> interleaved(List<Contender<T>> contenders) throws Exception {
    return interleaved(contenders, 0);
  }

  /**
   * As {@link #interleaved(List)}, but the last {@code timedOnly} contenders
   * sit out the warm-up rounds: peers warmed up before, whose runs are too
   * long to repeat through every warm-up round of the others.
   */
  <T> List<Outcome<T>> interleaved(List<Contender<T>> contenders, int timedOnly)
      throws Exception {
    final int n = contenders.size();
    final List<List<Double>> seconds = new ArrayList<>();
    final List<T> results = new ArrayList<>();
    final String[] stopped = new String[n];
    for (int i = 0; i < n; i++) {
      seconds.add(new ArrayList<>());
      results.add(null);
    }
    for (int round = 0; round < warmups + runs; round++) {
      for (int i = 0; i < n; i++) {
        if (stopped[i] != null || round < warmups && i >= n - timedOnly) {
          continue;
        }
        final long start = System.nanoTime();
        final T r;
        try {
          r = contenders.get(i).run();
        } catch (Stopped e) {
          stopped[i] = String.format(java.util.Locale.ROOT, "%s after %.0f s",
              e.getMessage(), (System.nanoTime() - start) / 1e9);
          continue;
        }
        final double s = (System.nanoTime() - start) / 1e9;
        results.set(i, check(results.get(i), r));
        if (round >= warmups) {
          seconds.get(i).add(s);
        }
      }
    }
    final List<Outcome<T>> outcomes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      outcomes.add(stopped[i] != null
          ? new Outcome<>(Double.NaN, results.get(i), stopped[i])
          : new Outcome<>(median(seconds.get(i).stream().mapToDouble(Double::doubleValue).toArray()),
              results.get(i), null));
    }
    return outcomes;
  }

  private static double median(double[] seconds) {
    Arrays.sort(seconds);
    return seconds[seconds.length / 2];
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

  /** One of several things timed side by side. */
  @FunctionalInterface
  interface Contender<T> {
    /** Runs once and returns the answer; throws {@link Stopped} when it passed the cap or failed. */
    T run() throws Exception;
  }

  /** A contender was stopped: a run passed the time cap, or failed; the message says which. */
  static final class Stopped extends Exception {
    Stopped(String message) {
      super(message);
    }
  }

  /**
   * A contender's median seconds and answer; when it was stopped,
   * {@code seconds} is NaN, {@code stopped} says why and after how long, and
   * {@code result} is what an earlier run answered, if any.
   */
  record Outcome<T>(double seconds, T result, String stopped) {
  }
}
