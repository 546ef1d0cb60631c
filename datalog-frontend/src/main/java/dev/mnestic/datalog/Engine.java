package dev.mnestic.datalog;

import dev.mnestic.datalog.analysis.Definitions;
import dev.mnestic.datalog.analysis.Stratifier;
import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.ast.Script;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.eval.ConstantEvaluator;
import dev.mnestic.datalog.eval.ConstantRules;
import dev.mnestic.datalog.fixed.FixedRules;
import dev.mnestic.datalog.fixed.ReadPolicy;
import dev.mnestic.datalog.lower.MagicSets;
import dev.mnestic.datalog.lower.StrataOptions;
import dev.mnestic.datalog.lower.StratumPlan;
import dev.mnestic.datalog.lower.StratumPlanner;
import dev.mnestic.datalog.parse.Parser;
import dev.mnestic.runtime.DeepStack;
import dev.mnestic.runtime.RunningStatement;
import dev.mnestic.runtime.SemiNaive;
import dev.mnestic.store.Session;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Json;
import dev.mnestic.value.Aggregators;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.HostAggregations;
import dev.mnestic.value.MinCostK;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;

import org.apache.calcite.jdbc.CalciteConnection;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;
import java.util.function.Supplier;

/**
 * Runs CozoScript on a mnestic connection: parse, stratify, lower each
 * stratum to Calcite algebra and run it, then order and cut the entry
 * rule's rows as its options say.
 *
 * <p>Stored relations are the tables of the connection's store.
 */
public final class Engine {
  private final Connection connection;
  /**
   * How every script's strata are evaluated: the aggregations registered on
   * this engine (shared with the engines derived from it), the deadline by
   * which every script must end (a statement's query timeout), the cancel
   * flag, where the progress line goes, who is told of rounds.
   */
  private final StrataOptions options;
  /** What reads the store's tables besides scripts: a script drops no table they read. */
  private final TableReaders readers;
  /**
   * The evaluations of query blocks kept to run again: this engine's and those derived from
   * it (a connection's engine and every statement's), dropped with them.
   */
  private final KeptEvaluations kept;

  /**
   * What reads the store's tables besides scripts (the driver's standing queries): given a
   * table's stored name, the names of its readers, empty for none.
   */
  @FunctionalInterface
  public interface TableReaders {
    /** Nothing reads a table but scripts. */
    TableReaders NONE = table -> List.of();

    List<String> of(String table);
  }

  public Engine(Connection connection) {
    this(connection, StrataOptions.of(HostAggregations.NONE), TableReaders.NONE,
        new KeptEvaluations());
  }

  private Engine(Connection connection, StrataOptions options, TableReaders readers,
      KeptEvaluations kept) {
    this.connection = connection;
    this.options = options;
    this.readers = readers;
    this.kept = kept;
  }

  private Engine with(StrataOptions options) {
    return new Engine(connection, options, readers, kept);
  }

  /**
   * This engine, its scripts refusing to drop or make anew a table that {@code readers} read
   * ({@code ::remove}, a {@code :replace} with other columns) as SQL's DROP TABLE refuses one
   * a standing query reads: the script fails with {@code mnestic::table_read_elsewhere} at the
   * op, before anything is written.
   */
  public Engine keepingTablesReadBy(TableReaders readers) {
    return new Engine(connection, options, readers, kept);
  }

  /**
   * This engine, telling {@code rounds} of every round of every fixpoint its
   * scripts evaluate (the new tuples of each relation), as a benchmark
   * counting the tuples a recursion derives does.
   */
  public Engine reportingRoundsTo(SemiNaive.Progress rounds) {
    return with(options.reportingRoundsTo(rounds));
  }

  /**
   * This engine, joining every rule body pairwise, atom by atom, where a cyclic one (a
   * triangle) is otherwise joined by a worst-case optimal generic join: the plan the generic
   * join's tests and benchmarks compare with.
   */
  public Engine joiningPairwise() {
    return with(options.withGenericJoins(false));
  }

  /**
   * This engine and a bounded-meet aggregation ordered by {@code dominates},
   * for the scripts of the engine returned (and of the engines
   * {@link #stoppedBy} and {@link #showingProgressOn} derive from it; this
   * engine and every other one stay as they were): per group, the values no
   * other value of the group dominates, each a row, in value order; it may
   * run inside its own recursion, pruning dominated partial results, as
   * {@code pareto_min} does. {@code dominates.test(a, b)} gets CozoDB values
   * as Java objects (null, Boolean, Long, Double, String, unmodifiable
   * Lists, ...) and must be a pure strict partial order (irreflexive and
   * transitive): with assertions enabled ({@code -ea}) the engine checks
   * that no value it meets dominates itself and no two dominate each other,
   * and fails the script ({@code mnestic::aggregate_order}) when they do.
   * More than {@code maxSurvivors} survivors in one group fails the script
   * ({@code mnestic::aggregate_overflow}); it is never a truncation, as an
   * antichain has no canonical subset.
   *
   * <p>Registered aggregations live in this Java process only: a script
   * sent over the server ({@code mnestic serve}) or run by {@code mnestic run}
   * cannot name them. The built-in {@code pareto_min} and {@code pareto_max}
   * work everywhere.
   *
   * @throws IllegalArgumentException for a name that is not an identifier or
   *     is already an aggregation, or a {@code maxSurvivors} below 1
   */
  public Engine withBoundedMeetAggregate(String name, BiPredicate<Object, Object> dominates,
      int maxSurvivors) {
    return with(options.withHost(options.host().withBoundedMeet(name, dominates, maxSurvivors)));
  }

  /**
   * This engine and an aggregation by its combine, for the scripts of the
   * engine returned (embedded only, as {@link #withBoundedMeetAggregate}): {@code factory}
   * makes one group's {@link Aggregators.Aggregator}, which takes the
   * group's values ({@code add}, CozoDB values as Java objects) and gives the
   * aggregate ({@code result}). With {@code isMeet}, the aggregation must be
   * idempotent, commutative and associative (a provenance semiring's
   * addition, such as max for Viterbi probabilities): it then merges a group
   * as {@code meet(current, value)} and may run inside its own recursion;
   * otherwise it aggregates each group once, after its rule.
   *
   * @throws IllegalArgumentException for a name that is not an identifier or
   *     is already an aggregation
   */
  public Engine withAggregate(String name, boolean isMeet,
      Supplier<? extends Aggregators.Aggregator> factory) {
    return with(options.withHost(options.host().with(name, isMeet, factory)));
  }

  /**
   * This engine and a fixed rule as {@code name}, for the scripts of the engine returned
   * (embedded only, as {@link #withAggregate}): {@code out[a, b] <~ name(input[x, y], opt: 1)}
   * runs {@code rule} over its inputs' rows, and its rows feed rules like any relation's.
   *
   * @throws IllegalArgumentException for a name that is not an identifier or is already a
   *     fixed rule (a built-in, or one registered)
   */
  public Engine withFixedRule(String name, FixedRule rule) {
    return with(options.withFixedRules(options.fixedRules().with(name, rule)));
  }

  /**
   * This engine, its scripts' readers ({@code CsvReader}, {@code JsonReader}) reading only the
   * files {@code files} allows; an engine reads every file the JVM's user can read unless
   * told otherwise ({@link ReadPolicy#ANY}).
   */
  public Engine readingFiles(ReadPolicy files) {
    return with(options.withFixedRules(options.fixedRules().readingFiles(files)));
  }

  /**
   * This engine, its scripts stopped (as {@code :timeout} stops them, with
   * {@code eval::killed}) when {@code deadline} ({@link System#nanoTime()},
   * 0 for none) passes or when {@code cancelFlag} is set.
   */
  public Engine stoppedBy(long deadline, AtomicBoolean cancelFlag) {
    return with(options.stoppedBy(deadline, cancelFlag));
  }

  /**
   * This engine, showing a progress line on {@code terminal} while a script
   * runs longer than a second (stratum, round, new tuples per relation).
   */
  public Engine showingProgressOn(PrintStream terminal) {
    return with(options.showingProgressOn(terminal));
  }

  /**
   * What a script takes and gives, known before it runs: its parameters
   * ({@code $name}, each once, in the order they first appear) and, when its
   * last block is a query giving its entry rule's rows, their headers (empty
   * when only running the script tells, as for system and relation ops).
   * Fails as {@link #run} would on a script that does not parse.
   */
  public record Description(List<String> parameters, List<String> headers) {
  }

  public static Description describe(String script) {
    try {
      return onDeepStack(stored -> describeParsed(script));
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Description describeParsed(String script) {
    final Script parsed = Parser.parse(script);
    List<String> headers = List.of();
    // an imperative script's result is told by its last block only when it is all blocks
    final boolean blocks = parsed.program() == null || parsed.program().stream()
        .allMatch(s -> s instanceof Script.Block b && !b.ignoreError());
    if (parsed.sysOp() == null && blocks) {
      final Script.Query last = parsed.queries().get(parsed.queries().size() - 1);
      if (last.options().relationOp() == null) {
        headers = last.rules().stream().filter(r -> r.name().equals(Rule.ENTRY)).findFirst()
            .map(r -> r.head().stream().map(Rule.HeadArg::toString).toList())
            .orElse(List.of());
      }
    }
    return new Description(Parser.parameters(script), headers);
  }

  /**
   * The rows of a script's last query block; {@code next} the result after it, as CozoDB
   * chains them (the further operands of {@code %return a, b}), or null.
   */
  public record Result(List<String> headers, List<List<Object>> rows, Result next) {
    /** A result with nothing after it. */
    public Result(List<String> headers, List<List<Object>> rows) {
      this(headers, rows, null);
    }

    /**
     * CozoDB's JSON form: {@code {"headers":[...],"rows":[[...]]}}, with
     * {@code ,"next":{...}} before the closing brace when a result follows.
     */
    public String toJson() {
      final StringBuilder b = new StringBuilder("{\"headers\":[");
      for (int i = 0; i < headers.size(); i++) {
        b.append(i > 0 ? "," : "").append(Values.toJson(headers.get(i)));
      }
      b.append("],\"rows\":[");
      for (int r = 0; r < rows.size(); r++) {
        b.append(r > 0 ? "," : "").append('[');
        final List<Object> row = rows.get(r);
        for (int i = 0; i < row.size(); i++) {
          b.append(i > 0 ? "," : "").append(Values.toJson(row.get(i)));
        }
        b.append(']');
      }
      b.append(']');
      if (next != null) {
        b.append(",\"next\":").append(next.toJson());
      }
      return b.append('}').toString();
    }
  }

  /**
   * Runs {@code script} with parameters {@code params} (CozoDB values). Its
   * blocks run as one transaction (on an auto-commit connection, their own):
   * a failing script leaves every relation as it was, its made relations
   * included ({@link StagedTables} says how). A script that makes a table
   * ({@code :create}, {@code :replace} with other columns or of a relation with triggers or an
   * access level, {@code ::remove}), or an index ({@code ::index create}, {@code ::index
   * drop}), or sets a relation's triggers or access level ({@code ::set_triggers},
   * {@code ::access_level}: the table's comment, {@link dev.mnestic.store.TablePolicy}),
   * commits an open transaction of the connection, as all DDL of the store does.
   */
  public Result run(String script, Map<String, ?> params) throws SQLException {
    return onDeepStack(stored -> {
      try {
        return runScript(script, params);
      } catch (SQLException | RuntimeException e) {
        // stopped where the store or Calcite saw the stop first (a write under way when
        // ::kill, a cancel or the deadline came): still the script's eval::killed
        final AtomicBoolean flag = options.cancelFlag();
        if (!(e instanceof DatalogException) && flag != null && flag.get()) {
          final DatalogException killed = StrataRunner.killed();
          killed.initCause(e);
          throw killed;
        }
        throw e;
      }
    });
  }

  /**
   * {@code work} on a {@link DeepStack} thread (its stack reserved, not committed until used),
   * as parsing, lowering, Calcite's planning and Janino's compiling all recurse over the
   * script's nesting; the caller waits. A stack overflow nonetheless fails the script with
   * {@code mnestic::too_deep}, an assertion with {@code mnestic::internal}: neither reaches the
   * caller as an {@link Error}.
   */
  private static <T> T onDeepStack(Work<T> work) throws SQLException {
    final Object outcome = DeepStack.call(() -> {
      try {
        return work.run(null);
      } catch (Throwable t) {
        return t;
      }
    });
    if (outcome instanceof StackOverflowError) {
      throw new DatalogException(ErrorCode.MNESTIC_TOO_DEEP, "the script nests too deeply to be run",
          0, 0, "nest expressions and rules less deeply, or split long chains");
    }
    if (outcome instanceof AssertionError e) {
      // a broken invariant of mnestic or Calcite (under -ea): the script fails, not the caller
      // (its message only: a user sees no Java exception's name; the cause keeps it)
      final DatalogException failure = new DatalogException(ErrorCode.MNESTIC_INTERNAL,
          "internal error: " + (e.getMessage() == null ? "a broken invariant" : e.getMessage()),
          0, 0, "this is a bug of mnestic; please report the script");
      failure.initCause(e);
      throw failure;
    }
    if (outcome instanceof SQLException e) {
      throw e;
    }
    if (outcome instanceof RuntimeException e) {
      throw e;
    }
    if (outcome instanceof Error e) {
      throw e;
    }
    @SuppressWarnings("unchecked")
    final T result = (T) outcome;
    return result;
  }

  /**
   * Runs a parsed script: a system op as it is; any other listed as running on its store
   * ({@link RunningScripts}) while it runs, stoppable by {@code ::kill} through its cancel flag.
   */
  private Result runScript(String script, Map<String, ?> params) throws SQLException {
    final Script parsed = Parser.parse(script);
    if (parsed.sysOp() != null) {
      return inTransaction(List.of(), params, false,
          stored -> sysOp(parsed.sysOp(), params, stored));
    }
    final Engine killable = options.cancelFlag() != null ? this
        : stoppedBy(options.deadline(), new AtomicBoolean());
    try (RunningScripts.Running running = RunningScripts.start(session().location(),
        killable.options.cancelFlag())) {
      return killable.runParsed(parsed, params);
    }
  }

  private Result runParsed(Script parsed, Map<String, ?> params) throws SQLException {
    if (parsed.program() != null) {
      final Imperative program = Imperative.of(parsed.program(), r -> headed(r, params), session(),
          (query, stored) -> run(query, params, stored),
          (op, stored) -> sysOp(op, params, stored), () -> checkStop(options.deadline()),
          options.progress());
      return inTransaction(program.blocks(), params, !program.straight(), program::run);
    }
    return inTransaction(parsed.queries(), params, false,
        stored -> run(parsed.queries().get(0), params, stored));
  }

  /** Work on the store's relations. */
  @FunctionalInterface
  private interface Work<T> {
    T run(StoredRelations stored) throws SQLException;
  }

  /** The store's session of the engine's connection. */
  private Session session() throws SQLException {
    return Session.of(connection.unwrap(CalciteConnection.class).getRootSchema());
  }

  /**
   * Throws {@code eval::killed} once the script is to stop: its cancel flag set, or
   * {@code deadline} ({@link System#nanoTime()}, 0 for none) passed.
   */
  private void checkStop(long deadline) {
    final AtomicBoolean flag = options.cancelFlag();
    final boolean late = deadline != 0 && System.nanoTime() - deadline >= 0;
    if (late && flag != null) {
      RunningStatement.stop(flag, RunningStatement.Cause.TIMEOUT,
          "the script ran past its deadline");
    }
    if (late || (flag != null && flag.get())) {
      throw StrataRunner.killed();
    }
  }

  /**
   * Runs {@code work}, the script of {@code blocks} ({@code flowing}: an imperative script's,
   * see {@link StagedTables#prepare}), as one transaction on an
   * auto-commit connection; inside the open transaction otherwise, rolled
   * back to where it began when it fails.
   */
  private <T> T inTransaction(List<Script.Query> blocks, Map<String, ?> params, boolean flowing,
      Work<T> work) throws SQLException {
    final Session session = session();
    final StagedTables staged = StagedTables.prepare(session, blocks,
        r -> headed(r, params), readers, flowing);
    final boolean autoCommit = session.getAutoCommit();
    boolean done = false;
    try {
      session.setAutoCommit(false);
      final Savepoint start = autoCommit ? null : session.getConnection().setSavepoint();
      try {
        final T result = work.run(new StoredRelations(session, staged, this::runTrigger));
        staged.commit(autoCommit);
        done = true;
        return result;
      } finally {
        if (!done) {
          if (start == null) {
            session.rollback();
          } else {
            session.getConnection().rollback(start);
          }
        }
      }
    } finally {
      if (!done) {
        staged.abandon();
      }
      if (autoCommit) {
        session.setAutoCommit(true);
      }
    }
  }

  /**
   * Loads CozoDB's relation-JSON ({@code {"rel": {"headers": [...], "rows":
   * [[...]]}}}) into existing stored relations, as CozoDB's
   * {@code import_relations}: rows are put (a key's old row is replaced),
   * all relations in one transaction. JSON integers are Ints, other numbers
   * Floats, objects Json values; each column coerces to its type.
   */
  public void importRelations(String json) throws SQLException {
    if (!(parse(json) instanceof Map<?, ?> relations)) {
      throw new DatalogException(ErrorCode.IMPORT_BAD_JSON,
          "expected an object of relations: {\"rel\": {\"headers\": [...], \"rows\": [...]}}", 0, 0);
    }
    inTransaction(List.of(), Map.of(), false, stored -> {
      for (Map.Entry<?, ?> rel : relations.entrySet()) {
        final Map<?, ?> body = rel.getValue() instanceof Map<?, ?> m ? m : Map.of();
        final List<String> headers = new ArrayList<>();
        for (Object h : body.get("headers") instanceof List<?> l ? l : List.of()) {
          headers.add(Values.toJsonText(Json.toValue(h)));
        }
        final List<List<Object>> rows = new ArrayList<>();
        for (Object row : body.get("rows") instanceof List<?> l ? l : List.of()) {
          if (!(row instanceof List<?> r)) {
            throw new DatalogException(ErrorCode.IMPORT_BAD_JSON, "a row of " + rel.getKey()
                + " is not an array: " + Json.of(Json.toValue(row)), 0, 0);
          }
          rows.add(Values.listOf(r.stream().map(Json::toValue).toList()));
        }
        // as CozoDB's import_relations: no triggers run
        stored.inTrigger().apply(new Script.RelationOp(Script.RelationOp.Kind.PUT,
            (String) rel.getKey(), null, new dev.mnestic.datalog.ast.Pos(0, 0)), headers, rows,
            false);
      }
      return null;
    });
  }

  /**
   * A JSON text as a CozoDB value, as {@link #importRelations} reads each:
   * integers are Ints, other numbers Floats, arrays lists, objects Json.
   */
  public static Object jsonValue(String json) {
    return Json.toValue(parse(json));
  }

  private static Object parse(String json) {
    try {
      return Json.parse(json).tree();
    } catch (IllegalArgumentException e) {
      throw new DatalogException(ErrorCode.IMPORT_BAD_JSON, "not valid JSON: " + e.getMessage(), 0, 0);
    }
  }

  private Result sysOp(Script.SysOp op, Map<String, ?> params, StoredRelations stored)
      throws SQLException {
    switch (op.kind()) {
    case RELATIONS:
      return stored.relations();
    case COLUMNS:
      return stored.columns(op.relations().get(0), op.pos());
    case REMOVE:
      return stored.remove(op.relations(), op.pos());
    case RENAME:
      return stored.rename(op.relations(), op.pos());
    case EXPLAIN:
      return explain(op.explained(), params, stored);
    case SHOW_TRIGGERS:
      return stored.showTriggers(op.relations().get(0), op.pos());
    case SET_TRIGGERS:
      for (Script.Trigger t : op.triggers()) {
        Parser.parse(t.script()); // as CozoDB, a trigger that does not parse is refused now
      }
      return stored.setTriggers(op.relations().get(0), op.triggers(), op.pos());
    case ACCESS_LEVEL:
      return stored.accessLevel(op.level(), op.relations(), op.pos());
    case INDICES:
      return stored.listIndices(op.relations().get(0), op.pos());
    case INDEX_CREATE:
      return stored.createIndex(op.relations().get(0), op.relations().get(1),
          op.relations().subList(2, op.relations().size()), op.pos());
    case INDEX_DROP:
      return stored.dropIndex(op.relations().get(0), op.relations().get(1), op.pos());
    case SEARCH_INDEX_CREATE:
      return stored.createSearchIndex(searchKind(op), op.relations().get(0),
          op.relations().get(1), searchOptions(op, params), op.pos());
    case FIXED_RULES:
      return new Result(FIXED_RULES_HEADERS, options.fixedRules().names().stream()
          .map(n -> List.<Object>of(n)).toList());
    case RUNNING:
      return RunningScripts.list(session().location());
    case KILL:
      if (!(ConstantEvaluator.evaluate(op.argument(), params) instanceof Long id)) {
        // as CozoDB: a message, no code
        throw new DatalogException(null, "Process ID must be an integer",
            op.argument().pos().line(), op.argument().pos().column());
      }
      return RunningScripts.kill(session().location(), id);
    case COMPACT:
      return stored.compact();
    default:
      throw new IllegalStateException("unknown system op " + op.kind());
    }
  }

  private static SearchIndex.Kind searchKind(Script.SysOp op) {
    try {
      return SearchIndexes.kind(op.level());
    } catch (ValueException e) {
      throw new DatalogException(e.errorCode(), e.getMessage(), op.pos().line(),
          op.pos().column());
    }
  }

  /**
   * A search index's options as its kind takes them (as CozoDB reads them): a variable as its
   * name ({@code distance: L2}), a list of variables as their names ({@code fields: [v]}),
   * {@code filter} as its text, anything else as its constant value.
   */
  /**
   * A tokenizer or filter given as a call ({@code NGram(2, 3)}, {@code Stemmer('english')}):
   * the list of its name and its arguments' constant values.
   */
  private static List<Object> analyzerCall(Expr.Apply call, Map<String, ?> params) {
    final List<Object> out = new ArrayList<>();
    out.add(call.function());
    for (Expr a : call.args()) {
      out.add(ConstantEvaluator.evaluate(a, params));
    }
    return Values.listOf(out);
  }

  private static Map<String, Object> searchOptions(Script.SysOp op, Map<String, ?> params) {
    final Map<String, Object> options = new LinkedHashMap<>();
    for (int i = 0; i < op.options().size(); i++) {
      final Atom.Binding o = op.options().get(i);
      final Expr e = o.value();
      final Object value;
      if (o.column().equals("filter") || o.column().equals("extractor")
          || o.column().equals("extract_filter")) {
        value = op.optionTexts().get(i);
      } else if (o.column().equals("tokenizer") && e instanceof Expr.Apply) {
        value = analyzerCall((Expr.Apply) e, params);
      } else if (o.column().equals("filters") && e instanceof Expr.ListExpr) {
        final List<Object> filters = new ArrayList<>();
        for (Expr item : ((Expr.ListExpr) e).items()) {
          filters.add(item instanceof Expr.Apply ? analyzerCall((Expr.Apply) item, params)
              : item instanceof Expr.Var ? ((Expr.Var) item).name()
              : ConstantEvaluator.evaluate(item, params));
        }
        value = Values.listOf(filters);
      } else if (e instanceof Expr.Var) {
        value = ((Expr.Var) e).name();
      } else if (e instanceof Expr.ListExpr
          && ((Expr.ListExpr) e).items().stream().allMatch(x -> x instanceof Expr.Var)) {
        value = Values.listOf(((Expr.ListExpr) e).items().stream()
            .map(x -> ((Expr.Var) x).name()).toList());
      } else {
        value = ConstantEvaluator.evaluate(e, params);
      }
      options.put(o.column(), value);
    }
    return options;
  }

  /**
   * {@code ::explain { query }}: the strata in order of evaluation, each
   * with its relations and the plan Calcite chooses for it, one line of the
   * plan a row, over the relations as the script sees them ({@code stored}: those an earlier
   * block of it made too). Nothing runs and nothing is written.
   */
  private Result explain(Script.Query query, Map<String, ?> params, StoredRelations stored)
      throws SQLException {
    final boolean magic = magicRewrite(query.options(), params);
    Definitions.check(query.rules(), params);
    final SearchRelations.Rewritten read = SearchRelations.rewrite(query.rules(),
        options.fixedRules(), stored.session(), stored::table);
    final List<Rule> rules = read.rules().stream()
        .map(r -> headed(r, read.fixedRules(), params)).toList();
    if (rules.stream().noneMatch(r -> r.name().equals(Rule.ENTRY))) {
      throw noEntry();
    }
    final List<Rule> rewritten = magic ? magicSets(rules) : rules;
    final List<List<String>> strata = Stratifier.stratify(rewritten, options.host()::isMeet);
    final int maxEpochs = maxEpochs(query.options(), params);
    final StrataOptions explaining = StrataOptions.of(options.host()).withMaxEpochs(maxEpochs)
        .withFixedRules(read.fixedRules()).withGenericJoins(options.genericJoins())
        .readingStoredFrom(stored::table);
    final StratumPlan plan = StratumPlanner.plan(rewritten, strata, params, explaining);
    try (StrataRunner explained = new StrataRunner(connection, params, explaining)) {
      return new Result(EXPLAIN_HEADERS, explained.explain(plan));
    }
  }

  /**
   * Runs the put ({@code removes} false) or rm triggers of the store's table {@code table} for
   * an SQL write of it, as this engine's CozoScript write of the same rows runs them
   * ({@link StoredRelations#fireForSql} says with what): in the writing statement's open
   * transaction, which this neither commits nor rolls back; the triggers' own writes fire no
   * triggers. The driver runs it as each session's {@link dev.mnestic.store.TableTriggers}.
   * A trigger that fails throws its script error.
   */
  public void fireTriggers(String table, boolean removes, List<Object[]> added,
      List<Object[]> removed) throws SQLException {
    onDeepStack(ignored -> {
      final Session session = session();
      final StagedTables staged = StagedTables.none(session, readers);
      try {
        new StoredRelations(session, staged, this::runTrigger)
            .fireForSql(table, removes, added, removed);
      } finally {
        staged.abandon();
      }
      return null;
    });
  }

  /**
   * Runs a trigger's script (a query block's text) on {@code stored}, in the transaction of
   * the write that fired it, with {@code constants} as constant rules ({@code _new},
   * {@code _old}); its parameters are none, as in CozoDB.
   */
  private void runTrigger(String script, Map<String, Result> constants, StoredRelations stored)
      throws SQLException {
    final Script.Query query = Parser.parse(script).queries().get(0);
    final List<Rule> rules = new ArrayList<>(query.rules());
    final Pos at = query.pos();
    for (Map.Entry<String, Result> c : constants.entrySet()) {
      rules.add(new Rule(c.getKey(), c.getValue().headers().stream()
          .map(h -> new Rule.HeadArg(new Expr.Var(h, at), null, List.of(), at)).toList(),
          Rule.Kind.CONSTANT, List.of(), new Expr.Literal(Values.listOf(c.getValue().rows()), at),
          at));
    }
    run(new Script.Query(rules, query.options(), query.pos()), Map.of(), stored);
  }

  /**
   * {@code rule} as a block runs it, as CozoDB's parser leaves it: a constant or fixed rule
   * without a head gets its columns, a fixed rule is checked ({@code FixedRules.checked}).
   */
  private Rule headed(Rule rule, Map<String, ?> params) {
    return headed(rule, options.fixedRules(), params);
  }

  /** {@code rule} as {@link #headed(Rule, Map)} makes it, with the fixed rules {@code fixedRules}. */
  private Rule headed(Rule rule, FixedRules fixedRules, Map<String, ?> params) {
    return fixedRules.checked(ConstantRules.headed(rule, params), params);
  }

  /** The columns of {@code ::explain}. */
  static final List<String> EXPLAIN_HEADERS = List.of("stratum", "rules", "plan");

  /** The column of {@code ::fixed_rules}. */
  static final List<String> FIXED_RULES_HEADERS = List.of("rule");

  private static DatalogException noEntry() {
    return new DatalogException(ErrorCode.PARSER_NO_ENTRY, "Program has no entry", 0, 0,
        "You need to have one rule named '?'");
  }

  /**
   * Runs a query block: by its deadline (the script's, or its {@code :timeout}'s when sooner),
   * then sleeps its {@code :sleep}.
   */
  private Result run(Script.Query query, Map<String, ?> params, StoredRelations stored)
      throws SQLException {
    final int timeout = timeout(query.options(), params);
    final long blockDeadline = timeout == 0 ? 0 : System.nanoTime() + timeout * 1_000_000_000L;
    final long scriptDeadline = options.deadline();
    final long deadline = scriptDeadline == 0
        || (blockDeadline != 0 && blockDeadline - scriptDeadline < 0)
        ? blockDeadline : scriptDeadline;
    final double sleep = sleepSeconds(query.options(), params);
    final Result result = evaluate(query, params, stored, deadline);
    if (sleep > 0) {
      sleep(sleep, deadline);
    }
    return result;
  }

  /**
   * {@code :sleep}: waits {@code seconds}, stopped as the script is (its cancel flag, or
   * {@code deadline} passing: {@code eval::killed}). CozoDB's own sleep cannot be stopped.
   */
  private void sleep(double seconds, long deadline) {
    final long end = System.nanoTime() + (long) (seconds * 1e9);
    for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
      checkStop(deadline);
      try {
        Thread.sleep(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, SLEEP_CHECK_MILLIS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw StrataRunner.killed();
      }
    }
  }

  /** How often a {@code :sleep} checks whether its script is to stop. */
  private static final long SLEEP_CHECK_MILLIS = 10;

  /** {@code :sleep} in seconds, 0 for none; as CozoDB, a positive number. */
  private static double sleepSeconds(Script.Options options, Map<String, ?> params) {
    if (options.sleep() == null) {
      return 0;
    }
    final dev.mnestic.datalog.ast.Expr e = options.sleep();
    final Object v = ConstantEvaluator.evaluate(e, params);
    if (!(v instanceof Long || v instanceof Double)) {
      throw new DatalogException(ErrorCode.PARSER_OPTION_NOT_NON_NEG,
          "Query option sleep requires a non-negative integer", e.pos().line(), e.pos().column(),
          ":sleep takes a number of seconds");
    }
    final double seconds = ((Number) v).doubleValue();
    if (!(seconds > 0)) {
      throw new DatalogException(ErrorCode.PARSER_OPTION_NOT_POS,
          "Query option sleep requires a positive integer", e.pos().line(), e.pos().column(),
          ":sleep takes a positive number of seconds");
    }
    return seconds;
  }

  private Result evaluate(Script.Query query, Map<String, ?> params, StoredRelations stored,
      long deadline) throws SQLException {
    final Script.Options options = query.options();
    if (query.rules().isEmpty()) {
      magicRewrite(options, params); // its option checked, as for any block
      // a bare ':create rel {...}' makes an empty relation
      return stored.apply(options.relationOp(), List.of(), List.of(), options.returning());
    }
    final StrataOptions run = this.options.stoppedBy(deadline, this.options.cancelFlag())
        .readingStoredFrom(stored::table)
        .at(stored.now());
    // a constant entry rule (a write's rows, say) is not evaluated by plans: nothing to keep
    final KeptEvaluations.Key key = query.rules().stream()
        .anyMatch(r -> r.name().equals(Rule.ENTRY) && r.kind() == Rule.Kind.CONSTANT) ? null
        : KeptEvaluations.Key.of(query, params, session().schemaVersion(), this.options.host(),
            this.options.genericJoins());
    final StrataRunner.Evaluation done = key == null ? null : kept.take(key);
    final List<Rule> entry;
    final List<List<Object>> rows;
    if (done != null && done.readsAsBefore(run)) {
      // run before: the same plans again, nothing checked, lowered or planned
      entry = query.rules().stream().filter(r -> r.name().equals(Rule.ENTRY))
          .map(r -> headed(r, params)).toList();
      try (StrataRunner runner = new StrataRunner(connection, run, done)) {
        rows = runner.replay();
      }
      kept.keep(key, done);
    } else {
      final boolean magic = magicRewrite(options, params);
      Definitions.check(query.rules(), params);
      final SearchRelations.Rewritten read = SearchRelations.rewrite(query.rules(),
          this.options.fixedRules(), stored.session(), stored::table);
      final List<Rule> rules = read.rules().stream()
          .map(r -> headed(r, read.fixedRules(), params)).toList();
      entry = rules.stream().filter(r -> r.name().equals(Rule.ENTRY)).toList();
      if (entry.isEmpty()) {
        throw noEntry();
      }
      final List<Rule> rewritten = magic ? magicSets(rules) : rules;
      final List<List<String>> strata =
          Stratifier.stratify(rewritten, this.options.host()::isMeet);
      if (entry.get(0).kind() == Rule.Kind.CONSTANT) {
        rows = ConstantRules.rows(entry.get(0), params);
      } else {
        final StrataOptions planned = run.withFixedRules(read.fixedRules())
            .withMaxEpochs(maxEpochs(options, params));
        final StratumPlan plan = StratumPlanner.plan(rewritten, strata, params, planned);
        try (StrataRunner runner = new StrataRunner(connection, params, planned)) {
          rows = runner.evaluate(plan);
          final StrataRunner.Evaluation evaluation = runner.evaluation();
          // a read of a search index's own relation applies a fixed rule made for this run
          // (SearchRelations): not kept
          if (key != null && evaluation != null && read.rules() == query.rules()
              && KeptEvaluations.keeps(query)) {
            kept.keep(key, evaluation);
          }
        }
      }
    }
    final List<String> headers = new ArrayList<>();
    for (Rule.HeadArg h : entry.get(0).head()) {
      headers.add(h.toString());
    }
    final List<List<Object>> shaped = new ArrayList<>();
    for (List<Object> row : shape(rows, rowOrder(entry.get(0)), headers, options, params)) {
      shaped.add(Values.listOf(row.stream().map(Values::setsAsLists).toList()));
    }
    if (options.assertion() == Script.Assertion.NONE && !shaped.isEmpty()) {
      throw new DatalogException(ErrorCode.EVAL_ASSERT_NONE_FAILURE,
          "The query is asserted to return no result, but a tuple "
              + Values.display(shaped.get(0)) + " is found", query.pos().line(),
          query.pos().column());
    }
    if (options.assertion() == Script.Assertion.SOME && shaped.isEmpty()) {
      throw new DatalogException(ErrorCode.EVAL_ASSERT_SOME_FAILURE,
          "The query is asserted to return some results, but returned none",
          query.pos().line(), query.pos().column());
    }
    if (options.relationOp() != null) {
      return stored.apply(options.relationOp(), headers, shaped, options.returning());
    }
    return new Result(headers, shaped);
  }

  /**
   * The order of an entry rule's rows before {@code :order}: CozoDB's value order; but with a
   * head aggregating {@code min_cost_k}, each group (in value order of its keys) gives its
   * survivors in cost order ({@link MinCostK#ORDER}), as mnestic's CozoDB pins it.
   */
  private static Comparator<List<Object>> rowOrder(Rule entry) {
    final int cost = entry.head().stream().map(Rule.HeadArg::aggregation).toList()
        .indexOf(MinCostK.NAME);
    if (cost < 0) {
      return Values::compare;
    }
    return (x, y) -> {
      for (int i = 0; i < x.size(); i++) {
        final int c = i == cost ? 0 : Values.compare(x.get(i), y.get(i));
        if (c != 0) {
          return c;
        }
      }
      return MinCostK.ORDER.compare(x.get(cost), y.get(cost));
    };
  }

  /** CozoDB's order ({@code base}, then {@code :order}), then {@code :offset} and {@code :limit}. */
  private static List<List<Object>> shape(List<List<Object>> rows, Comparator<List<Object>> base,
      List<String> headers, Script.Options options, Map<String, ?> params) {
    final long offset = options.offset() == null ? 0 : count(options.offset(), params);
    long limit = options.limit() == null ? Long.MAX_VALUE : count(options.limit(), params);
    if (options.order().isEmpty()) {
      if (limit == 0) {
        // As CozoDB: without :order, evaluation stops once a row past the limit is in.
        limit = 1;
      }
      // As CozoDB: without :order, the rows are cut in the order evaluation
      // derived them, then sorted.
      final List<List<Object>> cut = new ArrayList<>(cut(rows, offset, limit));
      cut.sort(base);
      return cut;
    }
    final List<List<Object>> sorted = new ArrayList<>(rows);
    sorted.sort(base);
    Comparator<List<Object>> order = null;
    for (Script.Sort sort : options.order()) {
      final int i = headers.indexOf(sort.column());
      if (i < 0) {
        throw new DatalogException(ErrorCode.QUERY_SORT_KEY_NOT_FOUND,
            "Cannot find sort key '" + sort.column() + "' in the head",
            sort.pos().line(), sort.pos().column());
      }
      Comparator<List<Object>> key = (x, y) -> Values.compare(x.get(i), y.get(i));
      if (sort.descending()) {
        key = key.reversed();
      }
      order = order == null ? key : order.thenComparing(key);
    }
    sorted.sort(order);
    return cut(sorted, offset, limit);
  }

  private static List<List<Object>> cut(List<List<Object>> rows, long offset, long limit) {
    final int from = (int) Math.min(offset, rows.size());
    final int to = (int) Math.min(rows.size(), from + Math.min(limit, Integer.MAX_VALUE));
    return rows.subList(from, to);
  }

  /** {@code :timeout} in whole seconds (at least 1), or 0 for none. */
  private static int timeout(Script.Options options, Map<String, ?> params) {
    if (options.timeout() == null) {
      return 0;
    }
    final Object v = ConstantEvaluator.evaluate(options.timeout(), params);
    if (!(v instanceof Long || v instanceof Double) || ((Number) v).doubleValue() <= 0) {
      throw new DatalogException(ErrorCode.EVAL_THROW, "Evaluation of expression failed",
          options.timeout().pos().line(), options.timeout().pos().column(),
          ":timeout takes a positive number of seconds");
    }
    return (int) Math.max(1, Math.ceil(((Number) v).doubleValue()));
  }

  /**
   * Whether the query's rules are rewritten by magic sets ({@link MagicSets}): unless
   * {@code :disable_magic_rewrite} is true. Checked as CozoDB does (a boolean, or
   * {@code parser::option_not_bool}).
   */
  private static boolean magicRewrite(Script.Options options, Map<String, ?> params) {
    final dev.mnestic.datalog.ast.Expr e = options.disableMagicRewrite();
    if (e == null) {
      return true;
    }
    if (!(ConstantEvaluator.evaluate(e, params) instanceof Boolean disabled)) {
      throw new DatalogException(ErrorCode.PARSER_OPTION_NOT_BOOL,
          "Query option disable_magic_rewrite requires a boolean", e.pos().line(),
          e.pos().column());
    }
    return !disabled;
  }

  /**
   * {@code rules} rewritten by magic sets; when the rewrite changes them, the rules as written
   * are stratified first, so a query that does not stratify fails as written (CozoDB
   * stratifies before it rewrites).
   */
  private List<Rule> magicSets(List<Rule> rules) {
    final List<Rule> rewritten = MagicSets.rewrite(rules);
    if (rewritten != rules) {
      Stratifier.stratify(rules, options.host()::isMeet);
    }
    return rewritten;
  }

  /**
   * {@code :max_epochs}: how many rounds a recursion through a bounded-meet
   * aggregation may keep changing its result, {@value StrataOptions#MAX_EPOCHS} unless
   * the script says.
   */
  private static int maxEpochs(Script.Options options, Map<String, ?> params) {
    if (options.maxEpochs() == null) {
      return StrataOptions.MAX_EPOCHS;
    }
    final Object v = ConstantEvaluator.evaluate(options.maxEpochs(), params);
    if (!(v instanceof Long) || (Long) v <= 0 || (Long) v > Integer.MAX_VALUE) {
      throw new DatalogException(ErrorCode.EVAL_THROW, "Evaluation of expression failed",
          options.maxEpochs().pos().line(), options.maxEpochs().pos().column(),
          ":max_epochs takes a positive integer");
    }
    return (int) (long) (Long) v;
  }

  private static long count(dev.mnestic.datalog.ast.Expr e, Map<String, ?> params) {
    final Object v = ConstantEvaluator.evaluate(e, params);
    if (!(v instanceof Long) || (Long) v < 0) {
      throw new DatalogException(ErrorCode.EVAL_THROW, "Evaluation of expression failed",
          e.pos().line(), e.pos().column(), ":limit and :offset take a non-negative integer");
    }
    return (Long) v;
  }
}
