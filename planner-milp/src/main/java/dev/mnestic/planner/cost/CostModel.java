package dev.mnestic.planner.cost;

import dev.mnestic.planner.memo.Family;
import dev.mnestic.planner.memo.GroupKey;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.memo.WindowLayout;
import dev.mnestic.planner.physical.Cost;
import dev.mnestic.planner.physical.Lifetime;
import dev.mnestic.planner.physical.PhysicalProperties;
import dev.mnestic.planner.physical.StorageMedium;
import dev.mnestic.planner.physical.Timing;
import dev.mnestic.planner.workload.Metric;
import dev.mnestic.planner.workload.Window;
import dev.mnestic.planner.workload.Workload;

import org.apache.datasketches.kll.KllSketch;

import java.time.Duration;
import java.util.Arrays;

/**
 * The cost model: w_v of each physical candidate from its operator, θ, window and p^phys and
 * its metric's ingest rate.
 *
 * <p>The per-operation times and sizes are the Java sketches measured on this machine (2M
 * lognormal values, datasketches-java 7.0.1 and sketches-java 0.8.3 on JDK 17): a KLL update
 * costs about
 * 41 + 0.012·k ns, a merge about 48·k ns and a quantile read about 100 + 0.2·k ns; a DDSketch
 * update about 6 ns, and a merge and a read about 0.7 and 2.3 ns per bin. KLL's size is
 * DataSketches' own {@link KllSketch#getMaxSerializedSizeBytes}; a DDSketch (sketches-java's
 * unbounded dense store) holds an array of 8-byte counts over its index range, charged as the
 * metric's whole range, ln(max/min) / ln((1 + α) / (1 - α)) indices, whatever the number of
 * values, and its merge adds a count per index of that range. Rows read back from the store at
 * evaluation cost {@link #SCAN_NANOS_PER_ROW} each.
 *
 * <p>Per second: an ingest-time build pays each row's update once per open window
 * (width / step of them); an evaluation-time candidate pays its work once per step. A result
 * kept across evaluations holds one copy per window the runtime keeps of it, whatever its
 * timing: those ending in the last keep (keep / step of them) and those still open, holding the
 * latest row (width / step), as the standing queries' kept summaries do
 * ({@code Sketches.State}); an exact build over sliding windows keeps its values once, in
 * tumbling windows of its step ((keep + width) / step of them).
 *
 * <p>The exact accumulator is charged as calcite-adapter's {@code Sketches} runs it: each value
 * is appended once and sorted once whatever the overlap, and exact sliding or merged windows
 * are read by counting each value into and out of a sorted index
 * ({@link #COUNT_NANOS_PER_VALUE} each way), not by copying a window's values; a read is then a
 * lookup. A merge not kept still holds the window it makes while it is read (the executor makes
 * one merged window at a time).
 */
public final class CostModel {
  /** Reading one row of a metric back from the store at evaluation. */
  public static final double SCAN_NANOS_PER_ROW = 250;
  /** Sorting, per value, for an exact quantile. */
  public static final double SORT_NANOS_PER_VALUE = 100;
  /** Appending one value to the exact accumulator. */
  public static final double APPEND_NANOS = 3;
  /**
   * Counting one value into or out of an exact merge's index (a binary search and a Fenwick
   * tree update over about a million distinct values, in random order: measured 270-450 ns).
   */
  public static final double COUNT_NANOS_PER_VALUE = 300;
  /** Reading a quantile of a sorted or counted exact accumulator: a lookup. */
  public static final double EXACT_READ_NANOS = 200;

  /** Serializing or deserializing one byte of a result kept in the store. */
  public static final double STORE_NANOS_PER_BYTE = 2;
  /** Bytes of one scalar answer. */
  public static final double ANSWER_BYTES = 16;
  /** Computing one ratio. */
  public static final double DIVIDE_NANOS = 20;
  /**
   * A DDSketch's objects around its counts: the sketch, its index mapping and its two dense
   * stores (headers and fields).
   */
  public static final double DD_FIXED_BYTES = 192;
  /** The header of a DDSketch store's array of counts. */
  public static final double DD_ARRAY_BYTES = 16;

  private final Workload workload;
  private final Memo memo;
  /**
   * The bytes of one summary of each build or merge (NaN until asked): a logical candidate's,
   * the same for each of its physical alternatives, and KLL's size takes DataSketches a while.
   * Threads that race to fill an entry write the same value, so {@link #cost} may be called from
   * several threads at once.
   */
  private final double[] summaryBytes;

  /** The cost model of {@code memo}'s candidates, the memo complete. */
  public CostModel(Workload workload, Memo memo) {
    this.workload = workload;
    this.memo = memo;
    this.summaryBytes = new double[memo.candidateCount()];
    Arrays.fill(summaryBytes, Double.NaN);
  }

  /** The cost of logical candidate {@code logical} with physical properties {@code p}. */
  public Cost cost(int logical, PhysicalProperties p) {
    final LogicalCandidate c = memo.candidate(logical);
    final Operator op = c.operator();
    final GroupKey key = memo.key(memo.groupOf(logical));
    if (op instanceof Operator.Scan || op instanceof Operator.Answer) {
      return Cost.ZERO;
    }
    if (op instanceof Operator.Build) {
      final GroupKey.State state = (GroupKey.State) key;
      final Metric m = workload.metric(state.metric());
      final Parameters.Fixed theta = (Parameters.Fixed) c.properties().parameters();
      final Window w = state.window();
      final double n = m.rowsPerSecond() * seconds(w.width());
      final double bytes = summaryBytes(logical, theta, n, m);
      if (theta instanceof Parameters.Exact) {
        final double scan = p.timing() == Timing.INGEST ? 0
            : n * SCAN_NANOS_PER_ROW / seconds(w.step());
        final Cost base = new Cost(scan + exactNanosPerSecond(w, m), 0, 0);
        if (!w.isTumbling() && p.lifetime() instanceof Lifetime.AcrossEvaluations) {
          // kept as tumbling windows of the step, each value once
          return kept(base, p, bytes(theta, m.rowsPerSecond() * seconds(w.step()), m),
              w.step(), 0, w.overlap());
        }
        return kept(base, p, bytes, w.step(),
            p.timing() == Timing.INGEST ? w.overlap() : 0, w.overlap());
      }
      if (p.timing() == Timing.INGEST) {
        final double cpu = m.rowsPerSecond() * updateNanos(theta) * w.overlap();
        return kept(new Cost(cpu, 0, 0), p, bytes, w.step(), w.overlap(), w.overlap());
      }
      final double cpu = n * (SCAN_NANOS_PER_ROW + updateNanos(theta)) / seconds(w.step());
      return kept(new Cost(cpu, 0, 0), p, bytes, w.step(), 0, w.overlap());
    }
    if (op instanceof Operator.Merge) {
      final GroupKey.State state = (GroupKey.State) key;
      final Metric m = workload.metric(state.metric());
      final Parameters.Fixed theta = (Parameters.Fixed) c.properties().parameters();
      final Window w = state.window();
      final Duration sub = ((WindowLayout.Merged) c.properties().windowLayout()).sub();
      final double parts = mergesPerStep(w, sub);
      final double nSub = m.rowsPerSecond() * seconds(sub);
      final double bytes = summaryBytes(logical, theta, parts * nSub, m);
      // Every value sorted into the index once and counted in and out once, or each window
      // merged from its parts.
      final double cpu = theta instanceof Parameters.Exact
          ? m.rowsPerSecond() * (SORT_NANOS_PER_VALUE + 2 * COUNT_NANOS_PER_VALUE)
          : parts * mergeNanos(theta, nSub, m) / seconds(w.step());
      final double reading = p.lifetime() instanceof Lifetime.None ? bytes : 0;
      return kept(new Cost(cpu, reading, 0), p, bytes, w.step(), 0, w.overlap());
    }
    if (op instanceof Operator.SortQuantile) {
      // Run as an exact accumulator over the quantile's windows, read once.
      final GroupKey.Quantile q = (GroupKey.Quantile) key;
      final Metric m = workload.metric(q.metric());
      final Window w = q.window();
      final double n = m.rowsPerSecond() * seconds(w.width());
      final double cpu = n * SCAN_NANOS_PER_ROW / seconds(w.step()) + exactNanosPerSecond(w, m)
          + EXACT_READ_NANOS / seconds(w.step());
      return kept(new Cost(cpu, 0, 0), p, ANSWER_BYTES, w.step(), 0, w.overlap());
    }
    if (op instanceof Operator.Readout) {
      final GroupKey.Quantile q = (GroupKey.Quantile) key;
      final GroupKey.State state = (GroupKey.State) memo.key(c.children().get(0));
      final Metric m = workload.metric(q.metric());
      final double cpu = readNanos(state.family()) / seconds(q.window().step());
      return kept(new Cost(cpu, 0, 0), p, ANSWER_BYTES, q.window().step(), 0,
          q.window().overlap());
    }
    final Duration step = stepOf(c.children().get(0));
    return kept(new Cost(DIVIDE_NANOS / seconds(step), 0, 0), p, ANSWER_BYTES, step, 0,
        overlapOf(c.children().get(0)));
  }

  /**
   * {@code base} plus holding results of {@code bytes} each as lifetime says: {@code open}
   * windows being built whatever the lifetime, and, kept across evaluations, the windows of
   * the keep and the {@code overlap} holding the latest time.
   */
  private static Cost kept(Cost base, PhysicalProperties p, double bytes, Duration step,
      long open, long overlap) {
    final double copies;
    final StorageMedium medium;
    if (p.lifetime() instanceof Lifetime.OneEvaluation one) {
      copies = open + 1;
      medium = one.medium();
    } else if (p.lifetime() instanceof Lifetime.AcrossEvaluations across) {
      copies = Math.max(open, overlap) + (double) across.keep().toMillis() / step.toMillis();
      medium = across.medium();
    } else {
      return base.plus(new Cost(0, open * bytes, 0));
    }
    if (medium == StorageMedium.HEAP) {
      return base.plus(new Cost(0, copies * bytes, 0));
    }
    // Written once per window, read back once per window.
    final double serde = 2 * bytes * STORE_NANOS_PER_BYTE / seconds(step);
    return base.plus(new Cost(serde, open * bytes, copies * bytes));
  }

  /**
   * The sub-window summaries a KLL or DDSketch merge into windows {@code w} from sub-windows of
   * {@code sub} merges per step: one window's p = width / sub. The executor merges as many at a
   * read every step after the step's rows: a tumbling merge remakes the window holding them, a
   * sliding one the width / step windows holding them, which end at or after the latest
   * sub-window's end and so are suffixes of one another, read off one summary merging the p
   * sub-windows from the latest backwards ({@code Sketches.MERGED} counts them).
   */
  public static double mergesPerStep(Window w, Duration sub) {
    return (double) w.width().toMillis() / sub.toMillis();
  }

  private long overlapOf(int group) {
    final GroupKey key = memo.key(group);
    if (key instanceof GroupKey.Ratio r) {
      return overlapOf(r.numerator());
    }
    return ((GroupKey.Quantile) key).window().overlap();
  }

  private Duration stepOf(int group) {
    final GroupKey key = memo.key(group);
    if (key instanceof GroupKey.Ratio r) {
      return stepOf(r.numerator());
    }
    return ((GroupKey.Quantile) key).window().step();
  }

  private static double seconds(Duration d) {
    return d.toMillis() / 1000.0;
  }

  static double updateNanos(Parameters.Fixed theta) {
    if (theta instanceof Parameters.Kll kll) {
      return 41 + 0.012 * kll.k();
    }
    return theta instanceof Parameters.DdSketch ? 6 : APPEND_NANOS;
  }

  /**
   * Merging one sub-window's sketch into a window's (an exact merge counts instead): a
   * DDSketch's dense store adds the other's counts index by index over its range.
   */
  static double mergeNanos(Parameters.Fixed theta, double n, Metric m) {
    if (theta instanceof Parameters.Kll kll) {
      return 48.0 * kll.k();
    }
    return 0.7 * ddRange(((Parameters.DdSketch) theta).alpha(), n, m);
  }

  static double readNanos(Family family) {
    switch (family) {
      case KLL:
        return 200;
      case DDSKETCH:
        return 1000;
      default:
        return EXACT_READ_NANOS;
    }
  }

  /**
   * CPU per second of the exact accumulator over windows {@code w}: each value appended and
   * sorted once, and over sliding windows counted into and out of the index.
   */
  private static double exactNanosPerSecond(Window w, Metric m) {
    return m.rowsPerSecond() * (APPEND_NANOS + SORT_NANOS_PER_VALUE
        + (w.isTumbling() ? 0 : 2 * COUNT_NANOS_PER_VALUE));
  }

  private double summaryBytes(int logical, Parameters.Fixed theta, double n, Metric m) {
    if (Double.isNaN(summaryBytes[logical])) {
      summaryBytes[logical] = bytes(theta, n, m);
    }
    return summaryBytes[logical];
  }

  /** Bytes of one summary of {@code n} values. */
  public static double bytes(Parameters.Fixed theta, double n, Metric m) {
    if (theta instanceof Parameters.Kll kll) {
      return KllSketch.getMaxSerializedSizeBytes(kll.k(), Math.max(1, (long) Math.ceil(n)),
          KllSketch.SketchType.DOUBLES_SKETCH, false);
    }
    if (theta instanceof Parameters.DdSketch dd) {
      return DD_FIXED_BYTES + DD_ARRAY_BYTES
          + 8 * denseLength(ddRange(dd.alpha(), n, m));
    }
    return 16 + 8 * n;
  }

  /**
   * The indices a DDSketch of relative accuracy {@code alpha} spans over {@code n} values of
   * {@code m}: one for a single value, else those of the metric's range [min, max], where a
   * window's values are expected (the logarithmic mapping's indices over it: ln(max / min) /
   * ln γ, γ = (1 + α) / (1 - α), and one more for the ends' rounding).
   */
  private static double ddRange(double alpha, double n, Metric m) {
    if (n <= 1) {
      return 1;
    }
    final double gamma = (1 + alpha) / (1 - alpha);
    return Math.ceil(Math.log(m.maxValue() / m.minValue()) / Math.log(gamma)) + 1;
  }

  /**
   * The length of a DDSketch dense store's array over {@code range} indices: sketches-java's
   * {@code DenseStore.getNewLength}, the range plus 6 rounded up to a whole 64 past it.
   */
  static double denseLength(double range) {
    return (Math.floor((range + 5) / 64) + 1) * 64;
  }
}
