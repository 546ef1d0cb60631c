package dev.mnestic.planner.workload;

import java.util.Locale;
import java.util.Random;

/**
 * Generated latency dashboards, as workload text, deterministic by seed: the planner's scale
 * and quality are measured on them (bench's PlannerBench) and tested on the smaller ones.
 *
 * <p>A dashboard of n queries watches ⌈n / 32⌉ services, one latency metric each (ingest rates
 * 100 to 20,000 rows/s); query i reads service i mod services, so every metric is shared by
 * about 32 panels. A panel is a quantile (φ from 0.5 to 0.999) over a window (1m to 1h,
 * tumbling or sliding) with a rank- or relative-error target, sometimes exact; or, one panel in
 * four, a tail ratio (p99 / p50, p999 / p50, p95 / p50) of one window with a relative-error
 * target. Retentions are 1h, 6h or 1d.
 */
public final class Dashboards {
  /** Queries per service: how many panels share one metric. */
  private static final int PER_METRIC = 32;
  private static final String[] PHI = {"0.5", "0.9", "0.95", "0.99", "0.999"};
  /** Range and evaluation interval. */
  private static final String[][] WINDOWS = {{"1m", "1m"}, {"1m", "1m"}, {"5m", "5m"}, {"5m", "1m"},
      {"15m", "15m"}, {"15m", "5m"}, {"1h", "5m"}, {"1h", "1h"}};
  private static final String[] TARGETS = {"rank error 0.005", "rank error 0.01", "rank error 0.01",
      "rank error 0.02", "relative error 0.01", "relative error 0.02", "relative error 0.05"};
  private static final String[][] RATIOS = {{"0.99", "0.5"}, {"0.999", "0.5"}, {"0.95", "0.5"}};
  private static final String[] RATIO_TARGETS = {"relative error 0.05", "relative error 0.1"};
  private static final int[] RATES = {100, 1000, 5000, 20000};
  private static final String[] RETAIN = {"1h", "6h", "1d"};

  private Dashboards() {
  }

  /** The workload text of a dashboard of {@code queries} queries. */
  public static String generate(int queries, long seed) {
    if (queries < 1) {
      throw new IllegalArgumentException("a dashboard has at least one query: " + queries);
    }
    final Random r = new Random(seed);
    final int metrics = (queries + PER_METRIC - 1) / PER_METRIC;
    final StringBuilder b = new StringBuilder();
    b.append("# generated dashboard: ").append(queries).append(" queries, seed ").append(seed).append('\n');
    for (int m = 0; m < metrics; m++) {
      b.append(String.format(Locale.ROOT,
          "metric svc%03d from requests_%03d(ts, latency) rate %d/s raw 1d range 0.1..100000%n",
          m, m, pick(r, RATES)));
    }
    for (int q = 0; q < queries; q++) {
      final String metric = String.format(Locale.ROOT, "svc%03d", q % metrics);
      final String[] window = WINDOWS[r.nextInt(WINDOWS.length)];
      final String expr;
      final String target;
      if (r.nextInt(4) == 0) {
        final String[] phi = RATIOS[r.nextInt(RATIOS.length)];
        expr = quantile(phi[0], metric, window[0]) + " / " + quantile(phi[1], metric, window[0]);
        target = RATIO_TARGETS[r.nextInt(RATIO_TARGETS.length)];
      } else {
        expr = quantile(PHI[r.nextInt(PHI.length)], metric, window[0]);
        target = r.nextInt(40) == 0 ? "exact" : TARGETS[r.nextInt(TARGETS.length)];
      }
      b.append(String.format(Locale.ROOT, "q%04d: %s %s every %s retain %s%n", q, expr, target,
          window[1], RETAIN[r.nextInt(RETAIN.length)]));
    }
    return b.toString();
  }

  private static String quantile(String phi, String metric, String range) {
    return "quantile_over_time(" + phi + ", " + metric + "[" + range + "])";
  }

  private static int pick(Random r, int[] options) {
    return options[r.nextInt(options.length)];
  }
}
