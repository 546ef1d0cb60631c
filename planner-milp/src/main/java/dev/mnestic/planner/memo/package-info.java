/**
 * The planner's memo stage: hash-consed groups and their logical candidates (family, θ,
 * window, guarantee) through one {@code add} path ({@link dev.mnestic.planner.memo.Memo}), and
 * the requirements queries put on them.
 *
 * <p>In: a {@code Workload}. Out: the {@code Memo} that {@code rules} fills.
 */
package dev.mnestic.planner.memo;
