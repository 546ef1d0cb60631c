package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code MinimumSpanningForestKruskal(edges[from, to, weight?])}: Kruskal's minimum spanning
 * forest, the edges taken both ways, weights of any sign; rows {@code [from, to, weight]} in
 * the order added. As in CozoDB, of parallel edges between two nodes in one direction only one
 * weight counts (here the last row's; in CozoDB the last in its unspecified order of them).
 * Of edges of equal weight the one CozoDB's queue gives ({@link HeapQueue}) is taken first.
 */
final class MinimumSpanningForestKruskal implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 3;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Graph graph = Graph.weighted(call.input(0), true, true);
    int n = graph.size();
    // every edge into CozoDB's queue, keyed by its ends: a parallel edge's weight replaces
    HeapQueue<Long, Float> queue = new HeapQueue<>(HeapQueue.LOWEST_COST);
    for (int u = 0; u < n; u++) {
      for (int i = 0; i < graph.targets[u].length; i++) {
        queue.push(Dijkstra.edge(u, graph.targets[u][i]), graph.weights[u][i]);
      }
    }
    int[] parent = new int[n];
    int[] size = new int[n];
    for (int u = 0; u < n; u++) {
      parent[u] = u;
      size[u] = 1;
    }
    Steps steps = new Steps(call.stop());
    int joined = 0;
    while (joined < n - 1 && queue.pop()) {
      steps.tick();
      int from = (int) (queue.item >>> 32);
      int to = (int) (long) queue.item;
      int a = find(parent, from);
      int b = find(parent, to);
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
      out.accept(new Object[] {graph.nodes.get(from), graph.nodes.get(to),
          (double) queue.priority});
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
