package dev.mnestic.runtime;

import org.apache.calcite.DataContexts;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.datasketches.kll.KllSketch;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every summary family answers the φ-quantile README.md defines ({@link TrueQuantile}: the
 * ⌈φ·n⌉-th smallest non-NULL value) within its promise, over windows of 1 row upward, read from
 * {@link Sketches#windows} in tumbling, hopping and merged windows in one pass: EXACT returns it
 * in every window; DDSketch within its relative accuracy α in every window; KLL the value itself
 * on windows of at most k values (it keeps them all), and otherwise within its rank error ε in
 * all but a fraction of windows that the binomial tail of δ bounds.
 */
class QuantileDefinitionTest {
  private static final long MINUTE = 60_000;
  /** As written in SQL: 0.07 of 100 values is the 7th, where 0.07 · 100 is 7.000000000000001. */
  private static final List<String> PHIS =
      List.of("0", "0.01", "0.07", "0.5", "0.9", "0.99", "0.999", "1");
  private static final int K = 200;
  private static final double ALPHA = 0.01;

  /** Tumbling 1m, tumbling 5m (directly and merged from 1m), hopping 5m every 1m (both ways). */
  private static final long[][] LAYOUTS = {
      {MINUTE, MINUTE, 0}, {5 * MINUTE, 5 * MINUTE, 0}, {5 * MINUTE, 5 * MINUTE, MINUTE},
      {5 * MINUTE, MINUTE, 0}, {5 * MINUTE, MINUTE, MINUTE}};

  /**
   * The values of minute m, NULLs included: 1 to 40 values, then sizes around k and up to 5,000,
   * then a few small minutes, an empty one and one of NULLs alone (size -1). Shapes by minute:
   * distinct values around 0, small integers (ties, zeros), one value repeated, zero and
   * negatives, heavy-tailed; each minute has m mod 3 NULLs besides.
   */
  private static TreeMap<Long, List<Double>> minutes() {
    final Random r = new Random(16);
    final List<Integer> sizes = new ArrayList<>(IntStream.rangeClosed(1, 40).boxed().toList());
    sizes.addAll(List.of(50, 64, 99, 100, 101, 150, 199, 200, 201, 255, 256, 257, 399, 400, 401,
        500, 999, 1000, 1001, 2000, 3000, 5000, 1, 0, 2, -1, 1, 3));
    final TreeMap<Long, List<Double>> minutes = new TreeMap<>();
    for (int m = 0; m < sizes.size(); m++) {
      final List<Double> values = new ArrayList<>();
      for (int i = 0; i < sizes.get(m); i++) {
        values.add(switch (m % 5) {
          case 0 -> Math.round(r.nextGaussian() * 1e6) / 1e4;
          case 1 -> (double) r.nextInt(5);
          case 2 -> m % 2 == 0 ? 42.5 : -3.25;
          case 3 -> (double) -r.nextInt(4);
          default -> Math.exp(3 + 2 * r.nextGaussian());
        });
      }
      for (int i = 0; i < (sizes.get(m) < 0 ? 3 : m % 3); i++) {
        values.add(null);
      }
      minutes.put(m * MINUTE, values);
    }
    return minutes;
  }

  @Test void everyFamilyMeetsItsTargetByTheDefinition() {
    final TreeMap<Long, List<Double>> minutes = minutes();
    final List<Object[]> rows = new ArrayList<>();
    final Random r = new Random(61);
    minutes.forEach((start, values) -> values.forEach(
        v -> rows.add(new Object[] {start + r.nextInt((int) MINUTE), v})));
    // The pass takes rows in any order.
    Collections.shuffle(rows, r);
    final List<Double> phis = PHIS.stream().map(Double::valueOf).toList();
    final List<Sketches.Summary> summaries = new ArrayList<>();
    for (Sketches.Family family : Sketches.Family.values()) {
      final double parameter = family == Sketches.Family.KLL ? K : ALPHA;
      // the 1m windows, built from rows, are the merges' source
      final int source = summaries.size();
      for (long[] l : LAYOUTS) {
        summaries.add(new Sketches.Summary(family, parameter, l[0], l[1], l[2], phis,
            l[2] > 0 ? source : -1, 0));
      }
    }
    // answers[s]: window end -> the answer of each φ.
    final List<TreeMap<Long, double[]>> answers = new ArrayList<>();
    summaries.forEach(s -> answers.add(new TreeMap<>()));
    for (Object[] read : Sketches.windows(DataContexts.EMPTY, Linq4j.asEnumerable(rows), 0, 1,
        summaries)) {
      answers.get((int) read[0]).computeIfAbsent((long) read[1], e -> new double[PHIS.size()])
          [phis.indexOf((double) read[2])] = (double) read[3];
    }

    final double epsilon = KllSketch.getNormalizedRankError(K, false);
    for (int s = 0; s < summaries.size(); s++) {
      final Sketches.Summary summary = summaries.get(s);
      // Every window that holds a non-NULL value, and no other, is answered.
      final TreeMap<Long, double[]> expected = new TreeMap<>();
      for (long end = summary.step(); end <= minutes.lastKey() + summary.width();
          end += summary.step()) {
        final double[] window = minutes.subMap(end - summary.width(), end).values().stream()
            .flatMap(List::stream).filter(v -> v != null).mapToDouble(Double::doubleValue)
            .sorted().toArray();
        if (window.length > 0) {
          expected.put(end, window);
        }
      }
      assertEquals(expected.keySet(), answers.get(s).keySet(), summary.toString());
      // KLL's failures by class of windows that share no sketch (a merged hopping window shares
      // its sub-windows with the width / step - 1 windows either side): independent trials.
      final Map<Long, int[]> kllTrials = new TreeMap<>();
      for (Map.Entry<Long, double[]> w : expected.entrySet()) {
        final double[] window = w.getValue();
        final double[] answer = answers.get(s).get(w.getKey());
        boolean failed = false;
        for (int i = 0; i < PHIS.size(); i++) {
          final String phi = PHIS.get(i);
          final double truth = TrueQuantile.value(window, phi);
          final String at = summary + " window ending " + w.getKey() + " of " + window.length
              + " values, φ=" + phi;
          switch (summary.family()) {
            case EXACT -> assertEquals(truth, answer[i], at);
            case DDSKETCH -> assertTrue(TrueQuantile.withinRelative(truth, answer[i], ALPHA),
                at + ": " + answer[i] + " vs " + truth);
            case KLL -> {
              if (window.length <= K) {
                assertEquals(truth, answer[i], at);
              }
              failed |= TrueQuantile.rankError(window, phi, answer[i]) > epsilon;
            }
          }
        }
        if (summary.family() == Sketches.Family.KLL && window.length > K) {
          final int[] trials = kllTrials.computeIfAbsent(
              w.getKey() / summary.step() % (summary.width() / summary.step()), c -> new int[2]);
          trials[0]++;
          trials[1] += failed ? 1 : 0;
        }
      }
      for (int[] trials : kllTrials.values()) {
        // δ = 0.01, the planner's for KLL (planner-milp's Parameters.Kll.DELTA).
        assertTrue(trials[1] <= TrueQuantile.allowedFailures(trials[0], 0.01),
            summary + ": " + trials[1] + " of " + trials[0] + " windows beyond ε=" + epsilon);
      }
    }
  }
}
