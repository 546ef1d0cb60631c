package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code ShortestPathDijkstra(edges[from, to, weight?], starting[n], goals[n]?, undirected:
 * false, keep_ties: false)}: rows {@code [start, goal, cost, path]}, the cost a Float (infinite,
 * with an empty path, when the goal is unreachable). Without a goals relation every node of the
 * graph is a goal (the start itself at cost 0) and ties are never kept, as in CozoDB; starts
 * and goals not in the graph are left out. Among paths of equal cost the one given is the one
 * CozoDB's queue order ({@link HeapQueue}) gives.
 */
final class ShortestPathDijkstra implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 4;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Input edges = call.input(0);
    Input starting = call.input(1);
    Input goals = call.inputs().size() > 2 ? call.input(2) : null;
    boolean undirected = call.options().bool("undirected", false);
    boolean keepTies = call.options().bool("keep_ties", false);
    Graph graph = Graph.weighted(edges, undirected, false);
    int[] starts = graph.numbersOf(starting);
    int[] targets = goals == null ? null : graph.numbersOf(goals);
    Dijkstra dijkstra = new Dijkstra(graph, new Steps(call.stop()));
    for (int start : starts) {
      List<Dijkstra.Path> paths = targets != null && keepTies
          ? dijkstra.pathsKeepingTies(start, targets)
          : dijkstra.paths(start, targets);
      for (Dijkstra.Path p : paths) {
        out.accept(new Object[] {graph.nodes.get(start), graph.nodes.get(p.target()),
            (double) p.cost(), graph.keys(p.nodes())});
      }
    }
  }
}
