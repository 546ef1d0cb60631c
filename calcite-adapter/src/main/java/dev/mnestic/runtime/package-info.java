/**
 * The execute stage of both pipelines: the hand-written Java that generated Enumerable code
 * calls, listed in {@link dev.mnestic.runtime.MnesticMethod} (skylines, semi-naive rounds,
 * Datalog and pareto aggregation, sketches, CozoDB functions through
 * {@link dev.mnestic.runtime.CozoCalls}); rows read from and written to the store
 * ({@link dev.mnestic.runtime.StoreReads}, {@link dev.mnestic.runtime.StoreWrites}); a running
 * statement's cancel flag and limits ({@link dev.mnestic.runtime.RunningStatement}).
 *
 * <p>In: rows as Java values and the context generated code binds. Out: result rows, and
 * writes on the statement's store session.
 */
package dev.mnestic.runtime;
