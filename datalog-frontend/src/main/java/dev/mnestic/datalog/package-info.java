/**
 * The Datalog pipeline (CozoScript): parse ({@code parse}, {@code ast}) → check
 * ({@code eval}) → stratify ({@code analysis}) → plan and lower ({@code lower}) → run
 * ({@link dev.mnestic.datalog.StrataRunner}, with {@link dev.mnestic.datalog.ProgressLine}).
 * {@link dev.mnestic.datalog.Engine} runs the stages in order on a connection, an imperative
 * script's blocks through {@link dev.mnestic.datalog.Imperative}, each script listed in
 * {@link dev.mnestic.datalog.RunningScripts} while it runs;
 * {@link dev.mnestic.datalog.StoredRelations}, {@link dev.mnestic.datalog.StoredSchema} and
 * {@link dev.mnestic.datalog.StagedTables} are CozoDB's stored relations as the store's tables,
 * written by the run stage; {@link dev.mnestic.datalog.error.DatalogException} is the error
 * every stage raises.
 *
 * <p>In: a script's text and parameters. Out: the entry rule's rows, ordered and cut (or what
 * a write, a system op or an imperative script's statements give).
 */
package dev.mnestic.datalog;
