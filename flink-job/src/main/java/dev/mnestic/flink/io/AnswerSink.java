package dev.mnestic.flink.io;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;

import java.nio.charset.StandardCharsets;

/**
 * Where answers go: a Kafka topic, one record per answer, keyed by the query's name (a query's
 * answers in one partition, in the order they were made), its value the answer's JSON
 * ({@link SampleJson#format(Answer)}). At least once: a job restarted from a checkpoint may
 * write an answer again (the same query, end and value).
 */
public final class AnswerSink {
  private AnswerSink() {
  }

  /** The sink writing to {@code topic} at {@code bootstrap}. */
  public static KafkaSink<Answer> kafka(String bootstrap, String topic) {
    return KafkaSink.<Answer>builder().setBootstrapServers(bootstrap)
        .setRecordSerializer(KafkaRecordSerializationSchema.<Answer>builder().setTopic(topic)
            .setKeySerializationSchema(new Query()).setValueSerializationSchema(new Json())
            .build())
        .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE).build();
  }

  /** An answer's key: its query's name. */
  private static final class Query implements SerializationSchema<Answer> {
    private static final long serialVersionUID = 1L;

    @Override public byte[] serialize(Answer answer) {
      return answer.query.getBytes(StandardCharsets.UTF_8);
    }
  }

  /** An answer's value: its JSON. */
  private static final class Json implements SerializationSchema<Answer> {
    private static final long serialVersionUID = 1L;

    @Override public byte[] serialize(Answer answer) {
      return SampleJson.format(answer).getBytes(StandardCharsets.UTF_8);
    }
  }
}
