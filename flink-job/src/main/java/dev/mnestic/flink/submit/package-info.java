/**
 * The Flink job's submit stage: {@link dev.mnestic.flink.submit.FlinkCommand} is
 * {@code mnestic flink submit}: it plans a workload, compiles the plan into the job (Kafka
 * topic of samples in, Kafka topic of answers out) and submits its job graph to a running
 * cluster through Flink's REST client.
 *
 * <p>In: the command's arguments and a workload file. Out: a job running on the cluster.
 */
package dev.mnestic.flink.submit;
