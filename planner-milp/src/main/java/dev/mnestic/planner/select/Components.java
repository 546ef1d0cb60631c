package dev.mnestic.planner.select;

import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The independent parts of a plan space: the candidates some answer reaches through feasible
 * edges, split where no feasible edge joins them (queries over different metrics share
 * nothing). No constraint but a budget spans two parts, so with budgets the space is one part;
 * a candidate no answer reaches is in none, as no optimal plan pays for it.
 */
final class Components {
  private Components() {
  }

  static List<List<PhysicalCandidate>> of(PlanSpace space, boolean whole) {
    final int n = space.candidates().size();
    final List<List<Integer>> neighbours = new ArrayList<>();
    final List<List<Integer>> producers = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      neighbours.add(new ArrayList<>());
      producers.add(new ArrayList<>());
    }
    for (PhysicalEdge e : space.edges()) {
      neighbours.get(e.producer()).add(e.consumer());
      neighbours.get(e.consumer()).add(e.producer());
      producers.get(e.consumer()).add(e.producer());
    }
    // 1. What the answers reach, down the feasible edges.
    final boolean[] reached = new boolean[n];
    final Deque<Integer> todo = new ArrayDeque<>(space.answers().values());
    while (!todo.isEmpty()) {
      final int v = todo.pop();
      if (!reached[v]) {
        reached[v] = true;
        todo.addAll(producers.get(v));
      }
    }
    // 2. Its connected parts (one part when a budget spans them all).
    final int[] part = new int[n];
    Arrays.fill(part, -1);
    final Map<Integer, List<PhysicalCandidate>> parts = new LinkedHashMap<>();
    for (int start = 0; start < n; start++) {
      if (!reached[start] || part[start] >= 0) {
        continue;
      }
      final int id = whole ? 0 : start;
      final Deque<Integer> stack = new ArrayDeque<>(List.of(start));
      while (!stack.isEmpty()) {
        final int v = stack.pop();
        if (part[v] < 0 && reached[v]) {
          part[v] = id;
          parts.computeIfAbsent(id, k -> new ArrayList<>()).add(space.candidates().get(v));
          stack.addAll(neighbours.get(v));
        }
      }
    }
    return new ArrayList<>(parts.values());
  }
}
