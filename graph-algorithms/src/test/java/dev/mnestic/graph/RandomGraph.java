package dev.mnestic.graph;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * A random simple graph for the tests: nodes 0..n-1 as Longs (each in some edge unless
 * isolated nodes are asked for), edges without loops, each pair once (in one direction when
 * undirected), integer weights in [1, maxWeight] (exact in single precision, so ties
 * happen), as rows {@code [from, to, weight]}.
 */
final class RandomGraph {
  final int n;
  final boolean directed;
  final List<Object[]> edges = new ArrayList<>();

  RandomGraph(long seed, int n, int m, boolean directed, int maxWeight) {
    this.n = n;
    this.directed = directed;
    Random random = new Random(seed);
    Set<Long> taken = new HashSet<>();
    int attempts = 0;
    while (edges.size() < m && attempts++ < 50 * m) {
      long u = random.nextInt(n);
      long v = random.nextInt(n);
      if (u == v || !taken.add(u * n + v) || (!directed && !taken.add(v * n + u))) {
        continue;
      }
      edges.add(new Object[] {u, v, (double) (1 + random.nextInt(maxWeight))});
    }
  }

  /** The edges as rows {@code [from, to]}. */
  List<Object[]> unweighted() {
    List<Object[]> rows = new ArrayList<>();
    for (Object[] e : edges) {
      rows.add(new Object[] {e[0], e[1]});
    }
    return rows;
  }

  /** The nodes some edge names. */
  List<Object> nodes() {
    Set<Object> seen = new java.util.LinkedHashSet<>();
    for (Object[] e : edges) {
      seen.add(e[0]);
      seen.add(e[1]);
    }
    return new ArrayList<>(seen);
  }
}
