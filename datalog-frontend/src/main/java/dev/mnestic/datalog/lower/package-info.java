/**
 * The Datalog pipeline's rewrite, plan and lower stages: {@link
 * dev.mnestic.datalog.lower.MagicSets} rewrites rules applied with bound arguments (magic sets);
 * {@link dev.mnestic.datalog.lower.StratumPlanner}
 * plans, from the rules alone, the steps of an evaluation ({@link
 * dev.mnestic.datalog.lower.StratumPlan}: constant, fixed, once, copy-stored, fixpoint; what
 * {@code ::explain} prints); rules in disjunctive normal form
 * ({@link dev.mnestic.datalog.lower.Dnf}) are lowered to {@code RelBuilder} plans
 * ({@link dev.mnestic.datalog.lower.RuleLowering}, with the SQL operators of
 * {@link dev.mnestic.datalog.lower.Operators}), one per step
 * ({@link dev.mnestic.datalog.lower.StratumLowering}), under
 * {@link dev.mnestic.datalog.lower.StrataOptions}.
 *
 * <p>In: strata from {@code analysis}. Out: a plan per step, which the runner
 * ({@code datalog.StrataRunner}) runs.
 */
package dev.mnestic.datalog.lower;
