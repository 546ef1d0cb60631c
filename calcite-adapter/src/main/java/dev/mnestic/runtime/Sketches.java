package dev.mnestic.runtime;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.DDSketches;
import com.datadoghq.sketch.ddsketch.encoding.ByteArrayInput;
import com.datadoghq.sketch.ddsketch.encoding.GrowingByteArrayOutput;
import com.datadoghq.sketch.ddsketch.store.Store;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.quantilescommon.QuantileSearchCriteria;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * Runtime of the sketch aggregate ({@code dev.mnestic.rel.SketchAggregate}): per-window
 * summaries, built once, read many times.
 */
public final class Sketches {
  private Sketches() {
  }

  /**
   * The context variable holding an {@code AtomicLong} that counts every summary built from
   * rows (a window's, or a sub-window's that windows merge), not those merged from others;
   * absent for none.
   */
  public static final String BUILDS = "mnesticSketchBuilds";

  /**
   * The context variable holding an {@code AtomicLong} that receives the most summary bytes a
   * pass held at once, at most (each summary's own measure: KLL's serialized size, a
   * DDSketch's dense arrays of counts over its index range, 8 per value an exact accumulator
   * has room for; 8 per end and per φ's value of each
   * window made from others' and kept; the largest summary or exact index, of sorted values and
   * counts, a merge made meanwhile), if more than it holds; absent for none.
   */
  public static final String HELD_BYTES = "mnesticSketchHeldBytes";

  /**
   * The context variable holding a {@code Consumer<long[]>} that receives, when a pass
   * finishes, how many windows' summaries each summary made, by index: one per window built
   * from rows it holds (for an exact summary of sliding windows, per tumbling exact window of its
   * step that it counts from), or one per window merged (or counted from exact cells) at this
   * read: a read remakes only the windows holding a part changed since the last; absent for
   * none.
   */
  public static final String MADE = "mnesticSketchesMade";

  /**
   * The context variable holding a {@code Consumer<long[]>} that receives, when a read
   * finishes, how many windows each summary made from others' (merged, or counted from exact
   * cells) at this read, by index: the windows holding a part changed since the last read (all
   * of them at a state's first read); absent for none.
   */
  public static final String REMADE = "mnesticSketchesRemade";

  /**
   * The context variable holding a {@code Consumer<long[]>} that receives, when a read
   * finishes, how many sub-window summaries each KLL or DDSketch merge merged into its windows
   * at this read, by index (what the cost model charges a merge per step: {@code CostModel}
   * counts a window's p sub-windows once a step, and a read every step merges them once, the
   * windows of a sliding merge that hold the latest sub-window read off one summary growing
   * backwards from it); absent for none.
   */
  public static final String MERGED = "mnesticSketchesMerged";

  /**
   * The context variable holding a {@code Consumer<long[][]>} that receives, when a read
   * finishes, what each exact summary whose windows are made from cells did at this read, by
   * index: {@code [0]} the values it counted into and out of an index (a sweep's, each value of
   * the span counted in and each of the cells leaving counted out) and {@code [1]} the φ values
   * it found by selection (one per window and φ); absent for none.
   */
  public static final String EXACT_WORK = "mnesticSketchesExactWork";

  /** The summary families. */
  public enum Family { KLL, DDSKETCH, EXACT }

  /**
   * One window built from rows of one summary of a {@link State}, taken out of it
   * ({@link State#takeClosed}) to be merged into another's ({@link State#mergePart}): a tumbling
   * cell (by start) or a sliding window of a KLL or DDSketch built directly (by end), closed at
   * {@link #closes}. What a distributed pass moves from each parallel reader of the rows to the
   * one merging a metric's summaries; {@link #toBytes} holds it in the family's own format
   * (KLL's and DDSketch's serializations, an exact cell's values).
   */
  public static final class Part {
    private final int summary;
    private final long key;
    private final long closes;
    private final Family family;
    private final double parameter;
    private final Sketch sketch;

    private Part(int summary, long key, long closes, Family family, double parameter,
        Sketch sketch) {
      this.summary = summary;
      this.key = key;
      this.closes = closes;
      this.family = family;
      this.parameter = parameter;
      this.sketch = sketch;
    }

    /** The index of its summary. */
    public int summary() {
      return summary;
    }

    /** When its window closes (epoch milliseconds): no row after it belongs to it. */
    public long closes() {
      return closes;
    }

    /** Its bytes, for {@link #fromBytes}. */
    public byte[] toBytes() {
      final byte[] body = switch (family) {
        case KLL -> ((Kll) sketch).sketch().toByteArray();
        case DDSKETCH -> {
          final GrowingByteArrayOutput out = GrowingByteArrayOutput.withDefaultInitialCapacity();
          try {
            ((Dd) sketch).sketch().encode(out, false);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          yield out.trimmedCopy();
        }
        case EXACT -> {
          final Exact e = (Exact) sketch;
          final ByteBuffer b = ByteBuffer.allocate(8 * e.size);
          for (int i = 0; i < e.size; i++) {
            b.putDouble(e.values[i]);
          }
          yield b.array();
        }
      };
      return ByteBuffer.allocate(4 + 8 + 8 + 1 + 8 + body.length).putInt(summary)
          .putLong(key).putLong(closes).put((byte) family.ordinal()).putDouble(parameter)
          .put(body).array();
    }

    /** The part {@link #toBytes} wrote. */
    public static Part fromBytes(byte[] bytes) {
      final ByteBuffer b = ByteBuffer.wrap(bytes);
      final int summary = b.getInt();
      final long key = b.getLong();
      final long closes = b.getLong();
      final Family family = Family.values()[b.get()];
      final double parameter = b.getDouble();
      final byte[] body = Arrays.copyOfRange(bytes, b.position(), bytes.length);
      final Sketch sketch = switch (family) {
        case KLL -> new Kll(KllDoublesSketch.heapify(Memory.wrap(body)));
        case DDSKETCH -> {
          final DDSketch d = DDSketches.unboundedDense(parameter);
          try {
            d.decodeAndMergeWith(ByteArrayInput.wrap(body));
          } catch (IOException e) {
            throw new IllegalArgumentException("a DDSketch part that does not decode", e);
          }
          yield new Dd(d);
        }
        case EXACT -> {
          final Exact e = new Exact();
          final ByteBuffer v = ByteBuffer.wrap(body);
          while (v.hasRemaining()) {
            e.update(v.getDouble());
          }
          yield e;
        }
      };
      return new Part(summary, key, closes, family, parameter, sketch);
    }
  }

  /**
   * One summary per window. The windows are [end - width, end) for every end that is a multiple
   * of {@code step} since the epoch and whose window holds a row. {@code family} is KLL
   * (DataSketches' KLL of size {@code parameter} = k), DDSKETCH (DataDog's DDSketch of relative
   * accuracy {@code parameter} = α) or EXACT (every value kept); each is asked for the
   * φ-quantile of {@link #nearestRank}, which EXACT returns exactly. With {@code subWidth} 0 the
   * summary is built from rows: each row updates every window that holds it (width / step of
   * them), and {@code source} is -1. Otherwise each window merges the tumbling sub-windows of
   * {@code subWidth} that tile it: those of the summary at index {@code source} of the same pass
   * (a tumbling summary of the same family, {@code subWidth} wide, built from rows or itself
   * merged: the producer a plan chose, so one summary per sub-window serves every reader of
   * it). Every φ of {@code phis} is read from each window's summary; a summary only merged into
   * others reads none.
   *
   * <p>With {@code retain} (milliseconds) positive, only the windows whose end is after the
   * latest row time less {@code retain} are read, and a {@link State} keeps only what those
   * windows, and those of the merges reading it, are made from: the windows and sub-windows
   * before them are dropped, and a row older than all it keeps is not added. 0 reads every
   * window.
   *
   * <p>Serializable: a distributed pass (flink-job) ships the plan's summaries to its tasks.
   */
  public record Summary(Family family, double parameter, long width, long step, long subWidth,
      List<Double> phis, int source, long retain) implements Serializable {
    public Summary {
      if (retain < 0) {
        throw new IllegalArgumentException("a retention is not negative: " + retain);
      }
      if (width <= 0 || step <= 0 || step > width || width % step != 0) {
        throw new IllegalArgumentException(
            "windows need 0 < step <= width, width a multiple of step: " + width + ", " + step);
      }
      if (subWidth < 0 || subWidth > 0 && (width % subWidth != 0 || step % subWidth != 0)) {
        throw new IllegalArgumentException("sub-windows of " + subWidth
            + " ms do not tile windows of " + width + " ms every " + step + " ms");
      }
      if (source < -1 || (source >= 0) != (subWidth > 0)) {
        throw new IllegalArgumentException("a merge, and only a merge, reads another summary's"
            + " windows: source " + source + " with sub-windows of " + subWidth + " ms");
      }
      if (phis.stream().anyMatch(p -> !(p >= 0 && p <= 1))) {
        throw new IllegalArgumentException("quantiles must be in [0, 1]: " + phis);
      }
      phis = List.copyOf(phis);
    }

    /** Whether it is built from rows, not merged from sub-windows. */
    public boolean builtFromRows() {
      return subWidth == 0;
    }

    @Override public String toString() {
      return family + "(" + (family == Family.KLL ? "k=" + (int) parameter
          : family == Family.DDSKETCH ? "α=" + parameter : "exact") + ", width=" + width
          + ", step=" + step + (subWidth > 0 ? ", sub=" + subWidth : "")
          + (source >= 0 ? ", merging #" + source : "") + ", phis=" + phis
          + (retain > 0 ? ", retain=" + retain : "") + ")";
    }
  }

  /** One window's summary, of one {@link Family}. */
  interface Sketch {
    void update(double value);

    /** Adds everything {@code other} (of the same family and parameter) summarizes. */
    void merge(Sketch other);

    /**
     * The φ-quantile: the value of {@link #nearestRank} among the values added, exactly or
     * within the family's error; NaN when none were.
     */
    double quantile(double phi);

    /** The bytes it holds. */
    long bytes();
  }

  /** A window being read: its end and its quantiles. */
  private record Window(long end, DoubleUnaryOperator quantile) {
  }

  /**
   * Every summary's reads per window, built in one pass over {@code rows}: each {@link Summary}
   * of {@code summaries} over its windows (from its sub-windows when it has them), read at each
   * of its φs. A row per read: the summary's index, the window's end (epoch milliseconds, as
   * Calcite holds a TIMESTAMP), φ and the value (the operator's semantics:
   * {@code dev.mnestic.rel.SketchAggregate}).
   *
   * <p>Each summary built from rows is its own: two summaries share work only where one merges
   * the other's windows ({@link Summary#source}), as a plan chose. The rows need not come in
   * time order, so the pass builds every tumbling window or sub-window built from rows (and
   * every window of a KLL or DDSketch built directly over sliding windows) before the first
   * read. Then each merge's windows are made, one merged summary at a time, and each keeps
   * its φs' values (a merge that another merges also keeps its windows' summaries), as a
   * {@link State} keeps them for its next read. Exact accumulators never copy a value into
   * several windows: exact sliding windows, and exact windows merged from sub-windows, are
   * answered by counting or by selection (see {@link ExactWindows}) over tumbling exact windows
   * of the step (or those of the sub-windows' producer, or its own producer's).
   *
   * <p>The context's {@code DataContext.Variable.CANCEL_FLAG} (a statement's cancel or query
   * timeout) stops the pass between two rows, two merged windows or two reads: it fails and
   * returns nothing, counting no builds.
   */
  public static Enumerable<Object[]> windows(DataContext root, Enumerable<Object[]> rows,
      int timeColumn, int valueColumn, List<Summary> summaries) {
    final State state = new State(summaries);
    final Stop stop = new Stop(DataContext.Variable.CANCEL_FLAG.get(root));
    // 1. One pass: each row updates every tumbling summary and every sliding window that holds
    //    it.
    for (Object[] row : rows) {
      stop.row();
      if (row[valueColumn] != null) {
        state.add(millis(row[timeColumn]), ((Number) row[valueColumn]).doubleValue());
      }
    }
    @SuppressWarnings("unchecked")
    final Consumer<State> keep = (Consumer<State>) root.get(KEEP);
    return state.reads(root::get, stop, keep == null ? null : () -> keep.accept(state));
  }

  /**
   * The context variable holding a {@code Consumer<State>} that receives, once a pass has
   * finished, the {@link State} it built, to be read again with more rows added; absent for
   * none.
   */
  public static final String KEEP = "mnesticSketchesKeep";

  /**
   * What a pass builds from rows, kept: every summary built from rows, window by window, fed
   * one row at a time ({@link #add}) in any order, and read whenever asked ({@link #reads}).
   * The windows made from others' (a merge's, exact windows counted from cells) are kept from
   * read to read too: a read remakes only those holding a part (a cell, a sub-window) that
   * changed since the last read, so a read after k rows costs the k updates, the windows
   * holding their cells remade, and the windows read. A pass over all rows and a state kept and
   * fed the rows added since are the same code, so they answer alike (KLL compacts at random:
   * the same rows in another order may answer otherwise within its error).
   */
  public static final class State {
    private final List<Summary> summaries;
    // Each summary built from rows: in tumbling cells (its windows, or an exact summary's
    // step) or, for a sliding KLL or DDSketch, window by window.
    private final Cells[] cellsOf;
    private final Sliding[] slidingOf;
    /**
     * Each summary whose windows are made from others' (a merge, or exact windows over cells of
     * its step): its windows as of the last read.
     */
    private final Derived[] derivedOf;
    /** Every summary, each after its source. */
    private final int[] order;
    private final Cells[] cells;
    private final Sliding[] slidings;
    /** The windows built from rows that a read has counted into {@link #BUILDS}, by summary. */
    private final long[] counted;
    private long rows;
    /** The latest row time added (epoch milliseconds); {@code Long.MIN_VALUE} before any. */
    private long latest = Long.MIN_VALUE;

    public State(List<Summary> summaries) {
      this.summaries = List.copyOf(summaries);
      final int n = summaries.size();
      cellsOf = new Cells[n];
      slidingOf = new Sliding[n];
      derivedOf = new Derived[n];
      final List<Cells> cells = new ArrayList<>();
      final List<Sliding> sliding = new ArrayList<>();
      final Set<Integer> sources = new HashSet<>();
      for (int s = 0; s < n; s++) {
        final Summary summary = summaries.get(s);
        if (summary.source() >= 0) {
          checkSource(summaries, s);
          sources.add(summary.source());
          continue;
        }
        final long cellWidth = cellWidth(summary.family(), summary.width(), summary.step(),
            summary.subWidth());
        if (cellWidth > 0) {
          cellsOf[s] = new Cells(summary.family(), summary.parameter(), cellWidth);
          cells.add(cellsOf[s]);
        } else {
          slidingOf[s] = new Sliding(summary.family(), summary.parameter(), summary.width(),
              summary.step());
          sliding.add(slidingOf[s]);
        }
      }
      final long[] depth = new long[n];
      for (int s = 0; s < n; s++) {
        final Summary summary = summaries.get(s);
        if (!summary.builtFromRows()
            || summary.family() == Family.EXACT && summary.width() != summary.step()) {
          derivedOf[s] = new Derived(summary.family() != Family.EXACT && sources.contains(s));
        }
        for (int at = s; summaries.get(at).source() >= 0; at = summaries.get(at).source()) {
          depth[s]++;
        }
      }
      this.order = IntStream.range(0, n).boxed()
          .sorted((a, b) -> Long.compare(depth[a], depth[b])).mapToInt(Integer::intValue)
          .toArray();
      this.cells = cells.toArray(new Cells[0]);
      this.slidings = sliding.toArray(new Sliding[0]);
      this.counted = new long[n];
    }

    public List<Summary> summaries() {
      return summaries;
    }

    /** Adds the value {@code v} at time {@code t} (epoch milliseconds) to every summary. */
    public void add(long t, double v) {
      rows++;
      latest = Math.max(latest, t);
      for (Cells c : cells) {
        c.update(t, v);
      }
      for (Sliding w : slidings) {
        w.update(t, v);
      }
    }

    /**
     * Takes out every window built from rows that is closed at {@code time} (epoch
     * milliseconds): each tumbling cell ending at or before it, and each sliding window of a KLL
     * or DDSketch built directly ending at or before it, as {@link Part}s, in order of their
     * close. What one parallel reader of a stream built, for {@link #mergePart} elsewhere.
     */
    public List<Part> takeClosed(long time) {
      final List<Part> out = new ArrayList<>();
      for (int s = 0; s < summaries.size(); s++) {
        if (cellsOf[s] != null) {
          final Cells c = cellsOf[s];
          final Iterator<Map.Entry<Long, Sketch>> i = c.byStart.headMap(time - c.width, true)
              .entrySet().iterator();
          while (i.hasNext()) {
            final Map.Entry<Long, Sketch> e = i.next();
            out.add(new Part(s, e.getKey(), e.getKey() + c.width, c.family, c.parameter,
                e.getValue()));
            c.changed.remove(e.getKey());
            i.remove();
          }
          c.last = null;
        } else if (slidingOf[s] != null) {
          final Iterator<Map.Entry<Long, Sketch>> i = slidingOf[s].windows.headMap(time, true)
              .entrySet().iterator();
          while (i.hasNext()) {
            final Map.Entry<Long, Sketch> e = i.next();
            out.add(new Part(s, e.getKey(), e.getKey(), slidingOf[s].family,
                slidingOf[s].parameter, e.getValue()));
            i.remove();
          }
        }
      }
      out.sort((a, b) -> Long.compare(a.closes, b.closes));
      return out;
    }

    /**
     * Merges {@code part} (of a state over the same summaries) into its summary's window, as if
     * its rows were added here: KLL's and DDSketch's merges (DDSketch's exact, bucket counts
     * added; KLL's within its rank error), an exact cell's values added. The latest row time
     * becomes at least the part's close less one millisecond. A part of a window already
     * pruned is not kept.
     */
    public void mergePart(Part part) {
      final int s = part.summary;
      final Summary summary = summaries.get(s);
      if (summary.family() != part.family || summary.parameter() != part.parameter) {
        throw new IllegalArgumentException("a part of " + part.family + "(" + part.parameter
            + ") does not merge into summary " + s + " " + summary);
      }
      latest = Math.max(latest, part.closes - 1);
      if (cellsOf[s] != null) {
        final Cells c = cellsOf[s];
        if (part.key + c.width > c.floor) {
          c.byStart.merge(part.key, part.sketch, (a, b) -> {
            a.merge(b);
            return a;
          });
          c.changed.add(part.key);
          c.last = null;
        }
      } else if (slidingOf[s] != null) {
        final Sliding w = slidingOf[s];
        if (w.floor == Long.MIN_VALUE || part.key - w.width >= w.floor) {
          w.windows.merge(part.key, part.sketch, (a, b) -> {
            a.merge(b);
            return a;
          });
        }
      } else {
        throw new IllegalArgumentException("summary " + s + " " + summary
            + " is not built from rows: it has no parts");
      }
    }

    /** How many rows were added. */
    public long rows() {
      return rows;
    }

    /** The latest row time added (epoch milliseconds); {@code Long.MIN_VALUE} before any. */
    public long latest() {
      return latest;
    }

    /**
     * How many windows each summary holds, by index: those built from rows (its tumbling
     * windows, an exact summary's of its step, or its sliding windows) and those it made from
     * others' (merged, or counted from exact cells) kept for the next read. As of the last read,
     * which drops those no summary reads any more.
     */
    public long[] windowsHeld() {
      final long[] out = new long[summaries.size()];
      for (int s = 0; s < out.length; s++) {
        out[s] = (cellsOf[s] != null ? cellsOf[s].byStart.size()
            : slidingOf[s] != null ? slidingOf[s].windows.size() : 0)
            + (derivedOf[s] != null ? derivedOf[s].windows() : 0);
      }
      return out;
    }

    /** The bytes of the windows {@link #windowsHeld} counts, by summary. */
    public long[] bytesHeld() {
      final long[] out = new long[summaries.size()];
      for (int s = 0; s < out.length; s++) {
        out[s] = (cellsOf[s] != null ? bytes(cellsOf[s].byStart)
            : slidingOf[s] != null ? bytes(slidingOf[s].windows) : 0)
            + (derivedOf[s] != null ? derivedOf[s].bytes(summaries.get(s)) : 0);
      }
      return out;
    }

    /**
     * The earliest window end summary {@code s} reads now: the first after the latest row time
     * less its retention; {@code Long.MIN_VALUE} for every window.
     */
    private long firstEnd(int s) {
      final Summary summary = summaries.get(s);
      if (summary.retain() == 0 || latest == Long.MIN_VALUE) {
        return Long.MIN_VALUE;
      }
      return Math.floorDiv(latest - summary.retain(), summary.step()) * summary.step()
          + summary.step();
    }

    /**
     * The earliest time whose rows each summary's windows are made of, by summary: the start
     * of the first window it reads, or, for one that merges read, the earliest of theirs and
     * its own; {@code Long.MIN_VALUE} for all.
     */
    private long[] needed() {
      final int n = summaries.size();
      final long[] need = new long[n];
      for (int s = 0; s < n; s++) {
        final long first = firstEnd(s);
        need[s] = summaries.get(s).phis().isEmpty() ? Long.MAX_VALUE
            : first == Long.MIN_VALUE ? Long.MIN_VALUE : first - summaries.get(s).width();
      }
      // down the chains of sources, at most one link a round
      for (int round = 0; round < n; round++) {
        for (int s = 0; s < n; s++) {
          final int source = summaries.get(s).source();
          if (source >= 0) {
            need[source] = Math.min(need[source], need[s]);
          }
        }
      }
      return need;
    }

    /** The first window end summary {@code s} makes: its windows' from {@code need} on. */
    private long firstMade(int s, long[] need) {
      return need[s] == Long.MIN_VALUE || need[s] == Long.MAX_VALUE ? need[s]
          : need[s] + summaries.get(s).width();
    }

    /** Drops the windows no summary reads any more ({@link Summary#retain}). */
    private void prune(long[] need) {
      for (int s = 0; s < summaries.size(); s++) {
        if (cellsOf[s] != null) {
          cellsOf[s].prune(need[s]);
        }
        if (slidingOf[s] != null) {
          slidingOf[s].prune(need[s]);
        }
        if (derivedOf[s] != null) {
          derivedOf[s].prune(firstMade(s, need), summaries.get(s).width());
        }
      }
    }

    /**
     * Drops, in every summary built from rows, the windows holding one of {@code times} (rows
     * deleted or updated since): they are built again from the rows of the time ranges
     * returned (merged, in time order) with {@link #refill}, while rows inserted meanwhile go
     * to the other windows with {@link #addOutside}; {@link #refilled} ends it.
     */
    public List<long[]> drop(long[] times) {
      final List<long[]> ranges = new ArrayList<>();
      for (long t : times) {
        for (Cells c : cells) {
          c.drop(t, ranges);
        }
        for (Sliding w : slidings) {
          w.drop(t, ranges);
        }
      }
      ranges.sort((a, b) -> Long.compare(a[0], b[0]));
      final List<long[]> merged = new ArrayList<>();
      for (long[] r : ranges) {
        final long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
        if (last != null && r[0] <= last[1]) {
          last[1] = Math.max(last[1], r[1]);
        } else {
          merged.add(r.clone());
        }
      }
      return merged;
    }

    /** Adds a row to the windows {@link #drop} did not drop. */
    public void addOutside(long t, double v) {
      add(t, v, false);
    }

    /** Adds a row of a range {@link #drop} returned to the windows it dropped. */
    public void refill(long t, double v) {
      add(t, v, true);
    }

    /** Ends a {@link #drop}: every window is built as a whole again. */
    public void refilled() {
      for (Cells c : cells) {
        c.dropped.clear();
      }
      for (Sliding w : slidings) {
        w.dropped.clear();
      }
    }

    private void add(long t, double v, boolean toDropped) {
      rows++;
      latest = Math.max(latest, t);
      for (Cells c : cells) {
        c.update(t, v, toDropped);
      }
      for (Sliding w : slidings) {
        w.update(t, v, toDropped);
      }
    }

    /**
     * Every summary's reads per window now, as {@link #windows} returns them; {@code context}
     * gives the variables {@link #BUILDS} (counting the windows built from rows since the last
     * read), {@link #MADE}, {@link #HELD_BYTES} and the cancel flag.
     */
    public Enumerable<Object[]> reads(Function<String, Object> context) {
      return reads(context,
          new Stop((AtomicBoolean) context.apply(DataContext.Variable.CANCEL_FLAG.camelName)),
          null);
    }

    private Enumerable<Object[]> reads(Function<String, Object> context, Stop stop,
        Runnable then) {
      final int n = summaries.size();
      final long[] need = needed();
      prune(need);
      // 2. The windows made from others' whose parts changed since the last read remade, each
      //    summary after its source. Remaking is idempotent: a read stopped here leaves the
      //    changes marked for the next.
      final long[] made = new long[n];
      final long[] remade = new long[n];
      final long[] mergedParts = new long[n];
      final long[][] exactWork = {new long[n], new long[n]};
      final long[] making = {0};
      final Stop.Merges merges = bytes -> making[0] = Math.max(making[0], bytes);
      for (int s : order) {
        if (derivedOf[s] != null) {
          remade[s] = remake(s, firstMade(s, need), stop, merges, mergedParts, exactWork);
          made[s] = remade[s];
        }
      }
      for (Cells c : cells) {
        c.changesRead();
      }
      for (Derived d : derivedOf) {
        if (d != null) {
          d.changed.clear();
        }
      }
      final long[] builtFromRows = new long[n];
      long held = 0;
      for (int s = 0; s < n; s++) {
        final TreeMap<Long, Sketch> built = cellsOf[s] != null ? cellsOf[s].byStart
            : slidingOf[s] != null ? slidingOf[s].windows : null;
        if (built != null) {
          builtFromRows[s] = built.size();
          made[s] = built.size();
          held += bytes(built);
        }
        if (derivedOf[s] != null) {
          held += derivedOf[s].bytes(summaries.get(s));
        }
      }
      final long peak = held + making[0];
      // 3. Each window's quantiles read from its one summary or its kept answers.
      final List<Iterator<Window>> windows = new ArrayList<>();
      for (int s = 0; s < n; s++) {
        final Summary summary = summaries.get(s);
        final long first = firstEnd(s);
        windows.add(derivedOf[s] != null ? derivedOf[s].answers(summary.phis(), first)
            : slidingOf[s] != null ? ends(slidingOf[s].windows, 0, first)
            : ends(cellsOf[s].byStart, summary.width(), first));
      }
      // 4. Only a read that finished counts what it made.
      final Runnable finished = () -> {
        final AtomicLong builds = (AtomicLong) context.apply(BUILDS);
        long built = 0;
        for (int s = 0; s < n; s++) {
          built += builtFromRows[s] - counted[s];
          counted[s] = builtFromRows[s];
        }
        if (builds != null) {
          builds.addAndGet(built);
        }
        @SuppressWarnings("unchecked")
        final Consumer<long[]> madeBySummary = (Consumer<long[]>) context.apply(MADE);
        if (madeBySummary != null) {
          madeBySummary.accept(made.clone());
        }
        @SuppressWarnings("unchecked")
        final Consumer<long[]> remadeBySummary = (Consumer<long[]>) context.apply(REMADE);
        if (remadeBySummary != null) {
          remadeBySummary.accept(remade.clone());
        }
        @SuppressWarnings("unchecked")
        final Consumer<long[]> mergedBySummary = (Consumer<long[]>) context.apply(MERGED);
        if (mergedBySummary != null) {
          mergedBySummary.accept(mergedParts.clone());
        }
        @SuppressWarnings("unchecked")
        final Consumer<long[][]> exactBySummary = (Consumer<long[][]>) context.apply(EXACT_WORK);
        if (exactBySummary != null) {
          exactBySummary.accept(new long[][] {exactWork[0].clone(), exactWork[1].clone()});
        }
        final AtomicLong heldBytes = (AtomicLong) context.apply(HELD_BYTES);
        if (heldBytes != null) {
          heldBytes.accumulateAndGet(peak, Math::max);
        }
        if (then != null) {
          then.run();
        }
      };
      return Linq4j.asEnumerable(() -> new Reads(windows, summaries, stop, finished));
    }

    /**
     * Remakes the windows of summary {@code s} (made from others', ending at {@code first} or
     * later) that hold a part changed since the last read: a merge's from its source's windows,
     * exact windows from the exact cells of the summary its sources lead to. Returns how many
     * it made; counts the sub-window summaries a merge merged into {@code mergedParts[s]}, and
     * the values an exact summary counted and the φ values it selected into
     * {@code exactWork[0][s]} and {@code exactWork[1][s]}.
     *
     * <p>The windows of a merge that no other merge reads and that end at or after the end L
     * of its source's latest sub-window (the last full one and those after it, holding fewer
     * sub-windows) are suffixes of one another, [end - width, L): one summary merging the
     * sub-windows from the latest backwards gives each in turn, its φs read as it reaches the
     * window's start. So a read every step after that step's rows merges a window's p
     * sub-windows once, not each of the width / step windows holding the latest from its own.
     */
    private long remake(int s, long first, Stop stop, Stop.Merges merges, long[] mergedParts,
        long[][] exactWork) {
      final Summary summary = summaries.get(s);
      final Derived d = derivedOf[s];
      if (summary.family() == Family.EXACT) {
        int root = s;
        while (summaries.get(root).source() >= 0) {
          root = summaries.get(root).source();
        }
        return summary.phis().isEmpty() ? 0
            : ExactWindows.remake(cellsOf[root], summary, d.answers,
                windowEnds(cellsOf[root].changed, summary.width(), summary.step(), first, stop),
                stop, merges, exactWork, s);
      }
      final int source = summary.source();
      final TreeMap<Long, Sketch> parts = derivedOf[source] != null
          ? derivedOf[source].sketches : cellsOf[source].byStart;
      final Set<Long> changed = derivedOf[source] != null ? derivedOf[source].changed
          : cellsOf[source].changed;
      long remade = 0;
      final TreeSet<Long> ends = windowEnds(changed, summary.width(), summary.step(), first,
          stop);
      if (d.sketches == null && !summary.phis().isEmpty() && !parts.isEmpty()) {
        final long width = summary.width();
        final long step = summary.step();
        final long latest = parts.lastKey() + summary.subWidth();
        final long from = Math.max(Math.floorDiv(latest + step - 1, step) * step, first);
        final long to = Math.floorDiv(latest + width - 1, step) * step;
        final NavigableSet<Long> tail = from > to ? Collections.emptyNavigableSet()
            : ends.subSet(from, true, to, true);
        if (!tail.isEmpty()) {
          tail.clear();
          final Sketch merged = sketch(summary.family(), summary.parameter());
          long end = to;
          for (Map.Entry<Long, Sketch> part : parts.subMap(from - width, true, latest, false)
              .descendingMap().entrySet()) {
            for (; end >= from && end - width > part.getKey(); end -= step, remade++) {
              answer(d, summary, end, merged, stop);
            }
            merged.merge(part.getValue());
            mergedParts[s]++;
          }
          for (; end >= from; end -= step, remade++) {
            answer(d, summary, end, merged, stop);
          }
          merges.holding(merged.bytes());
        }
      }
      for (long end : ends) {
        final long start = end - summary.width();
        if (parts.subMap(start, end).isEmpty()) {
          d.answers.remove(end);
          if (d.sketches != null) {
            d.sketches.remove(start);
          }
        } else {
          final Sketch merged = merge(parts, start, end, summary.family(), summary.parameter(),
              stop);
          mergedParts[s] += parts.subMap(start, end).size();
          merges.holding(merged.bytes());
          remade++;
          if (!summary.phis().isEmpty()) {
            final double[] answers = new double[summary.phis().size()];
            for (int i = 0; i < answers.length; i++) {
              answers[i] = merged.quantile(summary.phis().get(i));
            }
            d.answers.put(end, answers);
          }
          if (d.sketches != null) {
            d.sketches.put(start, merged);
          }
        }
        if (d.sketches != null) {
          d.changed.add(start);
        }
      }
      return remade;
    }

    /** Keeps {@code merged}'s φs' values as the answers of the window ending at {@code end}. */
    private static void answer(Derived d, Summary summary, long end, Sketch merged, Stop stop) {
      stop.merged();
      final double[] answers = new double[summary.phis().size()];
      for (int i = 0; i < answers.length; i++) {
        answers[i] = merged.quantile(summary.phis().get(i));
      }
      d.answers.put(end, answers);
    }
  }

  /**
   * Checks that summary {@code s} merges the windows of a tumbling summary of its family, as
   * wide as its sub-windows (a DDSketch's of its α: DDSketches merge only with one index
   * mapping), and that following sources from it ends at a summary built from rows.
   */
  private static void checkSource(List<Summary> summaries, int s) {
    final Summary merge = summaries.get(s);
    int at = s;
    for (int hops = 0; summaries.get(at).source() >= 0; hops++) {
      if (hops == summaries.size()) {
        throw new IllegalArgumentException("summary " + s + "'s sources make a cycle");
      }
      at = summaries.get(at).source();
      if (at >= summaries.size()) {
        throw new IllegalArgumentException("summary " + s + " merges summary " + at + " of "
            + summaries.size());
      }
    }
    final Summary source = summaries.get(merge.source());
    if (source.family() != merge.family() || source.width() != source.step()
        || source.width() != merge.subWidth()
        || merge.family() == Family.DDSKETCH && source.parameter() != merge.parameter()) {
      throw new IllegalArgumentException("summary " + s + " (" + merge + ") cannot merge the "
          + "windows of summary " + merge.source() + " (" + source + ")");
    }
  }

  /**
   * A summary's windows made from others' (merged from its source's windows, or counted from
   * exact cells), kept from one read to the next: each window's answers, and, for a merge
   * another merges, each window's summary.
   */
  private static final class Derived {
    /** Each window's value of each φ of its summary, by end. */
    final TreeMap<Long, double[]> answers = new TreeMap<>();
    /** For a merge that another merges, its windows' summaries by start; null for others. */
    final TreeMap<Long, Sketch> sketches;
    /** The starts of {@link #sketches} remade or dropped since the last read. */
    final Set<Long> changed = new HashSet<>();

    Derived(boolean merged) {
      sketches = merged ? new TreeMap<>() : null;
    }

    /** How many windows it keeps. */
    long windows() {
      return Math.max(answers.size(), sketches == null ? 0 : sketches.size());
    }

    /** The bytes it keeps: 8 per answer and end, and its sketches'. */
    long bytes(Summary summary) {
      return 8L * (summary.phis().size() + 1) * answers.size()
          + (sketches == null ? 0 : Sketches.bytes(sketches));
    }

    /** Drops the windows ending before {@code first}. */
    void prune(long first, long width) {
      if (first != Long.MIN_VALUE) {
        answers.headMap(first, false).clear();
        if (sketches != null) {
          sketches.headMap(first == Long.MAX_VALUE ? first : first - width, false).clear();
        }
      }
    }

    /** The windows ending at {@code first} or later, each answering {@code phis}. */
    Iterator<Window> answers(List<Double> phis, long first) {
      final Iterator<Map.Entry<Long, double[]>> i = (first == Long.MIN_VALUE ? answers
          : answers.tailMap(first, true)).entrySet().iterator();
      return new Iterator<>() {
        @Override public boolean hasNext() {
          return i.hasNext();
        }

        @Override public Window next() {
          final Map.Entry<Long, double[]> e = i.next();
          final double[] values = e.getValue();
          return new Window(e.getKey(), phi -> values[phis.indexOf(phi)]);
        }
      };
    }
  }

  /** Each summary's windows in turn, each window's φs in turn: a row per read. */
  private static final class Reads implements Iterator<Object[]> {
    private final List<Iterator<Window>> windows;
    private final List<Summary> summaries;
    private final Stop stop;
    private Runnable finished;
    private int summary;
    private Window window;
    private int phi;

    Reads(List<Iterator<Window>> windows, List<Summary> summaries, Stop stop,
        Runnable finished) {
      this.windows = windows;
      this.summaries = summaries;
      this.stop = stop;
      this.finished = finished;
    }

    @Override public boolean hasNext() {
      while (window == null || phi == summaries.get(summary).phis().size()) {
        if (summary == windows.size()) {
          if (finished != null) {
            finished.run();
            finished = null;
          }
          return false;
        }
        final Iterator<Window> w = windows.get(summary);
        if (w.hasNext()) {
          stop.read();
          window = w.next();
          phi = 0;
        } else {
          windows.set(summary, Collections.emptyIterator());
          window = null;
          summary++;
        }
      }
      return true;
    }

    @Override public Object[] next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      final double p = summaries.get(summary).phis().get(phi++);
      return new Object[] {summary, window.end(), p, window.quantile().applyAsDouble(p)};
    }
  }

  /** A statement's cancel flag, checked as the pass goes, with what the pass did so far. */
  private static final class Stop {
    /** Receives the bytes a merged window (or an exact merge's counts) holds. */
    interface Merges {
      void holding(long bytes);
    }

    private final AtomicBoolean flag;
    private long rows;
    private long merged;
    private long reads;

    Stop(AtomicBoolean flag) {
      this.flag = flag;
    }

    void row() {
      check();
      rows++;
    }

    void merged() {
      check();
      merged++;
    }

    void read() {
      check();
      reads++;
    }

    private void check() {
      if (flag != null && flag.get()) {
        throw new IllegalStateException("sketch pass cancelled (query timeout or cancel) after "
            + rows + " rows, " + merged + " merged windows and " + reads
            + " window reads; nothing of it is kept");
      }
    }
  }

  /**
   * The width of the tumbling summaries a summary of {@code family} is built from: its
   * sub-windows', its own when its windows tumble, the step for exact sliding windows (read by
   * counting, never copied), 0 for sketches' sliding windows built directly (each row in
   * width / step of them).
   */
  public static long cellWidth(Family family, long width, long step, long subWidth) {
    return subWidth > 0 ? subWidth : width == step || family == Family.EXACT ? step : 0;
  }

  /**
   * The windows of {@code byStart} (by start; by end when {@code width} is 0) that end at
   * {@code first} or later, in time order.
   */
  private static Iterator<Window> ends(TreeMap<Long, Sketch> byStart, long width, long first) {
    final Iterator<Map.Entry<Long, Sketch>> i = (first == Long.MIN_VALUE ? byStart
        : byStart.tailMap(first - width, true)).entrySet().iterator();
    return new Iterator<>() {
      @Override public boolean hasNext() {
        return i.hasNext();
      }

      @Override public Window next() {
        final Map.Entry<Long, Sketch> e = i.next();
        return new Window(e.getKey() + width, e.getValue()::quantile);
      }
    };
  }

  /**
   * The ends, {@code first} or later, of the windows of {@code width} every {@code step}
   * holding a sub-window that starts at one of {@code starts}; {@code stop} is checked every
   * 4,096 ends (a short step makes millions of them).
   */
  private static TreeSet<Long> windowEnds(Iterable<Long> starts, long width, long step,
      long first, Stop stop) {
    final TreeSet<Long> ends = new TreeSet<>();
    long made = 0;
    for (long start : starts) {
      for (long end = Math.max(Math.floorDiv(start, step) * step + step, first);
          end - width <= start; end += step) {
        ends.add(end);
        if ((++made & 4095) == 0) {
          stop.check();
        }
      }
    }
    return ends;
  }

  private static long bytes(TreeMap<Long, Sketch> summaries) {
    long bytes = 0;
    for (Sketch s : summaries.values()) {
      bytes += s.bytes();
    }
    return bytes;
  }

  /** Tumbling summaries of one family, parameter and width built from rows, by start. */
  private static final class Cells {
    private final Family family;
    private final double parameter;
    private final long width;
    private final TreeMap<Long, Sketch> byStart = new TreeMap<>();
    private long lastStart;
    private Sketch last;
    /** The cells dropped to be built again ({@link State#drop}), by start. */
    private final Set<Long> dropped = new HashSet<>();
    /** No cell ending at or before it is kept ({@link #prune}). */
    private long floor = Long.MIN_VALUE;
    /**
     * The starts of the cells updated or dropped since the last read ({@link #changesRead}):
     * the windows made from them are remade.
     */
    private final Set<Long> changed = new HashSet<>();

    Cells(Family family, double parameter, long width) {
      this.family = family;
      this.parameter = parameter;
      this.width = width;
    }

    void update(long t, double v) {
      // Rows mostly come in time order: the last cell is usually the one.
      final long start = Math.floorDiv(t, width) * width;
      if (start + width <= floor) {
        return;
      }
      if (last == null || start != lastStart) {
        last = byStart.computeIfAbsent(start, k -> sketch(family, parameter));
        lastStart = start;
        changed.add(start);
      }
      last.update(v);
    }

    /** Forgets the changes: a read has remade what they changed. */
    void changesRead() {
      changed.clear();
      last = null;
    }

    /** Adds {@code v} to the cell holding {@code t} if it was dropped, or if it was not. */
    void update(long t, double v, boolean toDropped) {
      final long start = Math.floorDiv(t, width) * width;
      if (dropped.contains(start) == toDropped) {
        update(t, v);
      }
    }

    /** Drops the cells ending at or before {@code need}, and keeps no such cell from now on. */
    void prune(long need) {
      if (need > floor) {
        floor = need;
        byStart.headMap(need - width, true).clear();
        last = null;
      }
    }

    /** Drops the cell holding {@code t}, adding the times it covers to {@code ranges}. */
    void drop(long t, List<long[]> ranges) {
      final long start = Math.floorDiv(t, width) * width;
      if (start + width <= floor) {
        return;
      }
      byStart.remove(start);
      last = null;
      changed.add(start);
      if (dropped.add(start)) {
        ranges.add(new long[] {start, start + width});
      }
    }
  }

  /** The sub-windows of {@code subWindows} starting in [from, to) merged into one summary. */
  private static Sketch merge(TreeMap<Long, Sketch> subWindows, long from, long to, Family family,
      double parameter, Stop stop) {
    stop.merged();
    final Sketch merged = sketch(family, parameter);
    for (Sketch sub : subWindows.subMap(from, to).values()) {
      merged.merge(sub);
    }
    return merged;
  }

  /**
   * Exact windows of {@code width} every {@code step} over tumbling exact cells that tile them,
   * answered without copying a value into a window, by one of two exact methods whose answers
   * agree (the value of {@link #nearestRank}, as {@link Exact#quantile}), chosen per run of
   * consecutive windows to remake by their estimated cost, as the planner's cost model chooses
   * ({@code CostModel.exactReads}): selection when one φ's selection in every window of the run,
   * windows · parts · log₂ V, is below the sweep's V values, whatever the number of φs (the
   * model charges the selection per φ read, the sweep once):
   *
   * <ol>
   * <li>Counting ({@link #sweep}): the values of the cells the run spans, sorted and without
   * repeats, index a Fenwick tree of counts (Fenwick, "A new data structure for cumulative
   * frequency tables", 1994). Moving to the next window adds each value of the cells that enter
   * it and removes each of those that leave, O(log d) per value for d distinct values; the
   * φ-quantile is found by descending the tree, O(log d). Every value of the span is counted in
   * and out once whatever the overlap: O(V log V) for V values, the run's whole span.
   * <li>Selection ({@link #select}): the cells are kept sorted, and the value of rank r among a
   * window's p cells is found by cutting their sorted ranges at the weighted median of their
   * middles, each cut dropping at least a quarter of what is left: O(p log² V) per φ, whatever
   * the values, so a few windows changed (rows added at the end of a long window) are remade
   * without counting the values of their span.
   * </ol>
   */
  private static final class ExactWindows {
    private ExactWindows() {
    }

    /**
     * Remakes into {@code answers} (by end) the windows of {@code summary} ending at
     * {@code ends} from {@code cells}: each its φs' values, or none when it holds no value.
     * Returns how many it made; adds the values it counted and the φ values it selected to
     * {@code work[0][s]} and {@code work[1][s]}.
     */
    static long remake(Cells cells, Summary summary, TreeMap<Long, double[]> answers,
        TreeSet<Long> ends, Stop stop, Stop.Merges merges, long[][] work, int s) {
      long made = 0;
      final long width = summary.width();
      final long step = summary.step();
      while (!ends.isEmpty()) {
        // the run of consecutive ends from the first
        final long from = ends.pollFirst();
        long to = from;
        while (!ends.isEmpty() && ends.first() == to + step) {
          to = ends.pollFirst();
        }
        long values = 0;
        long spanned = 0;
        for (Sketch c : cells.byStart.subMap(from - width, to).values()) {
          values += ((Exact) c).size;
          spanned++;
        }
        final long windows = (to - from) / step + 1;
        final long parts = Math.min(width / cells.width, spanned);
        final long log = 64 - Long.numberOfLeadingZeros(values + 1);
        if (windows * parts * log < values) {
          for (long end = from; end <= to; end += step) {
            final long one = select(cells.byStart.subMap(end - width, end).values(),
                summary.phis(), end, answers, stop, merges);
            made += one;
            work[1][s] += one * summary.phis().size();
          }
        } else {
          made += sweep(cells.byStart, width, step, from, to, summary.phis(), answers, stop,
              merges, work[0], s);
        }
      }
      return made;
    }

    /** Answers the window ending at {@code end} from its cells by selection; 1 if it has values. */
    private static long select(Collection<Sketch> cells, List<Double> phis, long end,
        TreeMap<Long, double[]> answers, Stop stop, Stop.Merges merges) {
      stop.merged();
      final Exact[] parts = new Exact[cells.size()];
      long count = 0;
      int p = 0;
      for (Sketch c : cells) {
        parts[p] = (Exact) c;
        parts[p].sort();
        count += parts[p++].size;
      }
      if (count == 0) {
        answers.remove(end);
        return 0;
      }
      merges.holding(24L * parts.length);
      final double[] values = new double[phis.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = select(parts, nearestRank(phis.get(i), count) - 1);
      }
      answers.put(end, values);
      return 1;
    }

    /**
     * The value of 0-based rank {@code rank} among the values of {@code parts} (each sorted):
     * each round takes as pivot the weighted median of the ranges' middles, counts the values
     * below and equal to it by binary search in every range, and keeps the side holding the
     * rank. {@code rank} is below the number of values: each round drops the pivot's values,
     * so one past the last would leave no range and loop.
     */
    static double select(Exact[] parts, long rank) {
      final int m = parts.length;
      final int[] lo = new int[m];
      final int[] hi = new int[m];
      for (int i = 0; i < m; i++) {
        hi[i] = parts[i].size;
      }
      final Integer[] byMiddle = new Integer[m];
      final int[] below = new int[m];
      final int[] upTo = new int[m];
      long r = rank;
      while (true) {
        // 1. The pivot: the middle of the range at which half the remaining values are reached,
        //    ranges ordered by middle; at least a quarter of the values lie on either side.
        int k = 0;
        long total = 0;
        for (int i = 0; i < m; i++) {
          if (lo[i] < hi[i]) {
            byMiddle[k++] = i;
            total += hi[i] - lo[i];
          }
        }
        Arrays.sort(byMiddle, 0, k, (a, b) -> Double.compare(middle(parts[a], lo[a], hi[a]),
            middle(parts[b], lo[b], hi[b])));
        double pivot = Double.NaN;
        long reached = 0;
        for (int j = 0; j < k; j++) {
          final int i = byMiddle[j];
          reached += hi[i] - lo[i];
          if (2 * reached >= total) {
            pivot = middle(parts[i], lo[i], hi[i]);
            break;
          }
        }
        // 2. Values below and equal to the pivot in every range.
        long less = 0;
        long equal = 0;
        for (int i = 0; i < m; i++) {
          below[i] = bound(parts[i].values, lo[i], hi[i], pivot, false);
          upTo[i] = bound(parts[i].values, below[i], hi[i], pivot, true);
          less += below[i] - lo[i];
          equal += upTo[i] - below[i];
        }
        // 3. Keep the side holding the rank (the pivot itself is dropped either way).
        if (r < less) {
          System.arraycopy(below, 0, hi, 0, m);
        } else if (r < less + equal) {
          return pivot;
        } else {
          r -= less + equal;
          System.arraycopy(upTo, 0, lo, 0, m);
        }
      }
    }

    private static double middle(Exact part, int lo, int hi) {
      return part.values[(lo + hi) >>> 1];
    }

    /**
     * The first index in [lo, hi) of sorted {@code values} whose value is above {@code pivot}
     * (with {@code above}) or not below it (without); hi if none.
     */
    private static int bound(double[] values, int lo, int hi, double pivot, boolean above) {
      while (lo < hi) {
        final int mid = (lo + hi) >>> 1;
        final int c = Double.compare(values[mid], pivot);
        if (c < 0 || above && c == 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }

    /**
     * Answers the windows ending from {@code from} to {@code to} by counting; returns how many
     * hold values, and adds the values counted in and out to {@code counted[s]}.
     */
    private static long sweep(TreeMap<Long, Sketch> cells, long width, long step, long from,
        long to, List<Double> phis, TreeMap<Long, double[]> answers, Stop stop,
        Stop.Merges merges, long[] counted, int s) {
      // 1. The span's values, sorted once, without repeats.
      final Collection<Sketch> span = cells.subMap(from - width, to).values();
      long total = 0;
      for (Sketch c : span) {
        total += ((Exact) c).size;
      }
      final double[] all = new double[Math.toIntExact(total)];
      int n = 0;
      for (Sketch c : span) {
        final Exact e = (Exact) c;
        System.arraycopy(e.values, 0, all, n, e.size);
        n += e.size;
      }
      Arrays.sort(all);
      int d = 0;
      for (int i = 0; i < n; i++) {
        if (d == 0 || Double.compare(all[d - 1], all[i]) != 0) {
          all[d++] = all[i];
        }
      }
      final double[] values = Arrays.copyOf(all, d);
      // counts[i] covers values (i - (i & -i), i] (1-based)
      final int[] counts = new int[d + 1];
      merges.holding(8L * values.length + 4L * counts.length);
      // 2. Window by window, the cells that left counted out and those that entered in.
      long made = 0;
      long count = 0;
      long inFrom = from - width;
      long inTo = from - width;
      for (long end = from; end <= to; end += step) {
        stop.merged();
        final long start = end - width;
        for (Sketch left : cells.subMap(inFrom, Math.max(inFrom, Math.min(inTo, start)))
            .values()) {
          count += count(values, counts, (Exact) left, -1);
          counted[s] += ((Exact) left).size;
        }
        for (Sketch entered : cells.subMap(Math.max(inTo, start), end).values()) {
          count += count(values, counts, (Exact) entered, 1);
          counted[s] += ((Exact) entered).size;
        }
        inFrom = start;
        inTo = end;
        if (count == 0) {
          answers.remove(end);
          continue;
        }
        final double[] answer = new double[phis.size()];
        for (int i = 0; i < answer.length; i++) {
          answer[i] = quantile(values, counts, nearestRank(phis.get(i), count) - 1);
        }
        answers.put(end, answer);
        made++;
      }
      return made;
    }

    private static long count(double[] values, int[] counts, Exact cell, int delta) {
      for (int i = 0; i < cell.size; i++) {
        for (int j = Arrays.binarySearch(values, cell.values[i]) + 1; j < counts.length;
            j += j & -j) {
          counts[j] += delta;
        }
      }
      return (long) delta * cell.size;
    }

    /** The first value whose cumulative count passes the 0-based {@code rank}. */
    private static double quantile(double[] values, int[] counts, long rank) {
      int at = 0;
      for (int bit = Integer.highestOneBit(counts.length - 1); bit > 0; bit >>= 1) {
        if (at + bit < counts.length && counts[at + bit] <= rank) {
          at += bit;
          rank -= counts[at];
        }
      }
      return values[at];
    }
  }

  /** Overlapping windows built directly: each row updates every window that holds it. */
  private static final class Sliding {
    private final Family family;
    private final double parameter;
    private final long width;
    private final long step;
    /** By end. */
    private final TreeMap<Long, Sketch> windows = new TreeMap<>();
    /** The windows dropped to be built again ({@link State#drop}), by end. */
    private final Set<Long> dropped = new HashSet<>();
    /** No window starting before it is kept ({@link #prune}). */
    private long floor = Long.MIN_VALUE;

    Sliding(Family family, double parameter, long width, long step) {
      this.family = family;
      this.parameter = parameter;
      this.width = width;
      this.step = step;
    }

    /** The end of the first window kept that holds {@code t}. */
    private long firstEnd(long t) {
      final long end = Math.floorDiv(t, step) * step + step;
      return floor == Long.MIN_VALUE ? end : Math.max(end, floor + width);
    }

    void update(long t, double v) {
      for (long end = firstEnd(t); end - width <= t; end += step) {
        windows.computeIfAbsent(end, e -> sketch(family, parameter)).update(v);
      }
    }

    /** Adds {@code v} to the windows holding {@code t} that were dropped, or to the others. */
    void update(long t, double v, boolean toDropped) {
      for (long end = firstEnd(t); end - width <= t; end += step) {
        if (dropped.contains(end) == toDropped) {
          windows.computeIfAbsent(end, e -> sketch(family, parameter)).update(v);
        }
      }
    }

    /** Drops the windows starting before {@code need}, and keeps no such window from now on. */
    void prune(long need) {
      if (need > floor) {
        floor = need;
        windows.headMap(need > Long.MAX_VALUE - width ? Long.MAX_VALUE : need + width, false)
            .clear();
      }
    }

    /** Drops the windows holding {@code t}, adding the times they cover to {@code ranges}. */
    void drop(long t, List<long[]> ranges) {
      for (long end = firstEnd(t); end - width <= t; end += step) {
        windows.remove(end);
        if (dropped.add(end)) {
          ranges.add(new long[] {end - width, end});
        }
      }
    }
  }

  private static long millis(Object time) {
    if (time instanceof java.util.Date d) {
      return d.getTime();
    }
    return ((Number) time).longValue();
  }

  /**
   * The rank of the φ-quantile of n values by the nearest-rank definition: the ⌈φ·n⌉-th
   * smallest (1-based), the smallest for φ = 0. φ is taken as the decimal it prints as (a SQL
   * literal's), so that 0.07 of 100 values is the 7th where the double product 0.07 · 100 is
   * 7.000000000000001.
   */
  static long nearestRank(double phi, long n) {
    return Math.max(1, BigDecimal.valueOf(phi).multiply(BigDecimal.valueOf(n))
        .setScale(0, RoundingMode.CEILING).longValueExact());
  }

  static Sketch sketch(Family family, double parameter) {
    return switch (family) {
      case KLL -> new Kll(KllDoublesSketch.newHeapInstance((int) parameter));
      case DDSKETCH -> new Dd(DDSketches.unboundedDense(parameter));
      case EXACT -> new Exact();
    };
  }

  private record Kll(KllDoublesSketch sketch) implements Sketch {
    @Override public void update(double value) {
      sketch.update(value);
    }

    @Override public void merge(Sketch other) {
      sketch.merge(((Kll) other).sketch);
    }

    /**
     * INCLUSIVE reads the first retained value whose cumulative weight reaches the natural rank
     * ⌈rank·n⌉: asked for (r - 1/2) / n, that is r itself, free of rounding, so on a window of
     * at most k values (all of weight 1) this is the r-th smallest.
     */
    @Override public double quantile(double phi) {
      if (sketch.isEmpty()) {
        return Double.NaN;
      }
      final long n = sketch.getN();
      return sketch.getQuantile((nearestRank(phi, n) - 0.5) / n, QuantileSearchCriteria.INCLUSIVE);
    }

    @Override public long bytes() {
      return sketch.getSerializedSizeBytes();
    }
  }

  /**
   * A DDSketch of {@code DDSketches.unboundedDense}: a logarithmic index mapping and, for the
   * positive and the negative values, a dense store, an array of one count per index from the
   * lowest to the highest index it has held.
   */
  record Dd(DDSketch sketch) implements Sketch {
    /**
     * The objects around the arrays: the sketch, its mapping and its two stores (their headers
     * and fields, compressed references).
     */
    static final long FIXED_BYTES = 192;
    /** An array's header. */
    static final long ARRAY_BYTES = 16;
    /** A dense store's array grows by whole increments of this many counts. */
    static final int GROWTH = 64;
    /** Counts a dense store adds past its range before rounding up to an increment. */
    static final int OVERHEAD = 6;

    /**
     * The length of a dense store's array holding indices {@code range} wide: as sketches-java's
     * {@code DenseStore.getNewLength} sizes it, range + 6 rounded up to a whole 64 past it. The
     * store allocates it so when it grows to the range at once; grown in steps its array is
     * at least the range and at most this.
     */
    static long denseLength(long range) {
      return ((range + OVERHEAD - 1) / GROWTH + 1) * GROWTH;
    }

    @Override public void update(double value) {
      sketch.accept(value);
    }

    @Override public void merge(Sketch other) {
      sketch.mergeWith(((Dd) other).sketch);
    }

    /**
     * DDSketch reads q as the value whose bucket holds the (⌊q·(n - 1)⌋ + 1)-th smallest: asked
     * for (r - 1/2) / (n - 1), at most 1, that is the r-th, free of rounding.
     */
    @Override public double quantile(double phi) {
      if (sketch.isEmpty()) {
        return Double.NaN;
      }
      final long n = (long) sketch.getCount();
      return sketch.getValueAtQuantile(
          n == 1 ? 0 : Math.min(1, (nearestRank(phi, n) - 0.5) / (n - 1)));
    }

    /** Each non-empty store's array of counts, as {@link #denseLength} sizes it, and the objects. */
    @Override public long bytes() {
      return FIXED_BYTES + storeBytes(sketch.getPositiveValueStore())
          + storeBytes(sketch.getNegativeValueStore());
    }

    private static long storeBytes(Store store) {
      return store.isEmpty() ? 0
          : ARRAY_BYTES + 8 * denseLength((long) store.getMaxIndex() - store.getMinIndex() + 1);
    }
  }

  /** Every value: the exact accumulator. */
  private static final class Exact implements Sketch {
    private double[] values = new double[16];
    private int size;
    /** values[0, sorted) are sorted. */
    private int sorted;

    @Override public void update(double value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
    }

    /** Sorts the values: those added since the last sort, then both runs merged, O(size). */
    void sort() {
      if (sorted == size) {
        return;
      }
      Arrays.sort(values, sorted, size);
      if (sorted > 0) {
        final double[] merged = new double[values.length];
        int a = 0;
        int b = sorted;
        for (int i = 0; i < size; i++) {
          merged[i] = b == size || a < sorted && Double.compare(values[a], values[b]) <= 0
              ? values[a++] : values[b++];
        }
        values = merged;
      }
      sorted = size;
    }

    /**
     * Adds the other cell's values: parts of one cell built apart ({@link Part}). Windows are
     * never merged so: they are made from cells by counting ({@link ExactWindows}).
     */
    @Override public void merge(Sketch other) {
      final Exact o = (Exact) other;
      for (int i = 0; i < o.size; i++) {
        update(o.values[i]);
      }
    }

    @Override public double quantile(double phi) {
      if (size == 0) {
        return Double.NaN;
      }
      sort();
      return values[(int) nearestRank(phi, size) - 1];
    }

    @Override public long bytes() {
      return 8L * values.length;
    }
  }
}
