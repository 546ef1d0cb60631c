/**
 * Standing queries, SQL's way into the planner pipeline: the store's catalog of them
 * ({@link dev.mnestic.standing.StandingCatalog}), each lowered to planner queries
 * ({@link dev.mnestic.standing.StandingQuery}), and all of a store's planned together and
 * answered by one pass per metric ({@link dev.mnestic.standing.Dashboard}).
 *
 * <p>In: {@code CREATE}/{@code DROP STANDING QUERY} and queries of the schema {@code STANDING}
 * from {@code jdbc}. Out: a {@code planner.workload.Workload}, then the rows of each query.
 */
package dev.mnestic.standing;
