/**
 * The execute stage of both pipelines: the hand-written Java that generated Enumerable code
 * calls, listed in {@link dev.mnestic.runtime.MnesticMethod} (skylines, semi-naive rounds,
 * Datalog and pareto aggregation, sketches, CozoDB functions through
 * {@link dev.mnestic.runtime.CozoCalls}); the rows a later plan scans
 * ({@link dev.mnestic.runtime.RowTable}); a running statement's cancel flag and limits
 * ({@link dev.mnestic.runtime.RunningStatement}). Operators hand it enums and records, stashed
 * in the generated code, never strings to parse back.
 *
 * <p>In: rows as Java values and the context generated code binds. Out: result rows.
 */
package dev.mnestic.runtime;
