package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * {@code BetweennessCentrality(edges[from, to, weight?], undirected: false)}: rows {@code [node,
 * betweenness]}, unnormalised: over every ordered pair of a start and a target, each shortest
 * path's inner nodes gain 1 / (the number of shortest paths), in single precision as CozoDB
 * sums them. With {@code undirected} both orders of a pair count, twice NetworkX's unnormalised
 * value; paths are told apart by their edges, so parallel edges make more of them.
 */
final class BetweennessCentrality implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 2;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    boolean undirected = call.options().bool("undirected", false);
    Graph graph = Graph.weighted(call.input(0), undirected, false);
    int n = graph.size();
    float[] centrality = new float[n];
    Dijkstra dijkstra = new Dijkstra(graph, new Steps(call.stop()));
    for (int start = 0; start < n; start++) {
      TreeMap<Integer, Float> gained = new TreeMap<>();
      List<Dijkstra.Path> paths = dijkstra.pathsKeepingTies(start, null);
      for (int from = 0; from < paths.size(); ) {
        int to = from;
        while (to < paths.size() && paths.get(to).target() == paths.get(from).target()) {
          to++;
        }
        float count = to - from;
        for (Dijkstra.Path p : paths.subList(from, to)) {
          int[] nodes = p.nodes();
          for (int i = 1; i < nodes.length - 1; i++) {
            gained.merge(nodes[i], 1f / count, Float::sum);
          }
        }
        from = to;
      }
      gained.forEach((node, g) -> centrality[node] += g);
    }
    for (int u = 0; u < n; u++) {
      out.accept(new Object[] {graph.nodes.get(u), (double) centrality[u]});
    }
  }
}
