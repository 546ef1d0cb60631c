/**
 * The planner's memo stage, its exploration: Pass 1 and Pass 2 over the memo, history
 * levels, Stage 2's (timing, lifetime) alternatives and the feasible edges, built once.
 *
 * <p>In: a {@code Memo}. Out: the physical candidates and edges of a {@code physical.PlanSpace}.
 */
package dev.mnestic.planner.rules;
