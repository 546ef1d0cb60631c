/**
 * The SQL pipeline's validate stage: mnestic's functions declared to the validator
 * ({@link dev.mnestic.sql.fun.MnesticOperatorTable}: {@code PARETO_MIN}, {@code PARETO_MAX}).
 *
 * <p>In: names the validator looks up. Out: operators, run by {@code runtime.Pareto}.
 */
package dev.mnestic.sql.fun;
