package dev.mnestic.planner.select;

import dev.mnestic.planner.memo.Guarantee;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A chosen DAG: the candidates with x_v = 1 and the edges with y_{u,c,i} = 1, its cost
 * Σ w_v x_v (a producer read by several edges counted once), and how the selector got it.
 *
 * @param bound a proven lower bound on the optimal cost: the cost itself when optimal
 * @param status how far the selector got: proven optimal, feasible only, or enumerated
 * @param variables variables of the model (0 for the enumerator)
 * @param constraints constraints of the model (for the enumerator: plans it evaluated)
 * @param millis time spent selecting
 * @param search how the selector spent its time limit, part by part ({@link Search#NONE} when
 *     it had none)
 */
public record Plan(List<Integer> candidates, List<PhysicalEdge> edges, double cost, double bound, Status status,
    int variables, int constraints, long millis, Search search) {
  public Plan {
    candidates = List.copyOf(candidates);
    edges = List.copyOf(edges);
  }

  /** A plan made with no time limit to report on ({@link Search#NONE}). */
  public Plan(List<Integer> candidates, List<PhysicalEdge> edges, double cost, double bound, Status status,
      int variables, int constraints, long millis) {
    this(candidates, edges, cost, bound, status, variables, constraints, millis, Search.NONE);
  }

  /**
   * The ε and δ of each of this plan's candidates' results in {@code space}, as (K) defines them
   * ({@link Constraints}): its θ's when θ fixes them, a ratio's composed from its operands', else
   * those of the one result it reads.
   */
  public Map<Integer, Guarantee> levels(PlanSpace space) {
    final Map<Integer, PhysicalEdge> into = new HashMap<>();
    for (PhysicalEdge e : edges) {
      into.put(e.consumer() * 2 + e.input(), e);
    }
    final Set<Integer> chosen = new HashSet<>(candidates);
    final Map<Integer, Guarantee> levels = new HashMap<>();
    for (int g : space.memo().topologicalOrder()) {
      for (int v : space.byGroup().get(g)) {
        if (chosen.contains(v)) {
          levels.put(v, switch (Constraints.levelRule(space, v)) {
            case FIXED -> Constraints.fixedLevel(space, v);
            case RATIO -> Constraints.ratio(levels.get(into.get(v * 2).producer()),
                levels.get(into.get(v * 2 + 1).producer()));
            case ANSWER, PASS -> levels.get(into.get(v * 2).producer());
          });
        }
      }
    }
    return levels;
  }

  /** The ε and δ candidate v's θ fixes in {@code space}, or null when v's come from its inputs. */
  public static Guarantee fixedLevel(PlanSpace space, int v) {
    return Constraints.levelRule(space, v) == Constraints.LevelRule.FIXED ? Constraints.fixedLevel(space, v) : null;
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
