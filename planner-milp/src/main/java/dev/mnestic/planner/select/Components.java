package dev.mnestic.planner.select;

import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;

import java.util.ArrayList;
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
    return of(space, space.feasibleInputs(), whole);
  }

  /** {@link #of(PlanSpace, boolean)} over the feasible edges {@code inputs} ({@link PlanSpace#feasibleInputs}). */
  static List<List<PhysicalCandidate>> of(PlanSpace space, List<List<List<PhysicalEdge>>> inputs, boolean whole) {
    final int n = space.candidates().size();
    // 1. What the answers reach, down the feasible edges.
    final boolean[] reached = new boolean[n];
    final int[] todo = new int[n];
    int top = 0;
    for (int a : space.answers().values()) {
      if (!reached[a]) {
        reached[a] = true;
        todo[top++] = a;
      }
    }
    while (top > 0) {
      final int v = todo[--top];
      for (List<PhysicalEdge> in : inputs.get(v)) {
        for (PhysicalEdge e : in) {
          if (!reached[e.producer()]) {
            reached[e.producer()] = true;
            todo[top++] = e.producer();
          }
        }
      }
    }
    // 2. Its connected parts (one part when a budget spans them all): union-find over the edges
    // between reached candidates.
    final int[] root = new int[n];
    for (int v = 0; v < n; v++) {
      root[v] = v;
    }
    if (!whole) {
      for (int c = 0; c < n; c++) {
        if (reached[c]) {
          for (List<PhysicalEdge> in : inputs.get(c)) {
            for (PhysicalEdge e : in) {
              if (reached[e.producer()]) {
                union(root, c, e.producer());
              }
            }
          }
        }
      }
    }
    final Map<Integer, List<PhysicalCandidate>> parts = new LinkedHashMap<>();
    for (int v = 0; v < n; v++) {
      if (reached[v]) {
        parts.computeIfAbsent(whole ? 0 : find(root, v), k -> new ArrayList<>()).add(space.candidates().get(v));
      }
    }
    return new ArrayList<>(parts.values());
  }

  private static int find(int[] root, int v) {
    while (root[v] != v) {
      root[v] = root[root[v]];
      v = root[v];
    }
    return v;
  }

  private static void union(int[] root, int a, int b) {
    final int ra = find(root, a);
    final int rb = find(root, b);
    if (ra != rb) {
      root[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
}
