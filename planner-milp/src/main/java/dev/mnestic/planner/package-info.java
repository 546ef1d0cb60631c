/**
 * The sketch-sharing planner's pipeline: workload → memo → rules → physical → select → view or
 * execute; {@link dev.mnestic.planner.Planner#space} declares the order of the stages up to the
 * plan space, and {@link dev.mnestic.planner.Planner#plan} is the one entry point (the CLI, the
 * standing-query executor, the bench).
 *
 * <p>In: a workload. Out: the plan space and the plan {@code select} chose from it.
 */
package dev.mnestic.planner;
