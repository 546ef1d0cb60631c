package dev.mnestic.standing;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.exec.PlanExecution;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.select.MilpSelector;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.select.TreePlans;
import dev.mnestic.planner.view.PlanView;
import dev.mnestic.planner.workload.Metric;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.QueryExpr;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.rel.MnesticRules;
import dev.mnestic.rel.Plans;
import dev.mnestic.rel.SketchAggregate;
import dev.mnestic.runtime.Sketches;
import dev.mnestic.sql.SqlCreateStandingQuery;
import dev.mnestic.sql.SqlDropStandingQuery;
import dev.mnestic.store.Session;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * A connection's standing queries (the schema {@value #SCHEMA}): planned together by the
 * sketch-sharing planner, so a summary two of them can read is built once, and answered together
 * by one pass per metric over the store's rows.
 *
 * <p>{@code CREATE STANDING QUERY name AS ...} registers one; it is then also a table {@code name}
 * (in the root schema, so {@code SELECT * FROM name} finds it), whose rows are its windows. An
 * evaluation answers every standing query of the connection; a read takes its query's rows from
 * the latest evaluation unless that query was already read from it, and otherwise starts a new
 * evaluation. So a dashboard that reads each of its queries once per refresh runs one pass per
 * refresh. The plan is made at the first evaluation (or {@link #explain}) after a registration
 * changes, from the tables' rows then (ingest rate, value range).
 */
public final class Dashboard extends AbstractSchema {
  public static final String SCHEMA = "STANDING";

  private final SchemaPlus root;
  private final Map<String, StandingQuery> queries = new LinkedHashMap<>();
  private final Map<String, Table> tables = new LinkedHashMap<>();
  private Planned planned;
  /** Rows of the latest evaluation, by query, not yet read. */
  private final Map<String, List<Object[]>> unread = new HashMap<>();
  private int evaluations;
  private final AtomicLong builds = new AtomicLong();

  private Dashboard(SchemaPlus root) {
    this.root = root;
  }

  /** Adds an empty dashboard to a connection's {@code root}. */
  public static void attachTo(SchemaPlus root) {
    root.add(SCHEMA, new Dashboard(root)).setCacheEnabled(false);
  }

  /** The dashboard {@link #attachTo} added to {@code root}. */
  public static Dashboard of(SchemaPlus root) {
    return root.getSubSchema(SCHEMA).unwrap(Dashboard.class);
  }

  @Override protected Map<String, Table> getTableMap() {
    return tables;
  }

  /** How many evaluations (passes) ran. */
  public synchronized int evaluations() {
    return evaluations;
  }

  /**
   * How many summaries the evaluations built from rows: each window's (or sub-window's) summary
   * once, however many queries read it.
   */
  public long builds() {
    return builds.get();
  }

  /** The summaries of the current plan, per metric; empty before the first evaluation. */
  public synchronized Map<String, List<SketchAggregate.Summary>> summaries() {
    return planned == null ? Map.of() : planned.summaries;
  }

  public synchronized void create(SqlCreateStandingQuery create, RelDataTypeFactory typeFactory) {
    final String name = create.name.getSimple();
    final String existing = find(name);
    if (existing != null && !create.getReplace()) {
      throw new StandingQueryException(create.name.getParserPosition(),
          "standing query " + existing + " exists");
    }
    if (CalciteSchema.from(root).getSubSchema(Session.SCHEMA, false).getTable(name, false) != null) {
      throw new StandingQueryException(create.name.getParserPosition(),
          "a table " + name + " exists in the store");
    }
    final StandingQuery q = StandingQuery.lower(name, create.query, root, typeFactory);
    if (existing != null) {
      remove(existing);
    }
    queries.put(name, q);
    final Table table = new StandingTable(q);
    tables.put(name, table);
    root.add(name, table);
    changed();
  }

  public synchronized void drop(SqlDropStandingQuery drop) {
    final String existing = find(drop.name.getSimple());
    if (existing == null) {
      if (!drop.ifExists) {
        throw new StandingQueryException(drop.name.getParserPosition(),
            "no standing query " + drop.name.getSimple());
      }
      return;
    }
    remove(existing);
    changed();
  }

  private String find(String name) {
    return queries.keySet().stream().filter(n -> n.equalsIgnoreCase(name)).findFirst().orElse(null);
  }

  private void remove(String name) {
    queries.remove(name);
    tables.remove(name);
    CalciteSchema.from(root).removeTable(name);
  }

  private void changed() {
    planned = null;
    unread.clear();
  }

  /** Whether {@code names} ({@code name} or {@code STANDING.name}) is a standing query. */
  public synchronized boolean isStanding(List<String> names) {
    return (names.size() == 1 || names.size() == 2 && names.get(0).equalsIgnoreCase(SCHEMA))
        && find(names.get(names.size() - 1)) != null;
  }

  /**
   * The connection's plan, as {@code EXPLAIN PLAN FOR SELECT * FROM name} shows it (made now if
   * the registrations changed since the last; no pass runs): which planner queries answer which
   * standing query, the summaries each metric's pass builds, then the planner's viewer
   * ({@link PlanView}, as {@code mnestic plan} prints it): the chosen plan with the queries
   * reading each summary and the cost against the cost without sharing, or with {@code all}
   * every group, candidate, edge and pruned alternative too. {@code json} and {@code dot} are the
   * viewer's other forms.
   */
  public synchronized String explain(String form, boolean all) {
    if (planned == null) {
      planned = plan(List.copyOf(queries.values()), root);
    }
    final PlanView view = new PlanView(planned.space, planned.plan,
        TreePlans.costWithoutSharing(planned.space));
    switch (form) {
    case "json":
      return view.json();
    case "dot":
      return view.dot();
    default:
      final StringBuilder b = new StringBuilder("standing queries\n");
      for (StandingQuery q : planned.queries) {
        b.append("  ").append(q.name()).append(": ").append(q.queries().stream()
            .map(Query::name).collect(Collectors.joining(", "))).append('\n');
      }
      b.append("one pass per metric, building\n");
      planned.summaries.forEach((metric, summaries) -> {
        b.append("  ").append(metric).append('\n');
        summaries.forEach(x -> b.append("    ").append(x).append('\n'));
      });
      return b.append('\n').append(all ? view.text() : view.chosen()).toString();
    }
  }

  /**
   * {@code name}'s rows, from the latest evaluation if not yet read from it; a new evaluation
   * stops when {@code cancel} is set (the reading statement's cancel or query timeout), keeping
   * nothing of it.
   */
  synchronized List<Object[]> read(String name, AtomicBoolean cancel) {
    List<Object[]> rows = unread.remove(name);
    if (rows == null) {
      if (planned == null) {
        planned = plan(List.copyOf(queries.values()), root);
      }
      unread.putAll(planned.run(root, builds, cancel));
      evaluations++;
      rows = unread.remove(name);
    }
    return rows;
  }

  /**
   * Plans {@code standing} alone and answers it once: a standing query run as a statement,
   * stopped by {@code cancel}.
   */
  public static List<Object[]> answer(StandingQuery standing, SchemaPlus root,
      AtomicBoolean cancel) {
    return plan(List.of(standing), root).run(root, new AtomicLong(), cancel)
        .get(standing.name());
  }

  /** Standing queries planned together: the workload, its plan space and the chosen plan. */
  private record Planned(List<StandingQuery> queries, PlanSpace space, Plan plan,
      Map<String, List<SketchAggregate.Summary>> summaries) {
    /**
     * One evaluation: every query's rows, from one pass per metric; counts into {@code builds}.
     * Setting {@code cancel} (if any) stops it (see {@link Sketches#windows}).
     */
    Map<String, List<Object[]>> run(SchemaPlus root, AtomicLong builds, AtomicBoolean cancel) {
      final RelBuilder b = RelBuilder.create(Frameworks.newConfigBuilder().defaultSchema(root).build());
      b.getCluster().getPlanner().addRule(MnesticRules.ENUMERABLE_SKETCH_AGGREGATE);
      final Map<String, TreeMap<Long, Double>> answers = new PlanExecution(space, plan).answers(
          m -> b.scan(Session.SCHEMA, m.table()).project(b.field(m.timeColumn()),
              b.field(m.valueColumn())).build(),
          rel -> Plans.run(Plans.optimize(rel), root, (JavaTypeFactory) b.getTypeFactory(),
              List.of(), Map.of(Sketches.BUILDS, builds,
                  DataContext.Variable.CANCEL_FLAG.camelName,
                  cancel != null ? cancel : new AtomicBoolean())));
      final Map<String, List<Object[]>> out = new HashMap<>();
      for (StandingQuery q : queries) {
        final TreeSet<Long> ends = new TreeSet<>();
        for (Query query : q.queries()) {
          ends.addAll(answers.get(query.name()).keySet());
        }
        final List<Object[]> rows = new ArrayList<>(ends.size());
        for (long end : ends) {
          final Object[] row = new Object[q.columns().size()];
          for (int i = 0; i < row.length; i++) {
            row[i] = q.columns().get(i) instanceof StandingQuery.Column.Bound bound
                ? (Long) (bound.end() ? end : end - q.window().width().toMillis())
                : answers.get(((StandingQuery.Column.Answer) q.columns().get(i)).query().name())
                    .get(end);
          }
          rows.add(row);
        }
        out.put(q.name(), rows);
      }
      return out;
    }
  }

  private static Planned plan(List<StandingQuery> standing, SchemaPlus root) {
    final Map<String, Metric> metrics = new LinkedHashMap<>();
    final List<Query> queries = new ArrayList<>();
    for (StandingQuery q : standing) {
      for (Query query : q.queries()) {
        queries.add(query);
        final List<QueryExpr.Quantile> quantiles = query.expr() instanceof QueryExpr.Ratio r
            ? List.of(r.numerator(), r.denominator()) : List.of((QueryExpr.Quantile) query.expr());
        for (QueryExpr.Quantile quantile : quantiles) {
          metrics.computeIfAbsent(quantile.metric(),
              name -> metric(name, q, q.valueColumns().get(name), root));
        }
      }
    }
    final PlanSpace space = Planner.space(new Workload(metrics, queries, List.of()),
        ParameterLists.DEFAULT);
    final Plan plan = new MilpSelector(space, "CP_SAT", Duration.ofSeconds(60)).solve();
    return new Planned(standing, space, plan, new PlanExecution(space, plan).summaries());
  }

  /**
   * The metric named {@code name} of {@code q}'s table, with its rate, the time its rows span and
   * its value range measured on the store's rows now.
   */
  private static Metric metric(String name, StandingQuery q, String value, SchemaPlus root) {
    final String sql = "SELECT COUNT(\"" + value + "\"), MIN(\"" + q.timeColumn() + "\"), MAX(\""
        + q.timeColumn() + "\"), MIN(CASE WHEN \"" + value + "\" > 0 THEN \"" + value
        + "\" END), MAX(\"" + value + "\") FROM \"" + Session.SCHEMA + "\".\"" + q.table() + "\"";
    final Connection store = Session.of(root).getConnection();
    try (Statement s = store.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      final long count = r.getLong(1);
      final long span = count == 0 ? 0 : r.getTimestamp(3).getTime() - r.getTimestamp(2).getTime();
      final double min = r.getObject(4) == null ? 1 : r.getDouble(4);
      final double max = r.getObject(5) == null ? 2 : Math.max(r.getDouble(5), 2 * min);
      final Duration kept = Duration.ofMillis(Math.max(span, q.window().width().toMillis()));
      return new Metric(name, q.table(), q.timeColumn(), value,
          Math.max(1, count / Math.max(1.0, span / 1000.0)), kept, min, max);
    } catch (SQLException e) {
      throw new IllegalStateException("reading " + q.table() + "'s rows failed", e);
    }
  }

  /** A standing query as a table: each scan reads its rows (see {@link #read}). */
  private final class StandingTable extends AbstractTable implements ScannableTable {
    private final StandingQuery query;

    StandingTable(StandingQuery query) {
      this.query = query;
    }

    @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
      return typeFactory.copyType(query.rowType());
    }

    @Override public Enumerable<Object[]> scan(DataContext root) {
      return Linq4j.asEnumerable(read(query.name(), DataContext.Variable.CANCEL_FLAG.get(root)));
    }
  }
}
