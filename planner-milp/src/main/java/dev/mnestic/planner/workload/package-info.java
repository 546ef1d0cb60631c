/**
 * The planner's workload stage: the workload file ({@link dev.mnestic.planner.workload.WorkloadParser})
 * as a {@link dev.mnestic.planner.workload.Workload}: metrics, quantile queries with their
 * targets, windows, retentions and budgets; {@link dev.mnestic.planner.workload.Dashboards}
 * generates the workloads bench measures.
 *
 * <p>In: workload text, or standing queries lowered by {@code standing}. Out: a
 * {@code Workload} to {@code memo}.
 */
package dev.mnestic.planner.workload;
