package dev.mnestic.runtime;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.DDSketches;

import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.datasketches.kll.KllDoublesSketch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Runtime of {@link dev.mnestic.rel.SketchAggregate}: per-window summaries, built once, read many times. */
public final class Sketches {
  private Sketches() {
  }

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
   */
  public static Enumerable<Object[]> windows(Enumerable<Object[]> rows, int timeColumn,
      int valueColumn, String[] families, double[] parameters, long[] widths, long[] steps,
      long[] subWidths, double[][] phis) {
    final Windows[] summaries = new Windows[families.length];
    for (int s = 0; s < summaries.length; s++) {
      summaries[s] = new Windows(families[s], parameters[s], widths[s], steps[s], subWidths[s]);
    }
    // 1. One pass: each row updates every summary's window(s) or sub-window that holds it.
    for (Object[] row : rows) {
      if (row[valueColumn] == null) {
        continue;
      }
      final long t = millis(row[timeColumn]);
      final double v = ((Number) row[valueColumn]).doubleValue();
      for (Windows w : summaries) {
        w.update(t, v);
      }
    }
    // 2. Every quantile of a window is read from its one summary.
    final List<Object[]> out = new ArrayList<>();
    for (int s = 0; s < summaries.length; s++) {
      for (Map.Entry<Long, Summary> w : summaries[s].windows().entrySet()) {
        for (double phi : phis[s]) {
          out.add(new Object[] {s, w.getKey(), phi, w.getValue().quantile(phi)});
        }
      }
    }
    return Linq4j.asEnumerable(out);
  }

  /** One summary's windows while the pass runs. */
  private static final class Windows {
    private final String family;
    private final double parameter;
    private final long width;
    private final long step;
    private final long subWidth;
    /** By window end, or (with sub-windows) by sub-window start. */
    private final TreeMap<Long, Summary> cells = new TreeMap<>();
    /** Whether each row updates one cell: tumbling windows, or sub-windows. */
    private final boolean oneCell;
    private long lastKey;
    private Summary last;

    Windows(String family, double parameter, long width, long step, long subWidth) {
      this.family = family;
      this.parameter = parameter;
      this.width = width;
      this.step = step;
      this.subWidth = subWidth;
      this.oneCell = subWidth > 0 || width == step;
    }

    void update(long t, double v) {
      if (oneCell) {
        // Rows mostly come in time order: the last cell is usually the one.
        final long key = subWidth > 0 ? Math.floorDiv(t, subWidth) * subWidth
            : Math.floorDiv(t, step) * step + step;
        if (last == null || key != lastKey) {
          last = cells.computeIfAbsent(key, k -> summary(family, parameter));
          lastKey = key;
        }
        last.update(v);
        return;
      }
      for (long end = Math.floorDiv(t, step) * step + step; end - width <= t; end += step) {
        cells.computeIfAbsent(end, e -> summary(family, parameter)).update(v);
      }
    }

    /** Window end → its summary; with sub-windows, each window merges those that tile it. */
    TreeMap<Long, Summary> windows() {
      if (subWidth == 0) {
        return cells;
      }
      final TreeSet<Long> ends = new TreeSet<>();
      for (long start : cells.keySet()) {
        for (long end = Math.floorDiv(start, step) * step + step; end - width <= start; end += step) {
          ends.add(end);
        }
      }
      final TreeMap<Long, Summary> windows = new TreeMap<>();
      for (long end : ends) {
        final Summary merged = summary(family, parameter);
        for (Summary sub : cells.subMap(end - width, end).values()) {
          merged.merge(sub);
        }
        windows.put(end, merged);
      }
      return windows;
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
