package dev.mnestic.flink.submit;

import dev.mnestic.flink.io.AnswerSink;
import dev.mnestic.flink.io.SampleSource;
import dev.mnestic.flink.job.PlanJob;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadException;
import dev.mnestic.planner.workload.WorkloadParser;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code mnestic flink submit}: plans a workload as the standing-query executor runs it,
 * compiles the plan into the job ({@link PlanJob}) between two Kafka topics and submits it to
 * the cluster whose REST endpoint (the JobManager's) is {@code --jobmanager HOST:PORT}, through
 * Flink's REST client (a remote environment: the job graph and the jars go over HTTP). Prints
 * the job's id; the job runs on (detached) until cancelled, or, {@code --bounded}, until it has
 * read the samples the topic held when it started.
 */
public final class FlinkCommand {
  static final String USAGE = """
      usage: mnestic flink submit --jobmanager HOST:PORT --workload FILE --kafka BOOTSTRAP
                                  [--samples TOPIC] [--answers TOPIC] [--group ID]
                                  [--parallelism N] [--lateness SECONDS] [--plan-time SECONDS]
                                  [--bounded] [--jar FILE]...
        Plans FILE (the `mnestic plan` workload language) for the standing executor, compiles
        the plan into a Flink job that reads samples as JSON from Kafka topic TOPIC (default
        samples) at BOOTSTRAP and writes each query's answer per window as JSON to topic
        answers, and submits it to the cluster's REST endpoint HOST:PORT. The job's classes go
        with it as the jars named (default: none, for a cluster that has them; bin/mnestic
        names this module's jar and its dependencies but Flink's).
      """;

  private FlinkCommand() {
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err, p -> { }));
  }

  /**
   * Runs the command; {@code submitted} receives the compiled plan and the job's client once it
   * is submitted.
   * Returns the exit status: 0 submitted, 1 the cluster or the plan failed, 2 a usage error.
   */
  public static int run(String[] args, PrintStream out, PrintStream err,
      Consumer<Submitted> submitted) {
    if (args.length == 0 || !args[0].equals("submit")) {
      err.print(args.length == 0 || args[0].equals("--help") ? USAGE
          : "mnestic flink: unknown command " + args[0] + " (submit)\n" + USAGE);
      return args.length > 0 && args[0].equals("--help") ? 0 : 2;
    }
    String jobmanager = null;
    String workloadFile = null;
    String bootstrap = null;
    String samples = "samples";
    String answers = "answers";
    String group = "mnestic";
    int parallelism = 1;
    Duration lateness = Duration.ofSeconds(5);
    Duration planTime = Duration.ofSeconds(30);
    boolean bounded = false;
    final List<String> jars = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      final String a = args[i];
      if (a.equals("--bounded")) {
        bounded = true;
        continue;
      }
      if (!a.startsWith("--") || i + 1 == args.length) {
        err.print("mnestic flink submit: " + (a.startsWith("--") ? a + " needs a value"
            : "unexpected argument " + a) + "\n" + USAGE);
        return 2;
      }
      final String v = args[++i];
      try {
        switch (a) {
          case "--jobmanager" -> jobmanager = v;
          case "--workload" -> workloadFile = v;
          case "--kafka" -> bootstrap = v;
          case "--samples" -> samples = v;
          case "--answers" -> answers = v;
          case "--group" -> group = v;
          case "--parallelism" -> parallelism = positive(a, Integer.parseInt(v));
          case "--lateness" -> lateness = Duration.ofMillis(
              Math.round(1000 * Double.parseDouble(v)));
          case "--plan-time" -> planTime = Duration.ofMillis(
              Math.round(1000 * Double.parseDouble(v)));
          case "--jar" -> jars.add(v);
          default -> {
            err.print("mnestic flink submit: unknown option " + a + "\n" + USAGE);
            return 2;
          }
        }
      } catch (NumberFormatException e) {
        err.println("mnestic flink submit: " + a + " needs a number, not " + v);
        return 2;
      } catch (IllegalArgumentException e) {
        err.println("mnestic flink submit: " + e.getMessage());
        return 2;
      }
    }
    if (jobmanager == null || workloadFile == null || bootstrap == null) {
      err.print("mnestic flink submit: --jobmanager, --workload and --kafka are needed\n"
          + USAGE);
      return 2;
    }
    final int colon = jobmanager.lastIndexOf(':');
    final int port;
    try {
      port = Integer.parseInt(jobmanager.substring(colon + 1));
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      err.println("mnestic flink submit: --jobmanager is HOST:PORT, not " + jobmanager);
      return 2;
    }
    final Workload workload;
    try {
      workload = WorkloadParser.parse(Files.readString(Path.of(workloadFile)));
    } catch (IOException e) {
      err.println("mnestic flink submit: cannot read " + workloadFile + ": " + e.getMessage());
      return 2;
    } catch (WorkloadException e) {
      err.println(workloadFile + ":" + e.getMessage());
      return 2;
    }
    try {
      final PlanJob job = PlanJob.plan(workload, planTime);
      final StreamExecutionEnvironment env = StreamExecutionEnvironment.createRemoteEnvironment(
          jobmanager.substring(0, colon), port, jars.toArray(new String[0]));
      env.setParallelism(parallelism);
      job.answers(SampleSource.kafka(env, bootstrap, samples, group, bounded, lateness),
          parallelism).sinkTo(AnswerSink.kafka(bootstrap, answers)).name("answers to Kafka");
      final JobClient client = env.executeAsync("mnestic plan of " + workloadFile);
      submitted.accept(new Submitted(job, client));
      out.println("submitted job " + client.getJobID() + " to " + jobmanager + ": "
          + job.reads().size() + " queries over " + job.summaries().size()
          + " metrics, samples from " + samples + ", answers to " + answers);
      return 0;
    } catch (Exception e) {
      err.println("mnestic flink submit: " + e.getMessage());
      return 1;
    }
  }

  private static int positive(String option, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(option + " must be positive: " + value);
    }
    return value;
  }

  /** The job compiled and its client. */
  public record Submitted(PlanJob job, JobClient client) {
  }
}
