package dev.mnestic.standing;

import dev.mnestic.planner.workload.ErrorMetric;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.QueryExpr;
import dev.mnestic.planner.workload.Target;
import dev.mnestic.planner.workload.Window;
import dev.mnestic.rel.PlanRules;
import dev.mnestic.rel.Plans;
import dev.mnestic.sql.PromQl;
import dev.mnestic.sql.PromQlException;
import dev.mnestic.sql.SqlPromQl;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A standing query written in PromQL ({@code CREATE STANDING QUERY name AS PROMQL '...'},
 * {@link PromQl}'s subset) over the store's table {@value #TABLE}, as Prometheus evaluates it:
 * per series. Each series of a {@code quantile_over_time} term (a label set of its metric that
 * the selector's matchers keep, found in the table's rows when the query is lowered) is a metric
 * of the planner of its own (its rows: {@code metric = name AND labels = 'its JSON'}), so
 * summaries are built per series and shared only between terms of the same series (several φ
 * over one series share a summary). A term {@code a / b} of two quantiles is one planner ratio per
 * series (so its target bounds the ratio, a relative one); every other quantile term is one
 * planner quantile per series, its target the query's; numbers and the other arithmetic apply
 * to the readouts exactly. Two vectors match one-to-one on their label sets, so the answer's
 * series are those every vector term has.
 *
 * <p>Its windows are {@code [end - range, end)}, ending every {@code EVERY} (by default every
 * range: tumbling); all its terms read the same range. Its rows: {@code ts} the window's end,
 * {@code labels} the series' labels (a JSON object, names sorted, no {@code __name__}), {@code val}
 * the answer, one row per window and series, by end then labels.
 */
record PromQlQuery(String text, PromQl.Expr expr, Window window, List<String> series,
    Map<String, RowFilter> filters, Map<String, String> queryNames) {
  /** The table remote write fills ({@code server.RemoteWrite}). */
  static final String TABLE = "prometheus_samples";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * {@code promql} with target {@code target} and retention {@code retain} (null for a statement),
   * named {@code name}, lowered against {@code root}'s store: its series are those in the table's
   * rows now.
   */
  static StandingQuery lower(String name, SqlPromQl promql, Target target, Duration retain,
      SchemaPlus root, RelDataTypeFactory typeFactory) {
    final String text = promql.text.getValueAs(String.class);
    final PromQl.Expr expr;
    try {
      expr = PromQl.parse(text);
    } catch (PromQlException e) {
      throw new StandingQueryException(at(promql, e.line, e.column), "PromQL " + e.line + ":"
          + e.column + ": " + e.what);
    }
    final List<PromQl.Quantile> terms = new ArrayList<>();
    collect(expr, terms);
    if (terms.isEmpty()) {
      throw new StandingQueryException(promql.getParserPosition(),
          "a standing query reads at least one quantile_over_time");
    }
    final Duration range = terms.get(0).range();
    for (PromQl.Quantile t : terms) {
      if (!t.range().equals(range)) {
        throw new StandingQueryException(at(promql, t.line(), t.column()), "PromQL " + t.line()
            + ":" + t.column() + ": every quantile_over_time of a standing query reads the same"
            + " range; [" + PromQl.duration(t.range()) + "] differs from ["
            + PromQl.duration(range) + "]");
      }
      if (!(t.phi() >= 0 && t.phi() <= 1)) {
        throw new StandingQueryException(at(promql, t.line(), t.column()), "PromQL " + t.line()
            + ":" + t.column() + ": a quantile φ is in [0, 1]");
      }
    }
    final Window window;
    try {
      window = new Window(range, step(promql, expr));
    } catch (IllegalArgumentException e) {
      throw new StandingQueryException(promql.every == null ? promql.getParserPosition()
          : promql.every.getParserPosition(), e.getMessage());
    }
    ratios(expr, target, promql);

    // The table and its columns.
    final Session session = Session.of(root);
    final String table = StoreCatalog.findTable(session, TABLE).orElseThrow(() ->
        new StandingQueryException(promql.getParserPosition(), "PromQL reads the table " + TABLE
            + " (mnestic serve --remote-write creates it), which the store does not have"));
    final RelDataTypeFactory.Builder columnsOf = typeFactory.builder();
    for (Object[] c : StoreCatalog.columns(session, table)) {
      final SqlTypeName type = SqlTypeName.getNameForJdbcType((Integer) c[1]);
      columnsOf.add((String) c[0], typeFactory.createTypeWithNullability(
          typeFactory.createSqlType(type == null ? SqlTypeName.ANY : type), (Boolean) c[4]));
    }
    final RelDataType tableType = columnsOf.build();
    final String ts = column(tableType, "ts", promql);
    final String metricColumn = column(tableType, "metric", promql);
    final String labelsColumn = column(tableType, "labels", promql);
    final String val = column(tableType, "val", promql);

    // Each term's series: the label sets of its metric that its matchers keep.
    final Map<String, List<String>> labelsOf = new HashMap<>();
    final Map<PromQl.Quantile, TreeSet<String>> seriesOf = new HashMap<>();
    for (PromQl.Quantile t : terms) {
      final List<String> all = labelsOf.computeIfAbsent(t.selector().metric(),
          m -> labelSets(root, table, metricColumn, labelsColumn, m));
      final TreeSet<String> kept = new TreeSet<>();
      for (String labels : all) {
        if (t.selector().matches(labels(labels))) {
          kept.add(labels);
        }
      }
      seriesOf.put(t, kept);
    }
    final TreeSet<String> series = matched(expr, seriesOf);

    // One planner query per series and term (a ratio of two quantiles is one term).
    final Map<String, RowFilter> filters = new LinkedHashMap<>();
    final Map<String, String> valueColumns = new LinkedHashMap<>();
    final Map<String, String> queryNames = new LinkedHashMap<>();
    final List<StandingQuery.Column> columns = new ArrayList<>();
    final int line = promql.getParserPosition().getLineNum();
    for (String s : series) {
      final Map<String, String> metrics = new HashMap<>();
      for (PromQl.Quantile t : terms) {
        metrics.computeIfAbsent(t.selector().metric(), m -> {
          final RowFilter filter = new RowFilter.And(List.of(
              new RowFilter.Compare(SqlKind.EQUALS, metricColumn, m),
              new RowFilter.Compare(SqlKind.EQUALS, labelsColumn, s)));
          final String metric = StandingQuery.metric(table, ts, val, filter);
          filters.put(metric, filter);
          valueColumns.put(metric, val);
          return metric;
        });
      }
      plannerQueries(expr, s, metrics, window, name, target, retain, line, queryNames, columns);
    }
    final RelDataType rowType = typeFactory.builder()
        .add("ts", typeFactory.createSqlType(SqlTypeName.TIMESTAMP, 3))
        .add("labels", typeFactory.createSqlType(SqlTypeName.VARCHAR))
        .add("val", typeFactory.createTypeWithNullability(
            typeFactory.createSqlType(SqlTypeName.DOUBLE), true))
        .build();
    return new StandingQuery(name, table, ts, window, null, columns, rowType, valueColumns,
        retain, new PromQlQuery(text, expr, window, List.copyOf(series), filters, queryNames));
  }

  /** The SQL position of line {@code line}, column {@code column} of {@code promql}'s text. */
  private static SqlParserPos at(SqlPromQl promql, int line, int column) {
    final SqlParserPos text = promql.text.getParserPosition();
    return new SqlParserPos(text.getLineNum() + line - 1,
        line == 1 ? text.getColumnNum() + column : column);
  }

  /** How often {@code promql}'s windows end: its EVERY, or its range ({@code expr}'s first). */
  static Duration step(SqlPromQl promql, PromQl.Expr expr) {
    if (promql.every == null) {
      final List<PromQl.Quantile> terms = new ArrayList<>();
      collect(expr, terms);
      return terms.get(0).range();
    }
    if (promql.every instanceof SqlIntervalLiteral l
        && l.getValue() instanceof SqlIntervalLiteral.IntervalValue v
        && !v.getIntervalQualifier().isYearMonth()) {
      return Duration.ofMillis(SqlParserUtil.intervalToMillis(v));
    }
    throw new StandingQueryException(promql.every.getParserPosition(),
        "EVERY takes a day-time INTERVAL, such as INTERVAL '15' SECOND");
  }

  private static String column(RelDataType tableType, String name, SqlPromQl promql) {
    final RelDataTypeField f = tableType.getField(name, false, false);
    if (f == null) {
      throw new StandingQueryException(promql.getParserPosition(), TABLE + " has no column "
          + name + " (ts, metric, labels, val)");
    }
    return f.getName();
  }

  private static void collect(PromQl.Expr e, List<PromQl.Quantile> terms) {
    if (e instanceof PromQl.Quantile q) {
      terms.add(q);
    } else if (e instanceof PromQl.Binary b) {
      collect(b.left(), terms);
      collect(b.right(), terms);
    }
  }

  /** A ratio of two quantiles is planned as one: its target must be a relative error. */
  private static void ratios(PromQl.Expr e, Target target, SqlPromQl promql) {
    if (e instanceof PromQl.Binary b) {
      if (isRatio(b) && target.metric() == ErrorMetric.RANK) {
        throw new StandingQueryException(at(promql, b.line(), b.column()), "PromQL " + b.line()
            + ":" + b.column() + ": rank error does not bound a ratio's relative error: state"
            + " the target as WITHIN RELATIVE ERROR");
      }
      ratios(b.left(), target, promql);
      ratios(b.right(), target, promql);
    }
  }

  private static boolean isRatio(PromQl.Binary b) {
    return b.op() == '/' && b.left() instanceof PromQl.Quantile
        && b.right() instanceof PromQl.Quantile;
  }

  /**
   * The series of {@code e}'s answer: a term's own; of two vectors, those both have (one-to-one
   * matching on the whole label set); of a vector and a number, the vector's; null for a number.
   */
  private static TreeSet<String> matched(PromQl.Expr e,
      Map<PromQl.Quantile, TreeSet<String>> seriesOf) {
    if (e instanceof PromQl.Quantile q) {
      return seriesOf.get(q);
    }
    if (e instanceof PromQl.Binary b) {
      final TreeSet<String> l = matched(b.left(), seriesOf);
      final TreeSet<String> r = matched(b.right(), seriesOf);
      if (l == null || r == null) {
        return l == null ? r : l;
      }
      final TreeSet<String> both = new TreeSet<>(l);
      both.retainAll(r);
      return both;
    }
    return null;
  }

  /** Adds the planner queries of {@code e} for series {@code s}, once per distinct term. */
  private static void plannerQueries(PromQl.Expr e, String s, Map<String, String> metrics,
      Window window, String name, Target target, Duration retain, int line,
      Map<String, String> queryNames, List<StandingQuery.Column> columns) {
    final QueryExpr q;
    if (e instanceof PromQl.Quantile t) {
      q = quantile(t, metrics, window);
    } else if (e instanceof PromQl.Binary b && isRatio(b)) {
      q = new QueryExpr.Ratio(quantile((PromQl.Quantile) b.left(), metrics, window),
          quantile((PromQl.Quantile) b.right(), metrics, window));
    } else {
      if (e instanceof PromQl.Binary b) {
        plannerQueries(b.left(), s, metrics, window, name, target, retain, line, queryNames,
            columns);
        plannerQueries(b.right(), s, metrics, window, name, target, retain, line, queryNames,
            columns);
      }
      return;
    }
    final String key = key(s, e);
    if (!queryNames.containsKey(key)) {
      final String queryName = name + "." + (queryNames.size() + 1);
      queryNames.put(key, queryName);
      columns.add(new StandingQuery.Column.Answer(new Query(queryName, q, target, window.step(),
          retain == null ? Duration.ZERO : retain, line)));
    }
  }

  private static QueryExpr.Quantile quantile(PromQl.Quantile t, Map<String, String> metrics,
      Window window) {
    return new QueryExpr.Quantile(t.phi(), metrics.get(t.selector().metric()), window);
  }

  private static String key(String series, PromQl.Expr term) {
    return series + "\u0000" + term;
  }

  /** The label sets of {@code metric}'s series in the table's rows, as stored. */
  private static List<String> labelSets(SchemaPlus root, String table, String metricColumn,
      String labelsColumn, String metric) {
    final RelBuilder b = RelBuilder.create(Frameworks.newConfigBuilder().defaultSchema(root)
        .build());
    PlanRules.STANDING.applyTo(b.getCluster().getPlanner());
    b.scan(Session.SCHEMA, table)
        .filter(b.equals(b.field(metricColumn), b.literal(metric)))
        .aggregate(b.groupKey(b.field(labelsColumn)));
    final List<String> out = new ArrayList<>();
    for (Object[] row : Plans.run(Plans.optimize(b.build()), root,
        (JavaTypeFactory) b.getTypeFactory(), List.of(),
        Map.of(DataContext.Variable.CANCEL_FLAG.camelName, new AtomicBoolean()))) {
      out.add(row[0] instanceof Object[] r ? (String) r[0] : (String) row[0]);
    }
    return out;
  }

  /** A series' labels, from their JSON object. */
  static Map<String, String> labels(String json) {
    try {
      return JSON.readValue(json, new TypeReference<Map<String, String>>() { });
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("labels of " + TABLE + " are not a JSON object of"
          + " strings: " + json, e);
    }
  }

  /** The rows of one evaluation: per window end and series, the expression's value. */
  List<Object[]> rows(Map<String, TreeMap<Long, Double>> answers) {
    final TreeMap<Long, List<Object[]>> byEnd = new TreeMap<>();
    for (String s : series) {
      final TreeSet<Long> ends = new TreeSet<>();
      queryNames.forEach((key, query) -> {
        if (key.startsWith(s + "\u0000")) {
          ends.addAll(answers.get(query).keySet());
        }
      });
      for (long end : ends) {
        final Double v = value(expr, s, end, answers);
        if (v != null) {
          byEnd.computeIfAbsent(end, e -> new ArrayList<>()).add(new Object[] {end, s, v});
        }
      }
    }
    final List<Object[]> rows = new ArrayList<>();
    byEnd.values().forEach(rows::addAll);
    return rows;
  }

  /** {@code e}'s value for series {@code s} at window end {@code end}; null when a term has none. */
  private Double value(PromQl.Expr e, String s, long end,
      Map<String, TreeMap<Long, Double>> answers) {
    if (e instanceof PromQl.Number n) {
      return n.value();
    }
    final String query = queryNames.get(key(s, e));
    if (query != null) {
      return answers.get(query).get(end);
    }
    final PromQl.Binary b = (PromQl.Binary) e;
    final Double l = value(b.left(), s, end, answers);
    final Double r = value(b.right(), s, end, answers);
    if (l == null || r == null) {
      return null;
    }
    return b.apply(l, r);
  }
}
