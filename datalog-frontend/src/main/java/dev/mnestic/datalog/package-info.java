/**
 * The Datalog pipeline (CozoScript): parse ({@code parse}, {@code ast}) → check
 * ({@code eval}) → stratify ({@code analysis}) → plan and lower ({@code lower}) → run
 * ({@link dev.mnestic.datalog.StrataRunner}, with {@link dev.mnestic.datalog.ProgressLine}).
 * {@link dev.mnestic.datalog.Engine} runs the stages in order on a connection;
 * {@link dev.mnestic.datalog.StoredRelations}, {@link dev.mnestic.datalog.StoredSchema} and
 * {@link dev.mnestic.datalog.StagedTables} are CozoDB's stored relations as the store's tables,
 * written by the run stage; {@link dev.mnestic.datalog.error.DatalogException} is the error
 * every stage raises.
 *
 * <p>In: a script's text and parameters. Out: the entry rule's rows, ordered and cut.
 */
package dev.mnestic.datalog;
