package dev.mnestic.standing;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.exec.PlanExecution;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.select.StopSignal;
import dev.mnestic.planner.select.TreePlans;
import dev.mnestic.planner.view.PlanView;
import dev.mnestic.planner.workload.Metric;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.QueryExpr;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.rel.PlanRules;
import dev.mnestic.rel.Plans;
import dev.mnestic.rel.SketchAggregate;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.runtime.Sketches;
import dev.mnestic.sql.PromQl;
import dev.mnestic.sql.SqlCreateStandingQuery;
import dev.mnestic.sql.SqlPromQl;
import dev.mnestic.sql.SqlDropStandingQuery;
import dev.mnestic.sql.StandingQueries;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreReads;
import dev.mnestic.store.TableFeed;
import dev.mnestic.type.MnesticTypeSystem;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * The store's standing queries as one connection sees and answers them (the schema
 * {@value StandingQueries#SCHEMA}): planned together by the sketch-sharing planner, so a
 * summary two of them can read is built once, and answered together by one pass per metric over
 * the store's rows. {@link StandingProvider} hands the driver's calls to it.
 *
 * <p>{@code CREATE STANDING QUERY name AS ...} stores one in the store's catalog
 * ({@link StandingCatalog}), in the session's transaction, like a view: every connection of the
 * store sees it, also after the store is reopened, until {@code DROP STANDING QUERY} removes it
 * for everyone. Each is a table {@code name} (in the root schema, so {@code SELECT * FROM name}
 * finds it) whose rows are its windows; {@link #sync} brings a connection's tables up to the
 * catalog before each statement is prepared. An evaluation answers every standing query of the
 * store; a read takes its query's rows from the connection's latest evaluation unless that query
 * was already read from it, and otherwise starts a new evaluation. So a dashboard that reads each
 * of its queries once per refresh runs one pass per refresh. The plan is made at the first
 * evaluation (or {@link #explain}) after the standing queries or their tables change, from the
 * tables' rows then (ingest rate, value range). mnestic's DROP TABLE refuses a table a standing
 * query reads ({@link #readersOf}); one whose table was dropped all the same (by HSQLDB itself)
 * or lost a column fails when read, naming the place in its definition; the others still
 * answer.
 */
public final class Dashboard extends AbstractSchema {
  private final SchemaPlus root;
  /** Parses the stored definitions as the connection parses statements. */
  private final SqlParser.Config parser;
  private final JavaTypeFactory typeFactory = new JavaTypeFactoryImpl(MnesticTypeSystem.INSTANCE);
  /** The store's standing queries as last read from its catalog. */
  private List<StandingCatalog.Definition> definitions = List.of();
  /** Each standing query as a table, by stored name. */
  private final Map<String, Table> tables = new LinkedHashMap<>();
  /** Each standing query lowered for its table's row type, by stored name. */
  private final Map<String, StandingQuery> lowered = new HashMap<>();
  private Planned planned;
  /** Rows of the latest evaluation, by query, not yet read. */
  private final Map<String, List<Object[]>> unread = new HashMap<>();
  private int evaluations;
  private final AtomicLong builds = new AtomicLong();
  /** The summaries built from rows each metric's evaluations keep, with the table's feed. */
  private final Map<String, Kept> kept = new HashMap<>();
  /**
   * Rows the evaluations consumed: every row of a pass (of its WHERE), and those added to kept
   * summaries.
   */
  private final AtomicLong consumed = new AtomicLong();
  /**
   * Windows the evaluations made from other summaries' windows (merged, or counted from exact
   * cells): every one at a pass, those holding a part changed since at a kept read.
   */
  private final AtomicLong remade = new AtomicLong();

  private Dashboard(SchemaPlus root, SqlParser.Config parser) {
    this.root = root;
    this.parser = parser;
  }

  /**
   * Adds the store's standing queries to a connection's {@code root}, whose store session is
   * attached and has no transaction open (the catalog is created if the store has none), parsing
   * their definitions with {@code parser}.
   */
  public static void attachTo(SchemaPlus root, SqlParser.Config parser) {
    StandingCatalog.create(Session.of(root));
    final Dashboard dashboard = new Dashboard(root, parser);
    root.add(StandingQueries.SCHEMA, dashboard).setCacheEnabled(false);
    dashboard.sync();
  }

  /** The dashboard {@link #attachTo} added to {@code root}. */
  public static Dashboard of(SchemaPlus root) {
    return root.subSchemas().get(StandingQueries.SCHEMA).unwrap(Dashboard.class);
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

  /**
   * How many rows the evaluations consumed: every row a pass summarized (those of its query's
   * WHERE), and every such row committed since that an evaluation added to the summaries it
   * kept, or read again to rebuild a window an UPDATE or DELETE changed.
   */
  public long consumed() {
    return consumed.get();
  }

  /**
   * How many windows the evaluations made from other summaries' windows (merged, or counted
   * from exact cells; {@link Sketches#REMADE}): at a pass every window read, at a read from kept
   * summaries only those holding a sub-window or cell changed since the last read.
   */
  public long remade() {
    return remade.get();
  }

  /**
   * Drops the summaries kept across evaluations: the next evaluation reads every row again,
   * as the first after the store is reopened does.
   */
  public synchronized void dropKept() {
    forget();
  }

  /** How many metrics' summaries are kept for the next evaluation. */
  public synchronized int kept() {
    return kept.size();
  }

  /**
   * The windows built from rows that the kept summaries hold, per metric, by summary (as
   * {@link #summaries} lists them; see {@link Sketches.State#windowsHeld}).
   */
  public synchronized Map<String, long[]> keptWindows() {
    final Map<String, long[]> out = new HashMap<>();
    kept.forEach((metric, k) -> out.put(metric, k.state.windowsHeld()));
    return out;
  }

  /**
   * The bytes the kept summaries hold, per metric, by summary (as {@link #summaries} lists
   * them; see {@link Sketches.State#bytesHeld}).
   */
  public synchronized Map<String, long[]> keptBytes() {
    final Map<String, long[]> out = new HashMap<>();
    kept.forEach((metric, k) -> out.put(metric, k.state.bytesHeld()));
    return out;
  }

  /**
   * The heap bytes the plan's cost charges each summary's chosen candidate, per metric, by
   * summary (as {@link #summaries} lists them): for one built from rows, the windows kept across
   * evaluations; for a merge, what it holds while read. Empty before the first evaluation.
   */
  public synchronized Map<String, double[]> plannedBytes() {
    if (planned == null) {
      return Map.of();
    }
    final Map<String, double[]> out = new HashMap<>();
    new PlanExecution(planned.space, planned.plan).candidates().forEach((metric, vs) ->
        out.put(metric, vs.stream().mapToDouble(v -> planned.space.costs().get(v).heapBytes())
            .toArray()));
    return out;
  }

  /** The summaries of the current plan, per metric; empty before the first evaluation. */
  public synchronized Map<String, List<Sketches.Summary>> summaries() {
    return planned == null ? Map.of() : planned.summaries;
  }

  /**
   * Reads the store's standing queries; when they changed since the last read (this or another
   * connection created, replaced or dropped one, or a transaction rolled one back), makes the
   * connection's tables theirs and forgets its plan and unread rows. Returns whether they changed.
   */
  public synchronized boolean sync() {
    final List<StandingCatalog.Definition> now = StandingCatalog.read(session());
    if (now.equals(definitions)) {
      return false;
    }
    final CalciteSchema schema = CalciteSchema.from(root);
    tables.keySet().forEach(schema::removeTable);
    tables.clear();
    lowered.clear();
    for (StandingCatalog.Definition d : now) {
      final Table table = new StandingTable(d.name());
      tables.put(d.name(), table);
      root.add(d.name(), table);
    }
    definitions = now;
    planned = null;
    forget();
    unread.clear();
    return true;
  }

  /**
   * Stores {@code create} (its {@link SqlCreateStandingQuery#source} text) in the store's
   * catalog, in the session's transaction, once it lowers (errors name their place in that text).
   */
  public synchronized void create(SqlCreateStandingQuery create) {
    final String sql = Objects.requireNonNull(create.source,
        "a standing query is stored as its statement's text");
    sync();
    final String name = create.name.getSimple();
    final StandingCatalog.Definition existing = find(name);
    if (existing != null && !create.getReplace()) {
      throw new StandingQueryException(create.name.getParserPosition(),
          "standing query " + existing.name() + " exists");
    }
    if (CalciteSchema.from(root).getSubSchema(Session.SCHEMA, false).getTable(name, false) != null) {
      throw new StandingQueryException(create.name.getParserPosition(),
          "a table " + name + " exists in the store");
    }
    StandingQuery.lower(name, create.query, StandingQuery.retention(create.retain), root,
        typeFactory);
    StandingCatalog.put(session(), existing == null ? null : existing.name(),
        new StandingCatalog.Definition(name, sql));
    sync();
  }

  /** Removes {@code drop}'s standing query from the store's catalog, in the session's transaction. */
  public synchronized void drop(SqlDropStandingQuery drop) {
    sync();
    final StandingCatalog.Definition existing = find(drop.name.getSimple());
    if (existing == null) {
      if (!drop.ifExists) {
        throw new StandingQueryException(drop.name.getParserPosition(),
            "no standing query " + drop.name.getSimple());
      }
      return;
    }
    StandingCatalog.remove(session(), existing.name());
    sync();
  }

  private Session session() {
    return Session.of(root);
  }

  /** The standing query called {@code name} ignoring case, or null. */
  private StandingCatalog.Definition find(String name) {
    return definitions.stream().filter(d -> d.name().equalsIgnoreCase(name)).findFirst()
        .orElse(null);
  }

  /** The store's standing queries written in PromQL, in the order they were created. */
  public synchronized List<StandingQueries.PromQlStanding> promql() {
    sync();
    final List<StandingQueries.PromQlStanding> out = new ArrayList<>();
    for (StandingCatalog.Definition d : definitions) {
      if (parse(d).query.query instanceof SqlPromQl promql) {
        final PromQl.Expr expr = PromQl.parse(promql.text.getValueAs(String.class));
        out.add(new StandingQueries.PromQlStanding(d.name(), expr.toString(),
            PromQlQuery.step(promql, expr)));
      }
    }
    return out;
  }

  /** Whether {@code names} ({@code name} or {@code STANDING.name}) is a standing query. */
  public synchronized boolean isStanding(List<String> names) {
    return (names.size() == 1
        || names.size() == 2 && names.get(0).equalsIgnoreCase(StandingQueries.SCHEMA))
        && find(names.get(names.size() - 1)) != null;
  }

  /**
   * {@code d} lowered against the store's tables now.
   *
   * @throws StandingQueryException when it no longer lowers (its table was dropped or changed),
   *     naming the query and the place in its definition
   */
  private StandingQuery lower(StandingCatalog.Definition d) {
    final SqlCreateStandingQuery create = parse(d);
    try {
      return StandingQuery.lower(d.name(), create.query, StandingQuery.retention(create.retain),
          root, typeFactory);
    } catch (StandingQueryException e) {
      throw new StandingQueryException(d, e);
    }
  }

  /** {@code d}'s stored statement, parsed. */
  private SqlCreateStandingQuery parse(StandingCatalog.Definition d) {
    try {
      return (SqlCreateStandingQuery) SqlParser.create(d.sql(), parser).parseStmt();
    } catch (SqlParseException e) {
      throw new IllegalStateException("standing query " + d.name() + " is stored as text that"
          + " does not parse: " + e.getMessage(), e);
    }
  }

  /**
   * The standing query {@code names} ({@code name} or {@code STANDING.name}, one that
   * {@link #isStanding}) lowered against the store's tables now.
   */
  synchronized StandingQuery lowered(List<String> names) {
    sync();
    final StandingCatalog.Definition d = find(names.get(names.size() - 1));
    if (d == null) {
      throw new IllegalStateException("no standing query " + names.get(names.size() - 1));
    }
    return lower(d);
  }

  /**
   * The names of the standing queries that read the store's table {@code table} (its stored
   * name), in the order they were created; one that no longer lowers reads none.
   */
  public synchronized List<String> readersOf(String table) {
    sync();
    final List<String> readers = new ArrayList<>();
    for (StandingQuery q : lowerAll(new HashMap<>())) {
      if (q.table().equals(table)) {
        readers.add(q.name());
      }
    }
    return readers;
  }

  /** Every standing query that lowers now; {@code broken} receives why the others do not. */
  private List<StandingQuery> lowerAll(Map<String, StandingQueryException> broken) {
    final List<StandingQuery> out = new ArrayList<>();
    for (StandingCatalog.Definition d : definitions) {
      try {
        out.add(lower(d));
      } catch (StandingQueryException e) {
        broken.put(d.name(), e);
      }
    }
    return out;
  }

  /** The plan of {@code standing}, made again unless the current one is theirs. */
  private Planned planFor(List<StandingQuery> standing) {
    if (planned == null || !planned.queries.equals(standing)) {
      planned = plan(standing, root);
      forget();
      unread.clear();
    }
    return planned;
  }

  /** Drops the kept summaries (the plan changed), no longer following their tables. */
  private void forget() {
    kept.values().forEach(k -> k.feed.close());
    kept.clear();
  }

  /**
   * The connection's plan, as {@code EXPLAIN PLAN FOR SELECT * FROM name} shows it (made now if
   * the registrations changed since the last; no pass runs): which planner queries answer which
   * standing query, the summaries each metric's pass builds (with, once an evaluation kept
   * them, the windows each holds and their bytes, and the bytes the plan charges for each:
   * {@link #plannedBytes}), then the planner's viewer
   * ({@link PlanView}, as {@code mnestic plan} prints it): the chosen plan with the queries
   * reading each summary and the cost against the cost without sharing, or with {@code all}
   * every group, candidate, edge and pruned alternative too. {@code json} and {@code dot} are the
   * viewer's other forms.
   */
  public synchronized String explain(String form, boolean all) {
    sync();
    final Map<String, StandingQueryException> broken = new LinkedHashMap<>();
    final List<StandingQuery> standing = lowerAll(broken);
    if (standing.isEmpty()) {
      throw broken.values().iterator().next();
    }
    planFor(standing);
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
      // each summary with what the connection keeps of it since its last read, and what the
      // plan charges for it
      b.append("one pass per metric, building\n");
      final Map<String, double[]> charged = plannedBytes();
      planned.summaries.forEach((metric, summaries) -> {
        b.append("  ").append(metric).append('\n');
        final Kept k = kept.get(metric);
        for (int i = 0; i < summaries.size(); i++) {
          b.append("    ").append(summaries.get(i));
          if (k != null) {
            b.append(" kept ").append(k.state.windowsHeld()[i]).append(" windows, ")
                .append(k.state.bytesHeld()[i]).append(" bytes");
          }
          b.append(" (planned ").append(Math.round(charged.get(metric)[i])).append(" bytes)\n");
        }
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
    sync();
    if (find(name) == null) {
      throw new IllegalStateException("standing query " + name + " was dropped");
    }
    List<Object[]> rows = unread.remove(name);
    if (rows == null) {
      // Lowered again: a table may have been dropped or changed since the last evaluation.
      final Map<String, StandingQueryException> broken = new HashMap<>();
      final List<StandingQuery> standing = lowerAll(broken);
      if (broken.containsKey(name)) {
        throw broken.get(name);
      }
      final Map<String, List<Object[]>> answers = evaluate(standing, name, cancel);
      unread.clear();
      unread.putAll(answers);
      evaluations++;
      rows = unread.remove(name);
    }
    return rows;
  }

  /**
   * Every query of {@code standing}'s rows, from one evaluation of their shared plan; should that
   * fail (one query's filter failing on the store's rows fails the pass of its metric, and
   * planning measures every metric), from an evaluation of each query alone, so one failing
   * query never keeps the others from answering. Throws the failure of {@code name}'s query,
   * naming it, if that one fails alone; a stop ({@code cancel}) is thrown as it is.
   */
  private Map<String, List<Object[]>> evaluate(List<StandingQuery> standing, String name,
      AtomicBoolean cancel) {
    try {
      return planFor(standing).run(root, builds, cancel, this);
    } catch (RuntimeException e) {
      forget();
      if (standing.size() == 1 || cancel != null && cancel.get()) {
        throw e;
      }
      planned = null;
      final Map<String, List<Object[]>> answers = new HashMap<>();
      RuntimeException own = null;
      for (StandingQuery q : standing) {
        try {
          answers.putAll(plan(List.of(q), root).run(root, builds, cancel, null));
        } catch (RuntimeException alone) {
          if (cancel != null && cancel.get()) {
            throw alone;
          }
          if (q.name().equals(name)) {
            own = alone;
          }
        }
      }
      if (own != null) {
        throw new IllegalStateException("standing query " + name + " cannot be read: "
            + deepestMessage(own), own);
      }
      return answers;
    }
  }

  /** The message of the deepest cause of {@code e} that has one (the store's, if it failed). */
  private static String deepestMessage(Throwable e) {
    String message = e.getMessage();
    for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      if (t.getMessage() != null) {
        message = t.getMessage();
      }
    }
    return message;
  }

  /** A metric's summaries built from rows, kept at {@code version} of its table's feed. */
  private static final class Kept {
    final TableFeed feed;
    final Sketches.State state;
    /**
     * The pass's rows for a query with WHERE: the (time, value) of the table's rows that pass
     * its filter, as a plan that reads the feed's rows ({@link StoreReads#ROWS}) as the table;
     * null without WHERE, the feed's rows then taken as they are.
     */
    final EnumerableRel rows;
    long version;

    Kept(TableFeed feed, Sketches.State state, EnumerableRel rows, long version) {
      this.feed = feed;
      this.state = state;
      this.rows = rows;
      this.version = version;
    }

    /**
     * The (time, value) of {@code changed} (rows of the table, whole) that the pass summarizes:
     * a query's WHERE is applied by the same plan as in the pass, run over them.
     */
    List<double[]> pairs(SchemaPlus root, List<Object[]> changed, Map<String, Object> context) {
      if (rows == null) {
        return feed.pairs(changed);
      }
      final List<double[]> out = new ArrayList<>();
      if (changed.isEmpty()) {
        return out;
      }
      final Map<String, Object> variables = new HashMap<>(context);
      variables.put(StoreReads.ROWS, feed.rows(changed));
      for (Object[] row : Plans.run(rows, root, (JavaTypeFactory) rows.getCluster()
          .getTypeFactory(), List.of(), variables)) {
        if (row[0] != null && row[1] != null) {
          out.add(new double[] {((Number) row[0]).longValue(), ((Number) row[1]).doubleValue()});
        }
      }
      return out;
    }
  }

  /**
   * {@code aggregate}'s reads over {@code metric} from the summaries kept for it (for a query
   * with WHERE, {@code filtered}, the rows the feed gives pass it as in the pass), with the rows committed to its table since added; or null, the pass then to
   * run with {@code variables}, to which this adds what keeps the pass's summaries when they
   * are known to hold exactly the table's committed rows at one version.
   *
   * <p>Kept summaries are used when the table's feed tells the rows committed since they were
   * kept ({@link #update}); a commit that rolled a statement back, or wrote more rows than the
   * feed logs, makes the next evaluation a pass again. While the connection has writes of its own not committed
   * (which its reads see, but no version counts), evaluations run passes and keep nothing.
   */
  private Iterable<Object[]> kept(SchemaPlus root, Metric metric, SketchAggregate aggregate,
      boolean filtered, Map<String, Object> variables) {
    final Kept k = kept.get(metric.name());
    if (k != null && k.state.summaries().equals(aggregate.summaries)) {
      final long now = k.feed.version();
      if (now < 0) {
        return null;
      }
      final TableFeed.Changes changes = k.feed.changesSince(k.version, now);
      if (changes != null && update(root, k, changes, now, variables)) {
        k.version = now;
        k.feed.mark(now);
        return k.state.reads(variables::get);
      }
    }
    if (k != null) {
      k.feed.close();
      kept.remove(metric.name());
    }
    final TableFeed feed = TableFeed.of(Session.of(root), metric.table(), metric.timeColumn(),
        metric.valueColumn());
    final long before = feed == null ? -1 : feed.version();
    // planned before the pass, whose planning of the whole reuses the cluster's planner
    final EnumerableRel rows = feed != null && filtered ? Plans.optimize(aggregate.getInput())
        : null;
    variables.put(Sketches.KEEP, (Consumer<Sketches.State>) state -> {
      consumed.addAndGet(state.rows());
      // Kept only when no commit of the table came while the pass read it.
      if (before >= 0 && feed.version() == before) {
        feed.mark(before);
        kept.put(metric.name(), new Kept(feed, state, rows, before));
      }
    });
    return null;
  }

  /**
   * Brings {@code k} up to date with {@code changes}, the commits up to version {@code now}:
   * inserted rows are added; the windows holding a deleted row (an UPDATE's old row among
   * them) are dropped and built again from the table's rows of their time ranges, read at
   * {@code now}; rows of a query with WHERE are those that pass it ({@link Kept#pairs}).
   * Returns false, {@code k} then useless, when the table moved on meanwhile.
   */
  private boolean update(SchemaPlus root, Kept k, TableFeed.Changes changes, long now,
      Map<String, Object> context) {
    final long before = k.state.rows();
    final List<double[]> deleted = k.pairs(root, changes.deleted(), context);
    final List<double[]> inserted = k.pairs(root, changes.inserted(), context);
    final double latestDeleted = deleted.stream().mapToDouble(row -> row[0]).max()
        .orElse(Double.NEGATIVE_INFINITY);
    if (latestDeleted >= k.state.latest()
        && inserted.stream().noneMatch(row -> row[0] >= latestDeleted)) {
      // The latest row time may have moved back, and with it what the retention reads:
      // windows already dropped would be read again.
      return false;
    }
    if (deleted.isEmpty()) {
      for (double[] row : inserted) {
        k.state.add((long) row[0], row[1]);
      }
    } else {
      final List<long[]> ranges = k.state.drop(deleted.stream()
          .mapToLong(row -> (long) row[0]).toArray());
      for (double[] row : inserted) {
        k.state.addOutside((long) row[0], row[1]);
      }
      try {
        for (long[] range : ranges) {
          if (k.rows == null) {
            if (!k.feed.read(now, range[0], range[1], k.state::refill)) {
              return false;
            }
            continue;
          }
          final List<Object[]> rows = k.feed.rowsIn(now, range[0], range[1]);
          if (rows == null) {
            return false;
          }
          for (double[] row : k.pairs(root, rows, context)) {
            k.state.refill((long) row[0], row[1]);
          }
        }
      } catch (SQLException e) {
        throw new IllegalStateException("reading " + k.feed + " again failed", e);
      } finally {
        k.state.refilled();
      }
    }
    consumed.addAndGet(k.state.rows() - before);
    return true;
  }

  /**
   * Plans {@code standing} alone and answers it once: a standing query run as a statement,
   * stopped by {@code cancel}.
   */
  public static List<Object[]> answer(StandingQuery standing, SchemaPlus root,
      AtomicBoolean cancel) {
    return plan(List.of(standing), root).run(root, new AtomicLong(), cancel, null)
        .get(standing.name());
  }

  /**
   * Standing queries planned together: the workload, its plan space and the chosen plan. Each
   * planner query's retention is how far back its windows are kept and read: its standing
   * query's RETAIN (seven days by default), or for a statement the span of its rows, whose
   * every window it answers. The plan space holds what the executor runs
   * ({@link Execution#STANDING}), so the plan's cost charges the windows the kept summaries
   * hold.
   */
  private record Planned(List<StandingQuery> queries, PlanSpace space, Plan plan,
      Map<String, List<Sketches.Summary>> summaries) {
    /**
     * One evaluation: every query's rows, from one pass per metric or, with {@code keeping}
     * (the dashboard keeping summaries across evaluations, or null), from the summaries it
     * kept, brought up to date ({@link Dashboard#kept}); counts into {@code builds}. Setting
     * {@code cancel} (if any) stops it (see {@link Sketches#windows}).
     */
    Map<String, List<Object[]>> run(SchemaPlus root, AtomicLong builds, AtomicBoolean cancel,
        Dashboard keeping) {
      final RelBuilder b = RelBuilder.create(Frameworks.newConfigBuilder().defaultSchema(root).build());
      PlanRules.STANDING.applyTo(b.getCluster().getPlanner());
      final Map<String, RowFilter> filters = new HashMap<>();
      for (StandingQuery q : queries) {
        q.valueColumns().keySet().forEach(metric -> filters.put(metric, q.filterOf(metric)));
      }
      final Map<String, TreeMap<Long, Double>> answers = new PlanExecution(space, plan).answers(
          m -> {
            b.scan(Session.SCHEMA, m.table());
            if (filters.get(m.name()) != null) {
              b.filter(filters.get(m.name()).toRex(b));
            }
            return b.project(b.field(m.timeColumn()), b.field(m.valueColumn())).build();
          },
          (metric, rel, context) -> {
            final Map<String, Object> variables = new HashMap<>(context);
            variables.put(Sketches.BUILDS, builds);
            if (keeping != null) {
              variables.put(Sketches.REMADE, (Consumer<long[]>) made ->
                  keeping.remade.addAndGet(Arrays.stream(made).sum()));
            }
            variables.put(DataContext.Variable.CANCEL_FLAG.camelName,
                cancel != null ? cancel : new AtomicBoolean());
            if (keeping != null) {
              final Iterable<Object[]> reads = keeping.kept(root, metric, rel,
                  filters.get(metric.name()) != null, variables);
              if (reads != null) {
                return reads;
              }
            }
            return Plans.run(Plans.optimize(rel), root, (JavaTypeFactory) b.getTypeFactory(),
                List.of(), variables);
          });
      final Map<String, List<Object[]>> out = new HashMap<>();
      for (StandingQuery q : queries) {
        if (q.promql() != null) {
          out.put(q.name(), q.promql().rows(answers));
          continue;
        }
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
        final List<QueryExpr.Quantile> quantiles = query.expr() instanceof QueryExpr.Ratio r
            ? List.of(r.numerator(), r.denominator()) : List.of((QueryExpr.Quantile) query.expr());
        Duration span = Duration.ZERO;
        for (QueryExpr.Quantile quantile : quantiles) {
          final Metric m = metrics.computeIfAbsent(quantile.metric(),
              name -> metric(name, q, q.valueColumns().get(name), root));
          span = span.compareTo(m.rawRetention()) >= 0 ? span : m.rawRetention();
        }
        // A statement answers every window of its rows, all held by its one pass, read once.
        queries.add(q.retain() != null ? query : new Query(query.name(), query.expr(),
            query.target(), query.every(), span, Query.ONCE, query.line()));
      }
    }
    // made before the search, so a statement stopped before the solver starts still stops it
    final StopSignal stop = new StopSignal();
    final Callable<Planned> search = () -> {
      final Planner.Planned planned = Planner.plan(new Workload(metrics, queries, List.of()),
          Planner.Options.defaults().withStop(stop).withExecution(Execution.STANDING));
      return new Planned(standing, planned.space(), planned.plan(),
          new PlanExecution(planned.space(), planned.plan()).summaries());
    };
    // The local search and the solver look at no cancel flag (a 1 ms step makes seconds of
    // them): the reading statement waits for them on its own terms, and stops the search
    // (StopSignal.stop) when it is stopped.
    final RunningStatement running = RunningStatement.current();
    try {
      return running == null ? search.call() : running.await(search, stop::stop);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The metric named {@code name} of {@code q}'s table, with its rate, the time its rows span and
   * its value range measured on the store's rows (those of {@code q}'s WHERE) now.
   */
  private static Metric metric(String name, StandingQuery q, String value, SchemaPlus root) {
    // Read through the store scan, as a pass reads the rows: a statement of the store's own
    // HSQLDB would fold the table's segment into HSQLDB's rows first.
    final RelBuilder b = RelBuilder.create(Frameworks.newConfigBuilder().defaultSchema(root).build());
    PlanRules.STANDING.applyTo(b.getCluster().getPlanner());
    b.scan(Session.SCHEMA, q.table());
    if (q.filterOf(name) != null) {
      b.filter(q.filterOf(name).toRex(b));
    }
    final RexNode v = b.field(value);
    final RexNode t = b.field(q.timeColumn());
    b.aggregate(b.groupKey(), b.count(false, null, v), b.min(t), b.max(t),
        b.min(v).filter(b.greaterThan(v, b.literal(0))), b.max(v));
    final Object[] r = Plans.run(Plans.optimize(b.build()), root,
        (JavaTypeFactory) b.getTypeFactory(), List.of(),
        Map.of(DataContext.Variable.CANCEL_FLAG.camelName, new AtomicBoolean())).first();
    final long count = ((Number) r[0]).longValue();
    final long span = count == 0 ? 0 : ((Number) r[2]).longValue() - ((Number) r[1]).longValue();
    final double min = r[3] == null ? 1 : ((Number) r[3]).doubleValue();
    final double max = r[4] == null ? 2 : Math.max(((Number) r[4]).doubleValue(), 2 * min);
    final Duration kept = Duration.ofMillis(Math.max(span, q.window().width().toMillis()));
    return new Metric(name, q.table(), q.timeColumn(), value,
        Math.max(1, count / Math.max(1.0, span / 1000.0)), kept, min, max);
  }

  /** A standing query as a table: each scan reads its rows (see {@link #read}). */
  private final class StandingTable extends AbstractTable implements ScannableTable {
    /** As stored. */
    private final String name;

    StandingTable(String name) {
      this.name = name;
    }

    @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
      synchronized (Dashboard.this) {
        final StandingCatalog.Definition d = find(name);
        if (d == null) {
          throw new IllegalStateException("standing query " + name + " was dropped");
        }
        return typeFactory.copyType(lowered.computeIfAbsent(name, n -> lower(d)).rowType());
      }
    }

    @Override public Enumerable<Object[]> scan(DataContext root) {
      return Linq4j.asEnumerable(read(name, DataContext.Variable.CANCEL_FLAG.get(root)));
    }
  }
}
