/**
 * Benchmarks ({@code bench/run CLASS}, {@link dev.mnestic.bench.Harness}): each pipeline
 * timed end to end against its peers; results in {@code bench/RESULTS.md}.
 *
 * <p>In: generated data. Out: timings on standard output.
 */
package dev.mnestic.bench;
