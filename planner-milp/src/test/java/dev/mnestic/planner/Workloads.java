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

  private static String pick(Random r, String... options) {
    return options[r.nextInt(options.length)];
  }
}
