package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;
import dev.mnestic.sql.PromQl;
import dev.mnestic.sql.PromQlException;
import dev.mnestic.sql.StandingQueries;

import org.apache.calcite.jdbc.CalciteConnection;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.AbstractHandler;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Prometheus's HTTP query API, on the remote-write port ({@code mnestic serve --remote-write
 * PORT}), answered from the store's standing queries written in PromQL (Prometheus serves its
 * query API and its remote-write receiver on one port too, so a tool is given the same base URL):
 * <ul>
 *   <li>{@code GET} or {@code POST /api/v1/query} ({@code query}, {@code time}, {@code timeout}):
 *       the standing query whose expression is {@code query} (the same canonical text,
 *       {@link PromQl}), read at {@code time}: each series' value of the window ending at the
 *       latest end at or before {@code time} ({@code floor(time / step) · step}, the value a
 *       recording rule evaluated every step would hold then), as a {@code vector};
 *   <li>{@code /api/v1/query_range} ({@code query}, {@code start}, {@code end}, {@code step}):
 *       the same read at every {@code start + k · step} up to {@code end}, as a {@code matrix},
 *       from the windows the standing query keeps (its {@code RETAIN});
 *   <li>{@code /api/v1/status/buildinfo}: mnestic's version.
 * </ul>
 * An expression of numbers alone is evaluated ({@code scalar}; Grafana's test query {@code 1+1}).
 * The answers are Prometheus's JSON ({@code [unix seconds, "value"]}, {@code "NaN"},
 * {@code "+Inf"}); errors are its format: 400 {@code bad_data} for a parameter that does not
 * parse, an expression outside the subset (naming line:column and what), 422 {@code execution}
 * for an expression no standing query registers (naming how to register it) or a standing query
 * that cannot be read, 503 {@code timeout} past {@code timeout}. A request reads the standing
 * queries' answers and nothing else: no SQL, no other table, no write.
 */
final class PromQlApi extends AbstractHandler {
  static final String QUERY = "/api/v1/query";
  static final String QUERY_RANGE = "/api/v1/query_range";
  static final String BUILD_INFO = "/api/v1/status/buildinfo";
  private static final Set<String> PATHS = Set.of(QUERY, QUERY_RANGE, BUILD_INFO);
  /** Prometheus's bound on a range query's points per series. */
  static final int MAX_POINTS = 11_000;
  /** The longest expression taken. */
  static final int MAX_QUERY = 64 << 10;
  /** A request's time limit when it states none (Prometheus's default). */
  static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  private final String url;
  private volatile Connector connector;
  /** One connection of the store, so its standing queries' kept summaries serve every read. */
  private Connection connection;

  /** Reads {@code url}'s store ({@code jdbc:mnestic:db=...}). */
  PromQlApi(String url) {
    this.url = url;
  }

  /** Answers the requests that arrive at {@code connector} on its paths (and only those). */
  void serve(Connector connector) {
    this.connector = connector;
  }

  /** A request refused, as Prometheus's {@code errorType} and status say. */
  private static final class Refused extends Exception {
    final int status;
    final String type;

    Refused(int status, String type, String message) {
      super(message);
      this.status = status;
      this.type = type;
    }
  }

  private static Refused badData(String message) {
    return new Refused(HttpServletResponse.SC_BAD_REQUEST, "bad_data", message);
  }

  @Override public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    if (baseRequest.getHttpChannel().getConnector() != connector || !PATHS.contains(target)) {
      return;
    }
    baseRequest.setHandled(true);
    if (!"GET".equals(request.getMethod()) && !"POST".equals(request.getMethod())) {
      response.setHeader("Allow", "GET, POST");
      answer(response, HttpServletResponse.SC_METHOD_NOT_ALLOWED, error("bad_data",
          "the query API takes GET or POST"));
      return;
    }
    try {
      final String data;
      if (target.equals(BUILD_INFO)) {
        data = "{\"version\":" + string(Driver.version()) + ",\"revision\":\"\","
            + "\"branch\":\"\",\"buildUser\":\"\",\"buildDate\":\"\",\"goVersion\":\"\"}";
      } else {
        data = query(request, target.equals(QUERY_RANGE));
      }
      answer(response, HttpServletResponse.SC_OK, "{\"status\":\"success\",\"data\":" + data
          + "}");
    } catch (Refused e) {
      answer(response, e.status, error(e.type, e.getMessage()));
    }
  }

  /** The {@code data} of a query's answer. */
  private String query(HttpServletRequest request, boolean range) throws Refused {
    final String text = request.getParameter("query");
    if (text == null || text.isBlank()) {
      throw badData("invalid parameter \"query\": the query is empty");
    }
    if (text.length() > MAX_QUERY) {
      throw badData("invalid parameter \"query\": over " + MAX_QUERY + " characters");
    }
    final long start;
    final long end;
    final long step;
    if (range) {
      start = time(request, "start", null);
      end = time(request, "end", null);
      step = step(request);
      if (end < start) {
        throw badData("end timestamp must not be before start time");
      }
      if ((end - start) / step >= MAX_POINTS) {
        throw badData("exceeded maximum resolution of 11,000 points per timeseries. Try"
            + " decreasing the query resolution (?step=XX)");
      }
    } else {
      start = time(request, "time", System.currentTimeMillis());
      end = start;
      step = 1;
    }
    final Duration timeout = request.getParameter("timeout") == null ? DEFAULT_TIMEOUT
        : duration(request.getParameter("timeout"), "timeout");
    final PromQl.Expr expr;
    try {
      expr = PromQl.parse(text);
    } catch (PromQlException e) {
      throw badData("invalid parameter \"query\": " + e.getMessage());
    }
    if (!hasQuantile(expr)) {
      final String v = string(PromQl.format(scalar(expr)));
      if (!range) {
        return "{\"resultType\":\"scalar\",\"result\":[" + seconds(start) + "," + v + "]}";
      }
      final List<String> points = new ArrayList<>();
      for (long t = start; t <= end; t += step) {
        points.add("[" + seconds(t) + "," + v + "]");
      }
      return "{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},\"values\":["
          + String.join(",", points) + "]}]}";
    }
    // series labels (JSON) → window end → value
    final Map<String, TreeMap<Long, Double>> series = new TreeMap<>();
    final long windowStep = read(expr.toString(), timeout, series);
    final StringBuilder b = new StringBuilder("{\"resultType\":\"")
        .append(range ? "matrix" : "vector").append("\",\"result\":[");
    boolean first = true;
    for (Map.Entry<String, TreeMap<Long, Double>> s : series.entrySet()) {
      final List<String> points = new ArrayList<>();
      for (long t = start; t <= end; t += step) {
        final Double v = s.getValue().get(Math.floorDiv(t, windowStep) * windowStep);
        if (v != null) {
          points.add("[" + seconds(t) + "," + string(PromQl.format(v)) + "]");
        }
      }
      if (points.isEmpty()) {
        continue;
      }
      b.append(first ? "" : ",").append("{\"metric\":").append(s.getKey())
          .append(range ? ",\"values\":[" + String.join(",", points) + "]"
              : ",\"value\":" + points.get(0)).append('}');
      first = false;
    }
    return b.append("]}").toString();
  }

  /**
   * Reads the rows of the standing query registered as {@code expr} into {@code series};
   * returns its step in milliseconds.
   */
  private synchronized long read(String expr, Duration timeout,
      Map<String, TreeMap<Long, Double>> series) throws Refused {
    final AtomicBoolean late = new AtomicBoolean();
    try {
      if (connection == null || connection.isClosed()) {
        connection = new Driver().connect(url, new Properties());
      }
      final List<StandingQueries.PromQlStanding> registered = Driver.standingQueries()
          .promql(connection.unwrap(CalciteConnection.class).getRootSchema());
      final StandingQueries.PromQlStanding q = registered.stream()
          .filter(r -> r.expr().equals(expr)).findFirst().orElse(null);
      if (q == null) {
        throw new Refused(422, "execution", "no standing query of this store is " + expr
            + " (registered: " + (registered.isEmpty() ? "none" : registered.stream()
                .map(r -> r.name() + " = " + r.expr()).collect(Collectors.joining("; ")))
            + "); mnestic answers PromQL from standing queries: CREATE STANDING QUERY name AS"
            + " PROMQL '...' WITHIN RANK ERROR 0.01 (docs/prometheus.md)");
      }
      try (Statement s = connection.createStatement()) {
        final CompletableFuture<Void> timer = CompletableFuture.runAsync(() -> {
          late.set(true);
          try {
            s.cancel();
          } catch (SQLException e) {
            // the read ends anyway
          }
        }, CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS));
        try (ResultSet rs = s.executeQuery("SELECT ts, labels, val FROM \"STANDING\".\""
            + q.name().replace("\"", "\"\"") + "\"")) {
          while (rs.next()) {
            final long end = rs.getTimestamp(1).toLocalDateTime().toInstant(ZoneOffset.UTC)
                .toEpochMilli();
            final double v = rs.getDouble(3);
            series.computeIfAbsent(rs.getString(2), k -> new TreeMap<>())
                .put(end, rs.wasNull() ? null : v);
          }
        } finally {
          timer.cancel(false);
        }
      }
      return q.step().toMillis();
    } catch (SQLException e) {
      if (late.get()) {
        throw new Refused(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "timeout",
            "query timed out in expression evaluation");
      }
      throw new Refused(422, "execution", e.getMessage());
    }
  }

  private static boolean hasQuantile(PromQl.Expr e) {
    return e instanceof PromQl.Quantile || e instanceof PromQl.Binary b
        && (hasQuantile(b.left()) || hasQuantile(b.right()));
  }

  private static double scalar(PromQl.Expr e) {
    if (e instanceof PromQl.Number n) {
      return n.value();
    }
    final PromQl.Binary b = (PromQl.Binary) e;
    final double l = scalar(b.left());
    final double r = scalar(b.right());
    return b.apply(l, r);
  }

  /** A time parameter: unix seconds (a float) or RFC 3339, in milliseconds. */
  private static long time(HttpServletRequest request, String name, Long otherwise)
      throws Refused {
    final String s = request.getParameter(name);
    if (s == null || s.isEmpty()) {
      if (otherwise == null) {
        throw badData("invalid parameter \"" + name + "\": missing");
      }
      return otherwise;
    }
    try {
      return new BigDecimal(s).movePointRight(3).setScale(0, java.math.RoundingMode.FLOOR)
          .longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      try {
        return OffsetDateTime.parse(s).toInstant().toEpochMilli();
      } catch (DateTimeParseException f) {
        throw badData("invalid parameter \"" + name + "\": cannot parse \"" + s
            + "\" to a valid timestamp");
      }
    }
  }

  /** {@code step}: a duration ({@code 15s}) or seconds, positive, in milliseconds. */
  private static long step(HttpServletRequest request) throws Refused {
    final String s = request.getParameter("step");
    if (s == null || s.isEmpty()) {
      throw badData("invalid parameter \"step\": missing");
    }
    final long ms = duration(s, "step").toMillis();
    if (ms <= 0) {
      throw badData("zero or negative query resolution step widths are not accepted. Try a"
          + " positive integer");
    }
    return ms;
  }

  private static Duration duration(String s, String name) throws Refused {
    try {
      return Duration.ofMillis(new BigDecimal(s).movePointRight(3).longValueExact());
    } catch (NumberFormatException | ArithmeticException e) {
      try {
        return PromQl.parseDuration(s);
      } catch (IllegalArgumentException f) {
        throw badData("invalid parameter \"" + name + "\": cannot parse \"" + s
            + "\" to a valid duration");
      }
    }
  }

  /** Unix seconds as Prometheus writes them: a JSON number, milliseconds after the point. */
  private static String seconds(long millis) {
    return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
  }

  private static String error(String type, String message) {
    return "{\"status\":\"error\",\"errorType\":\"" + type + "\",\"error\":" + string(message)
        + "}";
  }

  /** {@code s} as a JSON string. */
  static String string(String s) {
    final StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  private static void answer(HttpServletResponse response, int status, String json)
      throws IOException {
    response.setStatus(status);
    response.setContentType("application/json");
    response.getOutputStream().write(json.getBytes(StandardCharsets.UTF_8));
  }

  /** Closes its connection (the server stops). */
  synchronized void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        // dropped anyway
      }
      connection = null;
    }
  }
}
