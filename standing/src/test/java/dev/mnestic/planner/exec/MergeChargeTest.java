package dev.mnestic.planner.exec;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.cost.CostModel;
import dev.mnestic.planner.memo.GroupKey;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.memo.WindowLayout;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.Lifetime;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.workload.Metric;
import dev.mnestic.planner.workload.Window;
import dev.mnestic.planner.workload.WorkloadParser;
import dev.mnestic.runtime.Sketches;
import dev.mnestic.runtime.TrueQuantile;

import org.apache.calcite.DataContext;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

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
  private static final ParameterLists LISTS =
      new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);
  private static final Parameters.Kll KLL_400 = new Parameters.Kll(400);
  /** The charge of a kept KLL (its largest size) over what it holds (its serialized size), at most. */
  private static final double KLL_FACTOR = 1.6;

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
          new Window(Duration.ofMillis(width), Duration.ofMillis(step)), Duration.ofMillis(sub),
          Duration.ofMillis(step)));
      assertEquals(p, charged, what);
      final List<double[]> table = new ArrayList<>();
      final int steps = (int) (width / step) + 3 + r.nextInt(4);
      for (int k = 0; k < steps; k++) {
        // every sub-window of the step gets rows, in no time order within the step
        addRows(r, table, state, k * step, (k + 1) * step, sub, () -> 2 + r.nextInt(8));
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
   * #16, point 3: a merge that another merge reads (M, tumbling windows of 2, 3 or 5 minutes
   * merged from a KLL's minutes, B) is kept as the standing plan space charges it: the reader R
   * (windows 1 to 4 times M's step wide, every 1 or 2 of M's windows, retained 2 to 10 of its
   * steps) asks ρ + lookback of M, so M's kept alternative keeps K = ρ + W - w_M and asks
   * K + w_M - 1m of B. Fed a minute's rows at a time and read every step of R, the executor holds
   * exactly the windows those candidates are charged (M's (K + w_M) / w_M, B's as many minutes)
   * and bytes within {@value #KLL_FACTOR} times their charge (the charge is KLL's largest size:
   * measured 1.15-1.48 times M's bytes held, 1.53 times B's),
   * and each read merges what the model charges a step (M: S / 1m minutes, R: W / w_M of M's
   * windows), every window read the true quantile of its rows.
   */
  @Test void aMergeOfMergesKeepsAndMergesWhatTheCostModelCharges() {
    final Random r = new Random(1617);
    for (int trial = 0; trial < 12; trial++) {
      final long mid = MINUTE * new long[] {2, 3, 5}[r.nextInt(3)];
      final long step = mid * (1 + r.nextInt(2));
      final long width = step * (1 + r.nextInt(4));
      final long retain = step * (2 + r.nextInt(9));
      final String text = "metric m from t_m(ts, v) rate 20/s raw 1d range 1..1000\n"
          + "A: quantile_over_time(0.5, m[1m]) rank error 0.01 every 1m retain 5m\n"
          + "B: quantile_over_time(0.5, m[" + mid / MINUTE + "m]) rank error 0.01 every "
          + mid / MINUTE + "m retain 5m\n"
          + "C: quantile_over_time(0.9, m[" + width / MINUTE + "m]) rank error 0.01 every "
          + step / MINUTE + "m retain " + retain / MINUTE + "m\n";
      final PlanSpace space = Planner.space(WorkloadParser.parse(text), LISTS, Execution.STANDING);
      final Duration keepM = Duration.ofMillis(retain + width - mid);
      final int m = kept(space, Operator.Merge.class, mid, keepM);
      final int b = kept(space, Operator.Build.class, MINUTE, keepM.plusMillis(mid - MINUTE));
      final Metric metric = space.workload().metric("m");
      final double bytesM = CostModel.bytes(KLL_400, metric.rowsPerSecond() * mid / 1000, metric);
      final double bytesB = CostModel.bytes(KLL_400, metric.rowsPerSecond() * 60, metric);
      final double heapM = space.costs().get(m).heapBytes();
      final double heapB = space.costs().get(b).heapBytes();
      final List<Sketches.Summary> summaries = List.of(
          new Sketches.Summary(Sketches.Family.KLL, 400, MINUTE, MINUTE, 0, List.of(), -1, 0),
          new Sketches.Summary(Sketches.Family.KLL, 400, mid, mid, MINUTE, List.of(), 0, 0),
          new Sketches.Summary(Sketches.Family.KLL, 400, width, step, mid, PHIS, 1, retain));
      final String what = "trial " + trial + ": " + text.replace('\n', ';');
      final Sketches.State state = new Sketches.State(summaries);
      final List<double[]> table = new ArrayList<>();
      final int steps = (int) ((retain + width) / step) + 2 + r.nextInt(3);
      for (int k = 0; k < steps; k++) {
        addRows(r, table, state, k * step, (k + 1) * step, MINUTE, () -> 20 * 60);
        final long[] merged = new long[3];
        read(state, merged, new long[3]);
        if ((k + 1) * step < retain + width) {
          continue;
        }
        final String at = what + " read " + k;
        // held for as far back as R reads: what the kept candidates are charged
        final long[] windows = state.windowsHeld();
        final long[] bytes = state.bytesHeld();
        assertEquals(heapM / bytesM, windows[1], 1e-9, at + ": M's windows");
        assertEquals(heapB / bytesB, windows[0], 1e-9, at + ": B's minutes");
        assertTrue(bytes[1] <= heapM && heapM <= KLL_FACTOR * bytes[1], at + ": M holds " + bytes[1]
            + " bytes, charged " + heapM);
        assertTrue(bytes[0] <= heapB && heapB <= KLL_FACTOR * bytes[0], at + ": B holds " + bytes[0]
            + " bytes, charged " + heapB);
        // merged as charged a step
        final Window mWindow = new Window(Duration.ofMillis(mid), Duration.ofMillis(mid));
        assertEquals(Math.round(CostModel.mergesPerStep(mWindow, Duration.ofMinutes(1),
            Duration.ofMillis(mid)) * step / mid),
            merged[1], at + ": minutes merged into M");
        assertEquals(Math.round(CostModel.mergesPerStep(
            new Window(Duration.ofMillis(width), Duration.ofMillis(step)), Duration.ofMillis(mid),
            Duration.ofMillis(step))),
            merged[2], at + ": M's windows merged into R");
      }
      final List<Object[]> reads = read(state, new long[3], new long[3]);
      checkKll(reads, summaries.get(2), 2, table, retain, what);
    }
  }

  /**
   * #16, point 3 (b): a KLL and a DDSketch merge read more often than every step (every r, a
   * multiple of the sub-window dividing the step) merge, over the q = step / r reads of a step,
   * what {@link CostModel#mergesPerStep} charges a step read every r (the j-th read the
   * sub-windows begun: q · p - (step / sub)(q - 1) / 2 in all), once the table spans a window;
   * every window read is the true quantile of its rows (within α for the DDSketch).
   */
  @Test void aMergeReadMoreOftenThanEveryStepMergesWhatTheCostModelCharges() {
    final Random r = new Random(1618);
    for (int trial = 0; trial < 24; trial++) {
      final long sub = MINUTE * (1 + r.nextInt(2));
      final long step = sub * (2 + r.nextInt(4));
      final long width = step * (1 + r.nextInt(4));
      final List<Long> divisors = new ArrayList<>();
      for (long every = sub; every < step; every += sub) {
        if (step % every == 0) {
          divisors.add(every);
        }
      }
      final long every = divisors.get(r.nextInt(divisors.size()));
      final Window window = new Window(Duration.ofMillis(width), Duration.ofMillis(step));
      final double charged = CostModel.mergesPerStep(window, Duration.ofMillis(sub),
          Duration.ofMillis(every));
      final String what = "trial " + trial + ": width " + width / MINUTE + "m every "
          + step / MINUTE + "m from " + sub / MINUTE + "m, read every " + every / MINUTE + "m";
      final List<Sketches.Summary> summaries = summaries(sub, step, width);
      final Sketches.State state = new Sketches.State(summaries);
      final List<double[]> table = new ArrayList<>();
      final int steps = (int) (width / step) + 2 + r.nextInt(3);
      for (int k = 0; k < steps; k++) {
        final long[] mergedInStep = new long[summaries.size()];
        for (long read = k * step + every; read <= (k + 1) * step; read += every) {
          // the rows before this read, sub-window by sub-window, in no time order within one
          addRows(r, table, state, read - every, read, sub, () -> 2 + r.nextInt(8));
          final long[] merged = new long[summaries.size()];
          final List<Object[]> reads = read(state, merged, new long[summaries.size()]);
          for (int s = 0; s < merged.length; s++) {
            mergedInStep[s] += merged[s];
          }
          check(reads, summaries, table, what + ", read at " + read / MINUTE + "m");
        }
        if ((k + 1) * step >= width) {
          assertEquals(charged, mergedInStep[1], 1e-9, what + ", step " + k + ": KLL merges");
          assertEquals(charged, mergedInStep[3], 1e-9, what + ", step " + k + ": DDSketch merges");
        }
      }
    }
  }

  /**
   * #16, point 3 (b): exact windows kept and read by a standing query, a sliding build over
   * cells of its step or a merge of exact sub-windows (read every step, or every r for a merge,
   * a multiple of its sub-window dividing the step), with 1 to 4 φs and rates from a row a
   * minute to several a second, so that some reads select and others sweep: in each step, once
   * the table spans a window, the values the executor counted into and out of its index and the
   * φ values it selected are what {@link CostModel#exactReads} charges (selections per φ, times
   * the φs read), with the same choice; every window read is its rows' true quantile, sorted
   * here.
   */
  @Test void exactKeptReadsCountAndSelectWhatTheCostModelCharges() {
    final Random r = new Random(1619);
    final double[] rates = {1 / 60.0, 0.1, 0.5, 2, 5};
    int selecting = 0;
    int sweeping = 0;
    for (int trial = 0; trial < 24; trial++) {
      final boolean merge = r.nextBoolean();
      final long sub = MINUTE * (1 + r.nextInt(2));
      final long step = merge ? sub * (1 + r.nextInt(4)) : MINUTE * (1 + r.nextInt(3));
      final long width = step * (merge ? 1 + r.nextInt(4) : 2 + r.nextInt(5));
      final long cell = merge ? sub : step;
      long every = step;
      if (merge) {
        final List<Long> divisors = new ArrayList<>();
        for (long e = sub; e <= step; e += sub) {
          if (step % e == 0) {
            divisors.add(e);
          }
        }
        every = divisors.get(r.nextInt(divisors.size()));
      }
      final double rate = rates[r.nextInt(rates.length)];
      final int perCell = (int) Math.round(rate * cell / 1000);
      final List<Double> phis = new ArrayList<>(PHIS.subList(0, 1 + r.nextInt(4)));
      final List<Sketches.Summary> summaries = merge
          ? List.of(
              new Sketches.Summary(Sketches.Family.EXACT, 0, sub, sub, 0, List.of(), -1, 0),
              new Sketches.Summary(Sketches.Family.EXACT, 0, width, step, sub, phis, 0, 0))
          : List.of(new Sketches.Summary(Sketches.Family.EXACT, 0, width, step, 0, phis, -1, 0));
      final int s = summaries.size() - 1;
      final Window window = new Window(Duration.ofMillis(width), Duration.ofMillis(step));
      final CostModel.ExactReads charged = CostModel.exactReads(window, Duration.ofMillis(cell),
          Duration.ofMillis(every), rate);
      final String what = "trial " + trial + ": exact " + (merge ? "merge" : "sliding build")
          + " of " + width / MINUTE + "m every " + step / MINUTE + "m over cells of "
          + cell / MINUTE + "m, read every " + every / MINUTE + "m, " + perCell + " rows a cell, "
          + phis.size() + " φs";
      final Sketches.State state = new Sketches.State(summaries);
      final List<double[]> table = new ArrayList<>();
      final int steps = (int) (width / step) + 2 + r.nextInt(3);
      for (int k = 0; k < steps; k++) {
        final long[] counted = new long[summaries.size()];
        final long[] selected = new long[summaries.size()];
        for (long read = k * step + every; read <= (k + 1) * step; read += every) {
          addRows(r, table, state, read - every, read, cell, () -> perCell);
          final long[][] work = new long[2][];
          final List<Object[]> reads = readExact(state, work);
          for (int t = 0; t < counted.length; t++) {
            counted[t] += work[0][t];
            selected[t] += work[1][t];
          }
          checkWindows(reads, summaries.get(s), s, table, what + ", read at " + read / MINUTE + "m");
        }
        if ((k + 1) * step >= width) {
          final String at = what + ", step " + k;
          assertEquals(charged.counted(), counted[s], 1e-6, at + ": values counted");
          assertEquals(charged.selections() * phis.size(), selected[s], 1e-6, at + ": selected");
          selecting += charged.selections() > 0 ? 1 : 0;
          sweeping += charged.counted() > 0 ? 1 : 0;
        }
      }
    }
    assertTrue(selecting > 0 && sweeping > 0, "steps selecting " + selecting + ", sweeping "
        + sweeping);
  }

  /** Every read of {@code state}, with the exact work of each summary in {@code work}. */
  private static List<Object[]> readExact(Sketches.State state, long[][] work) {
    final Map<String, Object> context = new HashMap<>();
    context.put(DataContext.Variable.CANCEL_FLAG.camelName, new AtomicBoolean());
    context.put(Sketches.EXACT_WORK, (Consumer<long[][]>) counts -> {
      work[0] = counts[0];
      work[1] = counts[1];
    });
    final List<Object[]> out = new ArrayList<>();
    state.reads(context::get).forEach(out::add);
    return out;
  }

  /**
   * Every window of summary {@code s} that holds a row read once, each of its φs against the
   * window's rows sorted here: the true quantile for an exact summary and a KLL (whose windows
   * here fit under k), within α of it for a DDSketch.
   */
  private static void checkWindows(List<Object[]> reads, Sketches.Summary summary, int s,
      List<double[]> table, String what) {
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
      if (summary.family() == Sketches.Family.DDSKETCH) {
        assertTrue(Math.abs(answer - truth) <= ALPHA * Math.abs(truth) * (1 + 1e-9),
            what + ", DDSketch window ending " + end + " φ " + read[2] + ": " + answer
                + " against " + truth);
      } else {
        assertEquals(truth, answer,
            what + ", " + summary.family() + " window ending " + end + " φ " + read[2]);
      }
    }
    assertEquals(ends, answered.navigableKeySet(), what + ": windows");
    answered.values().forEach(n -> assertEquals(summary.phis().size(), n, what));
  }

  /** The id of the kept {@code op} over tumbling windows of {@code width}, KLL k = 400, keeping {@code keep}. */
  private static int kept(PlanSpace space, Class<? extends Operator> op, long width, Duration keep) {
    for (PhysicalCandidate v : space.candidates()) {
      final LogicalCandidate c = space.memo().candidate(v.logical());
      if (op.isInstance(c.operator()) && space.memo().key(v.group()) instanceof GroupKey.State g
          && g.window().equals(Window.tumbling(Duration.ofMillis(width)))
          && c.properties().parameters() instanceof Parameters.Kll kll && kll.k() == KLL_400.k()
          && (!(c.operator() instanceof Operator.Merge)
              || ((WindowLayout.Merged) c.properties().windowLayout()).sub().equals(Duration.ofMinutes(1)))
          && v.properties().lifetime() instanceof Lifetime.AcrossEvaluations a && a.keep().equals(keep)) {
        return v.id();
      }
    }
    throw new AssertionError("no kept " + op.getSimpleName() + " of " + width / MINUTE + "m keeping " + keep);
  }

  /**
   * Every window of KLL summary {@code s} read (those ending in the last {@code retain} of the
   * rows), each φ the true quantile of its rows.
   */
  private static void checkKll(List<Object[]> reads, Sketches.Summary summary, int s, List<double[]> table,
      long retain, String what) {
    final long latest = table.stream().mapToLong(row -> (long) row[0]).max().orElseThrow();
    final TreeSet<Long> ends = new TreeSet<>();
    for (long end = Math.floorDiv(latest - retain, summary.step()) * summary.step() + summary.step();
        end - summary.width() <= latest; end += summary.step()) {
      ends.add(end);
    }
    final TreeSet<Long> answered = new TreeSet<>();
    for (Object[] read : reads) {
      if ((int) read[0] != s) {
        continue;
      }
      final long end = (long) read[1];
      answered.add(end);
      final double[] window = table.stream()
          .filter(row -> row[0] >= end - summary.width() && row[0] < end)
          .mapToDouble(row -> row[1]).sorted().toArray();
      final double rank = (double) read[2] * window.length;
      final double answer = (double) read[3];
      // KLL k = 400: within its rank error of the true quantile
      final long below = Arrays.stream(window).filter(v -> v < answer).count();
      final long upTo = Arrays.stream(window).filter(v -> v <= answer).count();
      assertTrue(below <= rank + 0.02 * window.length && upTo >= rank - 0.02 * window.length,
          what + ": window ending " + end + " φ " + read[2] + ": " + answer + " ranks " + below + ".." + upTo
              + " of " + window.length);
    }
    assertEquals(ends, answered, what + ": windows read");
  }

  /**
   * Every window of the two merges read, against its rows sorted here: the set of windows (each
   * holding a row) and each φ's value, exact for the KLL, within α for the DDSketch.
   */
  private static void check(List<Object[]> reads, List<Sketches.Summary> summaries,
      List<double[]> table, String what) {
    for (int s : new int[] {1, 3}) {
      checkWindows(reads, summaries.get(s), s, table, what + ", summary " + s);
    }
  }

  /**
   * Rows for every cell of {@code cell} in [from, to), {@code count} of them a cell (drawn once
   * per cell), at random times within the cell, log-normal values in quarters: added to
   * {@code table} and to {@code state}.
   */
  private static void addRows(Random r, List<double[]> table, Sketches.State state, long from,
      long to, long cell, IntSupplier count) {
    for (long start = from; start < to; start += cell) {
      for (int i = count.getAsInt(); i > 0; i--) {
        final double[] row = {start + r.nextInt((int) cell),
            Math.round(Math.exp(2 + r.nextGaussian()) * 4) / 4.0};
        table.add(row);
        state.add((long) row[0], row[1]);
      }
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
