package dev.mnestic.runtime;

import java.util.Arrays;

/**
 * The elimination filter of LESS (Godfrey, Shipley, Gryz, "Maximal Vector Computation in Large
 * Data Sets", VLDB 2005): while the input is read, a few of the best rows seen so far (by the
 * sum of their coordinates, each scaled to [0, 1] over the values seen) drop every row one of
 * them dominates, before it is copied, encoded or sorted. Where the skyline is small
 * (correlated data, independent data in few dimensions) nearly every row is dominated by one of
 * the best few, so one linear pass leaves a handful of rows for the skyline algorithm.
 *
 * <p>Sound whatever the window holds: a row is dropped only when a row that was kept (and
 * stays kept, or is itself dropped later by a row that dominates it, which then dominates the
 * first by transitivity) dominates it, so the skyline of the rows kept is the skyline of all.
 * Duplicates of a dropped row are dominated too, so DISTINCT's choice of one row of a set of
 * equal ones is unchanged. A row whose MIN or MAX values are not all exact doubles (a NULL is
 * simply not compared) turns the filter off for the rest of the input: such a column's values
 * are compared by rank later, which this pass cannot know.
 *
 * <p>Adapts to the input: after each {@value #BLOCK} rows it looks at how many of them it
 * dropped, and turns itself off when under an eighth (anti-correlated data, many dimensions),
 * where the skyline algorithm's own window does the work and this one would only add tests.
 */
final class EliminationFilter {
  /** Rows in the window. */
  static final int WINDOW = 16;
  /** Rows between looks at the filter's yield. */
  static final int BLOCK = 4096;

  private final int[] fields;
  private final double[] signs;
  private final int d;
  /** The window's rows' keys, d doubles each (smaller better), and how many. */
  private final double[] window;
  private int size;
  /** Each dimension's smallest and largest finite key seen, for scaling scores. */
  private final double[] low;
  private final double[] high;
  private final double[] key;
  private boolean on = true;
  private int seenInBlock;
  private int droppedInBlock;

  /**
   * A filter on {@code fields} (the MIN and MAX fields, in order; {@code max[j]} for a MAX one).
   */
  EliminationFilter(int[] fields, boolean[] max) {
    this.fields = fields;
    this.d = fields.length;
    this.signs = new double[d];
    for (int j = 0; j < d; j++) {
      signs[j] = max[j] ? -1 : 1;
    }
    this.window = new double[WINDOW * d];
    this.low = new double[d];
    this.high = new double[d];
    Arrays.fill(low, Double.POSITIVE_INFINITY);
    Arrays.fill(high, Double.NEGATIVE_INFINITY);
    this.key = new double[d];
  }

  /** Whether the filter still drops rows (it turns off on inexact values or a poor yield). */
  boolean on() {
    return on;
  }

  /** Whether a row of the window dominates {@code row}, which is then not needed. */
  boolean drops(Object[] row) {
    if (!on) {
      return false;
    }
    for (int j = 0; j < d; j++) {
      final Object v = row[fields[j]];
      if (v == null) {
        return false;
      }
      if (!Skylines.isExactDouble(v)) {
        on = false;
        return false;
      }
      final double k = signs[j] * (((Number) v).doubleValue() + 0.0);
      key[j] = k;
      if (!Double.isInfinite(k)) {
        low[j] = Math.min(low[j], k);
        high[j] = Math.max(high[j], k);
      }
    }
    final boolean dropped = dominated();
    if (dropped) {
      droppedInBlock++;
    } else {
      admit();
    }
    if (++seenInBlock == BLOCK) {
      on = droppedInBlock * 8 >= BLOCK;
      seenInBlock = 0;
      droppedInBlock = 0;
    }
    return dropped;
  }

  /**
   * Whether a window row dominates the row's key; the one that does moves to the front, where
   * the next rows meet it first (most rows fall to the same few best rows).
   */
  private boolean dominated() {
    for (int w = 0; w < size * d; w += d) {
      if (Skylines.dominates(window, w, key, 0, d)) {
        if (w > 0) {
          for (int j = 0; j < d; j++) {
            final double t = window[j];
            window[j] = window[w + j];
            window[w + j] = t;
          }
        }
        return true;
      }
    }
    return false;
  }

  /**
   * Puts the row into the window: in place of the window rows it dominates, else in a free
   * place, else in place of the worst-scoring row if it scores better.
   */
  private void admit() {
    int w = 0;
    boolean placed = false;
    while (w < size) {
      if (Skylines.dominates(key, 0, window, w * d, d)) {
        if (!placed) {
          System.arraycopy(key, 0, window, w * d, d);
          placed = true;
          w++;
        } else {
          // Fill the hole with the last row and look at that one next.
          size--;
          System.arraycopy(window, size * d, window, w * d, d);
        }
      } else {
        w++;
      }
    }
    if (placed) {
      return;
    }
    if (size < WINDOW) {
      System.arraycopy(key, 0, window, size * d, d);
      size++;
      return;
    }
    int worst = 0;
    double worstScore = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < size; i++) {
      final double s = score(window, i * d);
      if (s > worstScore) {
        worstScore = s;
        worst = i;
      }
    }
    if (score(key, 0) < worstScore) {
      System.arraycopy(key, 0, window, worst * d, d);
    }
  }

  /** The sum of the coordinates scaled to [0, 1] over the values seen; infinities just outside. */
  private double score(double[] keys, int at) {
    double s = 0;
    for (int j = 0; j < d; j++) {
      s += Skylines.scaled(keys[at + j], low[j], high[j] - low[j]);
    }
    return s;
  }
}
