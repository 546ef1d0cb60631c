/**
 * The Datalog pipeline's stratify stage: {@link dev.mnestic.datalog.analysis.Stratifier}
 * (CozoDB's stratification and its {@code eval::unstratifiable} error) over
 * {@link dev.mnestic.datalog.analysis.Tarjan}'s components.
 *
 * <p>In: a query's rules. Out: strata in evaluation order, each with its recursive rules.
 */
package dev.mnestic.datalog.analysis;
