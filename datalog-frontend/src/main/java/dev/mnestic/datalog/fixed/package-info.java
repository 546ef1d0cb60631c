/**
 * The Datalog pipeline's fixed rules ({@code out[...] <~ Name(...)}): the registry
 * ({@link dev.mnestic.datalog.fixed.FixedRules}, CozoDB's built-ins and a host's own) that
 * check resolves a rule against, the options a rule reads (evaluated by {@code eval}), the
 * utilities CozoDB ships ({@code Constant}, {@code ReorderSort}, {@code CsvReader},
 * {@code JsonReader}) and which files the readers may read
 * ({@link dev.mnestic.datalog.fixed.ReadPolicy}).
 *
 * <p>In: fixed rules from {@code ast}, checked after parse; their instances are lowered into
 * a {@code rel.FixedRuleApply} step by {@code lower}. Out: rows, at run time, through
 * {@code runtime.FixedRuleRun}.
 */
package dev.mnestic.datalog.fixed;
