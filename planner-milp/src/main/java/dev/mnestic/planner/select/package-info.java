/**
 * The planner's select stage: {@link dev.mnestic.planner.select.MilpSelector} (the MILP over
 * OR-Tools), {@link dev.mnestic.planner.select.TreePlans}' local search,
 * {@link dev.mnestic.planner.select.LagrangianBound}, and the oracle
 * {@link dev.mnestic.planner.select.ReferenceEnumerator} that checks any plan.
 *
 * <p>In: a {@code physical.PlanSpace}. Out: a {@link dev.mnestic.planner.select.Plan}, the
 * chosen DAG of summaries, to {@code view} or {@code exec}.
 */
package dev.mnestic.planner.select;
