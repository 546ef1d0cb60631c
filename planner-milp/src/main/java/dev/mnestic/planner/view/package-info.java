/**
 * The planner's view stage: {@link dev.mnestic.planner.view.PlanView} and {@code mnestic plan}
 * ({@link dev.mnestic.planner.view.PlanCommand}).
 *
 * <p>In: a plan space and its chosen plan. Out: text, JSON or Graphviz dot.
 */
package dev.mnestic.planner.view;
