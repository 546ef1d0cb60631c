package dev.mnestic.flink.job;

import dev.mnestic.flink.io.Answer;
import dev.mnestic.flink.io.Sample;
import dev.mnestic.planner.exec.PlanExecution;
import dev.mnestic.planner.workload.ErrorMetric;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.QueryExpr;
import dev.mnestic.planner.workload.Target;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.runtime.Sketches;
import dev.mnestic.runtime.TrueQuantile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random monitoring workloads and their samples, and the comparison of a job's answers with
 * the embedded executor's.
 */
final class Monitoring {
  /** How far a sample's time may lag the latest before it: the watermark's bound is above. */
  static final long JITTER = 2_000;
  static final long START = 1_764_720_000_000L;

  private Monitoring() {
  }

  /**
   * A workload over {@code metrics} metrics {@code m0, m1, ...} (each read from a table of its
   * name): 4 to 7 queries of random φ, window (1, 2 or 5 minutes, every minute or every
   * window), target (rank error, relative error, exact) and form (a quantile or a ratio of two
   * over one window), so that some share a summary.
   */
  static String workload(Random r, int metrics) {
    final StringBuilder b = new StringBuilder();
    for (int m = 0; m < metrics; m++) {
      b.append("metric m").append(m).append(" from m").append(m)
          .append("(ts, val) rate 50/s raw 1d range 0.1..100000\n");
    }
    final double[] phis = {0.5, 0.9, 0.95, 0.99};
    final int[] widths = {1, 2, 5};
    final int queries = 4 + r.nextInt(4);
    for (int q = 0; q < queries; q++) {
      final String metric = "m" + r.nextInt(metrics);
      final int width = widths[r.nextInt(widths.length)];
      final String window = metric + "[" + width + "m]";
      final String every = r.nextBoolean() ? "1m" : width + "m";
      final String quantile = "quantile_over_time(" + phis[r.nextInt(phis.length)] + ", "
          + window + ")";
      final int form = r.nextInt(6);
      b.append("q").append(q).append(": ");
      if (form == 0) {
        b.append(quantile).append(" / quantile_over_time(").append(phis[r.nextInt(2)])
            .append(", ").append(window).append(") relative error 0.05");
      } else if (form == 1) {
        b.append(quantile).append(" exact");
      } else if (form < 4) {
        b.append(quantile).append(" rank error ").append(r.nextBoolean() ? "0.01" : "0.02");
      } else {
        b.append(quantile).append(" relative error ").append(r.nextBoolean() ? "0.01" : "0.05");
      }
      b.append(" every ").append(every).append(" retain 1h\n");
    }
    return b.toString();
  }

  /**
   * {@code perMetric} samples of each metric over {@code minutes} minutes, three series
   * (labels) each, lognormal values; in time order but for a jitter of up to
   * {@link #JITTER} ms.
   */
  static List<Sample> samples(Random r, int metrics, int perMetric, int minutes) {
    final List<Sample> out = new ArrayList<>();
    final long span = minutes * 60_000L;
    final int n = metrics * perMetric;
    for (int i = 0; i < n; i++) {
      final long t = START + span * i / n + (long) (r.nextDouble() * JITTER);
      final String metric = "m" + r.nextInt(metrics);
      final double v = Math.min(100_000, Math.max(0.1, Math.exp(3 + r.nextGaussian())));
      out.add(new Sample(Math.min(t, START + span - 1), metric,
          "{\"instance\":\"host" + r.nextInt(3) + "\"}", v));
    }
    return out;
  }

  /**
   * Compares the job's answers with the embedded executor's on the same samples: the same
   * windows of every query; where every summary a query reads is exact or a DDSketch (merged
   * from parts by adding counts or values: the summary the embedded executor builds), the same
   * values; where one is a KLL (parts merged with KLL's merge, whose compactions differ from
   * one reader's), the query's target met against the window's true values. Returns how many
   * answers were compared identically and how many within the target.
   */
  static int[] compare(Workload workload, PlanJob job, List<Sample> samples,
      Map<String, TreeMap<Long, Double>> embedded, List<Answer> answers) {
    final Map<String, TreeMap<Long, Double>> flink = new TreeMap<>();
    for (Answer a : answers) {
      assertTrue(flink.computeIfAbsent(a.query, k -> new TreeMap<>()).put(a.end, a.value) == null,
          "two answers of " + a.query + " at " + a.end);
    }
    final int[] counted = new int[2];
    for (Query q : workload.queries()) {
      final TreeMap<Long, Double> want = embedded.get(q.name());
      final TreeMap<Long, Double> got = flink.getOrDefault(q.name(), new TreeMap<>());
      assertTrue(!want.isEmpty(), q.name() + " has no window");
      assertEquals(want.keySet(), got.keySet(), q.name() + "'s windows");
      final List<PlanExecution.Read> reads = job.reads().get(q.name());
      final boolean kll = reads.stream().anyMatch(r -> job.summaries().get(r.metric())
          .get(r.summary()).family() == Sketches.Family.KLL);
      for (Map.Entry<Long, Double> e : want.entrySet()) {
        final double value = got.get(e.getKey());
        if (!kll) {
          assertEquals(e.getValue(), value, 0.0, q.name() + " at " + e.getKey());
          counted[0]++;
          continue;
        }
        assertTrue(withinTarget(q.target(), reads, samples, e.getKey(), width(q), value),
            q.name() + " (" + q.target() + ") at " + e.getKey() + ": " + value
                + ", embedded " + e.getValue());
        counted[1]++;
      }
    }
    return counted;
  }

  private static long width(Query q) {
    final QueryExpr.Quantile first = q.expr() instanceof QueryExpr.Quantile quantile ? quantile
        : ((QueryExpr.Ratio) q.expr()).numerator();
    return first.window().width().toMillis();
  }

  private static boolean withinTarget(Target target, List<PlanExecution.Read> reads,
      List<Sample> samples, long end, long width, double value) {
    final double[] first = window(samples, reads.get(0).metric(), end, width);
    if (reads.size() == 2) {
      final double[] second = window(samples, reads.get(1).metric(), end, width);
      final double truth = TrueQuantile.value(first, reads.get(0).phi())
          / TrueQuantile.value(second, reads.get(1).phi());
      return TrueQuantile.withinRelative(truth, value, target.bound());
    }
    if (target.metric() == ErrorMetric.RANK) {
      return TrueQuantile.rankError(first, reads.get(0).phi(), value) <= target.bound();
    }
    return TrueQuantile.withinRelative(TrueQuantile.value(first, reads.get(0).phi()), value,
        target.bound());
  }

  /** The sorted values of {@code metric}'s samples in [end - width, end). */
  static double[] window(List<Sample> samples, String metric, long end, long width) {
    return samples.stream().filter(s -> s.metric.equals(metric) && s.ts >= end - width
        && s.ts < end).mapToDouble(s -> s.val).sorted().toArray();
  }

  static String describe(PlanJob job) {
    final StringBuilder b = new StringBuilder();
    job.summaries().forEach((m, s) -> b.append(m).append(": ").append(s).append('\n'));
    return b + Arrays.toString(job.reads().entrySet().toArray());
  }
}
