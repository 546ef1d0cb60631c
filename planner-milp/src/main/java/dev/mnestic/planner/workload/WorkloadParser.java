package dev.mnestic.planner.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a workload file: one statement per line, {@code #} starts a comment.
 *
 * <pre>
 * metric latency from requests(ts, latency) rate 1000/s raw 2d range 0.1..100000
 * budget heap 64MiB
 * A: quantile_over_time(0.95, latency[1m]) rank error 0.01 every 1m retain 7d
 * A2: quantile_over_time(0.95, latency[1m]) rank error 0.01 with probability 0.999 every 1m retain 7d
 * B: quantile_over_time(0.99, latency[1m]) / quantile_over_time(0.50, latency[1m]) relative error 0.05 every 1m retain 7d
 * C: quantile_over_time(0.5, latency[5m]) exact every 5m retain 1d
 * D: quantile_over_time(0.5, latency[10m]) exact every 1m retain 1d read once
 * E: quantile_over_time(0.9, latency[5m]) rank error 0.01 every 5m retain 1d read every 1m
 * </pre>
 *
 * <p>A metric names a table of the store, its timestamp and value columns, its ingest rate in
 * rows per second, how long the store keeps its rows ({@code raw}, default 1d) and the range its
 * values fall in ({@code range}, default 0.001..1000000). A query is its name, a PromQL
 * expression (a {@code quantile_over_time}, or the ratio of two), its target ({@code rank error
 * ε}, {@code relative error ε} or {@code exact}; an error target may add {@code with
 * probability P}, so that it may fail with probability at most δ = 1 - P), its evaluation interval and its retention, and how often it is read: by default every
 * evaluation interval (a standing query a dashboard refreshes), {@code read once} for a statement (one pass
 * over the rows), or {@code read every D} for D dividing the evaluation interval (a dashboard
 * refreshed more often than its windows step).
 * Budgets: {@code heap} and {@code store} in bytes (B, KiB, MiB, GiB), {@code cpu} in cores.
 * Every error names its line and column.
 */
public final class WorkloadParser {
  private final List<Token> tokens = new ArrayList<>();
  private int pos;
  private int line;

  private record Token(String text, int column) {
  }

  private WorkloadParser() {
  }

  public static Workload parse(String text) {
    final Map<String, Metric> metrics = new LinkedHashMap<>();
    final List<Query> queries = new ArrayList<>();
    final List<Budget> budgets = new ArrayList<>();
    final Map<String, Integer> queryLines = new LinkedHashMap<>();
    final String[] lines = text.split("\r?\n", -1);
    final WorkloadParser p = new WorkloadParser();
    for (int i = 0; i < lines.length; i++) {
      p.lex(lines[i], i + 1);
      if (p.tokens.isEmpty()) {
        continue;
      }
      final Token first = p.tokens.get(0);
      if (first.text.equals("metric")) {
        final Metric m = p.metric();
        if (metrics.putIfAbsent(m.name(), m) != null) {
          throw new WorkloadException(p.line, p.tokens.get(1).column, "metric " + m.name()
              + " is declared twice");
        }
      } else if (first.text.equals("budget")) {
        budgets.add(p.budget());
      } else {
        final Query q = p.query(metrics);
        final Integer earlier = queryLines.putIfAbsent(q.name(), q.line());
        if (earlier != null) {
          throw new WorkloadException(p.line, first.column, "query " + q.name()
              + " is already defined on line " + earlier);
        }
        queries.add(q);
      }
    }
    if (queries.isEmpty()) {
      throw new WorkloadException(lines.length, 1, "expected at least one query");
    }
    return new Workload(metrics, queries, budgets);
  }

  private void lex(String text, int lineNo) {
    tokens.clear();
    pos = 0;
    line = lineNo;
    int i = 0;
    while (i < text.length()) {
      final char c = text.charAt(i);
      if (c == '#') {
        break;
      }
      if (Character.isWhitespace(c)) {
        i++;
      } else if ("()[],:/".indexOf(c) >= 0) {
        tokens.add(new Token(String.valueOf(c), i + 1));
        i++;
      } else if (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-') {
        final int start = i;
        while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i))
            || text.charAt(i) == '_' || text.charAt(i) == '.' || text.charAt(i) == '-')) {
          i++;
        }
        tokens.add(new Token(text.substring(start, i), start + 1));
      } else {
        throw new WorkloadException(lineNo, i + 1, "unexpected character '" + c + "'");
      }
    }
  }

  // metric NAME from TABLE(TS, VALUE) rate N/s [raw DURATION] [range MIN..MAX]
  private Metric metric() {
    expect("metric");
    final String name = name("a metric name");
    expect("from");
    final String table = name("a table name");
    expect("(");
    final String ts = name("the timestamp column");
    expect(",");
    final String value = name("the value column");
    expect(")");
    expect("rate");
    final double rate = positive("rows per second");
    expect("/");
    expect("s");
    Duration raw = Duration.ofDays(1);
    double min = 0.001;
    double max = 1_000_000;
    while (pos < tokens.size()) {
      final Token t = tokens.get(pos);
      if (t.text.equals("raw")) {
        pos++;
        raw = duration("how long the store keeps rows");
      } else if (t.text.equals("range")) {
        pos++;
        final Token r = next("a value range MIN..MAX");
        final String[] parts = r.text.split("\\.\\.", -1);
        final Double lo = parts.length == 2 ? number(parts[0]) : null;
        final Double hi = parts.length == 2 ? number(parts[1]) : null;
        if (lo == null || hi == null || !(lo > 0 && hi > lo)) {
          throw new WorkloadException(line, r.column, "expected a value range MIN..MAX with "
              + "0 < MIN < MAX, found '" + r.text + "'");
        }
        min = lo;
        max = hi;
      } else {
        throw new WorkloadException(line, t.column, "expected raw, range or the end of the line, "
            + "found '" + t.text + "'");
      }
    }
    return new Metric(name, table, ts, value, rate, raw, min, max);
  }

  // budget (heap|store) BYTES | budget cpu CORES
  private Budget budget() {
    expect("budget");
    final Token kind = next("heap, store or cpu");
    final Budget b;
    switch (kind.text) {
      case "heap" -> b = new Budget(Budget.Resource.HEAP_BYTES, bytes());
      case "store" -> b = new Budget(Budget.Resource.STORE_BYTES, bytes());
      case "cpu" -> b = new Budget(Budget.Resource.CPU_NANOS_PER_SECOND, positive("cores") * 1e9);
      default -> throw new WorkloadException(line, kind.column, "expected heap, store or cpu, found '"
          + kind.text + "'");
    }
    end();
    return b;
  }

  private double bytes() {
    final Token t = next("a size such as 64MiB");
    final String[][] units = {{"GiB", "1073741824"}, {"MiB", "1048576"}, {"KiB", "1024"}, {"B", "1"}};
    for (String[] u : units) {
      if (t.text.endsWith(u[0])) {
        final Double n = number(t.text.substring(0, t.text.length() - u[0].length()));
        if (n != null && n > 0) {
          return n * Double.parseDouble(u[1]);
        }
      }
    }
    throw new WorkloadException(line, t.column, "expected a size such as 64MiB (B, KiB, MiB, GiB), "
        + "found '" + t.text + "'");
  }

  // NAME: EXPR TARGET every DURATION retain DURATION [read (every DURATION | once)]
  private Query query(Map<String, Metric> metrics) {
    final String name = name("a query name, metric or budget");
    expect(":");
    final QueryExpr.Quantile first = quantile(metrics);
    QueryExpr expr = first;
    if (at("/")) {
      pos++;
      expr = new QueryExpr.Ratio(first, quantile(metrics));
    }
    final Target target = target();
    expect("every");
    final Token everyAt = tokens.get(Math.min(pos, tokens.size() - 1));
    final Duration every = duration("an evaluation interval");
    expect("retain");
    final Duration retention = duration("a retention");
    Duration read = every;
    if (at("read")) {
      pos++;
      if (at("once")) {
        pos++;
        read = Query.ONCE;
      } else {
        expect("every");
        final Token readAt = tokens.get(Math.min(pos, tokens.size() - 1));
        read = duration("a read interval");
        if (read.compareTo(every) > 0 || every.toMillis() % read.toMillis() != 0) {
          throw new WorkloadException(line, readAt.column, "a read interval divides the"
              + " evaluation interval " + Durations.format(every) + ": found "
              + Durations.format(read));
        }
      }
    }
    end();
    final List<QueryExpr.Quantile> parts = expr instanceof QueryExpr.Ratio r
        ? List.of(r.numerator(), r.denominator()) : List.of(first);
    final List<QueryExpr.Quantile> placed = new ArrayList<>();
    for (QueryExpr.Quantile q : parts) {
      try {
        placed.add(new QueryExpr.Quantile(q.phi(), q.metric(), new Window(q.window().width(), every)));
      } catch (IllegalArgumentException e) {
        throw new WorkloadException(line, everyAt.column, e.getMessage());
      }
    }
    final QueryExpr resolved = placed.size() == 2 ? new QueryExpr.Ratio(placed.get(0), placed.get(1))
        : placed.get(0);
    return new Query(name, resolved, target, every, retention, read, line);
  }

  // quantile_over_time(PHI, METRIC[RANGE])
  private QueryExpr.Quantile quantile(Map<String, Metric> metrics) {
    expect("quantile_over_time");
    expect("(");
    final Token phiAt = next("a quantile in [0, 1]");
    final Double phi = number(phiAt.text);
    if (phi == null || !(phi >= 0 && phi <= 1)) {
      throw new WorkloadException(line, phiAt.column, "expected a quantile in [0, 1], found '"
          + phiAt.text + "'");
    }
    expect(",");
    final Token metricAt = next("a metric name");
    if (!metrics.containsKey(metricAt.text)) {
      throw new WorkloadException(line, metricAt.column, "unknown metric '" + metricAt.text
          + "' (declare it first: metric " + metricAt.text + " from TABLE(TS, VALUE) rate N/s)");
    }
    expect("[");
    final Duration range = duration("a range such as 1m");
    expect("]");
    expect(")");
    // The step is the query's evaluation interval, known at the end of the line.
    return new QueryExpr.Quantile(phi, metricAt.text, Window.tumbling(range));
  }

  private Target target() {
    final Token t = next("rank error, relative error or exact");
    switch (t.text) {
      case "exact":
        return new Target(ErrorMetric.EXACT, 0);
      case "rank":
      case "relative":
        expect("error");
        final Token b = next("an error bound in (0, 1)");
        final Double bound = number(b.text);
        if (bound == null || !(bound > 0 && bound < 1)) {
          throw new WorkloadException(line, b.column, "expected an error bound in (0, 1), found '"
              + b.text + "'");
        }
        final ErrorMetric metric = t.text.equals("rank") ? ErrorMetric.RANK : ErrorMetric.RELATIVE_VALUE;
        if (!at("with")) {
          return new Target(metric, bound);
        }
        expect("with");
        expect("probability");
        final Token p = next("a probability in (0, 1)");
        final Double probability = number(p.text);
        if (probability == null || !(probability > 0 && probability < 1)) {
          throw new WorkloadException(line, p.column, "expected a probability in (0, 1), found '"
              + p.text + "'");
        }
        return new Target(metric, bound, 1 - probability);
      default:
        throw new WorkloadException(line, t.column, "expected rank error, relative error or exact, "
            + "found '" + t.text + "'");
    }
  }

  private Duration duration(String what) {
    final Token t = next(what);
    final Duration d = Durations.parse(t.text);
    if (d == null || d.isZero()) {
      throw new WorkloadException(line, t.column, "expected " + what + " (a duration such as 30s, "
          + "5m, 2h, 7d), found '" + t.text + "'");
    }
    return d;
  }

  private double positive(String what) {
    final Token t = next(what);
    final Double n = number(t.text);
    if (n == null || !(n > 0)) {
      throw new WorkloadException(line, t.column, "expected " + what + " (a positive number), found '"
          + t.text + "'");
    }
    return n;
  }

  private String name(String what) {
    final Token t = next(what);
    if (!Character.isLetter(t.text.charAt(0)) && t.text.charAt(0) != '_') {
      throw new WorkloadException(line, t.column, "expected " + what + ", found '" + t.text + "'");
    }
    return t.text;
  }

  private static Double number(String text) {
    if (!text.matches("[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?")) {
      return null;
    }
    final double d = Double.parseDouble(text);
    return Double.isFinite(d) ? d : null;
  }

  private boolean at(String text) {
    return pos < tokens.size() && tokens.get(pos).text.equals(text);
  }

  private void expect(String text) {
    final Token t = next("'" + text + "'");
    if (!t.text.equals(text)) {
      throw new WorkloadException(line, t.column, "expected '" + text + "', found '" + t.text + "'");
    }
  }

  private Token next(String what) {
    if (pos >= tokens.size()) {
      final Token last = tokens.get(tokens.size() - 1);
      throw new WorkloadException(line, last.column + last.text.length(), "expected " + what
          + ", found the end of the line");
    }
    return tokens.get(pos++);
  }

  private void end() {
    if (pos < tokens.size()) {
      final Token t = tokens.get(pos);
      throw new WorkloadException(line, t.column, "expected the end of the line, found '" + t.text + "'");
    }
  }
}
