package dev.mnestic.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.mnestic.jdbc.Driver;
import dev.mnestic.runtime.TrueQuantile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus (Debian's {@code prometheus} package, installed with apt-get when missing
 * and the test runs as root; the test fails, not skips, when it cannot run one) scrapes its
 * own metrics every second and remote-writes them to {@code mnestic serve}'s remote-write
 * port; the samples that arrive are checked against what Prometheus's own HTTP API answers
 * for the same series at the same time: every series of {@code up},
 * {@code prometheus_build_info} and {@code prometheus_tsdb_head_samples_appended_total}, its
 * labels and its value.
 */
class PrometheusRemoteWriteTest {
  private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
  private static final List<String> METRICS = List.of("up", "prometheus_build_info",
      "prometheus_tsdb_head_samples_appended_total");
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** Installs Debian's package as root when it is missing; fails otherwise. */
  static void install() throws IOException, InterruptedException {
    if (Files.isExecutable(PROMETHEUS)) {
      return;
    }
    if (!"root".equals(System.getProperty("user.name"))) {
      fail("Prometheus is not installed (" + PROMETHEUS + ") and only root can install it:"
          + " apt-get install prometheus");
    }
    for (List<String> command : List.of(
        List.of("apt-get", "install", "-y", "-q", "--no-install-recommends", "prometheus"),
        List.of("apt-get", "update", "-q"),
        List.of("apt-get", "install", "-y", "-q", "--no-install-recommends", "prometheus"))) {
      final ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      b.environment().put("DEBIAN_FRONTEND", "noninteractive");
      b.start().waitFor(10, TimeUnit.MINUTES);
      if (Files.isExecutable(PROMETHEUS)) {
        return;
      }
    }
    fail("apt-get could not install Debian's prometheus package");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test void samplesOfARealPrometheusArriveAsItHasThem() throws Exception {
    install();
    try (MnesticServer server = MnesticServer.newBuilder().port(0).remoteWritePort(0).build()) {
      server.start();
      final int web = freePort();
      final Path config = dir.resolve("prometheus.yml");
      Files.writeString(config, PrometheusConfig.of(web, server.remoteWriteUrl()));
      final Path log = dir.resolve("prometheus.log");
      final Process prometheus = new ProcessBuilder(PROMETHEUS.toString(),
          "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
          "--web.listen-address=127.0.0.1:" + web)
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      try (Connection c = new Driver().connect(Driver.CONNECT_STRING_PREFIX + Driver.DB + "="
          + server.db(), new Properties())) {
        awaitSamples(c, prometheus, log);
        int compared = 0;
        for (String metric : METRICS) {
          compared += compare(c, metric, web);
        }
        assertTrue(compared >= METRICS.size(), "series compared: " + compared);
        promQlThroughPromtool(c, server, web);
      } finally {
        prometheus.destroy();
        if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
          prometheus.destroyForcibly().waitFor();
        }
      }
    }
  }

  /** Waits (up to 60 s) until every metric of {@link #METRICS} has samples in the table. */
  private static void awaitSamples(Connection c, Process prometheus, Path log)
      throws Exception {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try (PreparedStatement s = c.prepareStatement("SELECT COUNT(DISTINCT metric)"
          + " FROM prometheus_samples WHERE metric IN ('up', 'prometheus_build_info',"
          + " 'prometheus_tsdb_head_samples_appended_total')");
          ResultSet r = s.executeQuery()) {
        r.next();
        if (r.getInt(1) == METRICS.size()) {
          return;
        }
      }
      if (!prometheus.isAlive() || System.nanoTime() > deadline) {
        fail("no samples of " + METRICS + " arrived from Prometheus within 60 s; its log:\n"
            + Files.readString(log));
      }
      Thread.sleep(250);
    }
  }

  /**
   * Compares each series of {@code metric}, at its latest stored sample, with Prometheus's
   * instant query of that series at that time; answers how many series.
   */
  private static int compare(Connection c, String metric, int web) throws Exception {
    int series = 0;
    try (PreparedStatement s = c.prepareStatement("SELECT labels, ts, val FROM"
        + " prometheus_samples p WHERE metric = ? AND ts = (SELECT MAX(ts) FROM"
        + " prometheus_samples q WHERE q.metric = p.metric AND q.labels = p.labels)")) {
      s.setString(1, metric);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          final Map<String, String> labels = new TreeMap<>();
          final Iterator<Map.Entry<String, JsonNode>> fields = JSON.readTree(r.getString(1))
              .fields();
          fields.forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
          final long millis = r.getTimestamp(2).toLocalDateTime().toInstant(ZoneOffset.UTC)
              .toEpochMilli();
          final double stored = r.getDouble(3);
          final JsonNode answer = instantQuery(web, selector(metric, labels), millis);
          final JsonNode result = answer.path("data").path("result");
          assertEquals(1, result.size(), "Prometheus's answer for " + metric + labels + ": "
              + answer);
          final Map<String, String> theirs = new TreeMap<>();
          result.get(0).path("metric").fields()
              .forEachRemaining(e -> theirs.put(e.getKey(), e.getValue().asText()));
          assertEquals(metric, theirs.remove("__name__"));
          assertEquals(theirs, labels);
          final JsonNode value = result.get(0).path("value");
          assertEquals(millis, Math.round(value.get(0).asDouble() * 1000));
          assertEquals(Double.doubleToLongBits(Double.parseDouble(value.get(1).asText())),
              Double.doubleToLongBits(stored), metric + labels + " at " + millis);
          series++;
        }
      }
    }
    return series;
  }

  /** The standing PromQL queries the samples answer: a median, a ratio of extremes. */
  private static final String MEDIAN = "quantile_over_time(0.5, scrape_duration_seconds[5s])";
  private static final String SPREAD = "quantile_over_time(1, go_memstats_alloc_bytes[5s])"
      + " / quantile_over_time(0, go_memstats_alloc_bytes[5s])";
  /** Their windows' width and step. */
  private static final long STEP = 5_000;

  /**
   * Registers {@link #MEDIAN} and {@link #SPREAD} as standing queries, waits for four windows
   * of samples, and reads them with promtool from mnestic's query API: each answer against the
   * exact quantile of the stored samples (nearest rank, within the target) and against
   * Prometheus's own answer for the same expression and time. Prometheus interpolates between
   * the two samples around rank φ·(n - 1) + 1 where mnestic's true quantile is the ⌈φ·n⌉-th, so
   * a median may differ by one rank between them (docs/prometheus.md); φ = 0 and 1 agree.
   * Then an expression outside the subset, through promtool.
   */
  private static void promQlThroughPromtool(Connection c, MnesticServer server, int web)
      throws Exception {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE STANDING QUERY median AS PROMQL '" + MEDIAN + "'"
          + " WITHIN RANK ERROR 0.01");
      s.execute("CREATE STANDING QUERY spread AS PROMQL '" + SPREAD + "'"
          + " WITHIN RELATIVE ERROR 0.01");
    }
    final String api = server.remoteWriteUrl().replace(RemoteWrite.PATH, "");
    // t: a step end with three whole windows before it, every sample of them stored, and no
    // sample on a window's bound (Prometheus's windows are (t - 5s, t], mnestic's [t - 5s, t)).
    long t = 0;
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
    while (t == 0) {
      final long[] span = span(c, "scrape_duration_seconds");
      for (long end = Math.floorDiv(span[1] - 1_500, STEP) * STEP;
          end - 3 * STEP >= span[0] && t == 0; end -= STEP) {
        if (!onBounds(c, end - 3 * STEP, end)) {
          t = end;
        }
      }
      if (t == 0) {
        assertTrue(System.nanoTime() < deadline, "no three windows of samples in 40 s");
        Thread.sleep(1_000);
      }
    }
    // instant: mnestic's median within its target of the stored samples, and a rank from
    // Prometheus's
    final JsonNode median = promtool("query", "instant", "-o", "json", "--time=" + t / 1000,
        api, MEDIAN);
    assertEquals(1, median.size(), median.toString());
    final JsonNode theirMedian = instantQuery(web, MEDIAN, t).at("/data/result");
    assertEquals(1, theirMedian.size(), theirMedian.toString());
    assertEquals(theirMedian.get(0).get("metric"), median.get(0).get("metric"));
    final Map<String, String> labels = new TreeMap<>();
    median.get(0).get("metric").fields()
        .forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
    assertEquals(t / 1000.0, median.get(0).at("/value/0").asDouble());
    final double[] window = window(c, "scrape_duration_seconds", labels, t);
    final double ours = Double.parseDouble(median.get(0).at("/value/1").asText());
    final double theirs = Double.parseDouble(theirMedian.get(0).at("/value/1").asText());
    assertTrue(TrueQuantile.rankError(window, 0.5, ours) <= 0.01, ours + " in "
        + Arrays.toString(window));
    final int r = TrueQuantile.rank("0.5", window.length);
    assertTrue(theirs >= window[Math.max(0, r - 2)] && theirs <= window[r - 1],
        "Prometheus's " + theirs + " one rank from " + ours + " in " + Arrays.toString(window));

    // range: three steps of the ratio, each within 1% of Prometheus's (and of the samples')
    final JsonNode spread = promtool("query", "range", "-o", "json",
        "--start=" + (t - 2 * STEP) / 1000, "--end=" + t / 1000, "--step=5s", api, SPREAD);
    final JsonNode theirSpread = rangeQuery(web, SPREAD, t - 2 * STEP, t);
    assertEquals(theirSpread.size(), spread.size(), spread.toString());
    assertTrue(spread.size() >= 1, spread.toString());
    for (int i = 0; i < spread.size(); i++) {
      assertEquals(theirSpread.get(i).get("metric"), spread.get(i).get("metric"));
      final JsonNode points = spread.get(i).get("values");
      final JsonNode theirPoints = theirSpread.get(i).get("values");
      assertEquals(3, points.size(), points.toString());
      assertEquals(theirPoints.size(), points.size());
      final Map<String, String> of = new TreeMap<>();
      spread.get(i).get("metric").fields()
          .forEachRemaining(e -> of.put(e.getKey(), e.getValue().asText()));
      for (int k = 0; k < points.size(); k++) {
        final long at = Math.round(points.get(k).get(0).asDouble() * 1000);
        assertEquals(Math.round(theirPoints.get(k).get(0).asDouble() * 1000), at);
        final double v = Double.parseDouble(points.get(k).get(1).asText());
        final double[] w = window(c, "go_memstats_alloc_bytes", of, at);
        final double exact = w[w.length - 1] / w[0];
        assertTrue(TrueQuantile.withinRelative(exact, v, 0.01), v + " against " + exact);
        final double prometheus = Double.parseDouble(theirPoints.get(k).get(1).asText());
        assertTrue(TrueQuantile.withinRelative(prometheus, v, 0.01),
            v + " against Prometheus's " + prometheus);
      }
    }

    // outside the subset: Prometheus's error format, through promtool
    final Process p = new ProcessBuilder("promtool", "query", "instant", api,
        "rate(scrape_duration_seconds[1m])").redirectErrorStream(true).start();
    final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(1, p.waitFor(), out);
    assertTrue(out.contains("bad_data: invalid parameter \"query\": 1:1: unsupported: the"
        + " function rate"), out);
  }

  /** The earliest and latest sample times of {@code metric}, in milliseconds. */
  private static long[] span(Connection c, String metric) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT MIN(ts), MAX(ts) FROM"
        + " prometheus_samples WHERE metric = ?")) {
      s.setString(1, metric);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return new long[] {millis(r.getTimestamp(1)), millis(r.getTimestamp(2))};
      }
    }
  }

  private static long millis(Timestamp ts) {
    return ts.toLocalDateTime().toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  /** Whether a sample lies on a multiple of the step in [from, to]. */
  private static boolean onBounds(Connection c, long from, long to) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT ts FROM"
        + " prometheus_samples WHERE metric IN ('scrape_duration_seconds',"
        + " 'go_memstats_alloc_bytes')")) {
      while (r.next()) {
        final long at = millis(r.getTimestamp(1));
        if (at >= from && at <= to && at % STEP == 0) {
          return true;
        }
      }
    }
    return false;
  }

  /** The stored values of one series in [end - step, end), sorted. */
  private static double[] window(Connection c, String metric, Map<String, String> labels,
      long end) throws Exception {
    final List<Double> out = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement("SELECT labels, ts, val FROM"
        + " prometheus_samples WHERE metric = ?")) {
      s.setString(1, metric);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          final long at = millis(r.getTimestamp(2));
          if (at >= end - STEP && at < end
              && JSON.readValue(r.getString(1), Map.class).equals(labels)) {
            out.add(r.getDouble(3));
          }
        }
      }
    }
    return out.stream().mapToDouble(Double::doubleValue).sorted().toArray();
  }

  /** promtool's JSON output of {@code args}, which must succeed. */
  private static JsonNode promtool(String... args) throws Exception {
    final List<String> command = new ArrayList<>(List.of("promtool"));
    command.addAll(List.of(args));
    final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), command + ": " + out);
    return JSON.readTree(out);
  }

  private static JsonNode rangeQuery(int web, String query, long start, long end)
      throws IOException, InterruptedException {
    final HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + web + "/api/v1/query_range?query="
            + URLEncoder.encode(query, StandardCharsets.UTF_8) + "&start=" + start / 1000
            + "&end=" + end / 1000 + "&step=5s")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, answer.statusCode(), answer.body());
    return JSON.readTree(answer.body()).at("/data/result");
  }

  /** {@code metric{a="x",b="y"}}, values escaped as PromQL strings. */
  private static String selector(String metric, Map<String, String> labels) {
    final StringBuilder b = new StringBuilder(metric).append('{');
    labels.forEach((k, v) -> b.append(b.charAt(b.length() - 1) == '{' ? "" : ",").append(k)
        .append("=\"").append(v.replace("\\", "\\\\").replace("\"", "\\\"")
            .replace("\n", "\\n")).append('"'));
    return b.append('}').toString();
  }

  private static JsonNode instantQuery(int web, String query, long millis)
      throws IOException, InterruptedException, SQLException {
    final String time = millis / 1000 + "." + String.format("%03d", millis % 1000);
    final HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + web + "/api/v1/query?query="
            + URLEncoder.encode(query, StandardCharsets.UTF_8) + "&time=" + time)).GET()
        .build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, answer.statusCode(), answer.body());
    return JSON.readTree(answer.body());
  }

  /** The prometheus.yml of the test (docs/prometheus.md shows the same). */
  static final class PrometheusConfig {
    private PrometheusConfig() {
    }

    static String of(int web, String remoteWriteUrl) {
      return """
          global:
            scrape_interval: 1s
            evaluation_interval: 1s
          scrape_configs:
            - job_name: prometheus
              static_configs:
                - targets: ['127.0.0.1:%d']
          remote_write:
            - url: %s
              queue_config:
                batch_send_deadline: 1s
                min_backoff: 100ms
                max_backoff: 1s
          """.formatted(web, remoteWriteUrl);
    }
  }
}
