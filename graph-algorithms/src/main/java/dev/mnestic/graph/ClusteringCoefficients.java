package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code ClusteringCoefficients(edges[from, to])}: rows {@code [node, coefficient, triangles,
 * degree]} over the edges taken both ways, the coefficient {@code 2 t / (d (d - 1))} (0 below
 * degree 2). As in CozoDB, the degree counts each edge of each row (an edge given both ways
 * counts twice, a loop twice).
 */
final class ClusteringCoefficients implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 4;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Graph graph = Graph.of(call.input(0), true);
    Steps steps = new Steps(call.stop());
    for (int u = 0; u < graph.size(); u++) {
      int[] neighbours = graph.targets[u];
      int degree = neighbours.length;
      if (degree < 2) {
        out.accept(new Object[] {graph.nodes.get(u), 0.0, 0L, (long) degree});
        continue;
      }
      long triangles = 0;
      for (int src : neighbours) {
        for (int dst : neighbours) {
          if (src > dst && contains(graph.targets[src], dst)) {
            triangles++;
          }
          steps.tick();
        }
      }
      double coefficient = 2.0 * triangles / ((double) degree * ((double) degree - 1.0));
      out.accept(new Object[] {graph.nodes.get(u), coefficient, triangles, (long) degree});
    }
  }

  private static boolean contains(int[] sorted, int node) {
    return java.util.Arrays.binarySearch(sorted, node) >= 0;
  }
}
