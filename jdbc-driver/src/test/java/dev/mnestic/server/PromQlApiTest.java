package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;
import dev.mnestic.runtime.TrueQuantile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Prometheus's query API on the remote-write port: samples sent by remote write, a standing
 * PromQL query registered over SQL, its answers read by {@code /api/v1/query} and
 * {@code /api/v1/query_range} as Prometheus's JSON, each value within the target of the exact
 * quantile of the series' samples in the window ending at the read's step; Prometheus's errors.
 */
class PromQlApiTest {
  private static MnesticServer server;
  private static Connection sql;
  private static String base;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long T0 = Instant.parse("2026-12-03T10:00:00Z").toEpochMilli();
  private static final String P95 = "quantile_over_time(0.95, rpc_ms{job=\"api\"}[1m])";
  /** Per instance, its samples: time, value. */
  private static final Map<String, List<double[]>> SAMPLES = Map.of("a", new ArrayList<>(),
      "b", new ArrayList<>());

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).remoteWritePort(0).build();
    server.start();
    base = server.remoteWriteUrl().replace(RemoteWrite.PATH, "");
    sql = new Driver().connect(Driver.CONNECT_STRING_PREFIX + Driver.DB + "=" + server.db(),
        new Properties());
    // 5 minutes of two api instances, 20 samples a second, and one web series
    final Random r = new Random(202);
    final List<RemoteWriteTest.Series> series = new ArrayList<>();
    for (String instance : List.of("a", "b", "web")) {
      final long[] millis = new long[6000];
      final double[] values = new double[millis.length];
      for (int i = 0; i < millis.length; i++) {
        millis[i] = T0 + i * 50L + 1;
        values[i] = Math.round(100 * Math.exp(r.nextGaussian())) / 10.0;
        if (SAMPLES.containsKey(instance)) {
          SAMPLES.get(instance).add(new double[] {millis[i], values[i]});
        }
      }
      series.add(RemoteWriteTest.Series.of("rpc_ms", instance.equals("web")
          ? Map.of("job", "web", "instance", "a") : Map.of("job", "api", "instance", instance),
          millis, values));
    }
    assertEquals(204, RemoteWriteTest.post(server.remoteWriteUrl(), Snappy.compress(
        RemoteWriteTest.writeRequest(series, false)), "application/x-protobuf", "snappy",
        "0.1.0").statusCode());
    try (Statement s = sql.createStatement()) {
      s.execute("CREATE STANDING QUERY p95 AS PROMQL '" + P95.replace("'", "''")
          + "' EVERY INTERVAL '30' SECOND WITHIN RANK ERROR 0.005");
    }
  }

  @AfterAll static void stop() throws Exception {
    sql.close();
    server.close();
  }

  static HttpResponse<String> get(String path, String... params) throws Exception {
    final StringBuilder q = new StringBuilder();
    for (int i = 0; i < params.length; i += 2) {
      q.append(i == 0 ? "?" : "&").append(params[i]).append('=')
          .append(URLEncoder.encode(params[i + 1], StandardCharsets.UTF_8));
    }
    return HTTP.send(HttpRequest.newBuilder(URI.create(base + path + q)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The exact values of instance {@code i} in [end - 1m, end), sorted. */
  private static double[] window(String i, long end) {
    return SAMPLES.get(i).stream().filter(s -> s[0] >= end - 60_000 && s[0] < end)
        .mapToDouble(s -> s[1]).sorted().toArray();
  }

  @Test void instantQueryReadsTheWindowEndingAtTheStep() throws Exception {
    // 3:40 past T0: the window [2:30, 3:30) answers
    final long t = T0 + 220_000;
    final HttpResponse<String> answer = get(PromQlApi.QUERY, "query",
        "quantile_over_time(0.95,rpc_ms{job='api'}[60s])", "time", Double.toString(t / 1000.0));
    assertEquals(200, answer.statusCode(), answer.body());
    final JsonNode json = JSON.readTree(answer.body());
    assertEquals("success", json.get("status").asText());
    assertEquals("vector", json.at("/data/resultType").asText());
    final JsonNode result = json.at("/data/result");
    assertEquals(2, result.size(), answer.body());
    for (int k = 0; k < 2; k++) {
      final JsonNode series = result.get(k);
      final String instance = k == 0 ? "a" : "b";
      assertEquals(Map.of("instance", instance, "job", "api"),
          JSON.convertValue(series.get("metric"), Map.class));
      assertEquals(t / 1000.0, series.at("/value/0").asDouble());
      final double v = Double.parseDouble(series.at("/value/1").asText());
      assertTrue(TrueQuantile.rankError(window(instance, T0 + 210_000), 0.95, v) <= 0.005,
          instance + ": " + v);
    }
  }

  @Test void rangeQueryReadsEachStep() throws Exception {
    final HttpResponse<String> answer = get(PromQlApi.QUERY_RANGE, "query", P95,
        "start", Instant.ofEpochMilli(T0 + 60_000).toString(), "end",
        Long.toString((T0 + 300_000) / 1000), "step", "20s");
    assertEquals(200, answer.statusCode(), answer.body());
    final JsonNode json = JSON.readTree(answer.body());
    assertEquals("matrix", json.at("/data/resultType").asText());
    final JsonNode result = json.at("/data/result");
    assertEquals(2, result.size());
    int misses = 0;
    for (JsonNode series : result) {
      final String instance = series.at("/metric/instance").asText();
      final JsonNode values = series.get("values");
      // 1:00 to 5:00 every 20 s
      assertEquals(13, values.size());
      for (JsonNode point : values) {
        final long t = Math.round(point.get(0).asDouble() * 1000);
        final double v = Double.parseDouble(point.get(1).asText());
        misses += TrueQuantile.rankError(window(instance, Math.floorDiv(t, 30_000) * 30_000),
            0.95, v) <= 0.005 ? 0 : 1;
      }
    }
    assertTrue(misses <= TrueQuantile.allowedFailures(26, 0.01), misses + " misses");
  }

  @Test void errorsAsPrometheusWritesThem() throws Exception {
    assertError(get(PromQlApi.QUERY, "query", "rate(rpc_ms[1m])"), 400, "bad_data",
        "invalid parameter \"query\": 1:1: unsupported: the function rate");
    assertError(get(PromQlApi.QUERY, "query", "sum by (job) (rpc_ms)"), 400, "bad_data",
        "invalid parameter \"query\": 1:1: unsupported: the aggregation sum");
    assertError(get(PromQlApi.QUERY, "query", P95 + " offset 1m"), 400, "bad_data",
        "invalid parameter \"query\": 1:49: unsupported: offset");
    assertError(get(PromQlApi.QUERY, "query", "quantile_over_time(0.5, rpc_ms[1m])"), 422,
        "execution", "no standing query of this store is quantile_over_time(0.5, rpc_ms[1m])"
            + " (registered: p95 = " + P95 + ")");
    assertError(get(PromQlApi.QUERY, "query", P95, "time", "yesterday"), 400, "bad_data",
        "invalid parameter \"time\": cannot parse \"yesterday\"");
    assertError(get(PromQlApi.QUERY_RANGE, "query", P95, "start", "100", "end", "200"), 400,
        "bad_data", "invalid parameter \"step\": missing");
    assertError(get(PromQlApi.QUERY_RANGE, "query", P95, "start", "0", "end", "200000",
        "step", "1"), 400, "bad_data", "exceeded maximum resolution of 11,000 points");
    // numbers alone: a scalar, as Grafana's test query asks
    final HttpResponse<String> scalar = get(PromQlApi.QUERY, "query", "1+1", "time", "100.5");
    assertEquals("{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":"
        + "[100.5,\"2\"]}}", scalar.body());
    // nothing else is reached through the port
    assertEquals(404, get("/api/v1/series", "match[]", "rpc_ms").statusCode());
    final HttpResponse<String> info = get(PromQlApi.BUILD_INFO);
    assertEquals(Driver.version(), JSON.readTree(info.body()).at("/data/version").asText());
  }

  private static void assertError(HttpResponse<String> answer, int status, String type,
      String message) throws Exception {
    assertEquals(status, answer.statusCode(), answer.body());
    final JsonNode json = JSON.readTree(answer.body());
    assertEquals("error", json.get("status").asText());
    assertEquals(type, json.get("errorType").asText());
    assertTrue(json.get("error").asText().startsWith(message), json.get("error").asText());
  }
}
