package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code KShortestPathYen(edges[from, to, weight?], starting[n], goals[n], k: K, undirected:
 * false)}: Yen's k shortest loopless paths from each start to each goal, rows {@code [start,
 * goal, cost, path]}, replicating CozoDB's: the spur searches are its {@link Dijkstra}, a root
 * path's cost is summed over the first edge between each two of its nodes (with parallel
 * edges of different weights, CozoDB's first is unspecified), and among
 * candidates of equal cost the last found is taken. An unreachable goal gives one row of
 * infinite cost and an empty path when {@code k} is 1, none otherwise (CozoDB's release build).
 */
final class KShortestPathYen implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 4;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Input edges = call.input(0);
    Input starting = call.input(1);
    Input goals = call.input(2);
    boolean undirected = call.options().bool("undirected", false);
    long k = call.options().positiveInteger("k", null);
    Graph graph = Graph.weighted(edges, undirected, false);
    Steps steps = new Steps(call.stop());
    for (int start : graph.numbersOf(starting)) {
      for (int goal : graph.numbersOf(goals)) {
        for (Dijkstra.Path p : yen(graph, steps, k, start, goal)) {
          out.accept(new Object[] {graph.nodes.get(start), graph.nodes.get(goal),
              (double) p.cost(), graph.keys(p.nodes())});
        }
      }
    }
  }

  private static List<Dijkstra.Path> yen(Graph graph, Steps steps, long k, int start,
      int goal) {
    List<Dijkstra.Path> shortest = new ArrayList<>();
    List<Dijkstra.Path> candidates = new ArrayList<>();
    shortest.add(new Dijkstra(graph, steps).paths(start, new int[] {goal}).get(0));
    for (long round = 1; round < k; round++) {
      int[] previous = shortest.get(shortest.size() - 1).nodes();
      if (previous.length == 0) {
        return List.of(); // CozoDB's `0..len - 1` wraps and its loop returns nothing
      }
      for (int i = 0; i < previous.length - 1; i++) {
        int spur = previous[i];
        int[] root = Arrays.copyOf(previous, i + 1);
        Set<Long> forbiddenEdges = new HashSet<>();
        for (Dijkstra.Path p : shortest) {
          int[] nodes = p.nodes();
          if (nodes.length >= root.length + 1
              && Arrays.equals(Arrays.copyOf(nodes, i + 1), root)) {
            forbiddenEdges.add(Dijkstra.edge(nodes[i], nodes[i + 1]));
          }
        }
        boolean[] forbiddenNodes = new boolean[graph.size()];
        for (int j = 0; j < i; j++) {
          forbiddenNodes[previous[j]] = true;
        }
        Dijkstra.Path spurPath = new Dijkstra(graph, steps)
            .forbidding(forbiddenEdges, forbiddenNodes)
            .paths(spur, new int[] {goal})
            .get(0);
        float total = spurPath.cost();
        for (int j = 0; j < root.length - 1; j++) {
          int[] targets = graph.targets[root[j]];
          for (int e = 0; e < targets.length; e++) {
            if (targets[e] == root[j + 1]) {
              total += graph.weights[root[j]][e];
              break;
            }
          }
        }
        int[] path = new int[i + spurPath.nodes().length];
        System.arraycopy(root, 0, path, 0, i);
        System.arraycopy(spurPath.nodes(), 0, path, i, spurPath.nodes().length);
        if (candidates.stream().noneMatch(c -> Arrays.equals(c.nodes(), path))) {
          candidates.add(new Dijkstra.Path(goal, total, path));
        }
        steps.tick();
      }
      if (candidates.isEmpty()) {
        break;
      }
      // a stable sort by descending cost, then the last: the cheapest, the last found of ties
      candidates.sort((a, b) -> Float.compare(b.cost(), a.cost()));
      Dijkstra.Path best = candidates.remove(candidates.size() - 1);
      if (Float.isFinite(best.cost())) {
        shortest.add(best);
      }
    }
    return shortest;
  }
}
