package dev.mnestic.planner.select;

/**
 * Stage 3: picks the cheapest plan from a plan space. Each implementation is built as
 * {@code new X(space, ...)} and asked {@code solve()}, so tests can compare them.
 */
public interface Selector {
  /**
   * The cheapest plan that covers every query and meets (K), (R), (B).
   *
   * @throws PlanningException when no plan does
   */
  Plan solve();
}
