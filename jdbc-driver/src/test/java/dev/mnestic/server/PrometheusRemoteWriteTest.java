package dev.mnestic.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.mnestic.jdbc.Driver;

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
import java.time.ZoneOffset;
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
