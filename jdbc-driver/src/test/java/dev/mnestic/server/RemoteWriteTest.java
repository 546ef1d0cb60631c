package dev.mnestic.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static dev.mnestic.server.RemoteWriteRequests.label;
import static dev.mnestic.server.RemoteWriteRequests.message;

import dev.mnestic.jdbc.Driver;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Prometheus remote write through {@code mnestic serve}'s port, with hand-made requests: each
 * field of remote write 1.0, each malformed or refused request with its status and the table
 * unchanged, and the stored rows read back through SQL, CozoScript and a standing query, each
 * checked against the samples sent.
 */
class RemoteWriteTest {
  private static MnesticServer server;
  private static Connection sql;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  /** A minute boundary to put samples at. */
  private static final long T0 = Instant.parse("2026-12-03T10:00:00Z").toEpochMilli();

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).remoteWritePort(0).build();
    server.start();
    sql = new Driver().connect(Driver.CONNECT_STRING_PREFIX + Driver.DB + "=" + server.db(),
        new Properties());
  }

  @AfterAll static void stop() throws Exception {
    sql.close();
    server.close();
  }

  /** A series to send: labels in the order given (pairs), and samples. */
  record Series(List<String[]> labels, long[] millis, double[] values) {
    static Series of(String name, Map<String, String> labels, long[] millis, double[] values) {
      final List<String[]> l = new ArrayList<>();
      l.add(new String[] {"__name__", name});
      labels.forEach((k, v) -> l.add(new String[] {k, v}));
      return new Series(l, millis, values);
    }
  }

  /** A {@code prometheus.WriteRequest}; {@code extras} adds the fields the 1.0 spec skips. */
  static byte[] writeRequest(List<Series> series, boolean extras) throws IOException {
    return message(out -> {
      for (Series s : series) {
        out.writeByteArray(1, timeSeries(s, extras));
      }
      if (extras) {
        // MetricMetadata: type 1 (COUNTER), metric_family_name 2, help 4, unit 5
        out.writeByteArray(3, message(m -> {
          m.writeEnum(1, 1);
          m.writeString(2, "http_requests_total");
          m.writeString(4, "Requests.");
          m.writeString(5, "");
        }));
        out.writeString(99, "a field of a later version");
      }
    });
  }

  private static byte[] timeSeries(Series s, boolean extras) throws IOException {
    final byte[] spec = RemoteWriteRequests.timeSeries(s.labels(), s.millis(), s.values());
    if (!extras) {
      return spec;
    }
    return message(out -> {
      out.writeRawBytes(spec);
      // Exemplar: labels 1, value 2, timestamp 3
      out.writeByteArray(3, message(e -> {
        e.writeByteArray(1, label("trace_id", "abc"));
        e.writeDouble(2, 123.0);
        e.writeInt64(3, T0);
      }));
      // Histogram (native): count_int 1, sum 3, schema 4, timestamp 15
      out.writeByteArray(4, message(h -> {
        h.writeUInt64(1, 3);
        h.writeDouble(3, 7.5);
        h.writeSInt32(4, 0);
        h.writeInt64(15, T0);
      }));
    });
  }

  static HttpResponse<String> post(byte[] body, String contentType, String encoding,
      String version) throws IOException, InterruptedException {
    return post(server.remoteWriteUrl(), body, contentType, encoding, version);
  }

  /** Posts {@code body} to the remote-write URL {@code url} with these headers (null: none). */
  static HttpResponse<String> post(String url, byte[] body, String contentType, String encoding,
      String version) throws IOException, InterruptedException {
    final HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    if (encoding != null) {
      b.header("Content-Encoding", encoding);
    }
    if (version != null) {
      b.header("X-Prometheus-Remote-Write-Version", version);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> post(byte[] message) throws IOException, InterruptedException {
    return post(Snappy.compress(message), "application/x-protobuf", "snappy", "0.1.0");
  }

  /** The table's rows, as text, sorted: what must not change on a reject. */
  private static List<String> table() throws SQLException {
    final List<String> rows = new ArrayList<>();
    try (Statement s = sql.createStatement();
        ResultSet r = s.executeQuery("SELECT ts, metric, labels, val FROM prometheus_samples")) {
      while (r.next()) {
        rows.add(r.getTimestamp(1).toLocalDateTime() + " " + r.getString(2) + " "
            + r.getString(3) + " " + Double.doubleToRawLongBits(r.getDouble(4)));
      }
    }
    rows.sort(Comparator.naturalOrder());
    return rows;
  }

  private static String row(long millis, String name, String labels, double v) {
    return LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC) + " " + name
        + " " + labels + " " + Double.doubleToRawLongBits(v);
  }

  /** Sends {@code message} and checks the answer's status and that the table is unchanged. */
  private static void refused(int status, HttpResponse<String> answer, List<String> before,
      String says) throws SQLException {
    assertEquals(status, answer.statusCode(), answer.body());
    assertTrue(answer.body().contains(says), answer.body());
    assertEquals(before, table());
  }

  @Test void everyFieldOfTheSpecStoresItsSamples() throws Exception {
    final List<String> before = table();
    final double stale = Double.longBitsToDouble(WriteRequestDecoder.STALE_NAN);
    // Labels unsorted, an empty-valued label (no label), samples out of time order, a NaN
    // (a value) and a stale marker (not stored); exemplars, histograms, metadata and an unknown
    // field skipped.
    final List<String[]> labels = List.of(new String[] {"job", "api"},
        new String[] {"__name__", "fields_total"}, new String[] {"instance", "h:1"},
        new String[] {"empty", ""}, new String[] {"quote", "a\"b\\c\u00e9"});
    final Series s = new Series(labels, new long[] {T0 + 2000, T0, T0 + 1000, T0 + 3000},
        new double[] {2.5, Double.NaN, -1e300, stale});
    final HttpResponse<String> answer = post(writeRequest(List.of(s), true));
    assertEquals(204, answer.statusCode(), answer.body());
    final List<String> expected = new ArrayList<>(before);
    final String json = "{\"instance\":\"h:1\",\"job\":\"api\",\"quote\":\"a\\\"b\\\\c\u00e9\"}";
    expected.add(row(T0 + 2000, "fields_total", json, 2.5));
    expected.add(row(T0, "fields_total", json, Double.NaN));
    expected.add(row(T0 + 1000, "fields_total", json, -1e300));
    expected.sort(Comparator.naturalOrder());
    assertEquals(expected, table());
    // The JSON is JSON: SQL reads a label back.
    try (Statement st = sql.createStatement();
        ResultSet r = st.executeQuery("SELECT DISTINCT JSON_VALUE(labels, '$.quote')"
            + " FROM prometheus_samples WHERE metric = 'fields_total'")) {
      assertTrue(r.next());
      assertEquals("a\"b\\c\u00e9", r.getString(1));
    }
  }

  @Test void sortedAndUnsortedLabelsAreOneSeries() throws Exception {
    final Map<String, String> l = new LinkedHashMap<>();
    l.put("b", "2");
    l.put("a", "1");
    final Series unsorted = Series.of("order_test", l, new long[] {T0}, new double[] {1});
    final Series sorted = Series.of("order_test", new TreeMap<>(l), new long[] {T0 + 1},
        new double[] {2});
    assertEquals(204, post(writeRequest(List.of(unsorted, sorted), false)).statusCode());
    try (Statement st = sql.createStatement();
        ResultSet r = st.executeQuery("SELECT labels, COUNT(*) FROM prometheus_samples"
            + " WHERE metric = 'order_test' GROUP BY labels")) {
      assertTrue(r.next());
      assertEquals("{\"a\":\"1\",\"b\":\"2\"}", r.getString(1));
      assertEquals(2, r.getLong(2));
      assertTrue(!r.next());
    }
  }

  @Test void malformedRequestsAre400AndStoreNothing() throws Exception {
    final List<String> before = table();
    final Series good = Series.of("m", Map.of("job", "a"), new long[] {T0}, new double[] {1});
    final List<String[]> dup = List.of(new String[] {"__name__", "m"},
        new String[] {"job", "a"}, new String[] {"job", "b"});
    refused(400, post(writeRequest(List.of(good, new Series(dup, new long[] {T0},
        new double[] {1})), false)), before, "label 'job' given twice");
    final List<String[]> noName = List.<String[]>of(new String[] {"job", "a"});
    refused(400, post(writeRequest(List.of(good, new Series(noName, new long[] {T0},
        new double[] {1})), false)), before, "series 1 has no metric name");
    final List<String[]> badName = List.of(new String[] {"__name__", "m"},
        new String[] {"0job", "a"});
    refused(400, post(writeRequest(List.of(good, new Series(badName, new long[] {T0},
        new double[] {1})), false)), before, "does not match");
    final byte[] message = writeRequest(List.of(good, good), false);
    final byte[] compressed = Snappy.compress(message);
    refused(400, post(Arrays.copyOf(compressed, compressed.length - 3),
        "application/x-protobuf", "snappy", "0.1.0"), before, "not snappy's block format");
    refused(400, post(message, "application/x-protobuf", "snappy", "0.1.0"), before,
        "not snappy's block format");
    // snappy of a protobuf message cut short: a truncated series
    refused(400, post(Arrays.copyOf(message, message.length - 2)), before,
        "not a prometheus.WriteRequest");
    // a sample whose value has the wrong wire type
    final byte[] wrongType = message(out -> out.writeByteArray(1, message(ts -> {
      ts.writeByteArray(1, label("__name__", "m"));
      ts.writeByteArray(2, message(smp -> smp.writeInt64(1, 5)));
    })));
    refused(400, post(wrongType), before, "Sample.value has wire type 0");
    refused(400, post(writeRequest(List.of(Series.of("m", Map.of(), new long[] {Long.MAX_VALUE},
        new double[] {1})), false)), before, "outside years 1 to 9999");
  }

  /** Label names: the decoder's check against the regular expression it stands for. */
  @Test void labelNamesAreWhatTheirRegularExpressionSays() {
    final Pattern regex = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    // the characters just outside each range: / : @ [ ` {
    final String alphabet = "aAzZ_09/:@[`{-. \u00e9";
    final Random random = new Random(11);
    final List<String> names = new ArrayList<>(List.of("", "__name__", "job", "A_b9", "9a"));
    for (int i = 0; i < 5000; i++) {
      final StringBuilder b = new StringBuilder();
      for (int n = random.nextInt(5); n > 0; n--) {
        b.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      names.add(b.toString());
    }
    for (String s : names) {
      assertEquals(regex.matcher(s).matches(), WriteRequestDecoder.isLabelName(s), s);
    }
  }

  @Test void wrongHeadersPathsAndSizesAreRefused() throws Exception {
    final List<String> before = table();
    final byte[] body = Snappy.compress(writeRequest(List.of(Series.of("m", Map.of(),
        new long[] {T0}, new double[] {1})), false));
    refused(415, post(body, "application/json", "snappy", "0.1.0"), before, "Content-Type");
    refused(415, post(body, null, "snappy", "0.1.0"), before, "Content-Type");
    refused(415, post(body, "application/x-protobuf;proto=io.prometheus.write.v2.Request",
        "snappy", "2.0.0"), before, "Content-Type");
    refused(415, post(body, "application/x-protobuf", "gzip", "0.1.0"), before,
        "Content-Encoding");
    refused(415, post(body, "application/x-protobuf", null, "0.1.0"), before,
        "Content-Encoding");
    refused(400, post(body, "application/x-protobuf", "snappy", null), before,
        "X-Prometheus-Remote-Write-Version");
    final HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(
        URI.create(server.remoteWriteUrl())).GET().build(), HttpResponse.BodyHandlers.ofString());
    refused(405, get, before, "POST");
    final HttpResponse<String> other = HTTP.send(HttpRequest.newBuilder(
        URI.create(server.remoteWriteUrl().replace("/api/v1/write", "/")))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    refused(404, other, before, RemoteWrite.PATH);
    // The JDBC port does not take remote write, nor the remote-write port Avatica's protocol.
    final String jdbcPort = server.jdbcUrl().replaceAll(".*:(\\d+);.*", "$1");
    final HttpResponse<String> toJdbc = HTTP.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + jdbcPort + RemoteWrite.PATH))
        .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "snappy")
        .header("X-Prometheus-Remote-Write-Version", "0.1.0")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    refused(400, toJdbc, before, "Avatica");
    // Over the compressed cap, and a body that says it inflates past the inflated cap.
    refused(413, post(new byte[RemoteWrite.MAX_BODY + 1], "application/x-protobuf", "snappy",
        "0.1.0"), before, "over");
    final byte[] liar = message(out -> {
      out.writeUInt32NoTag(RemoteWrite.MAX_INFLATED + 1);
      out.writeRawBytes(new byte[] {0, 0});
    });
    refused(413, post(liar, "application/x-protobuf", "snappy", "0.1.0"), before, "inflates");
  }

  /**
   * The store refuses the batch's 1,001st row (a label set past the column's 16,384
   * characters): the 1,000 rows before it, already handed to the store, are not kept.
   */
  @Test void aBatchFailingMidwayStoresNothing() throws Exception {
    final List<String> before = table();
    final long[] t = new long[1000];
    final double[] v = new double[1000];
    for (int i = 0; i < t.length; i++) {
      t[i] = T0 + i;
      v[i] = i;
    }
    final Series first = Series.of("midway", Map.of("job", "a"), t, v);
    final Series tooLong = Series.of("midway", Map.of("job", "x".repeat(20_000)),
        new long[] {T0}, new double[] {1});
    final Series after = Series.of("midway", Map.of("job", "c"), t, v);
    refused(400, post(writeRequest(List.of(first, tooLong, after), false)), before,
        "nothing was stored");
  }

  /** A store failure that is not the request's fault is 500 (retried), and the retry works. */
  @Test void aStoreFailureIs500AndTheRetrySucceeds() throws Exception {
    final String db = "mem:rw-" + System.nanoTime();
    try (MnesticServer s = MnesticServer.newBuilder().port(0).remoteWritePort(0).db(db)
        .build()) {
      s.start();
      try (Connection other = new Driver().connect(Driver.CONNECT_STRING_PREFIX + Driver.DB
          + "=" + db, new Properties())) {
        final byte[] body = Snappy.compress(writeRequest(List.of(Series.of("m", Map.of(),
            new long[] {T0}, new double[] {1})), false));
        try (Statement st = other.createStatement()) {
          st.execute("DROP TABLE prometheus_samples");
        }
        final HttpRequest request = HttpRequest.newBuilder(URI.create(s.remoteWriteUrl()))
            .header("Content-Type", "application/x-protobuf")
            .header("Content-Encoding", "snappy")
            .header("X-Prometheus-Remote-Write-Version", "0.1.0")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        final HttpResponse<String> failed = HTTP.send(request,
            HttpResponse.BodyHandlers.ofString());
        assertEquals(500, failed.statusCode(), failed.body());
        try (Statement st = other.createStatement()) {
          st.execute(RemoteWrite.CREATE);
        }
        assertEquals(204, HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode());
        try (Statement st = other.createStatement();
            ResultSet r = st.executeQuery("SELECT COUNT(*) FROM prometheus_samples")) {
          assertTrue(r.next());
          assertEquals(1, r.getLong(1));
        }
      }
    }
  }

  @Test void aTableThatDoesNotFitStopsTheServerFromStarting() throws Exception {
    final String db = "mem:rw-misfit-" + System.nanoTime();
    try (Connection c = new Driver().connect(Driver.CONNECT_STRING_PREFIX + Driver.DB + "="
        + db, new Properties()); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE prometheus_samples (ts TIMESTAMP NOT NULL, v DOUBLE)");
      final MnesticServer s = MnesticServer.newBuilder().port(0).remoteWritePort(0).db(db)
          .build();
      final SQLException e = assertThrows(SQLException.class, s::start);
      s.close();
      assertTrue(e.getMessage().toLowerCase().contains("metric"), e.getMessage());
    }
  }

  /**
   * 100,000 samples of 500 series in one request, stored whole; then read through SQL (a
   * label by JSON_VALUE), CozoScript (parse_json) and a standing query filtering one series by
   * its labels, each against the samples sent.
   */
  @Test void aHugeBatchReadByEveryFrontDoor() throws Exception {
    final Random random = new Random(20);
    final List<Series> series = new ArrayList<>();
    final int perSeries = 200;
    for (int k = 0; k < 500; k++) {
      final long[] t = new long[perSeries];
      final double[] v = new double[perSeries];
      for (int i = 0; i < perSeries; i++) {
        t[i] = T0 + i * 1000L;
        v[i] = Math.round(random.nextGaussian() * 1000) / 10.0;
      }
      series.add(Series.of("latency_ms", Map.of("job", k % 2 == 0 ? "api" : "web",
          "instance", "host-" + k), t, v));
    }
    final HttpResponse<String> answer = post(writeRequest(series, false));
    assertEquals(204, answer.statusCode(), answer.body());

    double apiSum = 0;
    long apiCount = 0;
    for (int k = 0; k < series.size(); k += 2) {
      for (double v : series.get(k).values()) {
        apiSum += v;
        apiCount++;
      }
    }
    try (Statement st = sql.createStatement();
        ResultSet r = st.executeQuery("SELECT COUNT(*), SUM(val) FROM prometheus_samples"
            + " WHERE metric = 'latency_ms' AND JSON_VALUE(labels, '$.job') = 'api'")) {
      assertTrue(r.next());
      assertEquals(apiCount, r.getLong(1));
      assertEquals(apiSum, r.getDouble(2), 1e-6 * Math.abs(apiSum) + 1e-6);
    }

    // CozoScript: one series' samples, picked by a label.
    final Series seven = series.get(7);
    final Properties datalog = new Properties();
    datalog.setProperty("lang", "datalog");
    try (Connection c = new Driver().connect(Driver.CONNECT_STRING_PREFIX + Driver.DB + "="
        + server.db(), datalog); Statement st = c.createStatement();
        ResultSet r = st.executeQuery("?[v] := *prometheus_samples{metric: 'latency_ms',"
            + " labels, val: v}, get(parse_json(labels), 'instance') == 'host-7'"
            + " :order v")) {
      final double[] sorted = seven.values().clone();
      Arrays.sort(sorted);
      final List<Double> expected = new ArrayList<>();
      for (double v : sorted) {
        if (expected.isEmpty() || expected.get(expected.size() - 1) != v) {
          expected.add(v); // a CozoScript rule's rows are a set
        }
      }
      final List<Double> got = new ArrayList<>();
      while (r.next()) {
        got.add(((Number) r.getObject(1)).doubleValue());
      }
      assertEquals(expected, got);
    }

    // A standing query over one series, by its whole label set: per minute, the exact
    // nearest-rank median (a rank target this tight makes the plan exact on 60 values).
    try (Statement st = sql.createStatement()) {
      st.execute("CREATE STANDING QUERY rw_p50 AS SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE)"
          + " AS w, APPROX_QUANTILE(val, 0.5) AS p50 FROM prometheus_samples"
          + " WHERE metric = 'latency_ms' AND labels = '{\"instance\":\"host-7\",\"job\":\"web\"}'"
          + " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.001");
      try (ResultSet r = st.executeQuery("SELECT w, p50 FROM rw_p50 ORDER BY w")) {
        int windows = 0;
        for (int from = 0; from < perSeries; from += 60) {
          final double[] window = Arrays.copyOfRange(seven.values(), from,
              Math.min(perSeries, from + 60));
          Arrays.sort(window);
          final double nearestRank = window[(int) Math.ceil(0.5 * window.length) - 1];
          assertTrue(r.next());
          assertEquals(LocalDateTime.ofInstant(Instant.ofEpochMilli(T0 + from * 1000L),
              ZoneOffset.UTC), r.getTimestamp(1).toLocalDateTime());
          assertEquals(nearestRank, r.getDouble(2));
          windows++;
        }
        assertTrue(!r.next());
        assertEquals(4, windows);
      } finally {
        st.execute("DROP STANDING QUERY rw_p50");
      }
    }
  }
}
