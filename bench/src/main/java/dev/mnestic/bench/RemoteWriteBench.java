package dev.mnestic.bench;

import dev.mnestic.jdbc.Driver;
import dev.mnestic.server.MnesticServer;
import dev.mnestic.server.RemoteWriteRequests;

import com.google.protobuf.CodedOutputStream;

import org.xerial.snappy.Snappy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Prometheus remote write in (issue #20, point 1): N series x M samples, sent as Prometheus
 * sends them (each request a {@code prometheus.WriteRequest} of {@code --per-request} samples,
 * one per series at one time, snappy-compressed; generated before the timing) by a Java
 * client of {@code --clients} threads to {@code mnestic serve}'s remote-write port (an
 * in-memory store, in this JVM), side by side with the same rows, in the same batches, through
 * the embedded driver's prepared INSERT ({@code batch}: the bulk-ingest path the receiver
 * uses, without HTTP, snappy and protobuf). Each run starts a fresh server (not timed); a run
 * ends when every request has been answered 204, and the table's row count is checked.
 *
 * <p>Run: {@code bench/run RemoteWriteBench [--series N] [--samples M] [--per-request R]
 * [--clients C] [--warmups W] [--runs K]}; defaults 1,000 series, 1,000 samples each, 2,000
 * samples a request (Prometheus's {@code max_samples_per_send}), 2 clients, 1 warm-up, 3 runs.
 * Prints medians: seconds, samples per second, and the CPU time of every thread of the JVM per
 * sample (server and client together).
 */
public final class RemoteWriteBench {
  /** 2024-01-01 00:00 UTC; sample j of a series is j seconds later. */
  private static final long START = 1_704_067_200_000L;

  private RemoteWriteBench() {
  }

  public static void main(String[] args) throws Exception {
    int series = 1000;
    int samples = 1000;
    int perRequest = 2000;
    int clients = 2;
    int warmups = 1;
    int runs = 3;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--series" -> series = Integer.parseInt(args[++i]);
        case "--samples" -> samples = Integer.parseInt(args[++i]);
        case "--per-request" -> perRequest = Integer.parseInt(args[++i]);
        case "--clients" -> clients = Integer.parseInt(args[++i]);
        case "--warmups" -> warmups = Integer.parseInt(args[++i]);
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    final long total = (long) series * samples;
    final List<byte[]> bodies = requests(series, samples, perRequest);
    long bytes = 0;
    for (byte[] b : bodies) {
      bytes += b.length;
    }
    System.out.printf(Locale.ROOT, "%,d series x %,d samples = %,d samples in %,d requests"
        + " (%,d bytes compressed), %d clients; medians of %d runs after %d warm-up, peers"
        + " interleaved%n%n", series, samples, total, bodies.size(), bytes, clients, runs,
        warmups);
    final double[][] seconds = new double[2][runs];
    final double[][] cpu = new double[2][runs];
    for (int round = 0; round < warmups + runs; round++) {
      for (int peer = 0; peer < 2; peer++) {
        final double[] t = peer == 0 ? http(bodies, clients, total)
            : batch(series, samples, perRequest, total);
        if (round >= warmups) {
          seconds[peer][round - warmups] = t[0];
          cpu[peer][round - warmups] = t[1];
        }
      }
    }
    System.out.println("| samples | peer | seconds | samples/s | CPU ns/sample |");
    System.out.println("|---|---|---|---|---|");
    final String[] names = {"remote write over HTTP (" + clients + " clients)",
        "batch (embedded prepared INSERT, same batches)"};
    for (int peer = 0; peer < 2; peer++) {
      final double s = median(seconds[peer]);
      System.out.printf(Locale.ROOT, "| %,d | %s | %.2f | %,.0f | %,.0f |%n", total,
          names[peer], s, total / s, median(cpu[peer]) / total);
    }
  }

  private static double median(double[] v) {
    final double[] c = v.clone();
    Arrays.sort(c);
    return c[c.length / 2];
  }

  /** The requests: time by time, each series' sample, cut every {@code perRequest} samples. */
  static List<byte[]> requests(int series, int samples, int perRequest) throws IOException {
    final List<byte[]> bodies = new ArrayList<>();
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(request);
    int inRequest = 0;
    for (int j = 0; j < samples; j++) {
      for (int s = 0; s < series; s++) {
        out.writeByteArray(1, timeSeries(s, START + j * 1000L, value(s, j)));
        if (++inRequest == perRequest) {
          out.flush();
          bodies.add(Snappy.compress(request.toByteArray()));
          request = new ByteArrayOutputStream();
          out = CodedOutputStream.newInstance(request);
          inRequest = 0;
        }
      }
    }
    out.flush();
    if (inRequest > 0) {
      bodies.add(Snappy.compress(request.toByteArray()));
    }
    return bodies;
  }

  static double value(int series, int sample) {
    return ((series * 7919L + sample * 104_729L) % 100_000) / 8.0;
  }

  static String instance(int series) {
    return "host-" + series % 100 + ":9100";
  }

  static String job(int series) {
    return "job-" + series / 100;
  }

  private static byte[] timeSeries(int s, long millis, double v) throws IOException {
    return RemoteWriteRequests.timeSeries(List.of(
        new String[] {"__name__", "http_request_duration_seconds"},
        new String[] {"instance", instance(s)}, new String[] {"job", job(s)}),
        new long[] {millis}, new double[] {v});
  }

  /** CPU nanoseconds of every live thread of the JVM. */
  private static long cpuNanos() {
    final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (long id : threads.getAllThreadIds()) {
      final long t = threads.getThreadCpuTime(id);
      if (t > 0) {
        sum += t;
      }
    }
    return sum;
  }

  /** Posts every body from {@code clients} threads; {seconds, CPU ns}. */
  private static double[] http(List<byte[]> bodies, int clients, long total) throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).remoteWritePort(0)
        .build()) {
      server.start();
      final HttpClient client = HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1).build();
      final URI uri = URI.create(server.remoteWriteUrl());
      final AtomicInteger next = new AtomicInteger();
      final ExecutorService pool = Executors.newFixedThreadPool(clients);
      try {
        final long cpu0 = cpuNanos();
        final long start = System.nanoTime();
        final List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
          done.add(pool.submit(() -> {
            for (int i = next.getAndIncrement(); i < bodies.size(); i = next.getAndIncrement()) {
              final HttpResponse<String> answer = client.send(HttpRequest.newBuilder(uri)
                  .header("Content-Type", "application/x-protobuf")
                  .header("Content-Encoding", "snappy")
                  .header("X-Prometheus-Remote-Write-Version", "0.1.0")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.get(i))).build(),
                  HttpResponse.BodyHandlers.ofString());
              if (answer.statusCode() != 204) {
                throw new IllegalStateException("request " + i + ": " + answer.statusCode()
                    + " " + answer.body());
              }
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get();
        }
        final double seconds = (System.nanoTime() - start) / 1e9;
        final double cpu = cpuNanos() - cpu0;
        check(server.db(), total);
        return new double[] {seconds, cpu};
      } finally {
        pool.shutdown();
      }
    }
  }

  /** The same rows through the embedded driver, one batch per request; {seconds, CPU ns}. */
  private static double[] batch(int series, int samples, int perRequest, long total)
      throws Exception {
    final String db = "mem:remote-write-batch-" + System.nanoTime();
    try (Connection c = new Driver().connect(Driver.CONNECT_STRING_PREFIX + Driver.DB + "="
        + db, new Properties())) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE prometheus_samples (ts TIMESTAMP(3) NOT NULL,"
            + " metric VARCHAR(1024) NOT NULL, labels VARCHAR(16384) NOT NULL,"
            + " val DOUBLE NOT NULL)");
      }
      final String[] labels = new String[series];
      for (int s = 0; s < series; s++) {
        labels[s] = "{\"instance\":\"" + instance(s) + "\",\"job\":\"" + job(s) + "\"}";
      }
      final long cpu0 = cpuNanos();
      final long start = System.nanoTime();
      try (PreparedStatement insert = c.prepareStatement("INSERT INTO prometheus_samples"
          + " (ts, metric, labels, val) VALUES (?, ?, ?, ?)")) {
        int inBatch = 0;
        for (int j = 0; j < samples; j++) {
          final Timestamp ts = Timestamp.valueOf(LocalDateTime.ofEpochSecond(
              (START + j * 1000L) / 1000, 0, ZoneOffset.UTC));
          for (int s = 0; s < series; s++) {
            insert.setTimestamp(1, ts);
            insert.setString(2, "http_request_duration_seconds");
            insert.setString(3, labels[s]);
            insert.setDouble(4, value(s, j));
            insert.addBatch();
            if (++inBatch == perRequest) {
              insert.executeBatch();
              inBatch = 0;
            }
          }
        }
        if (inBatch > 0) {
          insert.executeBatch();
        }
      }
      final double seconds = (System.nanoTime() - start) / 1e9;
      final double cpu = cpuNanos() - cpu0;
      check(db, total);
      return new double[] {seconds, cpu};
    }
  }

  private static void check(String db, long total) throws Exception {
    try (Connection c = new Driver().connect(Driver.CONNECT_STRING_PREFIX + Driver.DB + "="
        + db, new Properties()); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT COUNT(*) FROM prometheus_samples")) {
      r.next();
      if (r.getLong(1) != total) {
        throw new IllegalStateException("stored " + r.getLong(1) + " of " + total);
      }
    }
  }
}
