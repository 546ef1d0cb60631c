package dev.mnestic.datalog.analysis;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Strongly connected components (Tarjan). For a graph whose edges point
 * from a rule to the rules it depends on, components come out dependencies
 * first: an evaluation order.
 */
final class Tarjan {
  private final Map<String, ? extends Map<String, ?>> graph;
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<String, Integer> low = new HashMap<>();
  private final Deque<String> stack = new ArrayDeque<>();
  private final Set<String> onStack = new TreeSet<>();
  private final List<Set<String>> components = new ArrayList<>();
  private int next;

  private Tarjan(Map<String, ? extends Map<String, ?>> graph) {
    this.graph = graph;
  }

  static List<Set<String>> components(Map<String, ? extends Map<String, ?>> graph) {
    final Tarjan t = new Tarjan(graph);
    for (String v : graph.keySet()) {
      if (!t.index.containsKey(v)) {
        t.visit(v);
      }
    }
    return t.components;
  }

  private void visit(String v) {
    index.put(v, next);
    low.put(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    final Map<String, ?> edges = graph.get(v);
    for (String w : edges == null ? Set.<String>of() : edges.keySet()) {
      if (!graph.containsKey(w)) {
        continue;
      }
      if (!index.containsKey(w)) {
        visit(w);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      final Set<String> component = new TreeSet<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      components.add(component);
    }
  }
}
