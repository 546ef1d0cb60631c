package dev.mnestic.runtime;

/**
 * The window of a sort-filter skyline: the skyline points found so far, to
 * which points are only added, and which answers whether one of them
 * dominates a point.
 *
 * <p>Kept as Bentley and Saxe's logarithmic method keeps a static index
 * dynamic: the newest points (fewer than {@value #BUFFER}) in a buffer that
 * is scanned, the others in {@link DominanceTree}s of {@value #BUFFER}·2^k
 * points, at most one per k, like the bits of a binary counter; a full
 * buffer becomes a tree, merged with the trees it carries into. A query asks
 * the buffer and every tree: O(log² n) for each added point, amortized,
 * and a small window stays a plain scan.
 */
final class SkylineWindow {
  static final int BUFFER = 32;

  private final int d;
  private final double[] buffer;
  private int buffered;
  /** trees[k]: null, or a tree of BUFFER · 2^k points. */
  private DominanceTree[] trees = new DominanceTree[4];

  SkylineWindow(int d) {
    this.d = d;
    this.buffer = new double[BUFFER * d];
  }

  /** Whether a point of the window dominates {@code q[at .. at + d)}. */
  boolean dominates(double[] q, int at) {
    for (int b = 0; b < buffered * d; b += d) {
      if (Skylines.dominates(buffer, b, q, at, d)) {
        return true;
      }
    }
    for (DominanceTree tree : trees) {
      if (tree != null && tree.dominates(q, at)) {
        return true;
      }
    }
    return false;
  }

  /** Adds {@code p[at .. at + d)} to the window. */
  void add(double[] p, int at) {
    System.arraycopy(p, at, buffer, buffered * d, d);
    if (++buffered < BUFFER) {
      return;
    }
    // Carry: the buffer and the trees of BUFFER·2^0, 2^1, ... until a free level.
    int count = BUFFER;
    int k = 0;
    while (k < trees.length && trees[k] != null) {
      count += trees[k].size;
      k++;
    }
    final double[] carried = new double[count * d];
    System.arraycopy(buffer, 0, carried, 0, BUFFER * d);
    int filled = BUFFER;
    for (int i = 0; i < k; i++) {
      System.arraycopy(trees[i].points, 0, carried, filled * d, trees[i].size * d);
      filled += trees[i].size;
      trees[i] = null;
    }
    if (k == trees.length) {
      trees = java.util.Arrays.copyOf(trees, trees.length * 2);
    }
    trees[k] = new DominanceTree(carried, count, d);
    buffered = 0;
  }
}
