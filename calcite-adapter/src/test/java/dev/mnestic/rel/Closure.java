package dev.mnestic.rel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The oracle the recursion's tests compare a transitive closure with. */
public final class Closure {
  private Closure() {
  }

  /**
   * Every pair (a, c) with a path of one edge or more from a to c, by a search from each node;
   * {@code edges} are pairs (from, to) of any values equal by {@code equals}.
   */
  public static Set<List<Object>> pairs(Iterable<? extends List<?>> edges) {
    final Map<Object, List<Object>> next = new HashMap<>();
    for (List<?> e : edges) {
      next.computeIfAbsent(e.get(0), k -> new ArrayList<>()).add(e.get(1));
    }
    final Set<List<Object>> pairs = new HashSet<>();
    for (Object a : next.keySet()) {
      final Set<Object> seen = new HashSet<>();
      final List<Object> todo = new ArrayList<>(next.get(a));
      while (!todo.isEmpty()) {
        final Object c = todo.remove(todo.size() - 1);
        if (seen.add(c)) {
          pairs.add(List.of(a, c));
          todo.addAll(next.getOrDefault(c, List.of()));
        }
      }
    }
    return pairs;
  }
}
