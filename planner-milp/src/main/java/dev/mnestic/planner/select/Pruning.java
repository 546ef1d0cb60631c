package dev.mnestic.planner.select;

import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Candidates no optimal plan uses, found before the MILP is built. A plan using v contains a
 * path from v down to the rows (one producer per input, so at least the cheapest path through
 * any one input: down(v) = w_v + max_i min_u down(u)) and a path from v up to an answer
 * (up(v) = min_c w_c + up(c)), of distinct candidates as the plan is a DAG. When down(v) +
 * up(v) exceeds the cost of a known plan, no optimal plan contains v. Repeated until nothing
 * more goes, as removing candidates raises the bounds of others.
 */
final class Pruning {
  private Pruning() {
  }

  /**
   * Which candidates may still be in an optimal plan ({@code alive}), and whether the passes
   * reached their fixpoint ({@code complete}); a pass stopped early leaves more alive, never
   * fewer than the fixpoint would.
   */
  record Alive(boolean[] alive, boolean complete) {
  }

  /**
   * Candidates between two looks at the deadline within a pass: a pass over 81k candidates and
   * 1.93M edges (1,664 queries) took 0.7 s at load 12, longer than pruning's share of a 5 s limit.
   */
  private static final int STRIDE = 4096;

  /**
   * @param bound the cost of a known plan of each candidate's part, by candidate
   * @param goesOn whether pruning may go on (the time limit not reached): asked before each pass
   *     and every {@link #STRIDE} candidates within one and within listing each candidate's
   *     readers; a pass stopped midway removes nothing
   */
  static Alive alive(PlanSpace space, List<List<List<PhysicalEdge>>> inputs, double[] bound,
      BooleanSupplier goesOn) {
    final int n = space.candidates().size();
    if (!goesOn.getAsBoolean()) {
      // No time for even one pass: listing the readers of every candidate is a pass's work (and
      // is itself stopped every STRIDE consumers).
      return new Alive(all(n), false);
    }
    final List<List<PhysicalEdge>> readers = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      readers.add(new ArrayList<>());
    }
    for (int c = 0; c < n; c++) {
      if ((c + 1) % STRIDE == 0 && !goesOn.getAsBoolean()) {
        return new Alive(all(n), false);
      }
      for (List<PhysicalEdge> edges : inputs.get(c)) {
        for (PhysicalEdge e : edges) {
          readers.get(e.producer()).add(e);
        }
      }
    }
    final List<Integer> order = new ArrayList<>();
    for (int g : space.memo().topologicalOrder()) {
      order.addAll(space.byGroup().get(g));
    }
    final boolean[] answer = new boolean[n];
    space.answers().values().forEach(a -> answer[a] = true);
    final List<Integer> reversed = new ArrayList<>(order);
    Collections.reverse(reversed);
    final boolean[] alive = all(n);
    final double[] down = new double[n];
    final double[] up = new double[n];
    boolean changed = true;
    while (changed) {
      if (!goesOn.getAsBoolean()) {
        return new Alive(alive, false);
      }
      changed = false;
      int k = 0;
      for (int v : order) {
        if (++k % STRIDE == 0 && !goesOn.getAsBoolean()) {
          return new Alive(alive, false);
        }
        double worst = 0;
        for (List<PhysicalEdge> in : inputs.get(v)) {
          double min = Double.POSITIVE_INFINITY;
          for (PhysicalEdge e : in) {
            if (alive[e.producer()]) {
              min = Math.min(min, down[e.producer()]);
            }
          }
          worst = Math.max(worst, min);
        }
        down[v] = space.weight(v) + worst;
      }
      for (int v : reversed) {
        if (++k % STRIDE == 0 && !goesOn.getAsBoolean()) {
          return new Alive(alive, false);
        }
        double min = answer[v] ? 0 : Double.POSITIVE_INFINITY;
        for (PhysicalEdge e : readers.get(v)) {
          if (alive[e.consumer()]) {
            min = Math.min(min, space.weight(e.consumer()) + up[e.consumer()]);
          }
        }
        up[v] = min;
      }
      for (int v = 0; v < n; v++) {
        // A relative margin, so rounding never removes a candidate of the known plan.
        if (alive[v] && down[v] + up[v] > bound[v] * (1 + 1e-9) + 1e-9) {
          alive[v] = false;
          changed = true;
        }
      }
    }
    return new Alive(alive, true);
  }

  /** Every one of {@code n} candidates alive. */
  private static boolean[] all(int n) {
    final boolean[] all = new boolean[n];
    Arrays.fill(all, true);
    return all;
  }
}
