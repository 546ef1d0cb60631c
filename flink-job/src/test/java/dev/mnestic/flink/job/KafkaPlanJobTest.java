package dev.mnestic.flink.job;

import dev.mnestic.flink.io.Answer;
import dev.mnestic.flink.io.AnswerSink;
import dev.mnestic.flink.io.Sample;
import dev.mnestic.flink.io.SampleJson;
import dev.mnestic.flink.io.SampleSource;
import dev.mnestic.planner.Planner;
import dev.mnestic.planner.exec.PlanExecution;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadParser;

import dev.mnestic.flink.submit.FlinkCommand;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The job between Kafka topics: a broker started in this JVM in KRaft mode (Kafka 4's
 * {@link KafkaClusterTestKit}, one combined broker and controller), samples written as JSON to
 * a topic of four partitions, the job on a MiniCluster at parallelism 4 reading them
 * ({@link SampleSource#kafka}, bounded at the offsets it starts at) and writing its answers to
 * another topic ({@link AnswerSink}), which the test reads back: every answer the embedded
 * executor's on the same samples ({@link Monitoring#compare}).
 */
class KafkaPlanJobTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1)
          .setNumberSlotsPerTaskManager(PlanJobTest.PARALLELISM).build());

  private static KafkaClusterTestKit kafka;
  private static String workload;
  private static List<Sample> samples;

  /** Starts the broker and writes the samples, in time order, round robin to 4 partitions. */
  @BeforeAll static void startKafka() throws Exception {
    kafka = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
        .setNumBrokerNodes(1).setNumControllerNodes(1).build()).build();
    kafka.format();
    kafka.startup();
    kafka.waitForReadyBrokers();
    final Random r = new Random(42);
    workload = Monitoring.workload(r, 2);
    samples = Monitoring.samples(r, 2, 15_000, 10);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic("samples", 4, (short) 1))).all().get();
    }
    final Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      for (int i = 0; i < samples.size(); i++) {
        producer.send(new ProducerRecord<>("samples", i % 4, null,
            SampleJson.format(samples.get(i))));
      }
    }
  }

  @AfterAll static void stopKafka() throws Exception {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test void samplesFromKafkaAnswersToKafka() throws Exception {
    final Workload parsed = WorkloadParser.parse(workload);
    final Planner.Planned planned = Planner.plan(parsed, Planner.Options.defaults()
        .withExecution(Execution.STANDING).withSelectionLimit(Duration.ofSeconds(20)));
    final PlanJob job = PlanJob.of(new PlanExecution(planned.space(), planned.plan()));
    final String bootstrap = kafka.bootstrapServers();
    final StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(PlanJobTest.PARALLELISM);
    job.answers(SampleSource.kafka(env, bootstrap, "samples", "in-jvm", true,
            Duration.ofMillis(2 * Monitoring.JITTER)), PlanJobTest.PARALLELISM)
        .sinkTo(AnswerSink.kafka(bootstrap, "answers"));
    env.execute("mnestic plan, Kafka to Kafka");
    compare(parsed, job, "answers");
  }

  /**
   * {@code mnestic flink submit} against the MiniCluster's REST endpoint: the job graph goes
   * over HTTP through Flink's REST client, as to a standalone cluster's JobManager.
   */
  @Test void submittedOverRest(@TempDir Path dir) throws Exception {
    final Configuration client = FLINK.getClientConfiguration();
    final String rest = client.get(RestOptions.ADDRESS) + ":" + client.get(RestOptions.PORT);
    // The command makes its own remote environment, as it does outside tests.
    TestStreamEnvironment.unsetAsContext();
    final Path file = dir.resolve("monitoring.workload");
    Files.writeString(file, workload);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final List<FlinkCommand.Submitted> submitted = new ArrayList<>();
    final int status = FlinkCommand.run(new String[] {"submit", "--jobmanager", rest,
        "--workload", file.toString(), "--kafka", kafka.bootstrapServers(), "--answers",
        "answers-rest", "--group", "rest", "--parallelism", "4", "--lateness", "4",
        "--bounded"}, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), submitted::add);
    assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    final FlinkCommand.Submitted s = submitted.get(0);
    assertTrue(out.toString(StandardCharsets.UTF_8).startsWith(
        "submitted job " + s.client().getJobID() + " to " + rest), out.toString());
    s.client().getJobExecutionResult().get(60, TimeUnit.SECONDS);
    compare(WorkloadParser.parse(workload), s.job(), "answers-rest");
  }

  /** Reads {@code topic}'s answers and compares them with the embedded executor's. */
  private static void compare(Workload parsed, PlanJob job, String topic) throws Exception {
    final Map<String, TreeMap<Long, Double>> embedded = Embedded.answers(job.execution(),
        samples);
    final int expected = embedded.values().stream().mapToInt(Map::size).sum();
    final List<Answer> answers = new ArrayList<>();
    final Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
      // Assigned, not subscribed: no consumer group (its offsets topic wants three brokers).
      final List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      final long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (answers.size() < expected && System.nanoTime() < until) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
          final Answer a = SampleJson.parseAnswer(record.value());
          assertEquals(a.query, record.key(), record.toString());
          answers.add(a);
        }
      }
    }
    final int[] counted = Monitoring.compare(parsed, job, samples, embedded, answers);
    assertEquals(expected, counted[0] + counted[1], "answers compared");
  }
}
