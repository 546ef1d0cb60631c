package dev.mnestic.planner.select;

import dev.mnestic.planner.physical.PhysicalEdge;

import java.util.List;

/**
 * A chosen DAG: the candidates with x_v = 1 and the edges with y_{u,c,i} = 1, its cost
 * Σ w_v x_v (a producer read by several edges counted once), and how the selector got it.
 *
 * @param bound a proven lower bound on the optimal cost: the cost itself when optimal
 * @param status the solver's status (OPTIMAL, FEASIBLE) or the enumerator's
 * @param variables variables of the model (0 for the enumerator)
 * @param constraints constraints of the model (for the enumerator: plans it evaluated)
 * @param millis time spent selecting
 */
public record Plan(List<Integer> candidates, List<PhysicalEdge> edges, double cost, double bound, String status,
    int variables, int constraints, long millis) {
  public Plan {
    candidates = List.copyOf(candidates);
    edges = List.copyOf(edges);
  }
}
