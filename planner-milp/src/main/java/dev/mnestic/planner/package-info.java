/**
 * The sketch-sharing planner's pipeline: workload → memo → select → view or execute;
 * {@link dev.mnestic.planner.Planner#space} declares the order of the stages up to the plan
 * space.
 *
 * <p>In: a workload. Out: the plan space that {@code select} chooses from.
 */
package dev.mnestic.planner;
