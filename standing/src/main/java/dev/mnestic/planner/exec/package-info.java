/**
 * The planner's execute stage: {@link dev.mnestic.planner.exec.PlanExecution} runs a chosen
 * plan over the store, one {@code SketchAggregate} per metric.
 *
 * <p>In: a {@code select.Plan} and the store's rows. Out: each query's answer per window.
 */
package dev.mnestic.planner.exec;
