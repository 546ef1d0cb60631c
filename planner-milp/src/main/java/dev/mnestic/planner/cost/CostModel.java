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
 * one merged window at a time). That is a statement's pass (a query read once); a query read
 * every step or more often ({@code Query.read}, part of its groups' keys) is charged what each
 * of its reads does: a readout's lookup per read, a merge's sub-windows per read
 * ({@link #mergesPerStep}), exact sliding or merged windows' sweep or selections per φ
 * ({@link #exactReads}).
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
  /**
   * Selecting a rank among a window's sorted exact cells, per cell and per round squared
   * (each round a binary search in every cell, O(log V) rounds): an estimate, about a
   * comparison's and a cache miss's time per step of a binary search.
   */
  public static final double SELECT_NANOS = 5;

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
  /** By state group, the φs read from it ({@link #phisReading}); null until asked. */
  private volatile int[] phisReading;

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
        final Cost base = new Cost(scan + (w.isTumbling() || state.read().isZero()
            ? exactNanosPerSecond(w, m)
            : keptExactNanosPerSecond(exactReads(w, w.step(), state.read(), m.rowsPerSecond()),
                phisReading(memo.groupOf(logical)), w, m)), 0, 0);
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
      final double nSub = m.rowsPerSecond() * seconds(sub);
      final double bytes = summaryBytes(logical, theta,
          (double) w.width().toMillis() / sub.toMillis() * nSub, m);
      // A statement's pass: every value sorted into the index once and counted in and out
      // once; read every step or more often: what each read does (exactReads); or each window
      // merged from its parts.
      final double cpu = theta instanceof Parameters.Exact
          ? state.read().isZero()
              ? m.rowsPerSecond() * (SORT_NANOS_PER_VALUE + 2 * COUNT_NANOS_PER_VALUE)
              : keptExactNanosPerSecond(exactReads(w, sub, state.read(), m.rowsPerSecond()),
                  phisReading(memo.groupOf(logical)), w, m)
                  - m.rowsPerSecond() * APPEND_NANOS
          : mergesPerStep(w, sub, state.read()) * mergeNanos(theta, nSub, m)
              / seconds(w.step());
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
      final double cpu = readsPerStep(q.window(), q.read()) * readNanos(state.family())
          / seconds(q.window().step());
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
   * {@code sub}, read every {@code read}, merges per step. Read every step (or once, a
   * statement's pass making each window once), one window's p = width / sub: a read every step
   * after the step's rows remakes the window holding them, or for a sliding merge the width /
   * step windows holding them, which end at or after the latest sub-window's end and so are
   * suffixes of one another, read off one summary merging the p sub-windows from the latest
   * backwards ({@code Sketches.MERGED} counts them). Read q = step / read times a step, at
   * multiples of {@code read}, the j-th read of a step merges the p sub-windows less the
   * (step - j · read) / sub not yet begun: q · p - (step / sub)(q - 1) / 2 in all.
   */
  public static double mergesPerStep(Window w, Duration sub, Duration read) {
    final double q = readsPerStep(w, read);
    return q * w.width().toMillis() / sub.toMillis()
        - (double) w.step().toMillis() / sub.toMillis() * (q - 1) / 2;
  }

  /**
   * How many times a step a result over windows {@code w} read every {@code read} is read:
   * once for a statement ({@code read} zero: each window read once) or one read every step,
   * step / read when read more often.
   */
  public static double readsPerStep(Window w, Duration read) {
    return read.isZero() ? 1 : (double) w.step().toMillis() / read.toMillis();
  }

  /**
   * What the kept reads of exact windows {@code w} over exact cells of {@code cell} (the step's
   * for a sliding build, the sub-windows' for a merge) do in one step of rows, read every
   * {@code read} at its multiples, each read after the rows before it, at {@code rate} rows a
   * second (the table spanning more than a window): each read remakes the width / step = o
   * windows holding the cells changed since the last, whose span holds the values of one window
   * up to now, V = rate · (width - step + j · read) at the j-th read of a step, over the cells
   * begun, c = p - ⌊(step - j · read) / cell⌋ of a window's p = width / cell. It selects when
   * one φ's selection in the o windows is cheaper than the sweep, o · c · log₂ < V (log₂ the bit
   * length of V + 1), as {@code Sketches}' exact windows choose: then each φ's value in each
   * window is selected (o per φ, o · c · log₂² steps of a binary search each); else it sweeps:
   * sorts the span's V values and counts each in and the o - 1 steps' cells leaving out
   * (V + (o - 1) · rate · step values).
   *
   * @param sorted the values sorted by sweeps a step
   * @param counted the values counted into and out of an index a step ({@code Sketches}'
   *     exact work [0])
   * @param selections the φ values selected a step, per φ ({@code Sketches}' exact work [1]
   *     divided by the φs)
   * @param searchSteps the binary search steps of those selections, per φ
   */
  public record ExactReads(double sorted, double counted, double selections,
      double searchSteps) {
  }

  /** {@link ExactReads} of windows {@code w} over cells of {@code cell} read every {@code read}. */
  public static ExactReads exactReads(Window w, Duration cell, Duration read, double rate) {
    final long width = w.width().toMillis();
    final long step = w.step().toMillis();
    final long every = read.toMillis();
    final double o = (double) width / step;
    final long p = width / cell.toMillis();
    double sorted = 0;
    double counted = 0;
    double selections = 0;
    double searchSteps = 0;
    for (long j = 1; j * every <= step; j++) {
      final double values = rate * (width - step + j * every) / 1000;
      final long cells = p - (step - j * every) / cell.toMillis();
      final long log = 64 - Long.numberOfLeadingZeros(Math.round(values) + 1);
      if (o * cells * log < values) {
        selections += o;
        searchSteps += o * cells * log * log;
      } else {
        sorted += values;
        counted += values + (o - 1) * rate * step / 1000;
      }
    }
    return new ExactReads(sorted, counted, selections, searchSteps);
  }

  /**
   * CPU per second of exact windows {@code w} kept and read as {@code reads} says by
   * {@code phis} φs (none: only appended): each value appended once; sorted once in its cell when selecting (the
   * cells' sorted runs), else with the sweep's span; the sweep's counting, and each φ's
   * selections and their lookups.
   */
  private static double keptExactNanosPerSecond(ExactReads reads, int phis, Window w, Metric m) {
    if (phis == 0) {
      // read by none: the executor makes none of its windows
      return m.rowsPerSecond() * APPEND_NANOS;
    }
    return m.rowsPerSecond() * APPEND_NANOS
        + (reads.selections() > 0 ? m.rowsPerSecond() * SORT_NANOS_PER_VALUE : 0)
        + (reads.sorted() * SORT_NANOS_PER_VALUE + reads.counted() * COUNT_NANOS_PER_VALUE
            + phis * reads.searchSteps() * SELECT_NANOS) / seconds(w.step());
  }

  /**
   * The φs read from state group {@code group}: those of the quantile groups with a readout
   * of it (each query that may read it; the executor selects for those the plan has read it).
   */
  private int phisReading(int group) {
    if (phisReading == null) {
      final int[] count = new int[memo.groupCount()];
      for (int v = 0; v < memo.candidateCount(); v++) {
        final LogicalCandidate c = memo.candidate(v);
        if (c.operator() instanceof Operator.Readout) {
          count[c.children().get(0)]++;
        }
      }
      phisReading = count;
    }
    return phisReading[group];
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
