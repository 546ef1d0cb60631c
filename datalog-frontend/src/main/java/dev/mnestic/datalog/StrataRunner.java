package dev.mnestic.datalog;

import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.lower.StrataOptions;
import dev.mnestic.datalog.lower.StratumLowering;
import dev.mnestic.datalog.lower.StratumPlan;
import dev.mnestic.rel.Plans;
import dev.mnestic.runtime.FixpointException;
import dev.mnestic.runtime.RowList;
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
  private final Map<String, List<Rule>> rules = new HashMap<>();

  StrataRunner(Connection connection, Map<String, ?> params, StrataOptions options)
      throws SQLException {
    this.options = options;
    this.root = connection.unwrap(CalciteConnection.class).getRootSchema();
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
    this.stop = options.cancelFlag() != null ? options.cancelFlag() : new AtomicBoolean();
    this.progress = options.progress() == null ? null : new ProgressLine(options.progress());
    this.alarm = options.deadline() == 0 ? null
        : ALARMS.schedule(() -> RunningStatement.stop(stop, RunningStatement.Cause.TIMEOUT,
            "the script ran past its deadline"),
            Math.max(0, options.deadline() - System.nanoTime()), TimeUnit.NANOSECONDS);
  }

  /** Runs every step; returns the entry rule's rows (distinct, unordered). */
  List<List<Object>> evaluate(StratumPlan plan) {
    runAll(plan);
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
        lowering.materialize(o.relations().get(0), execute(lowering.once(o)),
            o.rules().get(0).head().size());
      } else if (s instanceof StratumPlan.Fixed f) {
        lowering.materialize(f.rule().name(), execute(lowering.fixed(f)),
            f.rule().head().size());
      } else if (s instanceof StratumPlan.CopyStored c) {
        final StratumLowering.Read read = lowering.read(c);
        lowering.copy(c, read, () -> {
          // run when a fixpoint's rules read the copy, shown as this step
          final StratumPlan.Step running = step;
          step = c;
          try {
            return copied(read);
          } finally {
            step = running;
          }
        });
      } else {
        fixpoint((StratumPlan.Fixpoint) s);
      }
    }
  }

  /**
   * The rows of a stored relation a fixpoint reads: for a relation of Int columns, read from the
   * store straight into packed rows ({@link StoreReads#longs}: no row, boxed value or plan
   * between the store's columns and the copy the probe chains index); else, or when a value is
   * null, its read's plan run.
   */
  private List<Object[]> copied(StratumLowering.Read read) {
    if (explanation == null && read.ints() != null) {
      if (stop.get()) {
        throw killed();
      }
      final long[] values;
      try {
        values = StoreReads.longs(Session.of(root), read.table(), read.ints().columns(),
            read.ints().how(), stop);
      } catch (IllegalStateException e) {
        // the store's read stops so when cancelled
        throw stop.get() ? killed() : e;
      }
      if (values != null) {
        return RowList.packed(values, read.ints().columns().length);
      }
    }
    return execute(read.plan());
  }

  private void constant(StratumPlan.Constant c) {
    final List<Object[]> rows = new ArrayList<>();
    for (List<Object> row : c.rows()) {
      rows.add(row.toArray());
    }
    lowering.materialize(c.rule().name(), rows, c.rule().head().size());
    if (explanation != null) {
      explained("Values (constant rule, " + rows.size() + " rows)");
    }
  }

  private void fixpoint(StratumPlan.Fixpoint f) {
    final StratumLowering.Recursion recursion = lowering.fixpoint(f);
    lowering.fillCopies();
    try {
      // The fixpoint fills the full tables; its rows (full_0's) need not be copied out: its
      // first row, which it is run to the end to give, is all that is read.
      execute(recursion.plan(), Enumerable::any);
    } catch (FixpointException e) {
      throw unfinished(f, e);
    }
    lowering.settled(recursion);
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
      final SemiNaive.Progress rounds = options.rounds();
      final SemiNaive.Progress told = rounds == null ? progress : progress == null ? rounds
          : (round, deltas) -> {
            progress.round(round, deltas);
            rounds.round(round, deltas);
          };
      if (told != null) {
        variables.put(SemiNaive.PROGRESS, told);
      }
      final Enumerable<Object[]> rows = Plans.run(physical, root,
          (JavaTypeFactory) lowering.builder().getTypeFactory(), lowering.tables(), variables);
      final T result = read.apply(rows);
      if (stop.get()) {
        throw killed();
      }
      return result;
    } catch (RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof DatalogException d) {
          throw d;
        }
        if (t instanceof FixpointException f) {
          throw f;
        }
        if (t instanceof ValueException v) {
          if (v.errorCode() != null && v.errorCode().isAggregateFailure()) {
            throw aggregateError(v);
          }
          // placed at the step's first rule: generated code does not tell which expression
          final Pos at = firstRulePos();
          throw new DatalogException(v.errorCode(), v.getMessage(), at.line(), at.column(), v.help());
        }
        if (t instanceof RunningStatement.StatementStoppedException) {
          throw killed();
        }
      }
      throw e;
    }
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
    final Optional<String> table = options.storedTables() != null
        ? options.storedTables().apply(base) : StoreCatalog.findTable(session, base);
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

  @Override public void close() {
    if (alarm != null) {
      alarm.cancel(false);
    }
    if (progress != null) {
      progress.close();
    }
  }
}
