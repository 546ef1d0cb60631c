package dev.mnestic.flink.job;

import dev.mnestic.flink.io.Answer;
import dev.mnestic.flink.io.Sample;
import dev.mnestic.flink.io.SampleJson;
import dev.mnestic.flink.io.SampleSource;
import dev.mnestic.planner.Planner;
import dev.mnestic.planner.exec.PlanExecution;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadParser;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random workloads planned, compiled into a job and run on a MiniCluster at parallelism 4 over
 * samples from a collection: every answer the embedded executor's on the same samples
 * ({@link Monitoring#compare}).
 */
class PlanJobTest {
  static final int PARALLELISM = 4;

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1)
          .setNumberSlotsPerTaskManager(PARALLELISM).build());

  /**
   * Samples from files of JSON lines (two, one with a blank line) through the same job, every
   * answer the embedded executor's.
   */
  @Test void samplesFromFiles(@TempDir Path dir) throws Exception {
    final Random r = new Random(7);
    final Workload workload = WorkloadParser.parse(Monitoring.workload(r, 1));
    final Planner.Planned planned = Planner.plan(workload, Planner.Options.defaults()
        .withExecution(Execution.STANDING).withSelectionLimit(Duration.ofSeconds(20)));
    final PlanJob job = PlanJob.of(new PlanExecution(planned.space(), planned.plan()));
    final List<Sample> samples = Monitoring.samples(r, 1, 10_000, 6);
    final int half = samples.size() / 2;
    Files.write(dir.resolve("a.json"), samples.subList(0, half).stream()
        .map(SampleJson::format).toList());
    Files.write(dir.resolve("b.json"), Stream.concat(Stream.of(""), samples.subList(half,
        samples.size()).stream().map(SampleJson::format)).toList());
    final StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(PARALLELISM);
    final List<Answer> answers = new ArrayList<>();
    // Readers may take the files in either order: a lateness past the samples' span drops
    // none, and the windows close as the files end.
    final DataStream<Sample> in = SampleSource.files(env, Duration.ofMinutes(10),
        dir.toString());
    job.answers(in, PARALLELISM).executeAndCollect().forEachRemaining(answers::add);
    final int[] counted = Monitoring.compare(workload, job, samples,
        Embedded.answers(job.execution(), samples), answers);
    assertTrue(counted[0] + counted[1] > 0, "no answer compared");
  }

  @Test void randomWorkloadsAnswerAsTheEmbeddedExecutor() throws Exception {
    int identical = 0;
    int withinTarget = 0;
    final Set<String> kinds = new TreeSet<>();
    for (int seed = 0; seed < 3; seed++) {
      final Random r = new Random(seed);
      final int metrics = 1 + seed % 2;
      final Workload workload = WorkloadParser.parse(Monitoring.workload(r, metrics));
      final Planner.Planned planned = Planner.plan(workload, Planner.Options.defaults()
          .withExecution(Execution.STANDING).withSelectionLimit(Duration.ofSeconds(20)));
      final PlanExecution execution = new PlanExecution(planned.space(), planned.plan());
      final PlanJob job = PlanJob.of(execution);
      job.summaries().values().forEach(list -> list.forEach(
          summary -> kinds.add(summary.family() + (summary.builtFromRows() ? "" : " merge"))));
      final List<Sample> samples = Monitoring.samples(r, metrics, 20_000, 12);
      final StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
      env.setParallelism(PARALLELISM);
      final DataStream<Sample> in = env.fromData(samples).assignTimestampsAndWatermarks(
          WatermarkStrategy.<Sample>forBoundedOutOfOrderness(
              Duration.ofMillis(2 * Monitoring.JITTER)).withTimestampAssigner((s, t) -> s.ts));
      final List<Answer> answers = new ArrayList<>();
      job.answers(in, PARALLELISM).executeAndCollect().forEachRemaining(answers::add);
      final Map<String, TreeMap<Long, Double>> embedded = Embedded.answers(execution, samples);
      final int[] counted = Monitoring.compare(workload, job, samples, embedded, answers);
      identical += counted[0];
      withinTarget += counted[1];
    }
    // The workloads ran every family, and a merge of sub-windows.
    assertEquals(Set.of("DDSKETCH", "EXACT", "KLL", "merge"), kinds.stream()
        .map(k -> k.endsWith("merge") ? "merge" : k).collect(Collectors.toSet()), kinds.toString());
    assertTrue(identical > 0 && withinTarget > 0,
        identical + " answers identical, " + withinTarget + " within their target");
  }
}
