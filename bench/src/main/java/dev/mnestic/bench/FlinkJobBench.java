package dev.mnestic.bench;

import dev.mnestic.flink.io.Answer;
import dev.mnestic.flink.io.Sample;
import dev.mnestic.flink.io.SampleSource;
import dev.mnestic.flink.job.PlanJob;
import dev.mnestic.planner.Planner;
import dev.mnestic.planner.exec.PlanExecution;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.workload.WorkloadParser;
import dev.mnestic.runtime.Sketches;

import com.sun.management.OperatingSystemMXBean;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The chosen plan of {@code examples/workloads/dashboard.workload} (four queries over one
 * metric: a KLL read directly, a DDSketch both operands of a ratio read, and 5- and 15-minute
 * windows) run over the same generated samples by the embedded executor's pass (one
 * {@code Sketches.State} fed every row, then read: {@code Sketches.windows}) and as the Flink
 * job on a MiniCluster in this JVM at parallelism 1, 2 and 4 (samples from a parallel
 * generator source, answers discarded). Prints, per run, wall time, samples per second, and
 * samples per CPU-second of this process (what a core does); then the cost model's heap charge
 * of each chosen summary against the most bytes the job's merged state held for it.
 *
 * <p>{@code bench/run FlinkJobBench [SAMPLES]} (default 2,000,000 over 20 minutes of event
 * time).
 */
public final class FlinkJobBench {
  private static final long START = 1_764_720_000_000L;
  private static final long SPAN = 20 * 60_000L;

  private FlinkJobBench() {
  }

  /** Sample {@code i} of {@code n}: in time order, lognormal latency, one of three series. */
  static Sample sample(long i, long n) {
    final Random r = new Random(i * 0x9E3779B97F4A7C15L);
    return new Sample(START + SPAN * i / n, "latency", "{\"instance\":\"host" + (i % 3) + "\"}",
        Math.min(100_000, Math.max(0.1, Math.exp(3 + r.nextGaussian()))));
  }

  public static void main(String[] args) throws Exception {
    final long n = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000;
    final Planner.Planned planned = Planner.plan(
        WorkloadParser.parse(Files.readString(Path.of("examples/workloads/dashboard.workload"))),
        Planner.Options.defaults().withExecution(Execution.STANDING)
            .withSelectionLimit(Duration.ofSeconds(30)));
    final PlanExecution execution = new PlanExecution(planned.space(), planned.plan());
    final PlanJob job = PlanJob.of(execution);
    System.out.println("plan: " + job.summaries());
    final OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    // The embedded executor's pass over the same samples, twice (the first warms the JIT).
    for (int run = 0; run < 2; run++) {
      final long cpu = os.getProcessCpuTime();
      final long t0 = System.nanoTime();
      final List<Object[]> rows = new ArrayList<>((int) n);
      for (long i = 0; i < n; i++) {
        final Sample s = sample(i, n);
        rows.add(new Object[] {s.ts, s.val});
      }
      final long generated = System.nanoTime();
      final long genCpu = os.getProcessCpuTime();
      long reads = 0;
      for (Object[] read : Sketches.windows(new Context(), Linq4j.asEnumerable(rows), 0, 1,
          job.summaries().get("latency"))) {
        reads += read.length > 0 ? 1 : 0;
      }
      final long done = System.nanoTime();
      report("embedded pass" + (run == 0 ? " (warm-up)" : ""), n, done - generated,
          os.getProcessCpuTime() - genCpu, reads + " reads; generating the rows took "
              + (generated - t0) / 1_000_000 + " ms, "
              + (genCpu - cpu) / 1_000_000 + " CPU ms, not counted");
    }

    final Configuration conf = new Configuration();
    final MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
        .setConfiguration(conf).setNumTaskManagers(1).setNumSlotsPerTaskManager(4).build());
    cluster.start();
    try {
      for (int parallelism : new int[] {1, 2, 4, 1, 2, 4}) {
        final StreamExecutionEnvironment env = StreamExecutionEnvironment
            .createRemoteEnvironment("localhost", cluster.getRestAddress().get().getPort());
        env.setParallelism(parallelism);
        final long total = n;
        final DataGeneratorSource<Sample> source = new DataGeneratorSource<>(
            (GeneratorFunction<Long, Sample>) i -> sample(i, total), n,
            RateLimiterStrategy.noOp(), Types.POJO(Sample.class));
        job.answers(env.fromSource(source, SampleSource.watermarks(Duration.ofSeconds(5)),
                "generated samples"), parallelism)
            .sinkTo(new DiscardingSink<Answer>()).name("discard");
        final long cpu = os.getProcessCpuTime();
        final long t0 = System.nanoTime();
        final JobExecutionResult result = env.execute("FlinkJobBench p=" + parallelism);
        final long wall = System.nanoTime() - t0;
        report("Flink, parallelism " + parallelism, n, wall, os.getProcessCpuTime() - cpu,
            "job's own runtime " + result.getNetRuntime() + " ms");
        if (parallelism == 4) {
          heldAgainstCharged(planned.space(), execution, result.getAllAccumulatorResults());
        }
      }
    } finally {
      cluster.close();
    }
  }

  private static void report(String what, long n, long wallNanos, long cpuNanos, String note) {
    System.out.printf("%-28s %,d samples: wall %.2f s, %,.0f samples/s; CPU %.2f s, %,.0f "
        + "samples per CPU-second; %s%n", what, n, wallNanos / 1e9, n / (wallNanos / 1e9),
        cpuNanos / 1e9, n / (cpuNanos / 1e9), note);
  }

  /** Each chosen summary: the cost model's heap bytes against the most the job held. */
  private static void heldAgainstCharged(PlanSpace space, PlanExecution execution,
      Map<String, Object> accumulators) {
    execution.candidates().forEach((metric, candidates) -> {
      for (int i = 0; i < candidates.size(); i++) {
        final int v = candidates.get(i);
        final Object held = accumulators.get("held/" + metric + "/" + i);
        final double charged = space.costs().get(v).heapBytes();
        System.out.printf("  summary %d (candidate %d, %s): charged %,.0f heap bytes, held at "
            + "most %,d (held / charged %.2f)%n", i, v,
            execution.summaries().get(metric).get(i), charged, (Long) held,
            ((Long) held) / charged);
      }
    });
  }

  /** The variables a pass reads: none set (no cancel flag, nothing counted). */
  private static final class Context implements DataContext {
    @Override public SchemaPlus getRootSchema() {
      return null;
    }

    @Override public JavaTypeFactory getTypeFactory() {
      return null;
    }

    @Override public QueryProvider getQueryProvider() {
      return null;
    }

    @Override public Object get(String name) {
      return null;
    }
  }
}
