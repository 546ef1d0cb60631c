/**
 * The hand-off from the planner's memo stage to its select stage:
 * {@link dev.mnestic.planner.physical.PlanSpace}, the physical candidates with their properties
 * (timing, lifetime, storage) and the edges between them.
 *
 * <p>In: built by {@code rules}, costed by {@code cost}. Out: read by {@code select} and
 * {@code view}.
 */
package dev.mnestic.planner.physical;
