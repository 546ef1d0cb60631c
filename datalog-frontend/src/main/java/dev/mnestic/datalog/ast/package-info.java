/**
 * The Datalog pipeline's parse output: a script's tree ({@link dev.mnestic.datalog.ast.Script},
 * {@link dev.mnestic.datalog.ast.Rule}, {@link dev.mnestic.datalog.ast.Atom},
 * {@link dev.mnestic.datalog.ast.Expr}, {@link dev.mnestic.datalog.ast.FixedApply},
 * {@link dev.mnestic.datalog.ast.Pos}).
 *
 * <p>In: built by {@code parse}. Out: read by every later stage, never changed.
 */
package dev.mnestic.datalog.ast;
