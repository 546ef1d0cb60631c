package dev.mnestic.graph;

import dev.mnestic.value.FixedRule.Input;
import dev.mnestic.value.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An edge relation as CozoDB's {@code as_directed_graph} and {@code as_directed_weighted_graph}
 * make it: nodes numbered in the order they first appear in the rows (source before target),
 * each node's out-edges sorted by target number (parallel edges kept: here in row order, in
 * CozoDB in an unspecified one, its graph builder's unstable sort by target), weights from the
 * third column as single-precision floats (1 when there is none), and with {@code undirected}
 * each row an edge both ways.
 */
final class Graph {
  /** The node keys by number. */
  final List<Object> nodes;
  /** The node numbers by key, in CozoDB's value order (Int 1 and Float 1.0 are two nodes). */
  final Map<Object, Integer> numbers;
  /** {@code targets[u]}: the targets of u's out-edges, ascending. */
  final int[][] targets;
  /** {@code weights[u][i]}: the weight of the edge to {@code targets[u][i]}. */
  final float[][] weights;

  private Graph(List<Object> nodes, Map<Object, Integer> numbers, int[][] targets,
      float[][] weights) {
    this.nodes = nodes;
    this.numbers = numbers;
    this.targets = targets;
    this.weights = weights;
  }

  int size() {
    return nodes.size();
  }

  /**
   * The numbers of the nodes that {@code input}'s rows start with, ascending, each once;
   * nodes not in the graph left out (CozoDB's starting and goal sets).
   */
  int[] numbersOf(Input input) {
    java.util.TreeSet<Integer> found = new java.util.TreeSet<>();
    for (Object[] row : input.rows()) {
      Integer i = numbers.get(row[0]);
      if (i != null) {
        found.add(i);
      }
    }
    return found.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The keys of the nodes numbered {@code path}, as a CozoDB list. */
  List<Object> keys(int[] path) {
    Object[] keys = new Object[path.length];
    for (int i = 0; i < path.length; i++) {
      keys[i] = nodes.get(path[i]);
    }
    return dev.mnestic.value.Values.list(keys);
  }

  /** The graph of {@code edges}, unweighted (every weight 1). */
  static Graph of(Input edges, boolean undirected) {
    return build(edges, undirected, false, false);
  }

  /**
   * The graph of {@code edges} weighted by their third column, which must be a finite number,
   * and not negative unless {@code allowNegative} ({@code algo::invalid_edge_weight}).
   */
  static Graph weighted(Input edges, boolean undirected, boolean allowNegative) {
    return build(edges, undirected, true, allowNegative);
  }

  private static Graph build(Input edges, boolean undirected, boolean weighted,
      boolean allowNegative) {
    List<Object> nodes = new ArrayList<>();
    Map<Object, Integer> numbers = new TreeMap<>(Values.ORDER);
    int m = 0;
    List<Object[]> rows = edges.rows();
    int[] from = new int[rows.size()];
    int[] to = new int[rows.size()];
    float[] w = new float[rows.size()];
    for (Object[] row : rows) {
      if (row.length < 2) {
        throw Errors.notAnEdge();
      }
      from[m] = number(row[0], nodes, numbers);
      to[m] = number(row[1], nodes, numbers);
      w[m] = weighted && row.length > 2 ? weight(row[2], allowNegative) : 1f;
      m++;
    }
    int n = nodes.size();
    int[] degree = new int[n];
    for (int e = 0; e < m; e++) {
      degree[from[e]]++;
      if (undirected) {
        degree[to[e]]++;
      }
    }
    int[][] targets = new int[n][];
    float[][] weights = new float[n][];
    for (int u = 0; u < n; u++) {
      targets[u] = new int[degree[u]];
      weights[u] = new float[degree[u]];
    }
    int[] fill = new int[n];
    for (int e = 0; e < m; e++) {
      add(targets, weights, fill, from[e], to[e], w[e]);
      if (undirected) {
        add(targets, weights, fill, to[e], from[e], w[e]);
      }
    }
    for (int u = 0; u < n; u++) {
      sortByTarget(targets[u], weights[u]);
    }
    return new Graph(nodes, numbers, targets, weights);
  }

  private static void add(int[][] targets, float[][] weights, int[] fill, int u, int v, float w) {
    targets[u][fill[u]] = v;
    weights[u][fill[u]] = w;
    fill[u]++;
  }

  /** A stable sort of one adjacency list by target, so parallel edges keep their row order. */
  private static void sortByTarget(int[] targets, float[] weights) {
    Integer[] order = new Integer[targets.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Integer.compare(targets[a], targets[b]));
    int[] t = targets.clone();
    float[] w = weights.clone();
    for (int i = 0; i < order.length; i++) {
      targets[i] = t[order[i]];
      weights[i] = w[order[i]];
    }
  }

  private static int number(Object key, List<Object> nodes, Map<Object, Integer> numbers) {
    Integer i = numbers.get(key);
    if (i == null) {
      i = nodes.size();
      numbers.put(key, i);
      nodes.add(key);
    }
    return i;
  }

  private static float weight(Object v, boolean allowNegative) {
    if (!(v instanceof Long || v instanceof Double)) {
      throw Errors.invalidEdgeWeight(v);
    }
    double f = ((Number) v).doubleValue();
    if (!Double.isFinite(f) || (f < 0 && !allowNegative)) {
      throw Errors.invalidEdgeWeight(v);
    }
    return (float) f;
  }
}
