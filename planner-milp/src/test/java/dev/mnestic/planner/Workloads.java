package dev.mnestic.planner;

import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadParser;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/** Workloads of the tests' resources. */
public final class Workloads {
  private Workloads() {
  }

  public static Workload resource(String name) {
    try (InputStream in = Workloads.class.getResourceAsStream("/" + name)) {
      return WorkloadParser.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The spec's example: query A (rank error 0.01) and query B (a ratio, relative error 0.05). */
  public static Workload specExample() {
    return resource("spec-example.workload");
  }

  /**
   * A small random workload: one metric or two (rates 100/s or 5,000/s), one or two queries of
   * 1m or 3m ranges (a 3m one every 1m or 3m), quantiles or ratios, rank, relative or exact
   * targets, sometimes a heap budget.
   */
  public static String random(Random r) {
    // One metric, or two: queries over different metrics are separate parts of the MILP.
    final List<String> metrics = r.nextBoolean() ? List.of("m") : List.of("m", "n");
    final StringBuilder b = new StringBuilder();
    for (String m : metrics) {
      b.append("metric ").append(m).append(" from t_").append(m).append("(ts, v) rate ")
          .append(r.nextBoolean() ? 100 : 5000).append("/s raw ").append(r.nextBoolean() ? "10m" : "1d")
          .append('\n');
    }
    final int queries = 1 + r.nextInt(2);
    for (int q = 0; q < queries; q++) {
      final String range = pick(r, "1m", "1m", "3m");
      final String every = range.equals("3m") && r.nextBoolean() ? "1m" : range;
      final String quantile = "quantile_over_time(" + pick(r, "0.5", "0.9", "0.99") + ", "
          + metrics.get(r.nextInt(metrics.size())) + "[" + range + "])";
      final String expr;
      final String target;
      if (r.nextInt(10) < 3) {
        expr = quantile + " / quantile_over_time(" + pick(r, "0.5", "0.9") + ", "
            + metrics.get(r.nextInt(metrics.size())) + "[" + range + "])";
        target = "relative error " + pick(r, "0.03", "0.05", "0.1", "0.2");
      } else {
        expr = quantile;
        target = pick(r, "rank error 0.005", "rank error 0.01", "rank error 0.03", "relative error 0.01",
            "relative error 0.05", "exact");
      }
      b.append("Q").append(q).append(": ").append(expr).append(' ').append(target).append(" every ")
          .append(every).append(" retain ").append(pick(r, "5m", "1h")).append('\n');
    }
    if (r.nextInt(5) == 0) {
      b.append("budget heap ").append(pick(r, "64KiB", "1MiB", "16MiB")).append('\n');
    }
    return b.toString();
  }

  /**
   * A small random workload whose windows nest three deep, so that a merge may merge merged
   * windows: one metric (100/s or 5,000/s), a query over 1-minute windows, one over tumbling
   * windows of 2 or 3 minutes, and one over 6 or 12 minutes every 2, 3 or 6 (a multiple of the
   * second's width where one fits), rank or relative targets, retentions of 5 minutes to an hour.
   */
  public static String randomNested(Random r) {
    final StringBuilder b = new StringBuilder();
    b.append("metric m from t_m(ts, v) rate ").append(r.nextBoolean() ? 100 : 5000)
        .append("/s raw 1d range 1..1000\n");
    final int middle = 2 + r.nextInt(2);
    final int wide = pick(r, 6, 12);
    final int every = pick(r, middle, wide);
    final String[] ranges = {"1m", middle + "m", wide + "m"};
    final String[] steps = {"1m", middle + "m", every + "m"};
    for (int q = 0; q < 3; q++) {
      b.append("Q").append(q).append(": quantile_over_time(").append(pick(r, "0.5", "0.9", "0.99"))
          .append(", m[").append(ranges[q]).append("]) ")
          .append(pick(r, "rank error 0.01", "rank error 0.03", "relative error 0.02", "relative error 0.05"))
          .append(" every ").append(steps[q]).append(" retain ").append(pick(r, "5m", "20m", "1h")).append('\n');
    }
    return b.toString();
  }

  private static int pick(Random r, int a, int b) {
    return r.nextBoolean() ? a : b;
  }

  private static String pick(Random r, String... options) {
    return options[r.nextInt(options.length)];
  }
}
