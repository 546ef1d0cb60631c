package dev.mnestic.graph;

import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * {@code MinimumSpanningTreePrim(edges[from, to, weight?], starting[n]?)}: Prim's minimum
 * spanning tree of the component of the first starting node (of the first node of the edges
 * without one), the edges taken both ways, weights of any sign; rows {@code [from, to, weight]}
 * in the order added. Of two edges of equal weight into one node the one from the
 * higher-numbered node wins, as in CozoDB; which of two nodes at equal cost is added first
 * follows CozoDB's heap only by chance (the tree's weight is the same).
 */
final class MinimumSpanningTreePrim implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 3;
  }

  private record Candidate(float cost, int from, int to) {}

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
    Candidate[] best = new Candidate[n];
    PriorityQueue<Candidate> queue = new PriorityQueue<>((a, b) -> a.cost != b.cost
        ? Float.compare(a.cost, b.cost)
        : a.from != b.from ? Integer.compare(b.from, a.from) : Integer.compare(a.to, b.to));
    Steps steps = new Steps(call.stop());
    relax(graph, start, visited, best, queue);
    int added = 0;
    Candidate c;
    while ((c = queue.poll()) != null) {
      if (best[c.to] != c) {
        continue; // replaced by a better edge
      }
      best[c.to] = null;
      if (added == n - 1) {
        break;
      }
      added++;
      out.accept(new Object[] {graph.nodes.get(c.from), graph.nodes.get(c.to), (double) c.cost});
      relax(graph, c.to, visited, best, queue);
      steps.tick();
    }
  }

  private static void relax(Graph graph, int node, boolean[] visited, Candidate[] best,
      PriorityQueue<Candidate> queue) {
    visited[node] = true;
    for (int i = 0; i < graph.targets[node].length; i++) {
      int to = graph.targets[node][i];
      if (visited[to]) {
        continue;
      }
      Candidate c = new Candidate(graph.weights[node][i], node, to);
      Candidate old = best[to];
      if (old == null || c.cost < old.cost || (c.cost == old.cost && c.from > old.from)) {
        best[to] = c;
        queue.add(c);
      }
    }
  }
}
