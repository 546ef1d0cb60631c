package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code MinimumSpanningForestKruskal(edges[from, to, weight?])}: Kruskal's minimum spanning
 * forest, the edges taken both ways, weights of any sign; rows {@code [from, to, weight]} in
 * the order added. As in CozoDB, of parallel edges between two nodes in one direction only one
 * weight counts (here the last row's; in CozoDB the last in its unspecified order of them).
 * Which of several edges of equal weight is taken, and in which direction, follows CozoDB's
 * heap only by chance (the forest's weight is the same).
 */
final class MinimumSpanningForestKruskal implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 3;
  }

  private record Edge(int from, int to, float cost) {}

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Graph graph = Graph.weighted(call.input(0), true, true);
    int n = graph.size();
    Map<Long, Edge> edges = new LinkedHashMap<>();
    for (int u = 0; u < n; u++) {
      for (int i = 0; i < graph.targets[u].length; i++) {
        int v = graph.targets[u][i];
        edges.put(Dijkstra.edge(u, v), new Edge(u, v, graph.weights[u][i]));
      }
    }
    List<Edge> sorted = new ArrayList<>(edges.values());
    sorted.sort((a, b) -> Float.compare(a.cost, b.cost));
    int[] parent = new int[n];
    int[] size = new int[n];
    for (int u = 0; u < n; u++) {
      parent[u] = u;
      size[u] = 1;
    }
    Steps steps = new Steps(call.stop());
    int joined = 0;
    for (Edge e : sorted) {
      if (joined == n - 1) {
        break;
      }
      int a = find(parent, e.from);
      int b = find(parent, e.to);
      if (a == b) {
        continue;
      }
      if (size[a] < size[b]) {
        parent[a] = b;
        size[b] += size[a];
      } else {
        parent[b] = a;
        size[a] += size[b];
      }
      joined++;
      out.accept(new Object[] {graph.nodes.get(e.from), graph.nodes.get(e.to), (double) e.cost});
      steps.tick();
    }
  }

  private static int find(int[] parent, int p) {
    int root = p;
    while (root != parent[root]) {
      root = parent[root];
    }
    while (p != root) {
      int next = parent[p];
      parent[p] = root;
      p = next;
    }
    return root;
  }
}
