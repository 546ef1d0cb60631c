package dev.mnestic.runtime;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.DDSketches;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.datasketches.kll.KllDoublesSketch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** Runtime of {@link dev.mnestic.rel.SketchAggregate}: per-window summaries, built once, read many times. */
public final class Sketches {
  private Sketches() {
  }

  /**
   * The context variable holding an {@code AtomicLong} that counts every summary built from
   * rows (a window's, or a sub-window's that windows merge); absent for none.
   */
  public static final String BUILDS = "mnesticSketchBuilds";

  /** One window's summary. */
  interface Summary {
    void update(double value);

    /** Adds everything {@code other} (of the same family and parameter) summarizes. */
    void merge(Summary other);

    double quantile(double phi);
  }

  /**
   * Every summary's reads per window, built in one pass over {@code rows}: summary {@code s} is
   * {@code families[s]} with {@code parameters[s]} over windows of {@code widths[s]} every
   * {@code steps[s]} (from sub-windows of {@code subWidths[s]} when positive), read at each of
   * {@code phis[s]}. A row per read: the summary's index, the window's end (epoch milliseconds, as
   * Calcite holds a TIMESTAMP), φ and the value. See {@link dev.mnestic.rel.SketchAggregate}.
   *
   * <p>Tumbling summaries of one family, parameter and width are built once per row whoever
   * reads them: a summary of tumbling windows, and the sub-windows other summaries merge.
   *
   * <p>The context's {@code DataContext.Variable.CANCEL_FLAG} (a statement's cancel or query
   * timeout) stops the pass between two rows, two merged windows or two reads: it fails and
   * returns nothing, counting no builds.
   */
  public static Enumerable<Object[]> windows(DataContext root, Enumerable<Object[]> rows,
      int timeColumn,
      int valueColumn, String[] families, double[] parameters, long[] widths, long[] steps,
      long[] subWidths, double[][] phis) {
    final int n = families.length;
    final Map<List<Object>, Cells> cells = new LinkedHashMap<>();
    final Cells[] tumbling = new Cells[n];
    final List<Sliding> sliding = new ArrayList<>();
    final Sliding[] slidingOf = new Sliding[n];
    for (int s = 0; s < n; s++) {
      final long cellWidth = cellWidth(widths[s], steps[s], subWidths[s]);
      if (cellWidth > 0) {
        final String family = families[s];
        final double parameter = parameters[s];
        tumbling[s] = cells.computeIfAbsent(List.of(family, parameter, cellWidth),
            k -> new Cells(family, parameter, cellWidth));
      } else {
        slidingOf[s] = new Sliding(families[s], parameters[s], widths[s], steps[s]);
        sliding.add(slidingOf[s]);
      }
    }
    final Cells[] distinct = cells.values().toArray(new Cells[0]);
    final Sliding[] slidings = sliding.toArray(new Sliding[0]);
    final Stop stop = new Stop(DataContext.Variable.CANCEL_FLAG.get(root));
    // 1. One pass: each row updates every distinct tumbling summary and every sliding window
    //    that holds it.
    for (Object[] row : rows) {
      stop.row();
      if (row[valueColumn] == null) {
        continue;
      }
      final long t = millis(row[timeColumn]);
      final double v = ((Number) row[valueColumn]).doubleValue();
      for (Cells c : distinct) {
        c.update(t, v);
      }
      for (Sliding w : slidings) {
        w.update(t, v);
      }
    }
    // 2. Every quantile of a window is read from its one summary.
    final List<Object[]> out = new ArrayList<>();
    for (int s = 0; s < n; s++) {
      final TreeMap<Long, Summary> windows = slidingOf[s] != null ? slidingOf[s].windows
          : subWidths[s] > 0
          ? tumbling[s].merged(widths[s], steps[s], families[s], parameters[s], stop)
          : tumbling[s].byEnd();
      for (Map.Entry<Long, Summary> w : windows.entrySet()) {
        stop.read();
        for (double phi : phis[s]) {
          out.add(new Object[] {s, w.getKey(), phi, w.getValue().quantile(phi)});
        }
      }
    }
    // 3. Only a pass that finished counts what it built.
    final AtomicLong builds = (AtomicLong) root.get(BUILDS);
    if (builds != null) {
      for (Cells c : distinct) {
        builds.addAndGet(c.byStart.size());
      }
      for (Sliding w : slidings) {
        builds.addAndGet(w.windows.size());
      }
    }
    return Linq4j.asEnumerable(out);
  }

  /** A statement's cancel flag, checked as the pass goes, with what the pass did so far. */
  private static final class Stop {
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
   * The width of the tumbling summaries a summary is built from: its sub-windows', its own when
   * its windows tumble, 0 for sliding windows built directly (each row in width / step of them).
   */
  public static long cellWidth(long width, long step, long subWidth) {
    return subWidth > 0 ? subWidth : width == step ? width : 0;
  }

  /** Tumbling summaries of one family, parameter and width, by start. */
  private static final class Cells {
    private final String family;
    private final double parameter;
    private final long width;
    private final TreeMap<Long, Summary> byStart = new TreeMap<>();
    private long lastStart;
    private Summary last;

    Cells(String family, double parameter, long width) {
      this.family = family;
      this.parameter = parameter;
      this.width = width;
    }

    void update(long t, double v) {
      // Rows mostly come in time order: the last cell is usually the one.
      final long start = Math.floorDiv(t, width) * width;
      if (last == null || start != lastStart) {
        last = byStart.computeIfAbsent(start, k -> summary(family, parameter));
        lastStart = start;
      }
      last.update(v);
    }

    /** The cells as windows of their own width, by end. */
    TreeMap<Long, Summary> byEnd() {
      final TreeMap<Long, Summary> out = new TreeMap<>();
      byStart.forEach((start, summary) -> out.put(start + width, summary));
      return out;
    }

    /** Windows of {@code windowWidth} every {@code step}, each merged from the cells tiling it. */
    TreeMap<Long, Summary> merged(long windowWidth, long step, String family, double parameter,
        Stop stop) {
      final TreeSet<Long> ends = new TreeSet<>();
      for (long start : byStart.keySet()) {
        for (long end = Math.floorDiv(start, step) * step + step; end - windowWidth <= start;
            end += step) {
          ends.add(end);
        }
      }
      final TreeMap<Long, Summary> windows = new TreeMap<>();
      for (long end : ends) {
        stop.merged();
        final Summary merged = summary(family, parameter);
        for (Summary sub : byStart.subMap(end - windowWidth, end).values()) {
          merged.merge(sub);
        }
        windows.put(end, merged);
      }
      return windows;
    }
  }

  /** Overlapping windows built directly: each row updates every window that holds it. */
  private static final class Sliding {
    private final String family;
    private final double parameter;
    private final long width;
    private final long step;
    /** By end. */
    private final TreeMap<Long, Summary> windows = new TreeMap<>();

    Sliding(String family, double parameter, long width, long step) {
      this.family = family;
      this.parameter = parameter;
      this.width = width;
      this.step = step;
    }

    void update(long t, double v) {
      for (long end = Math.floorDiv(t, step) * step + step; end - width <= t; end += step) {
        windows.computeIfAbsent(end, e -> summary(family, parameter)).update(v);
      }
    }
  }

  private static long millis(Object time) {
    if (time instanceof java.util.Date d) {
      return d.getTime();
    }
    return ((Number) time).longValue();
  }

  static Summary summary(String family, double parameter) {
    switch (family) {
      case "KLL":
        return new Kll(KllDoublesSketch.newHeapInstance((int) parameter));
      case "DDSKETCH":
        return new Dd(DDSketches.unboundedDense(parameter));
      case "EXACT":
        return new Exact();
      default:
        throw new IllegalArgumentException("no summary family " + family);
    }
  }

  private record Kll(KllDoublesSketch sketch) implements Summary {
    @Override public void update(double value) {
      sketch.update(value);
    }

    @Override public void merge(Summary other) {
      sketch.merge(((Kll) other).sketch);
    }

    @Override public double quantile(double phi) {
      return sketch.isEmpty() ? Double.NaN : sketch.getQuantile(phi);
    }
  }

  private record Dd(DDSketch sketch) implements Summary {
    @Override public void update(double value) {
      sketch.accept(value);
    }

    @Override public void merge(Summary other) {
      sketch.mergeWith(((Dd) other).sketch);
    }

    @Override public double quantile(double phi) {
      return sketch.isEmpty() ? Double.NaN : sketch.getValueAtQuantile(phi);
    }
  }

  /** Every value: the exact accumulator. */
  private static final class Exact implements Summary {
    private double[] values = new double[16];
    private int size;
    private boolean sorted = true;

    @Override public void update(double value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
      sorted = false;
    }

    @Override public void merge(Summary other) {
      final Exact o = (Exact) other;
      for (int i = 0; i < o.size; i++) {
        update(o.values[i]);
      }
    }

    /** The value at rank ⌊φ·(n - 1)⌋ of the sorted values. */
    @Override public double quantile(double phi) {
      if (size == 0) {
        return Double.NaN;
      }
      if (!sorted) {
        Arrays.sort(values, 0, size);
        sorted = true;
      }
      return values[(int) Math.floor(phi * (size - 1))];
    }
  }
}
