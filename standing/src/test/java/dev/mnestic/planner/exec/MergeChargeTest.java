package dev.mnestic.planner.exec;

import dev.mnestic.planner.cost.CostModel;
import dev.mnestic.planner.workload.Window;
import dev.mnestic.runtime.Sketches;
import dev.mnestic.runtime.TrueQuantile;

import org.apache.calcite.DataContext;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16 (point 3): a merge kept between reads is charged as it is executed. A
 * dashboard read every step, after that step's rows, over random tumbling and sliding merges
 * (width, step and sub-window drawn), of a KLL and of a DDSketch: each read remakes the width /
 * step windows holding the step's sub-windows and merges, for them all, as many sub-window
 * summaries as {@link CostModel#mergesPerStep} charges a step (a window's p, once the table
 * spans a window; before, the sub-windows there are), and every window read is the true
 * quantile of its rows, sorted here (the KLL keeps every value of a window this small), or
 * within the DDSketch's relative accuracy of it.
 */
class MergeChargeTest {
  private static final long MINUTE = 60_000;
  private static final List<Double> PHIS = List.of(0.0, 0.5, 0.9, 0.99, 1.0);
  /** More than a window's values: the KLL holds them all, so it answers exactly. */
  private static final int K = 2000;
  private static final double ALPHA = 0.01;

  /**
   * A KLL and a DDSketch of windows {@code width} wide every {@code step}, each merged from
   * sub-windows {@code sub} long built by a summary of its own.
   */
  private static List<Sketches.Summary> summaries(long sub, long step, long width) {
    return List.of(
        new Sketches.Summary(Sketches.Family.KLL, K, sub, sub, 0, List.of(), -1, 0),
        new Sketches.Summary(Sketches.Family.KLL, K, width, step, sub, PHIS, 0, 0),
        new Sketches.Summary(Sketches.Family.DDSKETCH, ALPHA, sub, sub, 0, List.of(), -1, 0),
        new Sketches.Summary(Sketches.Family.DDSKETCH, ALPHA, width, step, sub, PHIS, 2, 0));
  }

  @Test void aReadEveryStepMergesWhatTheCostModelCharges() {
    final Random r = new Random(16);
    for (int trial = 0; trial < 30; trial++) {
      final long sub = MINUTE * (1 + r.nextInt(3));
      final long step = sub * (1 + r.nextInt(3));
      final long width = step * (1 + r.nextInt(6));
      final String what = "trial " + trial + ": width " + width / MINUTE + "m every "
          + step / MINUTE + "m from " + sub / MINUTE + "m";
      final List<Sketches.Summary> summaries = summaries(sub, step, width);
      final Sketches.State state = new Sketches.State(summaries);
      final long p = width / sub;
      final long charged = Math.round(CostModel.mergesPerStep(
          new Window(Duration.ofMillis(width), Duration.ofMillis(step)), Duration.ofMillis(sub)));
      assertEquals(p, charged, what);
      final List<double[]> table = new ArrayList<>();
      final int steps = (int) (width / step) + 3 + r.nextInt(4);
      for (int k = 0; k < steps; k++) {
        // every sub-window of the step gets rows, in no time order within the step
        for (long start = k * step; start < (k + 1) * step; start += sub) {
          for (int i = 2 + r.nextInt(8); i > 0; i--) {
            final double[] row = {start + r.nextInt((int) sub),
                Math.round(Math.exp(2 + r.nextGaussian()) * 4) / 4.0};
            table.add(row);
            state.add((long) row[0], row[1]);
          }
        }
        final long[] merged = new long[summaries.size()];
        final long[] remade = new long[summaries.size()];
        final List<Object[]> reads = read(state, merged, remade);
        if (k > 0) {
          final long expected = Math.min(p, (k + 1) * step / sub);
          assertEquals(expected, merged[1], what + ", read " + k + ": KLL sub-windows merged");
          assertEquals(expected, merged[3], what + ", read " + k + ": DDSketch sub-windows merged");
          if ((k + 1) * step >= width) {
            assertEquals(charged, merged[1], what + ", read " + k);
          }
          assertEquals(width / step, remade[1], what + ", read " + k + ": windows remade");
          assertEquals(width / step, remade[3], what + ", read " + k + ": windows remade");
        }
        check(reads, summaries, table, what + ", read " + k);
      }
    }
  }

  /**
   * A first read over a history of many steps (some sub-windows without rows) makes every
   * window: those ending before the first step end at or after the latest sub-window's end L
   * each merge the sub-windows holding rows under them, and those from that end on (which all
   * hold the latest sub-window) merge the sub-windows from theirs back to the first of the
   * earliest of them once, counted here from the rows' times (StandingQueryCancelTest counts
   * its slow pass so); every window is the true quantile of its rows.
   */
  @Test void aFirstReadMergesEachEarlierWindowFromItsSubWindows() {
    final Random r = new Random(1603);
    for (int trial = 0; trial < 30; trial++) {
      final long sub = MINUTE * (1 + r.nextInt(3));
      final long step = sub * (1 + r.nextInt(3));
      final long width = step * (1 + r.nextInt(6));
      final String what = "trial " + trial + ": width " + width / MINUTE + "m every "
          + step / MINUTE + "m from " + sub / MINUTE + "m";
      final List<Sketches.Summary> summaries = summaries(sub, step, width);
      final Sketches.State state = new Sketches.State(summaries);
      final List<double[]> table = new ArrayList<>();
      final TreeSet<Long> parts = new TreeSet<>();
      final long span = step * (width / step + 2 + r.nextInt(12));
      for (long start = 0; start < span; start += sub) {
        if (start > 0 && r.nextInt(4) == 0) {
          continue;
        }
        parts.add(start);
        for (int i = 1 + r.nextInt(6); i > 0; i--) {
          final double[] row = {start + r.nextInt((int) sub),
              Math.round(Math.exp(2 + r.nextGaussian()) * 4) / 4.0};
          table.add(row);
        }
      }
      Collections.shuffle(table, r);
      table.forEach(row -> state.add((long) row[0], row[1]));
      // the windows holding a row, and the sub-windows each merges
      final long latest = parts.last() + sub;
      final long tailFrom = Math.floorDiv(latest + step - 1, step) * step;
      long expected = parts.subSet(tailFrom - width, latest).size();
      for (long end = step; end < tailFrom; end += step) {
        expected += parts.subSet(end - width, end).size();
      }
      final long[] merged = new long[summaries.size()];
      final List<Object[]> reads = read(state, merged, new long[summaries.size()]);
      assertEquals(expected, merged[1], what + ": KLL sub-windows merged");
      assertEquals(expected, merged[3], what + ": DDSketch sub-windows merged");
      check(reads, summaries, table, what);
    }
  }

  /**
   * Every window of the two merges read, against its rows sorted here: the set of windows (each
   * holding a row) and each φ's value, exact for the KLL, within α for the DDSketch.
   */
  private static void check(List<Object[]> reads, List<Sketches.Summary> summaries,
      List<double[]> table, String what) {
    for (int s : new int[] {1, 3}) {
      final Sketches.Summary summary = summaries.get(s);
      final TreeSet<Long> ends = new TreeSet<>();
      for (double[] row : table) {
        final long t = (long) row[0];
        for (long end = Math.floorDiv(t, summary.step()) * summary.step() + summary.step();
            end - summary.width() <= t; end += summary.step()) {
          ends.add(end);
        }
      }
      final TreeMap<Long, Integer> answered = new TreeMap<>();
      for (Object[] read : reads) {
        if ((int) read[0] != s) {
          continue;
        }
        final long end = (long) read[1];
        answered.merge(end, 1, Integer::sum);
        final double[] window = table.stream()
            .filter(row -> row[0] >= end - summary.width() && row[0] < end)
            .mapToDouble(row -> row[1]).sorted().toArray();
        final double truth = TrueQuantile.value(window, (double) read[2]);
        final double answer = (double) read[3];
        if (summary.family() == Sketches.Family.KLL) {
          assertEquals(truth, answer, what + ", KLL window ending " + end + " φ " + read[2]);
        } else {
          assertTrue(Math.abs(answer - truth) <= ALPHA * Math.abs(truth) * (1 + 1e-9),
              what + ", DDSketch window ending " + end + " φ " + read[2] + ": " + answer
                  + " against " + truth);
        }
      }
      assertEquals(ends, answered.navigableKeySet(), what + ": windows of summary " + s);
      answered.values().forEach(n -> assertEquals(PHIS.size(), n, what));
    }
  }

  /** Every read of {@code state}, with what each summary merged and remade. */
  private static List<Object[]> read(Sketches.State state, long[] merged, long[] remade) {
    final Map<String, Object> context = new HashMap<>();
    context.put(DataContext.Variable.CANCEL_FLAG.camelName, new AtomicBoolean());
    context.put(Sketches.MERGED, (Consumer<long[]>) counts ->
        System.arraycopy(counts, 0, merged, 0, counts.length));
    context.put(Sketches.REMADE, (Consumer<long[]>) counts ->
        System.arraycopy(counts, 0, remade, 0, counts.length));
    final List<Object[]> out = new ArrayList<>();
    state.reads(context::get).forEach(out::add);
    return out;
  }
}
