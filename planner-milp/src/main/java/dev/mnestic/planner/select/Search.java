package dev.mnestic.planner.select;

import java.util.List;

/**
 * How {@link MilpSelector#solve} spent its time limit and what each independent part of the
 * plan space came to: which phases the limit cut short, each part's plan against its proven
 * bound and the model CP-SAT solved for it, and the candidates Stage 3 left out before or while
 * solving, with why. {@link #NONE} for a plan made otherwise.
 *
 * @param phases the phases in the order they ran
 * @param parts the independent parts ({@link Components}), in the order of the plan space
 * @param cuts the candidates Stage 3 set aside: no answer reaches them, or no plan as cheap as
 *     the best known uses them
 */
public record Search(List<Phase> phases, List<Part> parts, List<Cut> cuts) {
  /** No search: a plan of the local search alone, or of the reference enumerator. */
  public static final Search NONE = new Search(List.of(), List.of(), List.of());

  public Search {
    phases = List.copyOf(phases);
    parts = List.copyOf(parts);
    cuts = List.copyOf(cuts);
  }

  /** Whether the time limit cut some phase short, so the plan may be dearer than with more time. */
  public boolean cut() {
    return phases.stream().anyMatch(Phase::cut);
  }

  /**
   * One phase: how long it ran, and whether the time limit stopped it with work left (a local
   * search with moves untried, pruning before its fixpoint, a bound still stepping, a part
   * CP-SAT did not prove or had no time for).
   */
  public record Phase(String name, long millis, boolean cut) {
  }

  /** How a part's search ended. */
  public enum Outcome {
    /** Proven optimal by its Lagrangian bound alone: no model built. */
    PROVEN_BY_BOUND("proven by the Lagrangian bound"),
    /** Proven optimal by CP-SAT on what the bound left. */
    PROVEN_BY_CP_SAT("proven by CP-SAT"),
    /** CP-SAT searched it and the limit stopped it: the gap to its bound is left. */
    CP_SAT_STOPPED("CP-SAT stopped by the time limit"),
    /** Its bound left a gap and the time left was too short for a round of CP-SAT. */
    NO_TIME_FOR_CP_SAT("no time left for CP-SAT"),
    /**
     * The time limit came before its Lagrangian bound was built, and left under
     * {@link Schedule#MIN_SEARCH} for CP-SAT: its bound is 0.
     */
    NO_TIME_FOR_BOUND("no time left for the Lagrangian bound");

    /** In words, as the viewer prints it. */
    public final String phrase;

    Outcome(String phrase) {
      this.phrase = phrase;
    }
  }

  /**
   * One independent part and how its search ended.
   *
   * @param queries the queries whose answers it holds
   * @param candidates the candidates its answers reach
   * @param afterPruning of those, the ones {@link Pruning} kept
   * @param cost its plan's cost
   * @param bound the proven lower bound on its optimum (its cost when proven)
   * @param variables variables of the last CP-SAT model of the part (0 when none was solved)
   * @param constraints constraints of that model
   * @param modelled the candidates in that model ({@link LagrangianBound#alive} kept)
   * @param grownAlone whether its first plan was grown on tables not updated after each query
   *     ({@link TreePlans#grown}) from some query on, the growth's deadline having passed before
   *     the part started or while it grew: a valid plan costing at most the plan without sharing, dearer than one grown
   *     query by query, which the search after it improves as its time allows
   * @param narrowed whether its queries' ways to compute were built without merges over other
   *     queries' windows ({@link dev.mnestic.planner.physical.PlanSpace#narrowed}): the plan space's
   *     deadline had passed before their chunk, so its plan shares less than a full space allows
   */
  public record Part(List<String> queries, int candidates, int afterPruning, Outcome outcome, double cost, double bound,
      int variables, int constraints, int modelled, boolean grownAlone, boolean narrowed) {
    public Part {
      queries = List.copyOf(queries);
    }

    /** (cost - bound) / cost: 0 when proven. */
    public double gap() {
      return cost <= 0 ? 0 : Math.max(0, (cost - bound) / cost);
    }
  }

  /** Why Stage 3 set a candidate aside. */
  public enum CutReason {
    /** No query's answer reaches it through feasible edges ({@link Components}). */
    UNREACHED("stage 3 (reach)", "no answer reads it through feasible edges"),
    /** Its cheapest paths down to the rows and up to an answer cost more than a known plan ({@link Pruning}). */
    PATHS("stage 3 (pruning)", "its cheapest paths to the rows and to an answer cost more than a plan known"),
    /** By its reduced cost at the Lagrangian shares, no plan as cheap as the best known uses it. */
    LAGRANGIAN("stage 3 (Lagrangian bound)", "by the Lagrangian bound no plan as cheap as the best known uses it");

    /** The stage, as the viewer prints it. */
    public final String stage;
    /** Why, in words. */
    public final String reason;

    CutReason(String stage, String reason) {
      this.stage = stage;
      this.reason = reason;
    }
  }

  /**
   * A candidate Stage 3 set aside.
   *
   * @param part its part (-1 when unreached)
   * @param above the cost every plan using it exceeds (NaN when unreached): the plan known then
   */
  public record Cut(int candidate, int part, CutReason reason, double above) {
  }
}
