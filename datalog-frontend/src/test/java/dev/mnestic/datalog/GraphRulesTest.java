package dev.mnestic.datalog;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The graph algorithms of {@code graph-algorithms} run as CozoScript fixed rules over stored
 * relations, their rows feeding rules: each answer checked against a computation of the test's
 * own (Floyd-Warshall distances, union-find components) on random graphs. (The algorithms
 * themselves are checked against NetworkX in their module; CozoDB's WebAssembly build, the
 * conformance oracle, has none of them.)
 */
class GraphRulesTest {
  private QueryConformanceTest.Store store;
  private Engine engine;

  @BeforeEach void open() throws Exception {
    store = new QueryConformanceTest.Store();
    engine = store.engine();
  }

  @AfterEach void close() throws Exception {
    store.close();
  }

  /** A random digraph of {@code n} nodes: {a, b, integer weight} rows, stored as {@code e}. */
  private List<long[]> edges(Random random, int n, int m) throws Exception {
    final List<long[]> edges = new ArrayList<>();
    final StringBuilder rows = new StringBuilder();
    final Set<Long> seen = new HashSet<>();
    while (edges.size() < m) {
      final long a = random.nextInt(n);
      final long b = random.nextInt(n);
      if (a == b || !seen.add(a * n + b)) {
        continue;
      }
      final long w = 1 + random.nextInt(9);
      edges.add(new long[] {a, b, w});
      rows.append(rows.length() == 0 ? "" : ", ").append('[').append(a).append(", ").append(b)
          .append(", ").append(w).append(']');
    }
    engine.run(":create e {a: Int, b: Int => w: Float}", Map.of());
    engine.run("?[a, b, w] <- [" + rows + "]\n:put e {a, b => w}", Map.of());
    return edges;
  }

  @Test void dijkstraCostsAreTheShortestDistances() throws Exception {
    final Random random = new Random(7);
    final int n = 30;
    final List<long[]> edges = edges(random, n, 80);
    final double[][] d = new double[n][n];
    for (double[] row : d) {
      java.util.Arrays.fill(row, Double.POSITIVE_INFINITY);
    }
    for (int i = 0; i < n; i++) {
      d[i][i] = 0;
    }
    for (long[] e : edges) {
      d[(int) e[0]][(int) e[1]] = Math.min(d[(int) e[0]][(int) e[1]], e[2]);
    }
    for (int k = 0; k < n; k++) {
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          d[i][j] = Math.min(d[i][j], d[i][k] + d[k][j]);
        }
      }
    }
    // the rule's rows feed another rule: only the reachable goals, with their path's length
    final Engine.Result r = engine.run("start[s] <- [[0], [5], [11]]\n"
        + "p[s, g, c, path] <~ ShortestPathDijkstra(*e[], start[])\n"
        + "?[s, g, c, hops] := p[s, g, c, path], c < 1e9, hops = length(path) - 1", Map.of());
    int reachable = 0;
    for (int s : new int[] {0, 5, 11}) {
      for (int g = 0; g < n; g++) {
        if (d[s][g] < Double.POSITIVE_INFINITY) {
          reachable++;
        }
      }
    }
    assertEquals(reachable, r.rows().size(), r.toJson());
    for (List<Object> row : r.rows()) {
      final int s = ((Long) row.get(0)).intValue();
      final int g = ((Long) row.get(1)).intValue();
      assertEquals(d[s][g], (Double) row.get(2), 0, r.toJson());
      assertTrue((Long) row.get(3) >= 0 && (Long) row.get(3) < n, r.toJson());
    }
  }

  @Test void connectedComponentsAreUnionFindsPartition() throws Exception {
    final Random random = new Random(11);
    final int n = 40;
    final List<long[]> edges = edges(random, n, 30);
    final int[] parent = new int[n];
    for (int i = 0; i < n; i++) {
      parent[i] = i;
    }
    for (long[] e : edges) {
      parent[find(parent, (int) e[0])] = find(parent, (int) e[1]);
    }
    final Engine.Result r = engine.run(
        "c[node, comp] <~ ConnectedComponents(*e[a, b])\n?[node, comp] := c[node, comp]", Map.of());
    final Map<Long, Long> component = new HashMap<>();
    r.rows().forEach(row -> component.put((Long) row.get(0), (Long) row.get(1)));
    final Set<Long> nodes = new HashSet<>();
    edges.forEach(e -> {
      nodes.add(e[0]);
      nodes.add(e[1]);
    });
    assertEquals(nodes, component.keySet());
    for (long a : nodes) {
      for (long b : nodes) {
        assertEquals(find(parent, (int) a) == find(parent, (int) b),
            component.get(a).equals(component.get(b)), a + " and " + b + ": " + r.toJson());
      }
    }
  }

  private static int find(int[] parent, int i) {
    while (parent[i] != i) {
      i = parent[i];
    }
    return i;
  }

  @Test void theAlgorithmsAreListed() throws Exception {
    final String listed = engine.run("::fixed_rules", Map.of()).toJson();
    for (String name : List.of("PageRank", "ShortestPathDijkstra", "SCC", "BFS", "RandomWalk",
        "Constant", "CsvReader")) {
      assertTrue(listed.contains("\"" + name + "\""), listed);
    }
  }
}
