package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code TopSort(edges[from, to])}: Kahn's topological order, rows {@code [position, node]},
 * taking ready nodes last-in first-out from a stack first filled in node order, as CozoDB does;
 * nodes on a cycle, and those after one, are left out.
 */
final class TopSort implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 2;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Graph graph = Graph.of(call.input(0), false);
    int n = graph.size();
    int[] inDegree = new int[n];
    for (int[] targets : graph.targets) {
      for (int to : targets) {
        inDegree[to]++;
      }
    }
    int[] pending = new int[n];
    int top = 0;
    for (int u = 0; u < n; u++) {
      if (inDegree[u] == 0) {
        pending[top++] = u;
      }
    }
    Steps steps = new Steps(call.stop());
    long position = 0;
    while (top > 0) {
      int removed = pending[--top];
      out.accept(new Object[] {position++, graph.nodes.get(removed)});
      for (int next : graph.targets[removed]) {
        if (--inDegree[next] == 0) {
          pending[top++] = next;
        }
      }
      steps.tick();
    }
  }
}
