/**
 * The Datalog pipeline's check stage: expressions without variables and constant rules
 * evaluated before anything is lowered, with CozoDB's errors in CozoDB's order
 * ({@link dev.mnestic.datalog.eval.ConstantEvaluator}, {@link dev.mnestic.datalog.eval.ConstantRules}).
 *
 * <p>In: {@code ast} expressions and rules, parameters. Out: values and constant relations.
 */
package dev.mnestic.datalog.eval;
