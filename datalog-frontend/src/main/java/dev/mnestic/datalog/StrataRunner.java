package dev.mnestic.datalog;

import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.lower.StrataOptions;
import dev.mnestic.datalog.lower.StratumLowering;
import dev.mnestic.datalog.lower.StratumPlan;
import dev.mnestic.rel.Plans;
import dev.mnestic.runtime.FixpointException;
import dev.mnestic.runtime.RowTable;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.runtime.SemiNaive;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;
import dev.mnestic.store.StoreReads;
import dev.mnestic.store.TablePolicy;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.ValueException;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.schema.SchemaPlus;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.HashSet;
import java.util.stream.IntStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Runs a {@link StratumPlan}: each step lowered ({@link StratumLowering}),
 * planned by Calcite and run, its rows kept as a transient table that later
 * steps scan; the tables are dropped when the run closes. The runner owns
 * what running means: the deadline and the cancel flag, the progress line,
 * and turning a plan's failure into the script's {@link DatalogException}.
 *
 * <p>An evaluation is recorded ({@link Evaluation}): what it did in order, each plan compiled,
 * over its row tables; when its plans depend only on the script, its parameters and the
 * store's schema ({@link StratumLowering#reusable}), a later run of the same block may do it
 * again over the same tables, emptied, without lowering, planning or generating code
 * ({@link #replay}).
 */
final class StrataRunner implements AutoCloseable {
  private static final ScheduledExecutorService ALARMS =
      Executors.newSingleThreadScheduledExecutor(r -> {
        final Thread t = new Thread(r, "mnestic-datalog-timeout");
        t.setDaemon(true);
        return t;
      });

  private final StrataOptions options;
  private final SchemaPlus root;
  private final StratumLowering lowering;
  /** Set to stop evaluation: by another thread (cancel), or when the deadline passes. */
  private final AtomicBoolean stop;
  /** Where a long evaluation shows its progress; null for nowhere. */
  private final ProgressLine progress;
  /** Sets {@link #stop} at the deadline; null for none. */
  private final ScheduledFuture<?> alarm;
  /** While explaining ({@link #explain}): the rows of the explanation; null while evaluating. */
  private List<List<Object>> explanation;
  /** The step being run. */
  private StratumPlan.Step step;
  /** The rules of each relation the plan evaluates, disjunctions expanded. */
  private final Map<String, List<Rule>> rules;
  /** What the evaluation did so far, in order. */
  private final List<Act> acts;
  /** The store table each stored relation the lowering asked for was found in, or null. */
  private final Map<String, String> found;

  /**
   * An evaluation's record, to do again ({@link #replay}): its lowering (its row tables),
   * the rules of each relation, what it did in order, and the store table each stored
   * relation it reads was found in.
   */
  static final class Evaluation {
    private final SchemaPlus root;
    private final StratumLowering lowering;
    private final Map<String, List<Rule>> rules;
    private final List<Act> acts;
    private final Map<String, String> found;

    private Evaluation(SchemaPlus root, StratumLowering lowering, Map<String, List<Rule>> rules,
        List<Act> acts, Map<String, String> found) {
      this.root = root;
      this.lowering = lowering;
      this.rules = rules;
      this.acts = acts;
      this.found = found;
    }

    /**
     * Whether the stored relations it reads are in the same store tables under
     * {@code options} (an imperative script's relations move between tables as it runs).
     */
    boolean readsAsBefore(StrataOptions options) {
      for (Map.Entry<String, String> f : found.entrySet()) {
        if (!Objects.equals(tableOf(f.getKey(), options, root).orElse(null), f.getValue())) {
          return false;
        }
      }
      return true;
    }

    /** Lets go of the rows its last run left in its tables, to be run again. */
    void empty() {
      lowering.empty();
    }
  }

  /** One thing an evaluation did, in the step it did it for. */
  private sealed interface Act {
    StratumPlan.Step step();
  }

  /** A constant rule's rows, kept in its table. */
  private record Fill(StratumPlan.Step step, RowTable into, List<Object[]> rows) implements Act {
  }

  /** A plan's rows kept in a table: a relation evaluated once, a fixed rule's. */
  private record Keep(StratumPlan.Step step, Plans.Compiled plan, RowTable into)
      implements Act {
  }

  /** A stored relation's copy that fixpoints read ({@link #copied}), kept in its table. */
  private record Copy(StratumPlan.Step step, StratumLowering.Read read, Plans.Compiled plan,
      RowTable into) implements Act {
  }

  /** A fixpoint run, its full tables then its members' rows. */
  private record Fix(StratumPlan.Fixpoint step, Plans.Compiled plan, List<RowTable> full)
      implements Act {
  }

  StrataRunner(Connection connection, Map<String, ?> params, StrataOptions options)
      throws SQLException {
    this(connection, options, null, params);
  }

  /** A runner doing {@code evaluation} again ({@link #replay}). */
  StrataRunner(Connection connection, StrataOptions options, Evaluation evaluation)
      throws SQLException {
    this(connection, options, evaluation, null);
  }

  private StrataRunner(Connection connection, StrataOptions options, Evaluation evaluation,
      Map<String, ?> params) throws SQLException {
    this.options = options;
    this.root = connection.unwrap(CalciteConnection.class).getRootSchema();
    this.stop = options.cancelFlag() != null ? options.cancelFlag() : new AtomicBoolean();
    this.progress = options.progress() == null ? null : new ProgressLine(options.progress());
    this.alarm = options.deadline() == 0 ? null
        : ALARMS.schedule(() -> RunningStatement.stop(stop, RunningStatement.Cause.TIMEOUT,
            "the script ran past its deadline"),
            Math.max(0, options.deadline() - System.nanoTime()), TimeUnit.NANOSECONDS);
    if (evaluation != null) {
      this.lowering = evaluation.lowering;
      this.rules = evaluation.rules;
      this.acts = evaluation.acts;
      this.found = evaluation.found;
      return;
    }
    this.rules = new HashMap<>();
    this.acts = new ArrayList<>();
    this.found = new HashMap<>();
    this.lowering = new StratumLowering(root, params, options.host(),
        new StratumLowering.StoredTables() {
          @Override public Optional<StratumLowering.StoredTable> find(String relation) {
            return storedTable(relation);
          }

          @Override public Optional<StratumLowering.SearchTarget> search(String relation,
              String index) {
            return searchTarget(relation, index);
          }
        }, options.now(), options.genericJoins());
  }

  /** Runs every step; returns the entry rule's rows (distinct, unordered). */
  List<List<Object>> evaluate(StratumPlan plan) {
    runAll(plan);
    return entryRows();
  }

  /**
   * What this runner did, to do again ({@link #replay}) in a later run of the same block over
   * the same store schema; null when its plans hold what only this run found
   * ({@link StratumLowering#reusable}).
   */
  Evaluation evaluation() {
    return lowering.reusable() ? new Evaluation(root, lowering, rules, acts, found) : null;
  }

  /**
   * Does what the evaluation this runner was made with did (its tables {@link Evaluation#empty
   * empty}), each step's compiled plan run again, nothing lowered or planned; returns the
   * entry rule's rows as {@link #evaluate} does.
   */
  List<List<Object>> replay() {
    int shown = 0;
    final int strata = acts.isEmpty() ? 0 : acts.get(acts.size() - 1).step().stratum();
    for (Act a : acts) {
      step = a.step();
      if (progress != null && step.stratum() != shown) {
        shown = step.stratum();
        progress.stratum(shown, strata, step.relations());
      }
      if (a instanceof Fill f) {
        fill(f.into(), f.rows());
      } else if (a instanceof Keep k) {
        fill(k.into(), run(k.plan(), Enumerable::toList));
      } else if (a instanceof Copy c) {
        copy(c.into(), c.read(), c.plan());
      } else {
        final Fix f = (Fix) a;
        try {
          run(f.plan(), StrataRunner::started);
        } catch (FixpointException e) {
          throw unfinished(f.step(), e);
        }
        f.full().forEach(RowTable::fix);
      }
    }
    return entryRows();
  }

  private static void fill(RowTable table, List<Object[]> rows) {
    table.rows().addAll(rows);
    table.fix();
  }

  private List<List<Object>> entryRows() {
    final List<List<Object>> rows = new ArrayList<>();
    for (Object[] row : lowering.rows(Rule.ENTRY)) {
      rows.add(Arrays.asList(row));
    }
    return rows;
  }

  /**
   * What {@link #evaluate} would do, run nothing: per step, in order, its
   * stratum, the stratum's relations and the plan Calcite chooses for it,
   * one line of the plan a row ({@code [stratum, rules, plan]}).
   */
  List<List<Object>> explain(StratumPlan plan) {
    explanation = new ArrayList<>();
    runAll(plan);
    return explanation;
  }

  private void runAll(StratumPlan plan) {
    for (StratumPlan.Step s : plan.steps()) {
      if (s instanceof StratumPlan.Constant c) {
        rules.put(c.rule().name(), List.of(c.rule()));
      } else if (s instanceof StratumPlan.Fixed f) {
        rules.put(f.rule().name(), List.of(f.rule()));
      } else if (s instanceof StratumPlan.Once o) {
        rules.put(o.relations().get(0), o.rules());
      } else if (s instanceof StratumPlan.Fixpoint f) {
        f.members().forEach(m -> rules.put(m.relation(), m.rules()));
      }
    }
    final int strata = plan.steps().isEmpty() ? 0
        : plan.steps().get(plan.steps().size() - 1).stratum();
    int shown = 0;
    for (StratumPlan.Step s : plan.steps()) {
      step = s;
      if (progress != null && s.stratum() != shown) {
        shown = s.stratum();
        progress.stratum(shown, strata, s.relations());
      }
      if (s instanceof StratumPlan.Constant c) {
        constant(c);
      } else if (s instanceof StratumPlan.Once o) {
        final Plans.Compiled compiled = compile(lowering.once(o));
        acts.add(new Keep(s, compiled, lowering.materialize(o.relations().get(0),
            run(compiled, Enumerable::toList), o.rules().get(0).head().size())));
      } else if (s instanceof StratumPlan.Fixed f) {
        final Plans.Compiled compiled = compile(lowering.fixed(f));
        acts.add(new Keep(s, compiled, lowering.materialize(f.rule().name(),
            run(compiled, Enumerable::toList), f.rule().head().size())));
      } else if (s instanceof StratumPlan.CopyStored c) {
        final StratumLowering.Read read = lowering.read(c);
        final Plans.Compiled compiled = compile(read.plan());
        final RowTable into = lowering.copy(c, read);
        copy(into, read, compiled);
        acts.add(new Copy(c, read, compiled, into));
      } else {
        fixpoint((StratumPlan.Fixpoint) s);
      }
    }
  }

  /**
   * Fills and fixes {@code into} with the rows of a stored relation a fixpoint reads: for a
   * relation of Int columns, the store's packed copy ({@link StoreReads#longs}: no row, boxed
   * value or plan between the store's columns and the copy the probe chains index; the copy
   * and its indexes kept for later statements while the table is unchanged); else, or when a
   * value is null, its read's plan run.
   */
  private void copy(RowTable into, StratumLowering.Read read, Plans.Compiled compiled) {
    if (explanation == null && read.ints() != null) {
      if (stop.get()) {
        throw killed();
      }
      final StoreReads.Packed packed;
      try {
        packed = StoreReads.longs(Session.of(root), read.table(), read.ints().columns(),
            read.ints().how(), stop);
      } catch (IllegalStateException e) {
        // the store's read stops so when cancelled
        throw stop.get() ? killed() : e;
      }
      if (packed != null) {
        into.fix(packed);
        return;
      }
    }
    fill(into, run(compiled, Enumerable::toList));
  }

  private void constant(StratumPlan.Constant c) {
    final List<Object[]> rows = new ArrayList<>();
    for (List<Object> row : c.rows()) {
      rows.add(row.toArray());
    }
    acts.add(new Fill(c, lowering.materialize(c.rule().name(), rows, c.rule().head().size()),
        rows));
    if (explanation != null) {
      explained("Values (constant rule, " + rows.size() + " rows)");
    }
  }

  private void fixpoint(StratumPlan.Fixpoint f) {
    final StratumLowering.Recursion recursion = lowering.fixpoint(f);
    final Plans.Compiled compiled = compile(recursion.plan());
    try {
      run(compiled, StrataRunner::started);
    } catch (FixpointException e) {
      throw unfinished(f, e);
    }
    lowering.settled(recursion);
    acts.add(new Fix(f, compiled,
        recursion.full().values().stream().map(RowTable::of).toList()));
  }

  /**
   * Runs a fixpoint's plan to its first row: the fixpoint fills the full tables before its
   * first row comes, and its rows (full_0's) need not be read out (reading the chain's 499,500
   * tuples as rows, only to count them, took 7% of its run).
   */
  private static Void started(Enumerable<Object[]> rows) {
    try (Enumerator<Object[]> e = rows.enumerator()) {
      e.moveNext();
    }
    return null;
  }

  /** A fixpoint that did not finish: stopped, or still changing after its rounds. */
  private static DatalogException unfinished(StratumPlan.Fixpoint f, FixpointException e) {
    if (e.reason() == FixpointException.Reason.CANCELLED) {
      return killed();
    }
    if (f.frontier() != null) {
      final Rule.HeadArg h = f.frontier().head();
      return new DatalogException(ErrorCode.MNESTIC_FRONTIER_DIVERGES, "rule '" + f.frontier().rule()
          + "': its '" + h.aggregation() + "' survivors still changed after "
          + f.maxRounds() + " epochs", h.pos().line(), h.pos().column(),
          "a recursion whose every lap adds a point no other beats never settles: bound it"
              + " (a hop limit, say), or raise :max_epochs (now " + f.maxRounds() + ")");
    }
    return new DatalogException(ErrorCode.MNESTIC_NO_FIXPOINT, e.getMessage(), 0, 0,
        "a recursive rule keeps deriving new rows; bound it, or give the query a :timeout");
  }

  private void explained(String line) {
    explanation.add(List.of((long) step.stratum(), String.join(", ", step.relations()), line));
  }

  /** The script stopped: its help says why, as its statement does (a :timeout is a timeout). */
  static DatalogException killed() {
    final RunningStatement running = RunningStatement.current();
    final RunningStatement.Cause cause = running == null ? null : running.cause();
    return new DatalogException(ErrorCode.EVAL_KILLED, "Running query is killed before completion",
        0, 0, cause == RunningStatement.Cause.CANCEL ? "it was cancelled"
            : cause == RunningStatement.Cause.MEMORY ? "it held more heap than it may"
            : "it ran past its :timeout");
  }

  /**
   * The Enumerable plan Calcite chooses for {@code plan}, compiled; while explaining, null, its
   * lines explained. A function's failure is the script's error; so is being stopped.
   */
  private Plans.Compiled compile(RelNode plan) {
    if (stop.get()) {
      throw killed();
    }
    try {
      final EnumerableRel physical = Plans.optimize(plan);
      if (explanation != null) {
        for (String line : Plans.explain(physical).split("\n")) {
          explained(line);
        }
        return null;
      }
      return Plans.compile(physical);
    } catch (RuntimeException e) {
      throw failure(e);
    }
  }

  /**
   * Runs a compiled plan (none while explaining: no rows); {@code read} reads its rows (CozoDB
   * values). A function's failure is the script's error; so is being stopped (deadline or
   * cancel).
   */
  private <T> T run(Plans.Compiled plan, Function<Enumerable<Object[]>, T> read) {
    if (stop.get()) {
      throw killed();
    }
    if (plan == null) {
      return read.apply(Linq4j.emptyEnumerable());
    }
    try {
      final Map<String, Object> variables = new HashMap<>();
      variables.put(DataContext.Variable.CANCEL_FLAG.camelName, stop);
      final SemiNaive.Progress rounds = options.rounds();
      final SemiNaive.Progress told = rounds == null ? progress : progress == null ? rounds
          : (round, deltas) -> {
            progress.round(round, deltas);
            rounds.round(round, deltas);
          };
      if (told != null) {
        variables.put(SemiNaive.PROGRESS, told);
      }
      final Enumerable<Object[]> rows = plan.run(root,
          (JavaTypeFactory) lowering.builder().getTypeFactory(), lowering.tables(), variables);
      final T result = read.apply(rows);
      if (stop.get()) {
        throw killed();
      }
      return result;
    } catch (RuntimeException e) {
      throw failure(e);
    }
  }

  /** What a plan's failure {@code e} is to the script. */
  private RuntimeException failure(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof DatalogException d) {
        return d;
      }
      if (t instanceof FixpointException f) {
        return f;
      }
      if (t instanceof ValueException v) {
        if (v.errorCode() != null && v.errorCode().isAggregateFailure()) {
          return aggregateError(v);
        }
        // placed at the step's first rule: generated code does not tell which expression
        final Pos at = firstRulePos();
        return new DatalogException(v.errorCode(), v.getMessage(), at.line(), at.column(),
            v.help());
      }
      if (t instanceof RunningStatement.StatementStoppedException) {
        return killed();
      }
    }
    return e;
  }

  /** Where the first rule of the step's first relation is. */
  private Pos firstRulePos() {
    final List<Rule> first = rules.get(step.relations().get(0));
    return first == null ? new Pos(0, 0) : first.get(0).pos();
  }

  /**
   * An aggregation's failure ({@code 'pareto_max' takes ..., got ...}) with
   * the rule and the head position it is in: the first rule of the stratum
   * whose head names the aggregation.
   */
  private DatalogException aggregateError(ValueException v) {
    for (String name : step.relations()) {
      for (Rule.HeadArg h : rules.get(name).get(0).head()) {
        if (h.isAggregated() && v.getMessage().contains("'" + h.aggregation() + "'")) {
          return new DatalogException(v.errorCode(), "rule '" + name + "': " + v.getMessage(),
              h.pos().line(), h.pos().column(), v.help());
        }
      }
    }
    return new DatalogException(v.errorCode(), v.getMessage(), 0, 0, v.help());
  }

  /** The search index {@code index} of stored relation {@code relation} (which exists), or empty. */
  private Optional<StratumLowering.SearchTarget> searchTarget(String relation, String index) {
    final Session session = Session.of(root);
    final String table = storedTable(relation).orElseThrow().table();
    final SearchIndex.Definition definition =
        TablePolicy.of(session, table).searchIndices().get(index);
    if (definition == null) {
      return Optional.empty();
    }
    final SearchIndex.Columns columns = SearchIndexes.columns(StoredSchema.read(session, table));
    return Optional.of(new StratumLowering.SearchTarget(
        SearchIndexes.instance(session, table, definition, columns), table,
        SearchIndexes.kind(definition.kind()), definition, columns));
  }

  /**
   * The store table of {@code relation} (a relation, or an index {@code rel:idx} of one: its
   * relation's table, read in the index's column order), its columns' codecs and the values
   * an equality on an index's leading column takes; empty when there is none.
   */
  private Optional<StratumLowering.StoredTable> storedTable(String relation) {
    final Session session = Session.of(root);
    final int colon = relation.indexOf(':');
    final String base = colon < 0 ? relation : relation.substring(0, colon);
    final Optional<String> table = tableOf(base, options, root);
    found.put(base, table.orElse(null));
    if (table.isEmpty()) {
      return Optional.empty();
    }
    final StoredSchema schema = StoredSchema.read(session, table.get());
    final List<String> names = schema.columns().stream().map(StoredSchema.Column::name).toList();
    // the store's indexes, read once: an index rel:idx is the store's index "table:idx"
    final Map<String, List<String>> indexes = StoreCatalog.indexes(session, table.get());
    final List<Integer> columns;
    if (colon < 0) {
      columns = IntStream.range(0, names.size()).boxed().toList();
    } else {
      final List<String> index = indexes.get(table.get() + relation.substring(colon));
      if (index == null) {
        return Optional.empty();
      }
      columns = index.stream().map(names::indexOf).toList();
    }
    final Set<String> leading = new HashSet<>();
    indexes.values().forEach(i -> leading.add(i.get(0)));
    return Optional.of(schema.lowered(columns, new StratumLowering.Lookup() {
      @Override public boolean leads(int column) {
        return leading.contains(names.get(column)) && schema.columns().get(column).lookable();
      }

      @Override public Object storedValue(int column, Object value) {
        return leads(column) ? schema.columns().get(column).lookupValue(value) : null;
      }
    }, () -> StoreCatalog.rowCount(session, table.get())));
  }

  /** The store table holding stored relation {@code relation} (no index part), or empty. */
  private static Optional<String> tableOf(String relation, StrataOptions options,
      SchemaPlus root) {
    return options.storedTables() != null ? options.storedTables().apply(relation)
        : StoreCatalog.findTable(Session.of(root), relation);
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
