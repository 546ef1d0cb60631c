package dev.mnestic.datalog;

import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.ast.Script;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Values;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Runs an imperative script (CozoDB's {@code runtime/imperative.rs}): {@code {...}} blocks,
 * {@code %if}/{@code %if_not}, {@code %loop} with {@code %mark}, {@code %break},
 * {@code %continue}, {@code %return}, {@code %debug}, {@code %ignore_error}, {@code %swap} and
 * {@code {...} as _name}, all in the script's one transaction.
 *
 * <p>As CozoDB's: a condition holds when its rows (a block's result, or a relation's rows) are
 * not empty; a list of statements gives the result of the last one that gives rows (a
 * {@code %loop}, {@code %debug} and {@code %swap} give none, no columns and no rows), and
 * {@code %swap} ends the list it is in; {@code %return} with several operands evaluates them
 * last first and gives the first one's rows, the others chained after it
 * ({@link Engine.Result#next}; CozoDB 0.7.6 panics on a {@code {query}} operand, which runs
 * here); {@code %ignore_error} gives {@code status FAILED} for its failed
 * block and keeps what the block wrote before it failed, but never swallows the script being
 * stopped ({@code eval::killed}), which CozoDB would; {@code as _name} replaces the ephemeral
 * relation {@code _name} by the result, every column a key of type {@code Any?} named as the
 * result's header with {@code (} made {@code _} and {@code )} dropped ({@code sum(y)} is
 * {@code sum_y}).
 *
 * <p>The store runs no DDL inside a transaction, so every relation a script may make is made
 * before it runs ({@link StagedTables}): the result columns of each {@code as} must be known
 * then, from the block's head, its relation op, or the system op. A returning write
 * ({@code :returning}) to a relation made with other means than this script's blocks, and a
 * system op whose columns mnestic cannot tell beforehand, fail with
 * {@code mnestic::unsupported} when they run.
 */
final class Imperative {
  /** A script's query blocks as the engine runs them. */
  @FunctionalInterface
  interface Queries {
    Engine.Result run(Script.Query query, StoredRelations stored) throws SQLException;
  }

  /** A script's system ops as the engine runs them. */
  @FunctionalInterface
  interface SysOps {
    Engine.Result run(Script.SysOp op, StoredRelations stored) throws SQLException;
  }

  /** No columns, no rows: what a %loop, %debug or %swap gives, and an empty %return. */
  private static final Engine.Result NOTHING = new Engine.Result(List.of(), List.of());

  private final List<Script.Statement> program;
  /** Every query block the script may run, each {@code as} as the :replace it makes, in order. */
  private final List<Script.Query> blocks = new ArrayList<>();
  /** The :replace of each statement with {@code as} (or the error it meets when it runs). */
  private final Map<Script.Statement, Object> storeAs = new IdentityHashMap<>();
  private final Queries queries;
  private final SysOps sysOps;
  /** Throws {@code eval::killed} once the script is to stop. */
  private final Runnable checkStop;
  /** Where %debug prints; null: nowhere. */
  private final PrintStream debug;

  private Imperative(List<Script.Statement> program, Queries queries, SysOps sysOps,
      Runnable checkStop, PrintStream debug) {
    this.program = program;
    this.queries = queries;
    this.sysOps = sysOps;
    this.checkStop = checkStop;
    this.debug = debug;
  }

  /**
   * The script {@code program}, its {@code as} relations' columns read from its blocks (each
   * entry rule {@code headed} as the engine runs it) and (for a returning write) the store
   * ({@code session}).
   */
  static Imperative of(List<Script.Statement> program, UnaryOperator<Rule> headed,
      Session session, Queries queries, SysOps sysOps, Runnable checkStop, PrintStream debug) {
    final Imperative imperative = new Imperative(program, queries, sysOps, checkStop, debug);
    imperative.prepare(program, headed, session, new HashMap<>());
    return imperative;
  }

  /** Every query block the script may run, and the :replace of each {@code as}, in order. */
  List<Script.Query> blocks() {
    return blocks;
  }

  /**
   * Whether the script's blocks run each once in the order written (it is blocks only, none
   * of them {@code %ignore_error}): which tables they write is then known before it runs.
   */
  boolean straight() {
    return program.stream().allMatch(s -> s instanceof Script.Block b && !b.ignoreError());
  }

  // 1. before the script runs: its blocks, and the relation each 'as' makes

  private void prepare(List<Script.Statement> statements, UnaryOperator<Rule> headed, Session session,
      Map<String, List<String>> made) {
    for (Script.Statement s : statements) {
      if (s instanceof Script.Block b) {
        prepare(b, headed, session, made);
      } else if (s instanceof Script.SysBlock b && b.storeAs() != null) {
        prepareStoreAs(b, b.storeAs(), sysOpHeaders(b.op()), b.pos());
      } else if (s instanceof Script.If i) {
        if (i.condition().block() != null) {
          prepare(i.condition().block(), headed, session, made);
        }
        prepare(i.then(), headed, session, made);
        prepare(i.otherwise(), headed, session, made);
      } else if (s instanceof Script.Loop l) {
        prepare(l.body(), headed, session, made);
      } else if (s instanceof Script.Return r) {
        for (Script.Operand o : r.operands()) {
          if (o.block() != null) {
            prepare(o.block(), headed, session, made);
          }
        }
      }
    }
  }

  private void prepare(Script.Block b, UnaryOperator<Rule> headed, Session session,
      Map<String, List<String>> made) {
    blocks.add(b.query());
    final List<String> head = entryHead(b.query(), headed);
    final Script.RelationOp op = b.query().options().relationOp();
    if (op != null && (op.kind() == Script.RelationOp.Kind.CREATE
        || op.kind() == Script.RelationOp.Kind.REPLACE)) {
      try {
        made.put(op.relation(), StoredRelations.declared(op, head == null ? List.of() : head)
            .keySet().stream()
            .map(StoredSchema.Column::name).toList());
      } catch (DatalogException e) {
        // the block fails when it runs
      }
    }
    if (b.storeAs() == null) {
      return;
    }
    final List<String> headers;
    if (op == null) {
      headers = head;
    } else if (!b.query().options().returning()) {
      headers = List.of("status");
    } else {
      final List<String> columns = made.containsKey(op.relation()) ? made.get(op.relation())
          : storedColumns(session, op.relation());
      headers = columns == null ? null : withKind(columns);
    }
    prepareStoreAs(b, b.storeAs(), headers, b.pos());
  }

  /** The entry rule's head as the block's result names its columns, or null without one. */
  private static List<String> entryHead(Script.Query query, UnaryOperator<Rule> headed) {
    for (Rule r : query.rules()) {
      if (r.name().equals(Rule.ENTRY)) {
        return headed.apply(r).head().stream().map(Rule.HeadArg::toString)
            .toList();
      }
    }
    return query.rules().isEmpty() ? List.of() : null;
  }

  private static List<String> withKind(List<String> columns) {
    final List<String> headers = new ArrayList<>(List.of("_kind"));
    headers.addAll(columns);
    return headers;
  }

  /** A stored relation's columns keys first, or null when the store has none of the name. */
  private static List<String> storedColumns(Session session, String relation) {
    final Optional<String> table = StoreCatalog.findTable(session, relation);
    return table.map(t -> StoredSchema.read(session, t).keysFirst().stream()
        .map(StoredSchema.Column::name).toList()).orElse(null);
  }

  private static List<String> sysOpHeaders(Script.SysOp op) {
    switch (op.kind()) {
    case RELATIONS:
      return StoredRelations.RELATIONS_HEADERS;
    case COLUMNS:
      return StoredRelations.COLUMNS_HEADERS;
    case EXPLAIN:
      return Engine.EXPLAIN_HEADERS;
    case FIXED_RULES:
      return Engine.FIXED_RULES_HEADERS;
    case RUNNING:
      return RunningScripts.HEADERS;
    case REMOVE:
    case RENAME:
    case KILL:
    case COMPACT:
      return List.of("status");
    default:
      return null;
    }
  }

  /**
   * Records the :replace that stores the result of {@code s} (of {@code headers}, null when
   * unknown before it runs) as {@code name}, or the error storing it meets.
   */
  private void prepareStoreAs(Script.Statement s, String name, List<String> headers, Pos pos) {
    if (headers == null || headers.isEmpty()) {
      storeAs.put(s, new DatalogException(ErrorCode.MNESTIC_UNSUPPORTED, "cannot keep the"
          + " result as " + name + (headers == null ? ": its columns are known only when the"
          + " block runs" : ": it has no columns"), pos.line(), pos.column(),
          "keep the result of a query block that reads what this one changed"));
      return;
    }
    final List<Script.Column> keys = new ArrayList<>();
    for (String h : headers) {
      final String column = h.replace('(', '_').replace(")", "");
      if (keys.stream().anyMatch(k -> k.name().equals(column))) {
        // as CozoDB: a message, no code
        storeAs.put(s, new DatalogException(null, "Duplicate variable name " + column
            + ", please use distinct variables in `as` construct.", pos.line(), pos.column()));
        return;
      }
      keys.add(new Script.Column(column, null, null, null, null, pos));
    }
    final Script.RelationOp op = new Script.RelationOp(Script.RelationOp.Kind.REPLACE, name,
        new Script.Schema(keys, List.of()), pos);
    storeAs.put(s, op);
    blocks.add(new Script.Query(List.of(), new Script.Options(List.of(), null, null, null, null,
        null, op, null, false, null), pos));
  }

  // 2. running it

  /** How a list of statements ended: its result, a %break or %continue, or a %return. */
  private record Outcome(Engine.Result result, Script.Jump jump, boolean returned) {
    static Outcome of(Engine.Result result) {
      return new Outcome(result, null, false);
    }
  }

  /** Runs the script on {@code stored}; its result. */
  Engine.Result run(StoredRelations stored) throws SQLException {
    final Outcome outcome = execute(program, stored);
    if (outcome.jump() != null) {
      final Pos at = outcome.jump().pos();
      throw new DatalogException(ErrorCode.EVAL_DANGLING_CTRL_FLOW,
          "control flow has nowhere to go", at.line(), at.column(),
          outcome.jump().label() == null ? "it is in no %loop"
              : "no %loop around it is marked " + outcome.jump().label());
    }
    return outcome.result();
  }

  private Outcome execute(List<Script.Statement> statements, StoredRelations stored)
      throws SQLException {
    Engine.Result result = NOTHING;
    for (Script.Statement s : statements) {
      checkStop.run();
      if (s instanceof Script.Block b) {
        result = b.ignoreError() ? ignoringError(b, stored) : block(b, stored);
      } else if (s instanceof Script.SysBlock b) {
        result = sysOps.run(b.op(), stored);
        if (b.storeAs() != null) {
          stored.storeAs(storeAs(b), result);
        }
      } else if (s instanceof Script.If i) {
        final boolean holds = !operand(i.condition(), stored).rows().isEmpty();
        final Outcome branch = execute(holds != i.negated() ? i.then() : i.otherwise(), stored);
        if (branch.jump() != null || branch.returned()) {
          return branch;
        }
        result = branch.result();
      } else if (s instanceof Script.Loop l) {
        final Outcome end = loop(l, stored);
        if (end != null) {
          return end;
        }
        result = NOTHING;
      } else if (s instanceof Script.Jump j) {
        return new Outcome(null, j, false);
      } else if (s instanceof Script.Return r) {
        return new Outcome(returned(r, stored), null, true);
      } else if (s instanceof Script.Debug d) {
        final Engine.Result rows = stored.rows(d.relation(), d.pos());
        if (debug != null) {
          debug.println(d.relation() + ": " + rows.toJson());
        }
        result = NOTHING;
      } else if (s instanceof Script.Swap w) {
        stored.swap(w.left(), w.right(), w.pos());
        // as CozoDB's: a %swap ends the statements it is among
        return Outcome.of(NOTHING);
      }
    }
    return Outcome.of(result);
  }

  /** Runs a %loop until a %break leaves it (null) or a %return or outer jump ends it. */
  private Outcome loop(Script.Loop l, StoredRelations stored) throws SQLException {
    while (true) {
      checkStop.run();
      final Outcome lap = execute(l.body(), stored);
      if (lap.returned()) {
        return lap;
      }
      final Script.Jump jump = lap.jump();
      if (jump != null) {
        if (jump.label() != null && !jump.label().equals(l.label())) {
          return lap;
        }
        if (jump.isBreak()) {
          return null;
        }
      }
    }
  }

  private Engine.Result block(Script.Block b, StoredRelations stored) throws SQLException {
    final Engine.Result result = queries.run(b.query(), stored);
    if (b.storeAs() != null) {
      stored.storeAs(storeAs(b), result);
    }
    return result;
  }

  /**
   * {@code %ignore_error {...}}: the block, or when it fails, {@code status FAILED}; as CozoDB's,
   * what it wrote before it failed stays (each write is whole or not at all, its triggers'
   * writes after it).
   */
  private Engine.Result ignoringError(Script.Block b, StoredRelations stored)
      throws SQLException {
    try {
      return block(b, stored);
    } catch (DatalogException e) {
      if (e.errorCode() == ErrorCode.EVAL_KILLED) {
        throw e;
      }
      return new Engine.Result(List.of("status"), List.of(Values.list("FAILED")));
    }
  }

  private Engine.Result operand(Script.Operand o, StoredRelations stored) throws SQLException {
    return o.block() != null ? block(o.block(), stored) : stored.rows(o.relation(), o.pos());
  }

  /**
   * {@code %return}: its operands evaluated last first, as CozoDB's; the first one's rows, each
   * followed by the next one's ({@link Engine.Result#next}).
   */
  private Engine.Result returned(Script.Return r, StoredRelations stored) throws SQLException {
    Engine.Result chain = null;
    for (int i = r.operands().size() - 1; i >= 0; i--) {
      final Engine.Result rows = operand(r.operands().get(i), stored);
      chain = new Engine.Result(rows.headers(), rows.rows(), chain);
    }
    return chain == null ? NOTHING : chain;
  }

  private Script.RelationOp storeAs(Script.Statement s) {
    final Object op = storeAs.get(s);
    if (op instanceof DatalogException e) {
      throw e;
    }
    return (Script.RelationOp) op;
  }
}
