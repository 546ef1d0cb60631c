package dev.mnestic.planner.select;

import dev.mnestic.planner.physical.PhysicalEdge;

import java.util.List;

/**
 * A chosen DAG: the candidates with x_v = 1 and the edges with y_{u,c,i} = 1, its cost
 * Σ w_v x_v (a producer read by several edges counted once), and how the selector got it.
 *
 * @param bound a proven lower bound on the optimal cost: the cost itself when optimal
 * @param status how far the selector got: proven optimal, feasible only, or enumerated
 * @param variables variables of the model (0 for the enumerator)
 * @param constraints constraints of the model (for the enumerator: plans it evaluated)
 * @param millis time spent selecting
 */
public record Plan(List<Integer> candidates, List<PhysicalEdge> edges, double cost, double bound, Status status,
    int variables, int constraints, long millis) {
  public Plan {
    candidates = List.copyOf(candidates);
    edges = List.copyOf(edges);
  }

  /** What a selector knows of its plan's cost against the optimum. */
  public enum Status {
    /**
     * Proven optimal: within a relative {@link LagrangianBound#TOLERANCE} of the optimum, by the
     * Lagrangian bound or by the solver.
     */
    OPTIMAL,
    /** Meets every constraint, not proven optimal: the time limit stopped the search. */
    FEASIBLE,
    /** Optimal by exhaustion: {@link ReferenceEnumerator}'s. */
    ENUMERATED,
    /**
     * Grown query by query and improved by local search ({@link TreePlans}), not proven; with
     * budgets it may miss them.
     */
    HEURISTIC
  }
}
