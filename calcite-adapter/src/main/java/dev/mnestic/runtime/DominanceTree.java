package dev.mnestic.runtime;

import java.util.Arrays;

/**
 * A static k-d tree over a set of points that answers "does one of them
 * dominate this point?" without looking at most of them. Points are
 * smaller-is-better {@code double}s, d per point.
 *
 * <p>Each node keeps the componentwise minimum of its points. A point q can
 * be dominated only by a point p with p &le; q in every dimension, so a node
 * whose minimum exceeds q in some dimension holds no dominator and is
 * skipped; for a point near the skyline few nodes remain. Build: O(n log n),
 * median splits on the dimension of largest spread.
 */
final class DominanceTree {
  private static final int LEAF = 8;

  private final int d;
  /** The points in tree order, d values each. */
  final double[] points;
  final int size;
  // Nodes: the points [lo, hi) they cover, their children (-1 for a leaf)
  // and the minimum of their points, d values each.
  private final int[] lo;
  private final int[] hi;
  private final int[] left;
  private final int[] right;
  private final double[] min;
  private int nodes;

  /** A tree over the {@code n} points {@code values[i * d .. i * d + d)}. */
  DominanceTree(double[] values, int n, int d) {
    this.d = d;
    this.size = n;
    final int[] perm = new int[n];
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    final int capacity = 4 * (n / LEAF + 1);
    lo = new int[capacity];
    hi = new int[capacity];
    left = new int[capacity];
    right = new int[capacity];
    build(values, perm, 0, n);
    points = new double[n * d];
    for (int pos = 0; pos < n; pos++) {
      System.arraycopy(values, perm[pos] * d, points, pos * d, d);
    }
    min = new double[nodes * d];
    for (int node = nodes - 1; node >= 0; node--) {
      // Children come after their parent, so they are done.
      if (left[node] < 0) {
        Arrays.fill(min, node * d, node * d + d, Double.POSITIVE_INFINITY);
        for (int pos = lo[node]; pos < hi[node]; pos++) {
          for (int j = 0; j < d; j++) {
            min[node * d + j] = Math.min(min[node * d + j], points[pos * d + j]);
          }
        }
      } else {
        for (int j = 0; j < d; j++) {
          min[node * d + j] = Math.min(min[left[node] * d + j], min[right[node] * d + j]);
        }
      }
    }
  }

  private int build(double[] values, int[] perm, int from, int to) {
    final int node = nodes++;
    lo[node] = from;
    hi[node] = to;
    if (to - from <= LEAF) {
      left[node] = right[node] = -1;
      return node;
    }
    int dim = 0;
    double spread = -1;
    for (int j = 0; j < d; j++) {
      double mn = Double.POSITIVE_INFINITY;
      double mx = Double.NEGATIVE_INFINITY;
      for (int i = from; i < to; i++) {
        final double v = values[perm[i] * d + j];
        mn = Math.min(mn, v);
        mx = Math.max(mx, v);
      }
      if (mx - mn > spread) {
        spread = mx - mn;
        dim = j;
      }
    }
    final int mid = (from + to) >>> 1;
    select(values, perm, from, to - 1, mid, dim);
    left[node] = build(values, perm, from, mid);
    right[node] = build(values, perm, mid, to);
    return node;
  }

  /** Reorders perm[from..to] so that perm[k] holds the k-th smallest on {@code dim} (Hoare). */
  private void select(double[] values, int[] perm, int from, int to, int k, int dim) {
    while (to > from) {
      final double pivot = values[perm[(from + to) >>> 1] * d + dim];
      int i = from;
      int j = to;
      while (i <= j) {
        while (values[perm[i] * d + dim] < pivot) {
          i++;
        }
        while (values[perm[j] * d + dim] > pivot) {
          j--;
        }
        if (i <= j) {
          final int t = perm[i];
          perm[i++] = perm[j];
          perm[j--] = t;
        }
      }
      if (k <= j) {
        to = j;
      } else if (k >= i) {
        from = i;
      } else {
        return;
      }
    }
  }

  /** Whether one of the points dominates {@code q[at .. at + d)}. */
  boolean dominates(double[] q, int at) {
    final int[] stack = new int[128];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      final int node = stack[--top];
      boolean below = true;
      for (int j = 0; j < d && below; j++) {
        below = min[node * d + j] <= q[at + j];
      }
      if (!below) {
        continue;
      }
      if (left[node] < 0) {
        for (int pos = lo[node]; pos < hi[node]; pos++) {
          if (Skylines.dominates(points, pos * d, q, at, d)) {
            return true;
          }
        }
      } else {
        // The lower half first: dominators are small.
        stack[top++] = right[node];
        stack[top++] = left[node];
      }
    }
    return false;
  }
}
