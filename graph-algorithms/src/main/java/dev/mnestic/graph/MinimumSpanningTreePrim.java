package dev.mnestic.graph;

import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code MinimumSpanningTreePrim(edges[from, to, weight?], starting[n]?)}: Prim's minimum
 * spanning tree of the component of the first starting node (of the first node of the edges
 * without one), the edges taken both ways, weights of any sign; rows {@code [from, to, weight]}
 * in the order added. Of two edges of equal weight into one node the one from the
 * higher-numbered node wins, and of nodes reached at equal cost the one CozoDB's queue gives
 * ({@link HeapQueue}) is added first.
 */
final class MinimumSpanningTreePrim implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 3;
  }

  private record Candidate(float cost, int from) {}

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Graph graph = Graph.weighted(call.input(0), true, true);
    int n = graph.size();
    if (n == 0) {
      return;
    }
    int start = 0;
    if (call.inputs().size() > 1) {
      Input starting = call.input(1);
      if (starting.rows().isEmpty()) {
        throw new ValueException(ErrorCode.ALGO_EMPTY_STARTING,
            "The provided starting nodes relation is empty", null);
      }
      Object key = starting.rows().get(0)[0];
      Integer number = graph.numbers.get(key);
      if (number == null) {
        throw new ValueException(ErrorCode.ALGO_STARTING_NODE_NOT_FOUND,
            "The requested starting node " + Values.display(key) + " is not found", null);
      }
      start = number;
    }
    boolean[] visited = new boolean[n];
    // the best edge into each node not yet in the tree: cheapest, then from the highest node
    HeapQueue<Integer, Candidate> queue = new HeapQueue<>(
        (a, b) -> a.cost != b.cost ? HeapQueue.LOWEST_COST.compare(a.cost, b.cost)
            : Integer.compare(a.from, b.from));
    Steps steps = new Steps(call.stop());
    relax(graph, start, visited, queue);
    int added = 0;
    while (queue.pop()) {
      if (added == n - 1) {
        break;
      }
      added++;
      Candidate c = queue.priority;
      int to = queue.item;
      out.accept(new Object[] {graph.nodes.get(c.from), graph.nodes.get(to), (double) c.cost});
      relax(graph, to, visited, queue);
      steps.tick();
    }
  }

  private static void relax(Graph graph, int node, boolean[] visited,
      HeapQueue<Integer, Candidate> queue) {
    visited[node] = true;
    for (int i = 0; i < graph.targets[node].length; i++) {
      int to = graph.targets[node][i];
      if (!visited[to]) {
        queue.pushIncrease(to, new Candidate(graph.weights[node][i], node));
      }
    }
  }
}
