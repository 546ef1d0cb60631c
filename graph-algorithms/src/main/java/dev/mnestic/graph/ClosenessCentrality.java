package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code ClosenessCentrality(edges[from, to, weight?], undirected: false)}: rows {@code [node,
 * closeness]}, CozoDB's {@code r * r / total / (n - 1)} in single precision, where {@code r}
 * counts the nodes reachable from the node, itself included, {@code total} sums their
 * distances and {@code n} counts the graph's nodes (so infinite for a node that reaches no
 * other). This is neither NetworkX's formula ({@code (r - 1)^2 / total / (n - 1)}) nor its
 * direction (NetworkX measures distances to a node in a directed graph, CozoDB from it).
 */
final class ClosenessCentrality implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 2;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    boolean undirected = call.options().bool("undirected", false);
    Graph graph = Graph.weighted(call.input(0), undirected, false);
    int n = graph.size();
    Dijkstra dijkstra = new Dijkstra(graph, new Steps(call.stop()));
    for (int start = 0; start < n; start++) {
      float total = 0f;
      float reached = 0f;
      for (float d : dijkstra.costs(start)) {
        if (Float.isFinite(d)) {
          total += d;
          reached++;
        }
      }
      float closeness = reached * reached / total / (float) (n - 1);
      out.accept(new Object[] {graph.nodes.get(start), (double) closeness});
    }
  }
}
