/**
 * The Flink job's ingest and output stage: the sample record ({@link dev.mnestic.flink.io.Sample},
 * a row of {@code prometheus_samples(ts, metric, labels, val)} as one JSON object), its reading
 * from a Kafka topic or from files of JSON lines, and each query's answer
 * ({@link dev.mnestic.flink.io.Answer}) written as JSON to a Kafka topic.
 *
 * <p>In: Kafka records or file lines. Out: samples with event times; answers as records.
 */
package dev.mnestic.flink.io;
