package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;
import org.xerial.snappy.Snappy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Prometheus remote-write 1.0 in: on its own port ({@code mnestic serve --remote-write PORT}),
 * {@code POST /api/v1/write} of a snappy-compressed {@code prometheus.WriteRequest} appends its
 * samples to the store's table {@value #TABLE} ({@code ts TIMESTAMP(3)}, the sample's time in
 * UTC; {@code metric}, the metric's name; {@code labels}, its other labels as a JSON object,
 * names sorted, {@link WriteRequestDecoder#json}; {@code val DOUBLE}, its value), created when the
 * server starts if missing.
 *
 * <p>A request's samples are one prepared INSERT's batch, so the bulk-ingest path (an
 * in-memory store's segment; HSQLDB's compiled INSERT for a file store) in one transaction:
 * all of them are stored or none. The answers, as the specification asks:
 * <ul>
 *   <li>204 once the batch is committed;
 *   <li>400 (Prometheus does not retry it) for a body that does not decode (not snappy, not a
 *       {@code WriteRequest}, a series without {@code __name__}, a label twice, a bad label
 *       name), a missing or other {@code X-Prometheus-Remote-Write-Version} than 0.1.x, and
 *       rows the table refuses (a value too long for its column: SQLSTATE class 22 or 23),
 *       nothing stored;
 *   <li>404 for another path, 405 for another method, 413 for a body over
 *       {@value #MAX_BODY} bytes compressed or {@value #MAX_INFLATED} inflated, 415 for
 *       another {@code Content-Type} or {@code Content-Encoding} (remote-write 2.0's
 *       {@code proto=io.prometheus.write.v2.Request} included), nothing stored;
 *   <li>503 when {@value #WRITERS} requests are already being read or stored (which bounds
 *       the bodies held in memory) and none ends within {@value #WAIT_SECONDS} s, and 500 for any other failure of the store (Prometheus
 *       retries both), nothing stored.
 * </ul>
 * Nothing but these appends reaches the store through the port: no SQL, no script, no file.
 */
final class RemoteWrite extends AbstractHandler {
  /** The path Prometheus's own receiver answers at. */
  static final String PATH = "/api/v1/write";
  /** The metrics table. */
  static final String TABLE = "prometheus_samples";
  static final String CREATE = "CREATE TABLE " + TABLE + " (ts TIMESTAMP(3) NOT NULL,"
      + " metric VARCHAR(1024) NOT NULL, labels VARCHAR(16384) NOT NULL, val DOUBLE NOT NULL)";
  static final String INSERT = "INSERT INTO " + TABLE + " (ts, metric, labels, val)"
      + " VALUES (?, ?, ?, ?)";
  /** The largest body taken, compressed: 16 MiB (Prometheus sends 2,000 samples a request). */
  static final int MAX_BODY = 16 << 20;
  /** The largest body taken, inflated. */
  static final int MAX_INFLATED = 64 << 20;
  /** Requests stored at once; more wait. */
  static final int WRITERS = 4;
  static final int WAIT_SECONDS = 10;

  private final String url;
  private final Semaphore writers = new Semaphore(WRITERS, true);
  private final ConcurrentLinkedDeque<Writer> idle = new ConcurrentLinkedDeque<>();
  private final ZoneRules zone = ZoneId.systemDefault().getRules();
  private volatile Connector connector;

  /** Stores into {@code url}'s store ({@code jdbc:mnestic:db=...}). */
  RemoteWrite(String url) {
    this.url = url;
  }

  /** Creates the table when {@code connection}'s store has none, and checks that it takes the insert. */
  static void prepareTable(Connection connection) throws SQLException {
    boolean exists = false;
    try (ResultSet tables = connection.getMetaData().getTables(null, null, "%", null)) {
      while (tables.next()) {
        exists |= TABLE.equalsIgnoreCase(tables.getString("TABLE_NAME"))
            && "PUBLIC".equalsIgnoreCase(tables.getString("TABLE_SCHEM"));
      }
    }
    if (!exists) {
      try (Statement s = connection.createStatement()) {
        s.execute(CREATE);
      }
    }
    try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
      // Fails now, not at the first request, when an existing table does not fit.
      insert.getParameterMetaData();
    }
  }

  /** Answers the requests that arrive at {@code connector} (and only those). */
  void serve(Connector connector) {
    this.connector = connector;
  }

  @Override public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    if (baseRequest.getHttpChannel().getConnector() != connector) {
      return;
    }
    baseRequest.setHandled(true);
    if (!PATH.equals(target)) {
      answer(response, HttpServletResponse.SC_NOT_FOUND, "remote write is at " + PATH);
      return;
    }
    if (!"POST".equals(request.getMethod())) {
      response.setHeader("Allow", "POST");
      answer(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, "remote write takes POST");
      return;
    }
    final String refused = refusedHeaders(request);
    if (refused != null) {
      answer(response, refused.startsWith("X-") ? HttpServletResponse.SC_BAD_REQUEST
          : HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE, refused);
      return;
    }
    // A permit before the body is read: at most WRITERS bodies (and their inflated copies)
    // are in memory at once, whatever the number of clients.
    try {
      if (!writers.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS)) {
        answer(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, WRITERS
            + " requests are being stored; try again");
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      answer(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, "the server is stopping");
      return;
    }
    try {
      receive(request, response);
    } finally {
      writers.release();
    }
  }

  /** Reads, inflates, decodes and stores one request's body, holding a permit. */
  private void receive(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    final byte[] body;
    try (InputStream in = request.getInputStream()) {
      body = in.readNBytes(MAX_BODY + 1);
    }
    if (body.length > MAX_BODY) {
      answer(response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
          "the body is over " + MAX_BODY + " bytes");
      return;
    }
    final WriteRequestDecoder.Samples samples;
    try {
      // Snappy's block format starts with the inflated length, a varint: checked before
      // anything is inflated.
      final long inflated;
      try {
        inflated = CodedInputStream.newInstance(body).readRawVarint64();
      } catch (IOException e) {
        throw new InvalidProtocolBufferException("the body is not snappy's block format");
      }
      if (inflated > MAX_INFLATED || inflated < 0) {
        answer(response, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
            "the body inflates to over " + MAX_INFLATED + " bytes");
        return;
      }
      final byte[] message;
      try {
        message = Snappy.uncompress(body);
      } catch (IOException | RuntimeException e) {
        throw new InvalidProtocolBufferException("the body is not snappy's block format"
            + " (truncated or corrupt)");
      }
      samples = WriteRequestDecoder.decode(message);
    } catch (InvalidProtocolBufferException e) {
      answer(response, HttpServletResponse.SC_BAD_REQUEST,
          "not a prometheus.WriteRequest: " + e.getMessage() + "; nothing was stored");
      return;
    }
    store(samples, response);
  }

  /** Why the headers are refused (starting with the header's name), or null. */
  private static String refusedHeaders(HttpServletRequest request) {
    final String type = request.getContentType();
    if (type == null || !mediaType(type).equals("application/x-protobuf")
        || !(parameter(type, "proto") == null
            || parameter(type, "proto").equals("prometheus.WriteRequest"))) {
      return "Content-Type must be application/x-protobuf (prometheus.WriteRequest, remote"
          + " write 1.0), was " + type;
    }
    final String encoding = request.getHeader("Content-Encoding");
    if (encoding == null || !encoding.trim().equalsIgnoreCase("snappy")) {
      return "Content-Encoding must be snappy, was " + encoding;
    }
    final String version = request.getHeader("X-Prometheus-Remote-Write-Version");
    if (version == null || !version.trim().startsWith("0.1.")) {
      return "X-Prometheus-Remote-Write-Version must be 0.1.x (remote write 1.0), was "
          + version;
    }
    return null;
  }

  private static String mediaType(String contentType) {
    final int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim()
        .toLowerCase(Locale.ROOT);
  }

  private static String parameter(String contentType, String name) {
    final String[] parts = contentType.split(";");
    for (int i = 1; i < parts.length; i++) {
      final int eq = parts[i].indexOf('=');
      if (eq > 0 && parts[i].substring(0, eq).trim().equalsIgnoreCase(name)) {
        return parts[i].substring(eq + 1).trim().replace("\"", "");
      }
    }
    return null;
  }

  /** Appends the samples in one transaction and answers 204, or says why not. */
  private void store(WriteRequestDecoder.Samples samples, HttpServletResponse response)
      throws IOException {
    if (samples.size == 0) {
      response.setStatus(HttpServletResponse.SC_NO_CONTENT);
      return;
    }
    Writer writer = null;
    try {
      writer = idle.pollFirst();
      if (writer == null) {
        writer = new Writer(new Driver().connect(url, new Properties()));
      }
      writer.append(samples, zone);
      idle.addFirst(writer);
      writer = null;
      response.setStatus(HttpServletResponse.SC_NO_CONTENT);
    } catch (SQLException e) {
      final String state = e.getSQLState() == null ? "" : e.getSQLState();
      final boolean data = e instanceof BatchUpdateException || state.startsWith("22")
          || state.startsWith("23");
      answer(response, data ? HttpServletResponse.SC_BAD_REQUEST
          : HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "the store refused the samples"
          + " (SQLSTATE " + state + "): " + e.getMessage() + "; nothing was stored");
    } finally {
      if (writer != null) {
        writer.close();
      }
    }
  }

  /** Closes the kept connections (the server stops). */
  void close() {
    for (Writer w = idle.pollFirst(); w != null; w = idle.pollFirst()) {
      w.close();
    }
  }

  private static void answer(HttpServletResponse response, int status, String message)
      throws IOException {
    response.setStatus(status);
    response.setContentType("text/plain;charset=utf-8");
    response.getOutputStream().write((message + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** A connection of the store and its prepared INSERT, used by one request at a time. */
  private static final class Writer {
    private final Connection connection;
    private final PreparedStatement insert;

    Writer(Connection connection) throws SQLException {
      this.connection = connection;
      try {
        this.insert = connection.prepareStatement(INSERT);
      } catch (SQLException e) {
        connection.close();
        throw e;
      }
    }

    /** The samples as one batch: one transaction (auto-commit), all or nothing. */
    void append(WriteRequestDecoder.Samples s, ZoneRules zone) throws SQLException {
      try {
        for (int i = 0; i < s.size; i++) {
          insert.setTimestamp(1, utc(s.millis[i], zone));
          insert.setString(2, s.names[i]);
          insert.setString(3, s.labels[i]);
          insert.setDouble(4, s.values[i]);
          insert.addBatch();
        }
        insert.executeBatch();
      } finally {
        insert.clearBatch();
      }
    }

    void close() {
      try {
        connection.close();
      } catch (SQLException e) {
        // Dropped anyway.
      }
    }
  }

  /**
   * The TIMESTAMP whose fields are those of UTC at {@code millis}: the store keeps a
   * TIMESTAMP's fields as {@code Timestamp} shows them in the JVM's zone.
   */
  static Timestamp utc(long millis, ZoneRules zone) {
    if (zone.isFixedOffset()) {
      return new Timestamp(millis - zone.getOffset(java.time.Instant.EPOCH).getTotalSeconds()
          * 1000L);
    }
    return Timestamp.valueOf(LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000),
        Math.floorMod(millis, 1000) * 1_000_000, ZoneOffset.UTC));
  }
}
