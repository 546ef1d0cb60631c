/**
 * The Datalog pipeline's lower and run stages: rules in disjunctive normal form
 * ({@link dev.mnestic.datalog.lower.Dnf}) lowered to {@code RelBuilder} plans
 * ({@link dev.mnestic.datalog.lower.RuleLowering}, with the SQL operators of
 * {@link dev.mnestic.datalog.lower.Operators}); {@link dev.mnestic.datalog.lower.Strata} makes one
 * plan per stratum, runs it and keeps its rows for later strata;
 * {@link dev.mnestic.datalog.lower.ProgressLine} shows a long run's progress.
 *
 * <p>In: strata from {@code analysis}. Out: each stratum's rows; the entry rule's to
 * {@code Engine}.
 */
package dev.mnestic.datalog.lower;
