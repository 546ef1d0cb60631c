package dev.mnestic.standing;

import dev.mnestic.planner.workload.ErrorMetric;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.QueryExpr;
import dev.mnestic.planner.workload.Target;
import dev.mnestic.planner.workload.Window;
import dev.mnestic.sql.SqlPromQl;
import dev.mnestic.sql.SqlStandingQuery;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserUtil;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.Litmus;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A standing query lowered for the sketch-sharing planner: its table and columns in the store,
 * its windows, and per select item either a window bound or one planner {@link Query} (a
 * quantile, or the ratio of two) with the query's target.
 *
 * <p>The SQL form is one SELECT block over one table of the store, grouped by one window:
 * <pre>
 * SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS w, APPROX_QUANTILE(latency, 0.95) AS p95
 * FROM requests GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE) WITHIN RANK ERROR 0.01
 * </pre>
 * {@code HOP(ts, slide, size)} gives sliding windows ({@code HOP_START}, {@code HOP_END}); a
 * {@code WHERE} keeps some of the table's rows ({@link RowFilter}). Each row is one window, in
 * time order.
 *
 * <p>{@code retain} is how far back a standing query of the store's catalog answers: the
 * windows whose end is after the latest row time of the rows it reads less {@code retain}
 * ({@code RETAIN interval}, {@link #DEFAULT_RETENTION} when not stated); null for a query run
 * as a statement, which answers every window of its rows. The executor keeps and reads windows
 * by it ({@code Sketches.Summary#retain}), and it is its planner queries' retention (zero for a
 * statement; {@code Dashboard} plans one for the span of its rows).
 *
 * <p>{@code promql} is the query written in PromQL ({@code AS PROMQL '...'}, {@link PromQlQuery}),
 * whose rows are per window and series, its {@code columns} then only its planner queries; null
 * for SQL.
 */
public record StandingQuery(String name, String table, String timeColumn, Window window,
    RowFilter filter, List<Column> columns, RelDataType rowType, Map<String, String> valueColumns,
    Duration retain, PromQlQuery promql) {
  /** How far back a standing query answers without {@code RETAIN}: seven days. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);

  private static final List<String> BOUNDS =
      List.of("TUMBLE_START", "TUMBLE_END", "HOP_START", "HOP_END");

  /** A select item: a window bound, or the planner query that answers it. */
  public sealed interface Column {
    /** {@code TUMBLE_START} / {@code HOP_START} ({@code end} false) or {@code _END}. */
    record Bound(boolean end) implements Column {
    }

    /** {@code APPROX_QUANTILE(...)} or a ratio of two, answered by {@code query}. */
    record Answer(Query query) implements Column {
    }
  }

  /**
   * The planner's name for the metric of {@code valueColumn} over the rows {@code filter} (null:
   * all) keeps: queries share summaries only over the same metric.
   */
  static String metric(String table, String timeColumn, String valueColumn,
      RowFilter filter) {
    return table + "(" + timeColumn + ", " + valueColumn + ")"
        + (filter == null ? "" : " WHERE " + filter.sql());
  }

  /** The rows {@code metric} (one of {@link #valueColumns}) summarizes: null for all. */
  RowFilter filterOf(String metric) {
    return promql == null ? filter : promql.filters().get(metric);
  }

  /** The planner queries of the select items, in order. */
  public List<Query> queries() {
    return columns.stream().filter(c -> c instanceof Column.Answer)
        .map(c -> ((Column.Answer) c).query()).toList();
  }

  /**
   * Lowers {@code standing}, named {@code name}, against the store tables of {@code root}.
   *
   * @throws StandingQueryException naming the place of what is not a standing query
   */
  public static StandingQuery lower(String name, SqlStandingQuery standing, Duration retain,
      SchemaPlus root, RelDataTypeFactory typeFactory) {
    if (standing.query instanceof SqlPromQl promql) {
      return PromQlQuery.lower(name, promql, target(standing), retain, root, typeFactory);
    }
    if (!(standing.query instanceof SqlSelect select)) {
      throw new StandingQueryException(standing.query.getParserPosition(),
          "a standing query is one SELECT block (no ORDER BY, LIMIT or set operation):"
              + " its rows are its windows in time order");
    }
    for (SqlNode n : new SqlNode[] {select.getHaving(), select.getQualify()}) {
      if (n != null) {
        throw new StandingQueryException(n.getParserPosition(),
            "a standing query has no HAVING or QUALIFY");
      }
    }
    if (select.isDistinct() || select.getWindowList() != null && !select.getWindowList().isEmpty()) {
      throw new StandingQueryException(select.getParserPosition(),
          "a standing query has no DISTINCT or WINDOW");
    }
    // FROM one table of the store.
    if (!(select.getFrom() instanceof SqlIdentifier from)
        || from.names.size() > 2 || from.names.size() == 2
        && !from.names.get(0).equalsIgnoreCase(Session.SCHEMA)) {
      throw new StandingQueryException(select.getFrom() == null ? select.getParserPosition()
          : select.getFrom().getParserPosition(), "a standing query reads one table of the store");
    }
    // The store's own catalog, live: Calcite's lookup of a connection's store schema keeps a
    // table it found after the table is dropped, and may miss one created by another session.
    final Session session = Session.of(root);
    final String tableName = StoreCatalog.findTable(session,
        from.names.get(from.names.size() - 1)).orElseThrow(() -> new StandingQueryException(
            from.getParserPosition(),
            "no table " + from.names.get(from.names.size() - 1) + " in the store"));
    final RelDataTypeFactory.Builder columnsOf = typeFactory.builder();
    for (Object[] c : StoreCatalog.columns(session, tableName)) {
      final SqlTypeName type = SqlTypeName.getNameForJdbcType((Integer) c[1]);
      columnsOf.add((String) c[0], typeFactory.createTypeWithNullability(
          typeFactory.createSqlType(type == null ? SqlTypeName.ANY : type), (Boolean) c[4]));
    }
    final RelDataType tableType = columnsOf.build();

    // GROUP BY one window.
    if (select.getGroup() == null || select.getGroup().size() != 1
        || !(select.getGroup().get(0) instanceof SqlCall group)
        || group.getKind() != SqlKind.TUMBLE && group.getKind() != SqlKind.HOP) {
      throw new StandingQueryException(select.getGroup() == null ? select.getParserPosition()
          : select.getGroup().getParserPosition(),
          "a standing query is grouped by one window: GROUP BY TUMBLE(time, width)"
              + " or HOP(time, step, width)");
    }
    final RelDataTypeField time = column(tableType, group.operand(0), "time");
    if (time.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP) {
      throw new StandingQueryException(group.operand(0).getParserPosition(),
          "the window's time column must be a TIMESTAMP; " + time.getName() + " is "
              + time.getType());
    }
    final Window window;
    try {
      window = group.getKind() == SqlKind.TUMBLE
          ? Window.tumbling(interval(group, 1))
          : new Window(interval(group, 2), interval(group, 1));
    } catch (IllegalArgumentException e) {
      throw new StandingQueryException(group.getParserPosition(), e.getMessage());
    }

    final Target target = target(standing);

    // The select items.
    final List<Column> columns = new ArrayList<>();
    final RelDataTypeFactory.Builder rowType = typeFactory.builder();
    final Map<String, String> values = new LinkedHashMap<>();
    final RowFilter filter = select.getWhere() == null ? null
        : RowFilter.of(select.getWhere(), tableType);
    final Shape shape = new Shape(tableName, time.getName(), window, filter, tableType, values);
    for (SqlNode item : select.getSelectList()) {
      final int i = columns.size();
      SqlNode e = item;
      String alias = null;
      if (item.getKind() == SqlKind.AS) {
        e = ((SqlCall) item).operand(0);
        alias = ((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple();
      }
      final SqlKind kind = e.getKind();
      final String function = e instanceof SqlCall call
          ? call.getOperator().getName().toUpperCase(Locale.ROOT) : "";
      if (BOUNDS.contains(function)) {
        if (function.startsWith("TUMBLE") != (group.getKind() == SqlKind.TUMBLE)
            || !sameArguments(group, (SqlCall) e)) {
          throw new StandingQueryException(e.getParserPosition(),
              "a window bound must repeat the GROUP BY window's arguments");
        }
        columns.add(new Column.Bound(function.endsWith("_END")));
        rowType.add(alias != null ? alias : "EXPR$" + i, time.getType());
        continue;
      }
      final QueryExpr expr;
      if (isApproxQuantile(e)) {
        expr = quantile(shape, e);
      } else if (kind == SqlKind.DIVIDE && isApproxQuantile(((SqlCall) e).operand(0))
          && isApproxQuantile(((SqlCall) e).operand(1))) {
        if (target.metric() == ErrorMetric.RANK) {
          throw new StandingQueryException(e.getParserPosition(),
              "rank error does not bound a ratio's relative error: state the target as"
                  + " WITHIN RELATIVE ERROR");
        }
        expr = new QueryExpr.Ratio(quantile(shape, ((SqlCall) e).operand(0)),
            quantile(shape, ((SqlCall) e).operand(1)));
      } else {
        throw new StandingQueryException(e.getParserPosition(), "a standing query's select items are"
            + " window bounds (TUMBLE_START, TUMBLE_END, HOP_START, HOP_END),"
            + " APPROX_QUANTILE(column, φ), and ratios of two APPROX_QUANTILEs");
      }
      columns.add(new Column.Answer(new Query(name + "." + (i + 1), expr, target, window.step(),
          retain == null ? Duration.ZERO : retain, e.getParserPosition().getLineNum())));
      rowType.add(alias != null ? alias : "EXPR$" + i,
          typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE), true));
    }
    if (columns.stream().noneMatch(c -> c instanceof Column.Answer)) {
      throw new StandingQueryException(select.getSelectList().getParserPosition(),
          "a standing query selects at least one APPROX_QUANTILE");
    }
    return new StandingQuery(name, tableName, time.getName(), window, filter, columns,
        rowType.uniquify().build(), values, retain, null);
  }

  /** The query's target. */
  private static Target target(SqlStandingQuery standing) {
    final BigDecimal bound = standing.bound instanceof SqlNumericLiteral l
        ? l.getValueAs(BigDecimal.class) : null;
    if (bound == null || bound.signum() <= 0 || bound.compareTo(BigDecimal.ONE) >= 0) {
      throw new StandingQueryException(standing.bound.getParserPosition(),
          "an error bound is a number between 0 and 1 (exclusive)");
    }
    return new Target(standing.metric == SqlStandingQuery.Metric.RANK
        ? ErrorMetric.RANK : ErrorMetric.RELATIVE_VALUE, bound.doubleValue());
  }

  private static boolean isApproxQuantile(SqlNode e) {
    return e instanceof SqlBasicCall c
        && c.getOperator().getName().toUpperCase(Locale.ROOT).equals("APPROX_QUANTILE");
  }

  /** What a quantile of the query reads; {@code values} collects each metric's value column. */
  private record Shape(String table, String timeColumn, Window window, RowFilter filter,
      RelDataType tableType, Map<String, String> values) {
  }

  /** {@code APPROX_QUANTILE(column, φ)}. */
  private static QueryExpr.Quantile quantile(Shape shape, SqlNode e) {
    final SqlCall call = (SqlCall) e;
    if (call.operandCount() != 2 || !(call.operand(1) instanceof SqlNumericLiteral phi)) {
      throw new StandingQueryException(call.getParserPosition(),
          "APPROX_QUANTILE takes a column and a quantile φ, a number in [0, 1]");
    }
    final RelDataTypeField value = column(shape.tableType(), call.operand(0), "value");
    if (!SqlTypeFamily.NUMERIC.contains(value.getType())) {
      throw new StandingQueryException(call.operand(0).getParserPosition(),
          "APPROX_QUANTILE summarizes a numeric column; " + value.getName() + " is "
              + value.getType());
    }
    final double p = phi.getValueAs(BigDecimal.class).doubleValue();
    if (!(p >= 0 && p <= 1)) {
      throw new StandingQueryException(phi.getParserPosition(), "a quantile φ is in [0, 1]");
    }
    final String metric = metric(shape.table(), shape.timeColumn(), value.getName(),
        shape.filter());
    shape.values().put(metric, value.getName());
    return new QueryExpr.Quantile(p, metric, shape.window());
  }

  private static RelDataTypeField column(RelDataType tableType, SqlNode n, String role) {
    if (!(n instanceof SqlIdentifier id) || !id.isSimple()) {
      throw new StandingQueryException(n.getParserPosition(), "the " + role
          + " is a column of the table");
    }
    final RelDataTypeField f = tableType.getField(id.getSimple(), false, false);
    if (f == null) {
      throw new StandingQueryException(n.getParserPosition(), "no column " + id.getSimple());
    }
    return f;
  }

  /**
   * The retention {@code RETAIN retain} states ({@link #DEFAULT_RETENTION} for null).
   *
   * @throws StandingQueryException naming its place when it is not a positive day-time interval
   */
  public static Duration retention(SqlLiteral retain) {
    if (retain == null) {
      return DEFAULT_RETENTION;
    }
    if (retain instanceof SqlIntervalLiteral l
        && l.getValue() instanceof SqlIntervalLiteral.IntervalValue v
        && !v.getIntervalQualifier().isYearMonth()) {
      final long millis = SqlParserUtil.intervalToMillis(v);
      if (millis > 0) {
        return Duration.ofMillis(millis);
      }
    }
    throw new StandingQueryException(retain.getParserPosition(), "RETAIN takes a positive"
        + " day-time INTERVAL (DAY, HOUR, MINUTE or SECOND), such as INTERVAL '6' HOUR");
  }

  /** Operand {@code i} of the window call, an INTERVAL literal, as a duration. */
  private static Duration interval(SqlCall group, int i) {
    if (!(group.operand(i) instanceof SqlIntervalLiteral l)) {
      throw new StandingQueryException(group.operand(i).getParserPosition(),
          "a window's width and step are INTERVAL literals");
    }
    return Duration.ofMillis(
        SqlParserUtil.intervalToMillis((SqlIntervalLiteral.IntervalValue) l.getValue()));
  }

  /** Whether window bound {@code bound} repeats {@code group}'s arguments. */
  private static boolean sameArguments(SqlCall group, SqlCall bound) {
    if (group.operandCount() != bound.operandCount()) {
      return false;
    }
    for (int i = 0; i < group.operandCount(); i++) {
      if (!group.operand(i).equalsDeep(bound.operand(i), Litmus.IGNORE)) {
        return false;
      }
    }
    return true;
  }
}
