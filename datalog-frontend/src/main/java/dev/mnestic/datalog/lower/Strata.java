package dev.mnestic.datalog.lower;

import dev.mnestic.datalog.DatalogException;
import dev.mnestic.datalog.StoredSchema;
import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.eval.ConstantRules;
import dev.mnestic.rel.LogicalDatalogAggregate;
import dev.mnestic.rel.LogicalRecursiveUnion;
import dev.mnestic.rel.MnesticRules;
import dev.mnestic.rel.Plans;
import dev.mnestic.rel.RowTable;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.runtime.SemiNaive;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;
import dev.mnestic.value.HostAggregations;
import dev.mnestic.value.ValueException;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.plan.ViewExpanders;
import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Evaluates a query's strata in order. Each stratum is one Calcite plan:
 * the union of its rules for a non-recursive rule, a
 * {@link LogicalRecursiveUnion} for a recursive component. Its result is
 * materialised as a transient table that later strata scan; the tables are
 * dropped when the evaluation closes.
 */
public final class Strata implements RuleLowering.Tables, AutoCloseable {
  /** Iterations after which a recursion that keeps changing is stopped. */
  static final int MAX_ITERATIONS = 1_000_000;
  /** Codes of the failures of mnestic's aggregations, which name the rule. */
  private static final String AGGREGATE_ERRORS = "mnestic::aggregate_";

  private static final ScheduledExecutorService ALARMS =
      Executors.newSingleThreadScheduledExecutor(r -> {
        final Thread t = new Thread(r, "mnestic-datalog-timeout");
        t.setDaemon(true);
        return t;
      });

  private final CalciteConnection connection;
  /** {@link System#nanoTime()} by which evaluation must end; 0 for none. */
  private final long deadline;
  /** Set to stop evaluation: by another thread (cancel), or when the deadline passes. */
  private final AtomicBoolean stop;
  /** Where a long evaluation shows its progress; null for nowhere. */
  private final ProgressLine progress;
  /** Told of every round of every fixpoint too; null for none. */
  private SemiNaive.Progress rounds;
  /** While explaining ({@link #explain}): the rows of the explanation; null while evaluating. */
  private List<List<Object>> explanation;
  /** The stratum being evaluated (from 1) and its relations. */
  private int stratum;
  private List<String> evaluating = List.of();
  /** Sets {@link #stop} at the deadline; null for none. */
  private final ScheduledFuture<?> alarm;
  private final Map<String, ?> params;
  /** The aggregations the engine's host registered. */
  private final HostAggregations host;
  /** Rounds a recursion through a bounded-meet aggregation may keep changing its result. */
  private final int maxEpochs;
  /** While such a recursion runs: its rule's aggregating head position; else null. */
  private Rule.HeadArg frontier;
  private String frontierRule;
  private final RelBuilder b;
  private final SchemaPlus root;
  private final Map<String, RelOptTable> materialized = new HashMap<>();
  /** Every row table this evaluation made: the context plans run with. */
  private final List<RowTable> tables = new ArrayList<>();
  /** During a recursive stratum: which table each rule application reads. */
  private Map<Atom.RuleApply, RelOptTable> reads = new IdentityHashMap<>();
  /** The query's rules by name, disjunctions expanded. */
  private final Map<String, List<Rule>> rulesByName = new LinkedHashMap<>();
  /** Whether rules being lowered run inside a fixpoint, once per round. */
  private boolean inFixpoint;
  /** The table of each stored relation ({@link #readStoredFrom}); null: the store's of its name. */
  private Function<String, Optional<String>> storedTables;
  /** Stored relations read inside fixpoints, copied once (as CozoDB values) instead of rescanned each round. */
  private final Map<String, RelOptTable> storedCopies = new HashMap<>();

  /**
   * @param deadline {@link System#nanoTime()} by which the whole evaluation must end
   *     ({@code :timeout}, a statement's query timeout), 0 for none: each plan runs with what
   *     is left, as a query timeout, and fails when it is gone
   * @param cancelFlag when another thread sets it, the running plan is cancelled and the
   *     evaluation fails as on its deadline; null for none
   * @param host the aggregations the engine's host registered
   * @param maxEpochs rounds a recursion through a bounded-meet aggregation may keep changing
   *     its result before it fails ({@code mnestic::frontier_diverges})
   */
  public Strata(Connection connection, Map<String, ?> params, long deadline,
      AtomicBoolean cancelFlag, PrintStream progress, HostAggregations host, int maxEpochs)
      throws SQLException {
    this.connection = connection.unwrap(CalciteConnection.class);
    this.params = params;
    this.host = host;
    this.maxEpochs = maxEpochs;
    this.deadline = deadline;
    this.stop = cancelFlag != null ? cancelFlag : new AtomicBoolean();
    this.progress = progress == null ? null : new ProgressLine(progress);
    this.alarm = deadline == 0 ? null
        : ALARMS.schedule(() -> RunningStatement.stop(stop, RunningStatement.Cause.TIMEOUT,
            "the script ran past its deadline"), Math.max(0, deadline - System.nanoTime()),
            TimeUnit.NANOSECONDS);
    this.root = this.connection.getRootSchema();
    this.b = RelBuilder.create(Frameworks.newConfigBuilder().defaultSchema(root).build());
    // RelRunner plans with the planner of the plan's own cluster. Values of
    // type ANY have no order Calcite can generate code for: no merge joins.
    b.getCluster().getPlanner().addRule(MnesticRules.ENUMERABLE_RECURSIVE_UNION);
    b.getCluster().getPlanner().addRule(MnesticRules.ENUMERABLE_DATALOG_AGGREGATE);
    b.getCluster().getPlanner().removeRule(EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE);
    // Its uniqueness metadata recursed forever over mutually recursive components.
    b.getCluster().getPlanner().removeRule(CoreRules.JOIN_ON_UNIQUE_TO_SEMI_JOIN);
    // It folds a filter's constant calls into literals of type ANY, and the Java
    // generated for a negative one, (Object) -0.1D, does not compile ('lon > -0.1');
    // a list or bytes has no literal at all.
    b.getCluster().getPlanner().removeRule(CoreRules.FILTER_REDUCE_EXPRESSIONS);
    // With four or more joins it made the planner's metadata cyclic
    // (CyclicMetadataException, e.g. the skyline spec's join back from a
    // frontier to its rows); joins keep the order of the rule's atoms, as in CozoDB.
    b.getCluster().getPlanner().removeRule(CoreRules.JOIN_COMMUTE);
  }

  /** Tells {@code rounds} (null for none) of every round of every fixpoint evaluated. */
  public void reportRoundsTo(SemiNaive.Progress rounds) {
    this.rounds = rounds;
  }

  /**
   * Reads each stored relation from the table {@code tables} names for it (empty: there is
   * none), as a script that made relations sees them; by default the store's table of the
   * relation's name.
   */
  public void readStoredFrom(Function<String, Optional<String>> tables) {
    this.storedTables = tables;
  }

  /** Evaluates every stratum; returns the entry rule's rows (distinct, unordered). */
  public List<List<Object>> evaluate(List<Rule> rules, List<List<String>> strata)
      throws SQLException {
    evaluateAll(rules, strata);
    final List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : RowTable.of(materialized.get(Rule.ENTRY)).rows()) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  /**
   * What {@link #evaluate} would do, run nothing: per stratum, in order of
   * evaluation, its relations and the plan Calcite chooses for it, one line
   * of the plan a row ({@code [stratum, rules, plan]}).
   */
  public List<List<Object>> explain(List<Rule> rules, List<List<String>> strata)
      throws SQLException {
    explanation = new ArrayList<>();
    evaluateAll(rules, strata);
    return explanation;
  }

  private void evaluateAll(List<Rule> rules, List<List<String>> strata) throws SQLException {
    final Map<String, List<Rule>> byName = rulesByName;
    for (Rule r : rules) {
      byName.computeIfAbsent(r.name(), k -> new ArrayList<>()).addAll(Dnf.expand(r));
    }
    for (int k = 0; k < strata.size(); k++) {
      stratum = k + 1;
      evaluating = strata.get(k);
      if (progress != null) {
        progress.stratum(stratum, strata.size(), evaluating);
      }
      evaluate(evaluating, byName);
    }
  }

  private void explained(String line) {
    explanation.add(List.of((long) stratum, String.join(", ", evaluating), line));
  }

  private void evaluate(List<String> component, Map<String, List<Rule>> byName)
      throws SQLException {
    final Set<String> members = new TreeSet<>(component);
    final String first = component.get(0);
    final List<Rule> firstRules = byName.get(first);
    if (firstRules.get(0).kind() == Rule.Kind.CONSTANT) {
      final List<Object[]> rows = new ArrayList<>();
      for (List<Object> row : ConstantRules.rows(firstRules.get(0), params)) {
        rows.add(row.toArray());
      }
      materialize(first, rows, firstRules.get(0).head().size());
      if (explanation != null) {
        explained("Values (constant rule, " + rows.size() + " rows)");
      }
      return;
    }
    final boolean recursive = members.size() > 1 || firstRules.stream()
        .anyMatch(r -> !RuleLowering.recursiveAtoms(r, members).isEmpty());
    if (!recursive) {
      final List<String> aggregations = RuleLowering.aggregations(firstRules.get(0), params, host);
      final boolean aggregated = aggregations.stream().anyMatch(a -> a != null);
      final RelNode union = union(firstRules, width(firstRules, aggregated));
      final RelNode plan = aggregated
          ? LogicalDatalogAggregate.create(union, aggregations)
          : distinct(union);
      materialize(first, execute(plan), arity(firstRules));
      return;
    }

    // full_m and delta_m for every member; seeds read no member, iterative
    // parts read one member's delta per variant and full elsewhere.
    final Map<String, RelOptTable> full = new LinkedHashMap<>();
    final Map<String, RelOptTable> delta = new LinkedHashMap<>();
    for (String m : component) {
      full.put(m, rowTable("full_" + m, anyRow(arity(byName.get(m)))));
      delta.put(m, rowTable("delta_" + m, anyRow(arity(byName.get(m)))));
    }
    final List<RelNode> seeds = new ArrayList<>();
    final List<RelNode> iteratives = new ArrayList<>();
    inFixpoint = true;
    // Meet aggregations keep each group's best (the stratifier allows no others here).
    final List<List<String>> aggregations = new ArrayList<>();
    for (String m : component) {
      final List<Rule> rules = byName.get(m);
      final List<String> aggs = RuleLowering.aggregations(rules.get(0), params, host);
      final boolean aggregated = aggs.stream().anyMatch(a -> a != null);
      aggregations.add(aggregated ? aggs : null);
      final List<RelNode> seedPlans = new ArrayList<>();
      final List<RelNode> iterativePlans = new ArrayList<>();
      for (int ordinal = 0; ordinal < rules.size(); ordinal++) {
        final Rule r = rules.get(ordinal);
        final List<Atom.RuleApply> recursiveAtoms = RuleLowering.recursiveAtoms(r, members);
        if (recursiveAtoms.isEmpty()) {
          seedPlans.add(lower(r, ordinal));
          continue;
        }
        for (Atom.RuleApply viaDelta : recursiveAtoms) {
          reads = new IdentityHashMap<>();
          for (Atom.RuleApply a : recursiveAtoms) {
            reads.put(a, a == viaDelta ? delta.get(a.rule()) : full.get(a.rule()));
          }
          iterativePlans.add(lower(aggregated ? r : deltaFirst(r, viaDelta), ordinal));
          reads = new IdentityHashMap<>();
        }
      }
      seeds.add(unionOf(seedPlans, width(rules, aggregated)));
      iteratives.add(unionOf(iterativePlans, width(rules, aggregated)));
    }
    inFixpoint = false;
    // A frontier over a cycle whose every lap adds an incomparable point never settles.
    for (int i = 0; i < component.size() && frontier == null; i++) {
      if (aggregations.get(i) != null && host.boundedMeetKind(aggregations.get(i))) {
        frontierRule = component.get(i);
        final List<Rule.HeadArg> head = byName.get(frontierRule).get(0).head();
        frontier = head.get(head.size() - 1);
      }
    }
    final RelNode plan = LogicalRecursiveUnion.create(seeds, iteratives,
        new ArrayList<>(full.values()), new ArrayList<>(delta.values()), aggregations,
        frontier != null ? maxEpochs : MAX_ITERATIONS);
    try {
      // The fixpoint fills the full tables; its rows (full_0's) need not be copied out.
      execute(plan, Enumerable::count);
    } finally {
      frontier = null;
    }
    // each member's full table holds its tuples now, for good
    for (RelOptTable t : full.values()) {
      RowTable.of(t).fix();
    }
    materialized.putAll(full);
  }

  /**
   * {@code rule} with the atom that reads the delta first, when its body is
   * only relations applied to variables and constants: then a round starts
   * from its new tuples and probes the other relations, whose lookups a
   * fixed table keeps ({@link RowTable#fix}), instead of building a lookup
   * over the delta every round. The order changes nothing else: such a body
   * evaluates no expression, and its rows are not aggregated (an aggregated
   * head keeps CozoDB's order).
   */
  private static Rule deltaFirst(Rule rule, Atom.RuleApply viaDelta) {
    for (Atom a : rule.body()) {
      final List<Expr> args = a instanceof Atom.RuleApply r ? r.args()
          : a instanceof Atom.StoredApply s ? (s.isNamed()
              ? s.named().stream().map(Atom.Binding::value).toList() : s.positional())
          : null;
      if (args == null || !args.stream().allMatch(e -> e instanceof Expr.Var
          || e instanceof Expr.Literal)) {
        return rule;
      }
    }
    final List<Atom> body = new ArrayList<>(List.of(viaDelta));
    for (Atom a : rule.body()) {
      if (a != viaDelta) {
        body.add(a);
      }
    }
    return new Rule(rule.name(), rule.head(), rule.kind(), body, rule.constant(), rule.pos());
  }

  /**
   * The distinct rows of {@code input}, by our own hashing
   * ({@link dev.mnestic.runtime.RowKey}): Calcite's distinct hashes rows as
   * {@code 31 * h + e}, which collides heavily on rows of small integers.
   */
  private static RelNode distinct(RelNode input) {
    return LogicalDatalogAggregate.create(input,
        Collections.nCopies(input.getRowType().getFieldCount(), null));
  }

  private RelNode lower(Rule rule, int ordinal) {
    return new RuleLowering(b, params, host, this).lower(rule, ordinal);
  }

  private RelNode union(List<Rule> rules, int width) {
    final List<RelNode> plans = new ArrayList<>();
    for (int ordinal = 0; ordinal < rules.size(); ordinal++) {
      plans.add(lower(rules.get(ordinal), ordinal));
    }
    return unionOf(plans, width);
  }

  private RelNode unionOf(List<RelNode> plans, int arity) {
    if (plans.isEmpty()) {
      return b.values(anyRow(arity)).build();
    }
    for (RelNode p : plans) {
      b.push(p);
    }
    return b.union(true, plans.size()).build();
  }

  private static int arity(List<Rule> rules) {
    return rules.get(0).head().size();
  }

  /** Columns of a rule set's plans: the head's, and for an aggregating head, each row's place. */
  private static int width(List<Rule> rules, boolean aggregated) {
    return arity(rules) + (aggregated ? 1 : 0);
  }

  /** A row of {@code arity} columns c0, c1, ... of type ANY. */
  private RelDataType anyRow(int arity) {
    final List<String> names = new ArrayList<>();
    for (int i = 0; i < arity; i++) {
      names.add("c" + i);
    }
    return anyRow(names);
  }

  /** The script stopped: its help says why, as its statement does (a :timeout is a timeout). */
  private static DatalogException killed() {
    final RunningStatement running = RunningStatement.current();
    final RunningStatement.Cause cause = running == null ? null : running.cause();
    return new DatalogException("eval::killed", "Running query is killed before completion",
        0, 0, cause == RunningStatement.Cause.CANCEL ? "it was cancelled"
            : cause == RunningStatement.Cause.MEMORY ? "it held more heap than it may"
            : "it ran past its :timeout");
  }

  /**
   * Runs a plan; returns its rows (CozoDB values). A function's failure is
   * the script's error; so is being stopped (deadline or cancel).
   */
  private List<Object[]> execute(RelNode plan) {
    return execute(plan, Enumerable::toList);
  }

  /** Runs a plan as {@link #execute(RelNode)}; {@code read} reads its rows. */
  private <T> T execute(RelNode plan, Function<Enumerable<Object[]>, T> read) {
    if (stop.get()) {
      throw killed();
    }
    try {
      final EnumerableRel physical = Plans.optimize(plan);
      if (explanation != null) {
        for (String line : Plans.explain(physical).split("\n")) {
          explained(line);
        }
        return read.apply(Linq4j.emptyEnumerable());
      }
      final Map<String, Object> variables = new HashMap<>();
      variables.put(DataContext.Variable.CANCEL_FLAG.camelName, stop);
      variables.put(HostAggregations.VARIABLE, host);
      final SemiNaive.Progress told = rounds == null ? progress : progress == null ? rounds
          : (round, deltas) -> {
            progress.round(round, deltas);
            rounds.round(round, deltas);
          };
      if (told != null) {
        variables.put(SemiNaive.PROGRESS, told);
      }
      final Enumerable<Object[]> rows = Plans.run(physical, root,
          (JavaTypeFactory) b.getTypeFactory(), tables, variables);
      final T result = read.apply(rows);
      if (stop.get()) {
        throw killed();
      }
      return result;
    } catch (RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof DatalogException) {
          throw (DatalogException) t;
        }
        if (t instanceof ValueException) {
          final ValueException v = (ValueException) t;
          if (v.code() != null && v.code().startsWith(AGGREGATE_ERRORS)) {
            throw aggregateError(v);
          }
          // placed at the stratum's first rule: generated code does not tell which expression
          final Pos at = evaluating.isEmpty() || rulesByName.get(evaluating.get(0)) == null
              ? new Pos(0, 0) : rulesByName.get(evaluating.get(0)).get(0).pos();
          throw new DatalogException(v.code(), v.getMessage(), at.line(), at.column(), v.help());
        }
        if (t instanceof RunningStatement.StatementStoppedException
            || t.getMessage() != null && t.getMessage().contains("recursion cancelled")) {
          throw killed();
        }
        if (t.getMessage() != null && t.getMessage().startsWith("recursion did not reach")
            && frontier != null) {
          throw new DatalogException("mnestic::frontier_diverges", "rule '" + frontierRule
              + "': its '" + frontier.aggregation() + "' survivors still changed after "
              + maxEpochs + " epochs", frontier.pos().line(), frontier.pos().column(),
              "a recursion whose every lap adds a point no other beats never settles: bound it"
                  + " (a hop limit, say), or raise :max_epochs (now " + maxEpochs + ")");
        }
        if (t.getMessage() != null && t.getMessage().startsWith("recursion did not reach")) {
          throw new DatalogException("mnestic::no_fixpoint", t.getMessage(), 0, 0,
              "a recursive rule keeps deriving new rows; bound it, or give the query a :timeout");
        }
      }
      throw e;
    }
  }

  /**
   * An aggregation's failure ({@code 'pareto_max' takes ..., got ...}) with
   * the rule and the head position it is in: the first rule of the stratum
   * whose head names the aggregation.
   */
  private DatalogException aggregateError(ValueException v) {
    for (String name : evaluating) {
      for (Rule.HeadArg h : rulesByName.get(name).get(0).head()) {
        if (h.isAggregated() && v.getMessage().contains("'" + h.aggregation() + "'")) {
          return new DatalogException(v.code(), "rule '" + name + "': " + v.getMessage(),
              h.pos().line(), h.pos().column(), v.help());
        }
      }
    }
    return new DatalogException(v.code(), v.getMessage(), 0, 0, v.help());
  }

  private void materialize(String rule, List<Object[]> rows, int arity) {
    final RelOptTable table = rowTable("rule_" + rule, anyRow(arity));
    RowTable.of(table).rows().addAll(rows);
    RowTable.of(table).fix();
    materialized.put(rule, table);
  }

  private RelOptTable rowTable(String base, RelDataType rowType) {
    final RelOptTable table = RowTable.create(b.getRelOptSchema(), base, rowType);
    tables.add(RowTable.of(table));
    return table;
  }

  // RuleLowering.Tables

  @Override public RelOptTable rule(Atom.RuleApply apply) {
    final RelOptTable t = reads.getOrDefault(apply, materialized.get(apply.rule()));
    if (t == null) {
      throw new IllegalStateException("rule " + apply.rule() + " read before it was evaluated");
    }
    return t;
  }

  @Override public RelNode stored(String relation, Pos pos) {
    final Session session = Session.of(root);
    final Optional<String> table = storedTables != null ? storedTables.apply(relation)
        : StoreCatalog.findTable(session, relation);
    if (table.isEmpty()) {
      throw new DatalogException("query::relation_not_found",
          "Cannot find requested stored relation '" + relation + "'", pos.line(), pos.column());
    }
    // Asked of the store schema itself: Calcite's wrapper snapshots table
    // names and would miss a table this script just created.
    final Table stored = root.subSchemas().get(Session.SCHEMA)
        .unwrap(org.apache.calcite.adapter.jdbc.JdbcSchema.class).tables().get(table.get());
    if (stored == null) {
      throw new IllegalStateException("store table " + table.get() + " is not in the schema");
    }
    final RelOptTable relOptTable = RelOptTableImpl.create(b.getRelOptSchema(),
        stored.getRowType(b.getTypeFactory()), stored,
        com.google.common.collect.ImmutableList.of(Session.SCHEMA, table.get()));
    final RelNode scan = ((TranslatableTable) stored).toRel(
        ViewExpanders.simpleContext(b.getCluster()), relOptTable);
    final List<RexNode> values = new ArrayList<>();
    final List<StoredSchema.Codec> codecs = StoredSchema.codecs(session, table.get());
    b.push(scan);
    for (int i = 0; i < scan.getRowType().getFieldCount(); i++) {
      final String codec = codecs.get(i).runtimeName;
      values.add(codec == null ? b.call(Operators.VALUE, b.field(i))
          : b.call(Operators.STORED, b.field(i), b.literal(codec)));
    }
    final RelNode read = b.project(values, scan.getRowType().getFieldNames(), true).build();
    if (!inFixpoint) {
      return read;
    }
    RelOptTable copy = storedCopies.get(table.get());
    if (copy == null) {
      copy = rowTable("stored_" + table.get(), anyRow(scan.getRowType().getFieldNames()));
      RowTable.of(copy).rows().addAll(execute(read));
      RowTable.of(copy).fix();
      storedCopies.put(table.get(), copy);
    }
    return b.push(org.apache.calcite.rel.logical.LogicalTableScan.create(b.getCluster(), copy,
        List.of())).build();
  }

  private RelDataType anyRow(List<String> names) {
    final RelDataTypeFactory f = b.getTypeFactory();
    final RelDataTypeFactory.Builder row = f.builder();
    for (String name : names) {
      row.add(name, f.createTypeWithNullability(f.createSqlType(SqlTypeName.ANY), true));
    }
    return row.build();
  }

  @Override public RelOptTable constants(List<?> values, boolean indexed) {
    final RelOptTable table = rowTable("in", anyRow(indexed ? 2 : 1));
    for (int i = 0; i < values.size(); i++) {
      RowTable.of(table).rows().add(indexed
          ? new Object[] {(long) i, values.get(i)} : new Object[] {values.get(i)});
    }
    RowTable.of(table).fix();
    return table;
  }

  @Override public void close() {
    if (alarm != null) {
      alarm.cancel(false);
    }
    if (progress != null) {
      progress.close();
    }
  }
}
