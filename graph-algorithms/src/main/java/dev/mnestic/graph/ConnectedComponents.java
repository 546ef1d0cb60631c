package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import dev.mnestic.value.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * {@code StronglyConnectedComponents} / {@code SCC} and {@code ConnectedComponents}
 * {@code (edges[from, to], nodes[n]?)}: rows {@code [node, component]}. The components are
 * CozoDB's Tarjan's (over the edges both ways for ConnectedComponents), numbered from 0 in the
 * order their first node was reached, nodes in node order; then each node of {@code nodes}
 * that no edge names is a component of its own, numbered on.
 */
final class ConnectedComponents implements FixedRule {
  private final boolean strong;

  ConnectedComponents(boolean strong) {
    this.strong = strong;
  }

  @Override
  public int arity(Options options, List<String> head) {
    return 2;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Graph graph = Graph.of(call.input(0), !strong);
    List<List<Integer>> components = tarjan(graph, new Steps(call.stop()));
    for (int c = 0; c < components.size(); c++) {
      for (int node : components.get(c)) {
        out.accept(new Object[] {graph.nodes.get(node), (long) c});
      }
    }
    if (call.inputs().size() > 1) {
      long counter = components.size();
      TreeMap<Object, Integer> seen = new TreeMap<>(Values.ORDER);
      seen.putAll(graph.numbers);
      for (Object[] row : call.input(1).rows()) {
        if (seen.putIfAbsent(row[0], -1) == null) {
          out.accept(new Object[] {row[0], counter++});
        }
      }
    }
  }

  /**
   * CozoDB's {@code TarjanSccG}, its recursion unrolled: the components by the discovery
   * number of their root, each node's low link set to it when its component is popped.
   */
  private static List<List<Integer>> tarjan(Graph graph, Steps steps) {
    int n = graph.size();
    int[] ids = new int[n]; // 0: not visited
    int[] low = new int[n];
    boolean[] onStack = new boolean[n];
    int[] stack = new int[n];
    int stackTop = 0;
    int[] frameNode = new int[n];
    int[] frameEdge = new int[n];
    int id = 0;
    for (int root = 0; root < n; root++) {
      if (ids[root] != 0) {
        continue;
      }
      int depth = 0;
      frameNode[0] = root;
      frameEdge[0] = -1;
      while (depth >= 0) {
        int at = frameNode[depth];
        if (frameEdge[depth] == -1) { // entering `at`
          stack[stackTop++] = at;
          onStack[at] = true;
          ids[at] = ++id;
          low[at] = id;
          frameEdge[depth] = 0;
        } else { // back from the child at frameEdge - 1
          int to = graph.targets[at][frameEdge[depth] - 1];
          if (onStack[to]) {
            low[at] = Math.min(low[at], low[to]);
          }
        }
        int[] targets = graph.targets[at];
        boolean descended = false;
        while (frameEdge[depth] < targets.length) {
          int to = targets[frameEdge[depth]++];
          if (ids[to] == 0) {
            depth++;
            frameNode[depth] = to;
            frameEdge[depth] = -1;
            descended = true;
            break;
          }
          if (onStack[to]) {
            low[at] = Math.min(low[at], low[to]);
          }
        }
        if (descended) {
          continue;
        }
        if (ids[at] == low[at]) {
          while (stackTop > 0) {
            int node = stack[--stackTop];
            onStack[node] = false;
            low[node] = ids[at];
            if (node == at) {
              break;
            }
          }
        }
        depth--;
        steps.tick();
      }
    }
    TreeMap<Integer, List<Integer>> byLow = new TreeMap<>();
    for (int u = 0; u < n; u++) {
      byLow.computeIfAbsent(low[u], k -> new ArrayList<>()).add(u);
    }
    return new ArrayList<>(byLow.values());
  }
}
