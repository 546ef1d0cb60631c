package dev.mnestic.flink.io;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.reader.TextLineInputFormat;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Where samples come from: a Kafka topic whose records' values are samples' JSON
 * ({@link SampleJson}), or files of JSON lines; each sample's event time its {@code ts}, the
 * watermark the latest time seen less {@code lateness} (a sample later than that is dropped by
 * the job and counted). A record that is not a sample fails the job with an error naming its
 * topic, partition and offset (or file line's text) and what was expected.
 */
public final class SampleSource {
  private SampleSource() {
  }

  /**
   * The samples of Kafka topic {@code topic} at {@code bootstrap}, read from the earliest
   * offset by consumer group {@code group}; {@code bounded}: up to the latest offsets at the
   * job's start, then the source ends (a test, a backfill), else without end.
   */
  public static DataStream<Sample> kafka(StreamExecutionEnvironment env, String bootstrap,
      String topic, String group, boolean bounded, Duration lateness) {
    final var builder = KafkaSource.<Sample>builder().setBootstrapServers(bootstrap)
        .setTopics(topic).setGroupId(group).setStartingOffsets(OffsetsInitializer.earliest())
        .setDeserializer(new Records());
    if (bounded) {
      builder.setBounded(OffsetsInitializer.latest());
    }
    // One reader subtask holds every partition from the start, each partition its own
    // watermark: readers that got their partitions apart let the first one's watermark run
    // ahead (a reader with no partition yet is idle), and the others' first samples came late.
    return env.fromSource(builder.build(), watermarks(lateness), "samples from Kafka " + topic)
        .setParallelism(1);
  }

  /** The samples of files of JSON lines under {@code paths} (files or folders). */
  public static DataStream<Sample> files(StreamExecutionEnvironment env, Duration lateness,
      String... paths) {
    final Path[] p = new Path[paths.length];
    for (int i = 0; i < paths.length; i++) {
      p[i] = new Path(paths[i]);
    }
    final FileSource<String> source = FileSource.forRecordStreamFormat(new TextLineInputFormat(), p)
        .build();
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), "sample lines")
        .filter(line -> !line.isBlank())
        .map(SampleJson::parse)
        .returns(Types.POJO(Sample.class))
        .assignTimestampsAndWatermarks(watermarks(lateness));
  }

  /** Event time from {@code ts}; watermarks {@code lateness} behind the latest. */
  public static WatermarkStrategy<Sample> watermarks(Duration lateness) {
    return WatermarkStrategy.<Sample>forBoundedOutOfOrderness(lateness)
        .withTimestampAssigner((s, previous) -> s.ts);
  }

  /** A Kafka record's value as a sample, its place named when it is not one. */
  private static final class Records implements KafkaRecordDeserializationSchema<Sample> {
    private static final long serialVersionUID = 1L;

    @Override public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Sample> out) {
      final String text = record.value() == null ? ""
          : new String(record.value(), StandardCharsets.UTF_8);
      try {
        out.collect(SampleJson.parse(text));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("Kafka topic " + record.topic() + ", partition "
            + record.partition() + ", offset " + record.offset() + ": " + e.getMessage(), e);
      }
    }

    @Override public TypeInformation<Sample> getProducedType() {
      return Types.POJO(Sample.class);
    }
  }
}
