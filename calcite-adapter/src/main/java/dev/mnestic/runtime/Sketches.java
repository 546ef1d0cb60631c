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
   * The rows of each window, in time order: its end (epoch milliseconds, as Calcite holds a
   * TIMESTAMP), then the φ-quantile of each of {@code phis} read from the window's one summary.
   * See {@link dev.mnestic.rel.SketchAggregate} for the windows and families.
   */
  public static Enumerable<Object[]> windows(Enumerable<Object[]> rows, int timeColumn,
      int valueColumn, String family, double parameter, long width, long step, long subWidth,
      double[] phis) {
    final TreeMap<Long, Summary> windows = new TreeMap<>();
    if (subWidth == 0) {
      // 1. Each row updates every window [end - width, end) that holds it.
      for (Object[] row : rows) {
        if (row[valueColumn] == null) {
          continue;
        }
        final long t = millis(row[timeColumn]);
        final double v = ((Number) row[valueColumn]).doubleValue();
        for (long end = Math.floorDiv(t, step) * step + step; end - width <= t; end += step) {
          windows.computeIfAbsent(end, e -> summary(family, parameter)).update(v);
        }
      }
    } else {
      // 1. Each row updates its tumbling sub-window [start, start + subWidth).
      final TreeMap<Long, Summary> subs = new TreeMap<>();
      for (Object[] row : rows) {
        if (row[valueColumn] == null) {
          continue;
        }
        final long t = millis(row[timeColumn]);
        subs.computeIfAbsent(Math.floorDiv(t, subWidth) * subWidth, s -> summary(family, parameter))
            .update(((Number) row[valueColumn]).doubleValue());
      }
      // 2. Each window that holds a sub-window merges the sub-windows that tile it.
      final TreeSet<Long> ends = new TreeSet<>();
      for (long start : subs.keySet()) {
        for (long end = Math.floorDiv(start, step) * step + step; end - width <= start; end += step) {
          ends.add(end);
        }
      }
      for (long end : ends) {
        final Summary merged = summary(family, parameter);
        for (Summary sub : subs.subMap(end - width, end).values()) {
          merged.merge(sub);
        }
        windows.put(end, merged);
      }
    }
    // 2 (or 3). Every quantile of a window is read from its one summary.
    final List<Object[]> out = new ArrayList<>(windows.size());
    for (Map.Entry<Long, Summary> w : windows.entrySet()) {
      final Object[] row = new Object[phis.length + 1];
      row[0] = w.getKey();
      for (int i = 0; i < phis.length; i++) {
        row[i + 1] = w.getValue().quantile(phis[i]);
      }
      out.add(row);
    }
    return Linq4j.asEnumerable(out);
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
