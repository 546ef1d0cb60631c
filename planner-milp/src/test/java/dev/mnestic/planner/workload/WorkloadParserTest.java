package dev.mnestic.planner.workload;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The workload file: the spec's PromQL forms, and errors that name their line and column. */
class WorkloadParserTest {
  static final String METRIC = "metric latency from requests(ts, latency) rate 1000/s\n";

  @Test void readsTheSpecForms() {
    final Workload w = WorkloadParser.parse("# dashboards\n"
        + "metric latency from requests(ts, latency) rate 2.5e3/s raw 2d range 0.5..1e5\n"
        + "budget heap 64MiB\n"
        + "\n"
        + "A: quantile_over_time(0.95, latency[1m]) rank error 0.01 every 1m retain 7d\n"
        + "B: quantile_over_time(0.99, latency[5m]) / quantile_over_time(0.50, latency[5m]) "
        + "relative error 0.05 every 1m retain 1h  # sliding\n"
        + "C: quantile_over_time(0.5, latency[5m]) exact every 5m retain 30m\n");
    final Metric m = w.metric("latency");
    assertEquals(new Metric("latency", "requests", "ts", "latency", 2500, Duration.ofDays(2), 0.5, 1e5), m);
    assertEquals(new Budget(Budget.Resource.HEAP_BYTES, 64 * 1024 * 1024), w.budgets().get(0));
    assertEquals(3, w.queries().size());
    final Query a = w.queries().get(0);
    assertEquals(new Query("A", new QueryExpr.Quantile(0.95, "latency", Window.tumbling(Duration.ofMinutes(1))),
        new Target(ErrorMetric.RANK, 0.01), Duration.ofMinutes(1), Duration.ofDays(7), 5), a);
    final Query b = w.queries().get(1);
    final Window sliding = new Window(Duration.ofMinutes(5), Duration.ofMinutes(1));
    assertEquals(new QueryExpr.Ratio(new QueryExpr.Quantile(0.99, "latency", sliding),
        new QueryExpr.Quantile(0.5, "latency", sliding)), b.expr());
    assertEquals(new Target(ErrorMetric.RELATIVE_VALUE, 0.05), b.target());
    assertEquals(6, b.line());
    assertEquals(new Target(ErrorMetric.EXACT, 0), w.queries().get(2).target());
    final Target strict = WorkloadParser.parse(METRIC + "A: quantile_over_time(0.9, latency[1m]) "
        + "rank error 0.01 with probability 0.999 every 1m retain 1h").queries().get(0).target();
    assertEquals(ErrorMetric.RANK, strict.metric());
    assertEquals(0.001, strict.failure(), 1e-12);
    assertEquals(1, new Target(ErrorMetric.RANK, 0.01).failure());
  }

  /**
   * #16, point 3 (b): a query's read interval: every evaluation interval by default (a standing
   * query a dashboard refreshes each step), {@code read once} (a statement), or {@code read every
   * D} dividing the evaluation interval; anything else names its line and column.
   */
  @Test void readsAReadInterval() {
    final Workload w = WorkloadParser.parse(METRIC
        + "A: quantile_over_time(0.9, latency[10m]) exact every 5m retain 1h\n"
        + "B: quantile_over_time(0.9, latency[10m]) exact every 5m retain 1h read once\n"
        + "C: quantile_over_time(0.9, latency[10m]) exact every 5m retain 1h read every 1m\n");
    assertEquals(Duration.ofMinutes(5), w.queries().get(0).read());
    assertEquals(Query.ONCE, w.queries().get(1).read());
    assertEquals(Duration.ofMinutes(1), w.queries().get(2).read());
    assertError(METRIC + "A: quantile_over_time(0.9, latency[10m]) exact every 5m retain 1h read every 2m",
        "2:78: a read interval divides the evaluation interval 5m: found 2m");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[10m]) exact every 5m retain 1h read every 10m",
        "2:78: a read interval divides the evaluation interval 5m: found 10m");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[10m]) exact every 5m retain 1h read twice",
        "2:72: expected 'every', found 'twice'");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[10m]) exact every 5m retain 1h read once more",
        "2:77: expected the end of the line, found 'more'");
  }

  @Test void errorsNameLineAndColumn() {
    assertError(METRIC + "A: quantile_over_time(0.95, latnecy[1m]) rank error 0.01 every 1m retain 1h",
        "2:29: unknown metric 'latnecy' (declare it first: metric latnecy from TABLE(TS, VALUE) rate N/s)");
    assertError(METRIC + "A: quantile_over_time(1.5, latency[1m]) rank error 0.01 every 1m retain 1h",
        "2:23: expected a quantile in [0, 1], found '1.5'");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[1m]) rank error 2 every 1m retain 1h",
        "2:52: expected an error bound in (0, 1), found '2'");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[1m]) rank error 0.01 every 1m",
        "2:65: expected 'retain', found the end of the line");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[1x]) exact every 1m retain 1h",
        "2:36: expected a range such as 1m (a duration such as 30s, 5m, 2h, 7d), found '1x'");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[1m]) exact every 2m retain 1h",
        "2:53: a window's step 2m is longer than its width 1m: rows would be skipped");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[1m]) rank error 0.01 with probability 1 every 1m retain 1h",
        "2:74: expected a probability in (0, 1), found '1'");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[1m]) rank error 0.01 with 0.99 every 1m retain 1h",
        "2:62: expected 'probability', found '0.99'");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[1m]) fuzzy every 1m retain 1h",
        "2:41: expected rank error, relative error or exact, found 'fuzzy'");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[1m]) exact every 1m retain 1h\n"
        + "A: quantile_over_time(0.5, latency[1m]) exact every 1m retain 1h",
        "3:1: query A is already defined on line 2");
    assertError("metric latency from requests(ts latency) rate 10/s",
        "1:33: expected ',', found 'latency'");
    assertError(METRIC + "budget heap lots", "2:13: expected a size such as 64MiB (B, KiB, MiB, GiB), found 'lots'");
    assertError(METRIC, "2:1: expected at least one query");
    assertError(METRIC + "A: quantile_over_time(0.9, latency[1m]) exact every 1m retain 1h ;",
        "2:66: unexpected character ';'");
  }

  private static void assertError(String text, String message) {
    final WorkloadException e = assertThrows(WorkloadException.class, () -> WorkloadParser.parse(text));
    assertEquals(message, e.getMessage());
  }
}
