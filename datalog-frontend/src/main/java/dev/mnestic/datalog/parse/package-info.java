/**
 * The Datalog pipeline's parse stage: {@link dev.mnestic.datalog.parse.Lexer} and
 * {@link dev.mnestic.datalog.parse.Parser}, following CozoDB's {@code cozoscript.pest}.
 *
 * <p>In: script text. Out: a {@code ast.Script}, or {@code parser::pest} errors naming line and
 * column.
 */
package dev.mnestic.datalog.parse;
