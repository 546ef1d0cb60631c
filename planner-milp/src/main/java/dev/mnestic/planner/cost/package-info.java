/**
 * The planner's cost model: what each physical candidate costs while it runs (CPU, heap and
 * store bytes), folded into w_v ({@link dev.mnestic.planner.cost.CostModel}).
 *
 * <p>In: a candidate's operator, θ, window and its metric's ingest rate. Out: its
 * {@link dev.mnestic.planner.physical.Cost}, which {@code select} minimises.
 */
package dev.mnestic.planner.cost;
