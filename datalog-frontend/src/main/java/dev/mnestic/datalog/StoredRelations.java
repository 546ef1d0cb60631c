package dev.mnestic.datalog;

import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Script;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.eval.ConstantEvaluator;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;
import dev.mnestic.store.StoreWrites;
import dev.mnestic.store.TablePolicy;
import dev.mnestic.store.WriteGuard;
import dev.mnestic.value.ColType;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Json;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * CozoDB's stored relations as the store's SQL tables ({@link StoredSchema}
 * says how): the writes {@code :create}, {@code :replace}, {@code :put},
 * {@code :insert}, {@code :update}, {@code :rm}, {@code :delete} and the
 * assertions {@code :ensure}, {@code :ensure_not}, with CozoDB's checks,
 * defaults, coercions and errors ({@code cozo-core/src/query/stored.rs});
 * and {@code ::relations}, {@code ::columns}, {@code ::remove}, {@code ::rename},
 * {@code ::set_triggers}, {@code ::show_triggers}, {@code ::access_level}; and
 * indices ({@code ::index create}, {@code ::index drop}, {@code ::indices}), each an index of
 * the store's ({@link #indices}).
 *
 * <p>A write takes its rows in order, as CozoDB's does: a row that fails (a coercion, a key
 * that must or must not exist) fails the write after the rows before it were written, and
 * they stay, which only {@code %ignore_error} lets a script see (CozoDB's
 * {@code cozo-core/src/query/stored.rs} writes each row as it goes). A failure of the store
 * itself (a conflict with another transaction) rolls the whole write back to its savepoint.
 * The triggers a write fires run after it, and not after a write that failed; each of their
 * writes in turn as one: a failing trigger leaves the write (and the triggers' writes before
 * it) in place, as CozoDB's do.
 *
 * <p>The rows a script writes are computed from what its rules read; the writes that replace
 * or remove rows ({@code :put}, {@code :update}, {@code :rm}, {@code :delete}) are guarded
 * ({@link Session#guardWrites}) from the store's change number when the script began: a row
 * another transaction committed since then is not overwritten nor removed, the write fails
 * with SQLSTATE 40001 instead (the script may be run again).
 *
 * <p>Each relation's {@link TablePolicy} is obeyed as CozoDB obeys its access level, and its
 * triggers fire as CozoDB fires them ({@code ::set_triggers}): after a write of the script's
 * own blocks, in the same transaction, each trigger's script sees the write's rows as
 * {@code _new} and the rows they replaced or removed as {@code _old}; a write a trigger makes
 * fires no triggers (CozoDB's only bound on triggers firing triggers: they never cascade), and
 * a trigger's {@code :replace} fails ({@code eval::replace_in_trigger}). A trigger that fails
 * fails the write, and with it the script: nothing it wrote stays.
 */
final class StoredRelations {
  private final Session session;
  /** The relations as the running script sees them. */
  private final StagedTables staged;
  /** The store's change number before the script read anything. */
  private final long since;
  /** What runs the triggers of this script's writes; null inside a trigger (they do not cascade). */
  private final Triggers triggers;
  /**
   * The script's time, µs since the Unix epoch: of its {@code 'ASSERT'} and {@code 'RETRACT'}
   * Validities and of {@code 'NOW'} in its time-travel reads, one per script as in CozoDB.
   */
  private final long now = System.currentTimeMillis() * 1000;
  /**
   * The changes of this script's {@code :returning} writes, by relation. As CozoDB's, a
   * returning write answers with every change collected for its relation so far in the
   * script, its own last.
   */
  private final Map<String, List<Mutation>> returned = new LinkedHashMap<>();

  /**
   * One returning write's changes, rows in keys-first order: {@code put} (a write that puts)
   * rows inserted and the rows they replaced, else keys requested and the rows deleted.
   */
  private record Mutation(boolean put, List<List<Object>> added, List<List<Object>> removed) {
  }

  /** Runs a trigger's script in the running script's transaction ({@link Engine}'s). */
  @FunctionalInterface
  interface Triggers {
    /**
     * Runs the query block {@code script} on {@code stored} (whose writes fire no triggers),
     * with {@code constants}: rule name to its head and rows.
     */
    void run(String script, Map<String, Engine.Result> constants, StoredRelations stored)
        throws SQLException;
  }

  StoredRelations(Session session, StagedTables staged, Triggers triggers) throws SQLException {
    this(session, staged, session.changeNumber(), triggers);
  }

  private StoredRelations(Session session, StagedTables staged, long since, Triggers triggers) {
    this.session = session;
    this.staged = staged;
    this.since = since;
    this.triggers = triggers;
  }

  /**
   * Runs {@code trigger}, an {@code on} trigger of {@code op}'s relation, for {@code op}: a
   * failure is the trigger's error (its code and message) placed at {@code op}, its help
   * naming the trigger and the place in its text, as CozoDB reports it against the trigger's
   * source.
   */
  private void runTrigger(String on, String trigger, Map<String, Engine.Result> constants,
      Script.RelationOp op) throws SQLException {
    try {
      triggers.run(trigger, constants, inTrigger());
    } catch (DatalogException e) {
      final String where = e.line() > 0 ? " at its " + e.line() + ":" + e.column() : "";
      final DatalogException failure = new DatalogException(e.errorCode(), e.getMessage(),
          op.pos().line(), op.pos().column(), "in the " + on + " trigger of " + op.relation()
          + where + ": " + trigger.strip() + (e.help() == null ? "" : "\n" + e.help()));
      failure.initCause(e);
      throw failure;
    }
  }

  /**
   * Runs {@code fired}, the put ({@code puts}) or rm triggers of {@code op}'s relation of
   * {@code schema}, in order, each with {@code _new} ({@code added}: rows put, or keys removed)
   * and {@code _old} ({@code removed}), rows keys first, as CozoDB gives them.
   */
  private void fire(Script.RelationOp op, boolean puts, List<String> fired, StoredSchema schema,
      List<List<Object>> added, List<List<Object>> removed) throws SQLException {
    final List<String> all = schema.keysFirst().stream().map(StoredSchema.Column::name).toList();
    final Map<String, Engine.Result> constants = new LinkedHashMap<>();
    constants.put("_new", new Engine.Result(puts ? all : schema.keysFirst().stream()
        .filter(StoredSchema.Column::key).map(StoredSchema.Column::name).toList(), added));
    constants.put("_old", new Engine.Result(all, removed));
    for (String trigger : fired) {
      runTrigger(puts ? "put" : "rm", trigger, constants, op);
    }
  }

  /**
   * Fires the put ({@code removes} false) or rm triggers of the store's table {@code table}
   * for an SQL write of it ({@link dev.mnestic.store.TableTriggers}), as a write of this
   * script's of the same rows fires them: rows hold the table's columns in table order, each
   * value as the store's JDBC gives it; {@code added} the rows put (for rm, the rows removed,
   * whose keys are {@code _new}), {@code removed} the rows replaced or removed ({@code _old}).
   */
  void fireForSql(String table, boolean removes, List<Object[]> added, List<Object[]> removed)
      throws SQLException {
    final TablePolicy policy = TablePolicy.of(session, table);
    final StoredSchema schema = StoredSchema.read(session, table);
    final List<StoredSchema.Column> keysFirst = schema.keysFirst();
    final int keys = (int) keysFirst.stream().filter(StoredSchema.Column::key).count();
    final List<List<Object>> fresh = new ArrayList<>();
    for (Object[] row : added) {
      final List<Object> decoded = decodedKeysFirst(schema, row);
      fresh.add(removes ? decoded.subList(0, keys) : decoded);
    }
    final List<List<Object>> old = new ArrayList<>();
    for (Object[] row : removed) {
      old.add(decodedKeysFirst(schema, row));
    }
    fire(new Script.RelationOp(removes ? Script.RelationOp.Kind.RM : Script.RelationOp.Kind.PUT,
        table, null, new Pos(0, 0)), !removes, removes ? policy.rm() : policy.put(), schema,
        fresh, old);
  }

  /** A stored row (table order, as JDBC gives it) decoded, keys first. */
  private static List<Object> decodedKeysFirst(StoredSchema schema, Object[] row) {
    final List<Object> out = new ArrayList<>(row.length);
    for (StoredSchema.Column c : schema.keysFirst()) {
      out.add(c.decode(row[schema.columns().indexOf(c)]));
    }
    return Collections.unmodifiableList(out);
  }

  /** These relations as a trigger's script sees them: its writes fire no triggers. */
  StoredRelations inTrigger() {
    return new StoredRelations(session, staged, since, null);
  }

  /** The script's time ({@link #now}). */
  long now() {
    return now;
  }

  /** The store's session the relations are in. */
  Session session() {
    return session;
  }

  /**
   * The table holding {@code relation} as the running script sees it, if there is one; a
   * hidden relation's rows are not read ({@code tx::insufficient_access_level}).
   */
  Optional<String> table(String relation) {
    final Optional<String> table = staged.find(relation);
    if (table.isPresent()) {
      requireLevel(relation, TablePolicy.of(session, table.get()), TablePolicy.Level.READ_ONLY,
          "reading rows", null);
    }
    return table;
  }

  /**
   * Fails as CozoDB does when {@code policy}'s level is below {@code needed} for {@code what}
   * on {@code relation} (at {@code pos}, or nowhere).
   */
  private static void requireLevel(String relation, TablePolicy policy, TablePolicy.Level needed,
      String what, Pos pos) {
    if (!policy.allows(needed)) {
      throw new DatalogException(ErrorCode.TX_INSUFFICIENT_ACCESS_LEVEL,
          policy.refusal(relation, what), pos == null ? 0 : pos.line(),
          pos == null ? 0 : pos.column());
    }
  }

  /** The columns of {@code ::relations}, CozoDB's. */
  static final List<String> RELATIONS_HEADERS = List.of("name", "arity", "access_level", "n_keys",
      "n_non_keys", "n_put_triggers", "n_rm_triggers", "n_replace_triggers", "description");
  /** The columns of {@code ::columns}, CozoDB's. */
  static final List<String> COLUMNS_HEADERS = List.of("column", "is_key", "index", "type",
      "has_default");

  /** The store's connection, in the script's transaction. */
  Connection connection() {
    return session.getConnection();
  }

  static Engine.Result ok() {
    return new Engine.Result(List.of("status"), List.of(List.of("OK")));
  }

  /** A column a write names: its name, declared type, and the head column it takes. */
  private record Input(String name, ColType type, String binding) {
  }

  /**
   * Where a stored column's value comes from in a write: a head column
   * (index), its CozoDB default, or (neither) the store's SQL default.
   */
  private record Source(StoredSchema.Column column, int head) {
    static final int DEFAULT = -1;
    static final int SQL_DEFAULT = -2;
  }

  /**
   * Applies a relation operation to the entry rule's rows; {@code headers}
   * is empty when the script has no rules ({@code :create r {...}} alone). Answers
   * {@link #ok}, or with {@code returning} the rows changed ({@link #returned}).
   */
  Engine.Result apply(Script.RelationOp op, List<String> headers, List<List<Object>> rows,
      boolean returning) throws SQLException {
    final Script.RelationOp.Kind kind = op.kind();
    if (kind == Script.RelationOp.Kind.CREATE || kind == Script.RelationOp.Kind.REPLACE) {
      return answer(op, create(op, headers, rows, returning));
    }
    final String table = staged.find(op.relation()).orElseThrow(() ->
        error(op.pos(), ErrorCode.QUERY_RELATION_NOT_FOUND,
            "Cannot find requested stored relation '" + op.relation() + "'"));
    if (headers.isEmpty()) {
      throw noEntry();
    }
    final TablePolicy policy = TablePolicy.of(session, table);
    switch (kind) {
    case PUT, INSERT -> requireLevel(op.relation(), policy, TablePolicy.Level.PROTECTED,
        "row insertion", op.pos());
    case UPDATE -> requireLevel(op.relation(), policy, TablePolicy.Level.PROTECTED,
        "row update", op.pos());
    case RM, DELETE -> requireLevel(op.relation(), policy, TablePolicy.Level.PROTECTED,
        "row removal", op.pos());
    default -> requireLevel(op.relation(), policy, TablePolicy.Level.READ_ONLY, "row check",
        op.pos());
    }
    final boolean removing = kind == Script.RelationOp.Kind.RM
        || kind == Script.RelationOp.Kind.DELETE;
    final List<String> fired = triggers == null ? List.of()
        : removing ? policy.rm() : kind == Script.RelationOp.Kind.ENSURE
        || kind == Script.RelationOp.Kind.ENSURE_NOT ? List.of() : policy.put();
    final StoredSchema schema = StoredSchema.read(session, table);
    final Map<StoredSchema.Column, Input> inputs = resolve(schema, op, inputs(op, headers));
    final boolean removeOrUpdate = kind == Script.RelationOp.Kind.RM
        || kind == Script.RelationOp.Kind.DELETE || kind == Script.RelationOp.Kind.UPDATE;
    for (StoredSchema.Column c : schema.keysFirst()) {
      if ((c.key() || !removeOrUpdate) && !inputs.containsKey(c) && !c.hasDefault()) {
        throw error(op.pos(), ErrorCode.EVAL_REQUIRED_COL_NOT_PROVIDED,
            "required column " + c.name() + " not provided by input");
      }
    }
    final Connection connection = session.getConnection();
    final Savepoint savepoint = connection.setSavepoint();
    final WriteGuard guard = session.guardWrites(table, since);
    final Write write = new Write(op, schema, inputs, headers, returning, !fired.isEmpty());
    try {
      try {
        write.run(rows);
      } finally {
        guard.close(); // before the triggers, whose writes guard their own tables
      }
      connection.releaseSavepoint(savepoint);
    } catch (RuntimeException | SQLException e) {
      if (e == write.failure && !guard.conflicted()) {
        connection.releaseSavepoint(savepoint); // the rows before the failing one stay
        throw e;
      }
      connection.rollback(savepoint);
      if (guard.conflicted()) {
        throw guard.conflict(e);
      }
      throw e;
    }
    // as CozoDB's: a trigger that fails leaves the write done (a script that fails is undone
    // whole; under %ignore_error, the write stays)
    write.fire(fired);
    return answer(op, write);
  }

  /**
   * {@link #ok}, or for a returning write CozoDB's {@code :returning} rows: {@code _kind}, then
   * the relation's columns keys first; per collected write of the relation, a row per row put
   * ({@code inserted}) or key removed ({@code requested}, nulls for the non-keys), then one per
   * row that replaced ({@code replaced}) or removed ({@code deleted}).
   */
  private Engine.Result answer(Script.RelationOp op, Write write) {
    if (!write.returning) {
      return ok();
    }
    final List<Mutation> mutations = returned.computeIfAbsent(op.relation(),
        r -> new ArrayList<>());
    if (!write.added.isEmpty()) {
      mutations.add(new Mutation(write.puts(), write.added, write.removed));
    }
    final List<String> headers = new ArrayList<>(List.of("_kind"));
    write.schema.keysFirst().forEach(c -> headers.add(c.name()));
    final List<List<Object>> rows = new ArrayList<>();
    for (Mutation m : mutations) {
      for (List<Object> row : m.added()) {
        rows.add(kind(m.put() ? "inserted" : "requested", row, headers.size()));
      }
      for (List<Object> row : m.removed()) {
        rows.add(kind(m.put() ? "replaced" : "deleted", row, headers.size()));
      }
    }
    return new Engine.Result(headers, rows);
  }

  /** {@code row} after its kind, padded with nulls to {@code width}. */
  private static List<Object> kind(String kind, List<Object> row, int width) {
    final List<Object> out = new ArrayList<>(width);
    out.add(kind);
    out.addAll(row);
    while (out.size() < width) {
      out.add(null);
    }
    return Collections.unmodifiableList(out);
  }

  /** The columns a write names: its schema's (keys and values alike), or the head's. */
  private static List<Input> inputs(Script.RelationOp op, List<String> headers) {
    final List<Input> inputs = new ArrayList<>();
    if (op.schema() == null) {
      for (String h : headers) {
        inputs.add(new Input(h, ColType.ANY, h));
      }
      return inputs;
    }
    if (op.schema().keys().isEmpty()) {
      if (!op.schema().values().isEmpty()) {
        throw noKeys(op);
      }
      for (String h : headers) {
        inputs.add(new Input(h, ColType.ANY, h));
      }
      return inputs;
    }
    for (Script.Column c : concat(op.schema().keys(), op.schema().values())) {
      inputs.add(new Input(c.name(), StoredSchema.colType(c.type()),
          c.from() != null ? c.from() : c.name()));
    }
    return inputs;
  }

  /** Each named column's stored column, checked as CozoDB checks them. */
  private static Map<StoredSchema.Column, Input> resolve(StoredSchema schema,
      Script.RelationOp op, List<Input> inputs) {
    final Map<StoredSchema.Column, Input> resolved = new LinkedHashMap<>();
    for (Input in : inputs) {
      final StoredSchema.Column c = schema.column(in.name());
      if (c == null) {
        throw error(op.pos(), ErrorCode.EVAL_REQUIRED_COL_NOT_FOUND,
            "required column " + in.name() + " not found");
      }
      if ((!in.type().nullable() || in.type().kind() != ColType.Kind.ANY)
          && !in.type().equals(c.type())) {
        throw error(op.pos(), ErrorCode.EVAL_COL_TYPE_MISMATCH, "requested column " + in.name()
            + " has typing " + c.type() + ", but the requested typing is " + in.type());
      }
      resolved.put(c, in);
    }
    return resolved;
  }

  /** Where each of {@code columns} takes its value, or CozoDB's error when it has nowhere. */
  private static List<Source> sources(Script.RelationOp op, List<StoredSchema.Column> columns,
      Map<StoredSchema.Column, Input> inputs, List<String> headers) {
    final List<Source> sources = new ArrayList<>();
    for (StoredSchema.Column c : columns) {
      final Input in = inputs.get(c);
      final int head = in == null ? -1 : headers.indexOf(in.binding());
      if (head >= 0) {
        sources.add(new Source(c, head));
      } else if (c.defaultValue() != null) {
        sources.add(new Source(c, Source.DEFAULT));
      } else if (c.sqlDefault()) {
        sources.add(new Source(c, Source.SQL_DEFAULT));
      } else {
        throw new DatalogException(ErrorCode.EVAL_UNABLE_TO_MAKE_EXTRACTOR, executing(op),
            op.pos().line(), op.pos().column(), "cannot make extractor for column " + c.name());
      }
    }
    return sources;
  }

  // :create, :replace

  private Write create(Script.RelationOp op, List<String> headers, List<List<Object>> rows,
      boolean returning) throws SQLException {
    if (op.schema() == null && headers.isEmpty()) {
      throw error(op.pos(), ErrorCode.PARSER_NO_ENTRY_HEAD, "Entry head not found");
    }
    if (headers.isEmpty() && op.kind() == Script.RelationOp.Kind.REPLACE) {
      throw noEntry();
    }
    // 1. the relation's columns, as CozoDB checks them while parsing
    final Map<StoredSchema.Column, Input> inputs = declared(op, headers);
    final List<StoredSchema.Column> columns = new ArrayList<>(inputs.keySet());
    final boolean replacing = op.kind() == Script.RelationOp.Kind.REPLACE;
    if (replacing && triggers == null) {
      throw error(op.pos(), ErrorCode.EVAL_REPLACE_IN_TRIGGER,
          "replace op in trigger is not allowed: " + op.relation());
    }
    final Optional<String> existing = staged.find(op.relation());
    if (existing.isPresent() && op.kind() == Script.RelationOp.Kind.CREATE) {
      throw error(op.pos(), ErrorCode.EVAL_STORED_RELATION_CONFLICT,
          "Stored relation " + op.relation() + " conflicts with an existing one");
    }
    // CozoDB 0.7.6: the replace triggers run first, the put triggers see the new rows, then the
    // relation has none (nor its access level: it is made anew, StagedTables says how)
    final TablePolicy policy = existing.isPresent() && replacing
        ? TablePolicy.of(session, existing.get()) : TablePolicy.NORMAL;
    requireLevel(op.relation(), policy, TablePolicy.Level.NORMAL, "relation replacement",
        op.pos());
    for (String trigger : policy.replace()) {
      runTrigger("replace", trigger, Map.of(), op);
    }
    if (existing.isPresent() && (!indices(session, existing.get()).isEmpty()
        || !TablePolicy.of(session, existing.get()).searchIndices().isEmpty())) {
      throw new DatalogException(ErrorCode.EVAL_REPLACE_REL_WITH_INDICES, executing(op),
          op.pos().line(), op.pos().column(),
          "cannot replace relation " + op.relation() + " since it has indices");
    }
    // 2. the table: (:replace, the same columns) the relation's own, else the hidden one made
    //    for this block, emptied (a block of a %loop may run again)
    final String target = staged.target(op);
    // in place, unless it has triggers or a level: CozoDB 0.7.6 makes the relation anew, without
    // them (StagedTables made a new table, without the old one's comment)
    final boolean inPlace = existing.isPresent() && op.kind() == Script.RelationOp.Kind.REPLACE
        && StagedTables.same(StoredSchema.read(session, existing.get()).columns(), columns)
        && policy.equals(TablePolicy.NORMAL);
    final String table;
    if (inPlace) {
      table = existing.get();
    } else if (target == null) {
      throw error(op.pos(), ErrorCode.EVAL_STORED_RELATION_CONFLICT, "Stored relation "
          + op.relation() + " was changed by another connection while the script ran");
    } else if (staged.targetHeldByOther(op)) {
      throw new DatalogException(ErrorCode.MNESTIC_UNSUPPORTED, "cannot make " + op.relation()
          + " anew with other columns here: the table this block makes holds a relation %swap"
          + " gave it", op.pos().line(), op.pos().column(),
          "give the relations the same columns, or make the relation with another block");
    } else {
      table = target;
    }
    // 3. the rows, coerced and checked, then written in the script's transaction
    final StoredSchema schema = StoredSchema.of(table, columns);
    final List<String> fired = triggers == null ? List.of() : policy.put();
    final Write write = new Write(op, schema, inputs,
        headers.isEmpty() ? inputs.values().stream().map(Input::binding).toList() : headers,
        returning, !fired.isEmpty());
    final List<Object[]> prepared = write.prepareAll(rows);
    if (!inPlace) {
      staged.made(op);
    }
    execute("DELETE FROM " + quote(table));
    write.put(prepared);
    write.failed();
    write.fire(fired);
    return write;
  }

  /**
   * {@code {...} as _name}: the block's result made the ephemeral relation of {@code op} (a
   * {@code :replace} of it, every column a key of type {@code Any?}).
   */
  Engine.Result storeAs(Script.RelationOp op, Engine.Result result) throws SQLException {
    return answer(op, create(op, op.schema().keys().stream().map(Script.Column::name).toList(),
        result.rows(), false));
  }

  /** A relation's rows, keys first, in key order: what %if tests, %return gives, %debug shows. */
  Engine.Result rows(String relation, Pos pos) throws SQLException {
    final String table = staged.find(relation).orElseThrow(() -> error(pos,
        ErrorCode.QUERY_RELATION_NOT_FOUND, "Cannot find requested stored relation '" + relation
            + "'"));
    final StoredSchema schema = StoredSchema.read(session, table);
    final List<StoredSchema.Column> columns = schema.keysFirst();
    final List<List<Object>> rows = new ArrayList<>();
    try (Statement s = session.getConnection().createStatement();
         ResultSet rs = s.executeQuery("SELECT " + columns.stream().map(c -> quote(c.name()))
             .collect(Collectors.joining(", ")) + " FROM " + quote(table))) {
      while (rs.next()) {
        final List<Object> row = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
          row.add(columns.get(i).decode(rs.getObject(i + 1)));
        }
        rows.add(Collections.unmodifiableList(row));
      }
    }
    rows.sort(Values::compare);
    return new Engine.Result(columns.stream().map(StoredSchema.Column::name).toList(), rows);
  }

  /** {@code %swap left right}: two ephemeral relations of the script trade their rows. */
  void swap(String left, String right, Pos pos) {
    final String missing = staged.swap(left, right);
    if (missing != null) {
      throw error(pos, ErrorCode.QUERY_RELATION_NOT_FOUND, "Cannot find requested stored relation '"
          + missing + "'");
    }
  }

  /**
   * Refuses {@code name} as a new relation's name (of {@code :create}, {@code :replace} or
   * {@code ::rename}) at {@code pos}: the hidden tables' prefix is the store's own, and a
   * {@code .} would make a table of the store's one schema that SQL reads as schema.table
   * ({@code MNESTIC.STANDING_QUERY} would look like the standing-query catalog).
   */
  private static void checkNewName(String name, Pos pos) {
    if (name.startsWith(StagedTables.PREFIX)) {
      throw error(pos, ErrorCode.MNESTIC_RESERVED_NAME, "Stored relation names beginning with '"
          + StagedTables.PREFIX + "' are the store's own");
    }
    if (name.contains(".")) {
      throw error(pos, ErrorCode.EVAL_INVALID_RELATION_NAME, "Stored relation name '" + name
          + "' has a '.': a new relation is named by one identifier");
    }
  }

  /**
   * The columns {@code :create} or {@code :replace} gives its relation (keys first), each with
   * the input it takes, checked as CozoDB checks them while parsing; {@code headers} is the
   * entry rule's head (empty when the block has no rules).
   */
  static Map<StoredSchema.Column, Input> declared(Script.RelationOp op, List<String> headers) {
    // the name first: StagedTables makes no table for a block whose name is refused
    checkNewName(op.relation(), op.pos());
    final Map<StoredSchema.Column, Input> inputs = new LinkedHashMap<>();
    final Set<String> names = new HashSet<>();
    final List<Script.Column> keys = op.schema() == null ? List.of() : op.schema().keys();
    final List<Script.Column> values = op.schema() == null ? List.of() : op.schema().values();
    if (keys.isEmpty() && !values.isEmpty()) {
      throw noKeys(op);
    }
    for (Script.Column c : concat(keys, values)) {
      if (!names.add(c.name())) {
        throw error(c.pos(), ErrorCode.PARSER_DUP_NAME_IN_COLS,
            "Column " + c.name() + " is defined multiple times");
      }
      if (c.defaultValue() != null) {
        ConstantEvaluator.checkWithoutParams(c.defaultValue());
      }
      final StoredSchema.Column column = StoredSchema.declared(c.name(),
          StoredSchema.colType(c.type()), keys.contains(c), c.defaultValue(), c.defaultSource());
      inputs.put(column, new Input(c.name(), column.type(), c.from() != null ? c.from() : c.name()));
    }
    if (keys.isEmpty()) {
      // no schema, or '{}': the head's columns, all keys of type Any?
      for (String h : headers) {
        if (!names.add(h)) {
          throw error(op.pos(), ErrorCode.PARSER_DUP_NAME_IN_COLS,
              "Column " + h + " is defined multiple times");
        }
        final StoredSchema.Column column = StoredSchema.declared(h, ColType.ANY, true, null, null);
        inputs.put(column, new Input(h, ColType.ANY, h));
      }
    }
    return inputs;
  }

  /** Creates the store's table {@code table} of {@code columns} (keys first): DDL, which commits. */
  static void createTable(Session session, String table, List<StoredSchema.Column> columns)
      throws SQLException {
    final List<String> ddl = new ArrayList<>();
    for (StoredSchema.Column c : columns) {
      ddl.add(quote(c.name()) + " " + StoredSchema.sqlType(c.type())
          + (c.key() || !c.type().nullable() ? " NOT NULL" : ""));
    }
    ddl.add("PRIMARY KEY (" + columns.stream().filter(StoredSchema.Column::key)
        .map(c -> quote(c.name())).collect(Collectors.joining(", ")) + ")");
    try (Statement s = session.getConnection().createStatement()) {
      s.execute("CREATE TABLE " + quote(table) + " (" + String.join(", ", ddl) + ")");
      for (StoredSchema.Column c : columns) {
        s.execute("COMMENT ON COLUMN " + quote(table) + "." + quote(c.name()) + " IS '"
            + StoredSchema.remark(c.type(), c.defaultSource()).replace("'", "''") + "'");
      }
    }
  }

  /** One write against one relation: where each column's value comes from, and the store's statements. */
  private final class Write {
    private final Script.RelationOp op;
    private final StoredSchema schema;
    private final Map<StoredSchema.Column, Input> inputs;
    private final List<String> headers;
    private final List<StoredSchema.Column> keys;
    /** Whether the write answers with its changes ({@code :returning}). */
    private final boolean returning;
    /**
     * Whether the write collects its changes, {@link #added} and {@link #removed}: for
     * {@code :returning}, or for the triggers it fires (as {@code _new} and {@code _old}).
     */
    private final boolean collecting;
    /**
     * Whether a stored row is seen before it changes: not in an ephemeral relation, as CozoDB
     * looks it up in the store's persistent half (an update's excepted).
     */
    private final boolean seesOld;
    /** The rows put, or keys requested, each keys first (when {@link #collecting}). */
    private final List<List<Object>> added = new ArrayList<>();
    /** The rows replaced or deleted, each keys first (when {@link #collecting}). */
    private final List<List<Object>> removed = new ArrayList<>();
    /** The failure of the row the write stopped at, the rows before it written; or null. */
    private DatalogException failure;

    Write(Script.RelationOp op, StoredSchema schema, Map<StoredSchema.Column, Input> inputs,
        List<String> headers, boolean returning, boolean triggered) {
      this.op = op;
      this.schema = schema;
      this.inputs = inputs;
      this.headers = headers;
      this.keys = schema.keysFirst().stream().filter(StoredSchema.Column::key).toList();
      this.returning = returning;
      this.collecting = returning || triggered;
      this.seesOld = !StagedTables.isEphemeral(op.relation());
    }

    /**
     * Runs {@code fired}, the triggers of this write, in order, each with {@code _new} and
     * {@code _old} as CozoDB gives them; none when the write had no rows.
     */
    void fire(List<String> fired) throws SQLException {
      if (!added.isEmpty()) {
        StoredRelations.this.fire(op, puts(), fired, schema, added, removed);
      }
    }

    /** Whether the write puts rows (its changes are inserted and replaced ones). */
    boolean puts() {
      return op.kind() != Script.RelationOp.Kind.RM && op.kind() != Script.RelationOp.Kind.DELETE;
    }

    /** A row in table order (decoded) as {@code :returning} gives it: keys first. */
    private List<Object> keysFirst(Object[] row) {
      final List<Object> out = new ArrayList<>(row.length);
      for (StoredSchema.Column c : schema.keysFirst()) {
        out.add(row[schema.columns().indexOf(c)]);
      }
      return Collections.unmodifiableList(out);
    }

    /** {@code key}'s values, then those of {@code stored} (table order, decoded) past the keys. */
    private List<Object> withKey(List<Object> key, Object[] stored) {
      final List<Object> out = new ArrayList<>(key);
      out.addAll(keysFirst(stored).subList(keys.size(), stored.length));
      return Collections.unmodifiableList(out);
    }

    void run(List<List<Object>> rows) throws SQLException {
      switch (op.kind()) {
      case PUT:
        put(prepareAll(rows));
        break;
      case INSERT:
        insert(rows);
        break;
      case UPDATE:
        update(rows);
        break;
      case RM:
      case DELETE:
        remove(rows, op.kind() == Script.RelationOp.Kind.DELETE);
        break;
      case ENSURE:
        ensure(rows);
        break;
      default: // ENSURE_NOT
        ensureNot(rows);
      }
      failed();
    }

    /** Throws the {@link #failure} of the row the write stopped at, if it stopped. */
    void failed() {
      if (failure != null) {
        throw failure;
      }
    }

    /**
     * Every row as the store takes it: one value per column in table order; up to the first row
     * that fails to, when one does ({@link #failure}).
     */
    List<Object[]> prepareAll(List<List<Object>> rows) {
      final List<Source> sources = sources(op, schema.columns(), inputs, headers);
      final List<Object[]> prepared = new ArrayList<>(rows.size());
      try {
        for (List<Object> row : rows) {
          prepared.add(extract(sources, row));
        }
      } catch (DatalogException e) {
        failure = e;
      }
      return prepared;
    }

    /** The coerced values (null where the store's default applies), as the store takes them. */
    private Object[] extract(List<Source> sources, List<Object> row) {
      final Object[] values = new Object[sources.size()];
      for (int i = 0; i < values.length; i++) {
        final Source s = sources.get(i);
        final StoredSchema.Column c = s.column();
        if (s.head() == Source.SQL_DEFAULT) {
          continue;
        }
        final Object value;
        try {
          value = c.type().coerce(s.head() == Source.DEFAULT
              ? ConstantEvaluator.evaluate(c.defaultValue(), Map.of())
              : row.get(s.head()), now);
        } catch (ValueException | DatalogException e) {
          final ErrorCode code = e instanceof ValueException
              ? ((ValueException) e).errorCode() : ((DatalogException) e).errorCode();
          throw new DatalogException(code, executing(op), op.pos().line(), op.pos().column(),
              "when processing tuple " + Values.display(row) + ": " + e.getMessage());
        }
        if (value == null && c.key() && c.codec() != StoredSchema.Codec.STORED_JSON) {
          throw new DatalogException(ErrorCode.MNESTIC_NULL_KEY, executing(op), op.pos().line(),
              op.pos().column(), "key column " + c.name() + " of " + op.relation() + " is "
              + c.type() + ": the store's key cannot hold null (declare it Any? to allow null)");
        }
        values[i] = c.encode(value);
      }
      return values;
    }

    // :put — upsert; of rows with the same key the last one wins, as written in order

    void put(List<Object[]> rows) throws SQLException {
      if (rows.isEmpty()) {
        return;
      }
      if (collecting) {
        collectPut(rows);
      }
      final Map<Key, Object[]> last = new LinkedHashMap<>();
      for (Object[] row : rows) {
        last.put(key(row), row);
      }
      try (PreparedStatement delete = prepare("DELETE FROM " + table() + where());
           PreparedStatement insert = prepare(insertSql())) {
        for (Key k : last.keySet()) {
          bind(delete, k.values(), 0);
          delete.addBatch();
        }
        delete.executeBatch();
        insertAll(insert, last.values());
      }
    }

    /**
     * Collects a put's changes before it writes: each row in order, and the row its key had
     * before it (the store's, or an earlier one of {@code rows}).
     */
    private void collectPut(List<Object[]> rows) throws SQLException {
      final Map<Key, Object[]> now = new HashMap<>();
      try (PreparedStatement select = prepare(selectSql())) {
        for (Object[] row : rows) {
          final Object[] values = decoded(row, schema.columns()).toArray();
          final List<Object> put = keysFirst(values);
          if (seesOld) {
            final Key k = key(row);
            final Object[] old = now.containsKey(k) ? now.get(k) : read(select, k);
            if (old != null) {
              removed.add(withKey(put.subList(0, keys.size()), old));
            }
            now.put(k, values);
          }
          added.add(put);
        }
      }
    }

    // :insert — a key that exists (in the store, or earlier in the rows) fails

    void insert(List<List<Object>> rows) throws SQLException {
      final List<Source> sources = sources(op, schema.columns(), inputs, headers);
      final Set<Key> seen = new HashSet<>();
      final List<Object[]> prepared = new ArrayList<>();
      try (PreparedStatement select = prepare(selectSql())) {
        for (List<Object> row : rows) {
          final Object[] values = extract(sources, row);
          final Key k = key(values);
          if (!seen.add(k) || read(select, k) != null) {
            throw assertion(decoded(values, schema.columns()), "key exists in database");
          }
          prepared.add(values);
        }
      } catch (DatalogException e) {
        failure = e;
      }
      try (PreparedStatement insert = prepare(insertSql())) {
        insertAll(insert, prepared);
      }
      if (collecting) {
        for (Object[] row : prepared) {
          added.add(keysFirst(decoded(row, schema.columns()).toArray()));
        }
      }
    }

    // :update — the named non-key columns of rows that exist

    void update(List<List<Object>> rows) throws SQLException {
      final List<Source> keySources = sources(op, keys, inputs, headers);
      // a column left to the store's default keeps its value
      final List<Source> setSources = sources(op, schema.columns().stream()
          .filter(c -> !c.key() && inputs.containsKey(c)).toList(), inputs, headers).stream()
          .filter(s -> s.head() != Source.SQL_DEFAULT).toList();
      final List<StoredSchema.Column> set = setSources.stream().map(Source::column).toList();
      try (PreparedStatement select = prepare(selectSql());
           PreparedStatement update = set.isEmpty() ? null : prepare("UPDATE " + table()
               + " SET " + set.stream().map(c -> quote(c.name()) + " = ?")
               .collect(Collectors.joining(", ")) + where())) {
        for (List<Object> row : rows) {
          final Object[] key;
          final Object[] old;
          final Object[] values;
          try {
            key = extract(keySources, row);
            old = read(select, new Key(key));
            if (old == null) {
              throw assertion(decoded(key, keys), "key to update does not exist");
            }
            values = extract(setSources, row);
          } catch (DatalogException e) {
            failure = e;
            return;
          }
          if (update != null) {
            bind(update, values, 0);
            bind(update, key, values.length);
            update.executeUpdate();
          }
          if (collecting) {
            final List<Object> k = decoded(key, keys);
            added.add(withKey(k, read(select, new Key(key))));
            removed.add(withKey(k, old));
          }
        }
      }
    }

    // :rm, :delete — by key; :delete fails on a key that does not exist

    void remove(List<List<Object>> rows, boolean mustExist) throws SQLException {
      final List<Source> sources = sources(op, keys, inputs, headers);
      final Set<Key> requested = new HashSet<>();
      try (PreparedStatement select = prepare(selectSql());
           PreparedStatement delete = prepare("DELETE FROM " + table() + where())) {
        for (List<Object> row : rows) {
          final Key k;
          try {
            k = new Key(extract(sources, row));
            if (mustExist && (requested.contains(k) || read(select, k) == null)) {
              throw assertion(decoded(k.values(), keys), "key does not exists in database");
            }
          } catch (DatalogException e) {
            failure = e;
            break;
          }
          if (collecting) {
            final List<Object> key = decoded(k.values(), keys);
            added.add(key);
            final Object[] old = seesOld && !requested.contains(k) ? read(select, k) : null;
            if (old != null) {
              removed.add(withKey(key, old));
            }
          }
          requested.add(k);
          bind(delete, k.values(), 0);
          delete.addBatch();
        }
        if (!requested.isEmpty()) {
          delete.executeBatch();
        }
      }
    }

    // :ensure, :ensure_not — assertions, nothing written

    void ensure(List<List<Object>> rows) throws SQLException {
      final List<Source> sources = sources(op, schema.columns(), inputs, headers);
      try (PreparedStatement select = prepare(selectSql())) {
        for (List<Object> row : rows) {
          final Object[] values = extract(sources, row);
          final List<Object> wanted = decoded(values, schema.columns());
          final Object[] stored = read(select, key(values));
          if (stored == null) {
            throw assertion(wanted, "key does not exist in database");
          }
          for (int i = 0; i < stored.length; i++) {
            if (sources.get(i).head() != Source.SQL_DEFAULT
                && !Values.equal(wanted.get(i), stored[i])) {
              throw assertion(wanted, "key exists in database, but value does not match");
            }
          }
        }
      }
    }

    void ensureNot(List<List<Object>> rows) throws SQLException {
      final List<Source> sources = sources(op, keys, inputs, headers);
      try (PreparedStatement select = prepare(selectSql())) {
        for (List<Object> row : rows) {
          final Object[] key = extract(sources, row);
          if (read(select, new Key(key)) != null) {
            throw assertion(decoded(key, keys), "key exists in database");
          }
        }
      }
    }

    // the store's statements

    /** The key of a full row (values in table order). */
    private Key key(Object[] row) {
      final Object[] key = new Object[keys.size()];
      for (int k = 0; k < key.length; k++) {
        key[k] = row[schema.columns().indexOf(keys.get(k))];
      }
      return new Key(key);
    }

    /** The stored row of a key, decoded (values in table order), or null. */
    private Object[] read(PreparedStatement select, Key key) throws SQLException {
      bind(select, key.values(), 0);
      try (ResultSet rs = select.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        final Object[] row = new Object[schema.columns().size()];
        for (int i = 0; i < row.length; i++) {
          row[i] = schema.columns().get(i).decode(rs.getObject(i + 1));
        }
        return row;
      }
    }

    private List<Object> decoded(Object[] stored, List<StoredSchema.Column> columns) {
      final List<Object> values = new ArrayList<>();
      for (int i = 0; i < stored.length; i++) {
        values.add(columns.get(i).decode(stored[i]));
      }
      return Collections.unmodifiableList(values);
    }

    private void insertAll(PreparedStatement insert, Collection<Object[]> rows) throws SQLException {
      if (rows.isEmpty()) {
        return; // HSQLDB refuses an empty batch
      }
      final List<Integer> given = givenColumns();
      for (Object[] row : rows) {
        for (int i = 0; i < given.size(); i++) {
          insert.setObject(i + 1, row[given.get(i)]);
        }
        insert.addBatch();
      }
      insert.executeBatch();
    }

    /** Positions of the columns a write gives (those left to the store's default are not). */
    private List<Integer> givenColumns() {
      final List<Source> sources = sources(op, schema.columns(), inputs, headers);
      final List<Integer> given = new ArrayList<>();
      for (int i = 0; i < sources.size(); i++) {
        if (sources.get(i).head() != Source.SQL_DEFAULT) {
          given.add(i);
        }
      }
      return given;
    }

    private String insertSql() {
      final List<Integer> given = givenColumns();
      return "INSERT INTO " + table() + " (" + given.stream()
          .map(i -> quote(schema.columns().get(i).name())).collect(Collectors.joining(", "))
          + ") VALUES (" + String.join(", ", Collections.nCopies(given.size(), "?")) + ")";
    }

    private String selectSql() {
      return "SELECT " + schema.columns().stream().map(c -> quote(c.name()))
          .collect(Collectors.joining(", ")) + " FROM " + table() + where();
    }

    /**
     * Matches a key; without a primary key (a table made by SQL) the whole row, nulls matching
     * too, as SQL's writes find it ({@link StoreWrites#keyCondition}: each parameter cast to
     * its column's type, which HSQLDB cannot guess), its columns in table order as {@link #keys}.
     */
    private String where() {
      if (!schema.hasPrimaryKey()) {
        return " WHERE " + StoreWrites.keyCondition(session, schema.table());
      }
      return " WHERE " + keys.stream().map(k -> quote(k.name()) + " = ?")
          .collect(Collectors.joining(" AND "));
    }

    private String table() {
      return quote(schema.table());
    }

    private PreparedStatement prepare(String sql) throws SQLException {
      return session.getConnection().prepareStatement(sql);
    }

    private DatalogException assertion(List<Object> tuple, String what) {
      return new DatalogException(ErrorCode.TRANSACT_ASSERTION_FAILURE, executing(op),
          op.pos().line(), op.pos().column(), "Assertion failure for " + Values.display(tuple)
          + " of " + op.relation() + ": " + what);
    }
  }

  /** Stored values of a key, compared as CozoDB values are. */
  private record Key(Object[] values) {
    @Override public boolean equals(Object o) {
      return o instanceof Key && Values.equal(List.of(values), List.of(((Key) o).values));
    }

    @Override public int hashCode() {
      return Values.hash(java.util.Arrays.asList(values));
    }
  }

  private static void bind(PreparedStatement ps, Object[] values, int offset) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      ps.setObject(offset + i + 1, values[i]);
    }
  }

  /** {@code ::relations}: CozoDB's columns. */
  Engine.Result relations() {
    final List<List<Object>> rows = new ArrayList<>();
    for (String name : staged.names()) {
      final String table = staged.find(name).orElseThrow();
      final int arity = StoreCatalog.columns(session, table).size();
      final int keys = StoreCatalog.primaryKey(session, table).size();
      final TablePolicy policy = TablePolicy.of(session, table);
      rows.add(Values.list(name, (long) arity, policy.level().toString(), (long) keys,
          (long) (arity - keys), (long) policy.put().size(), (long) policy.rm().size(),
          (long) policy.replace().size(), ""));
      for (Map.Entry<String, List<String>> index : indices(session, table).entrySet()) {
        final long n = index.getValue().size();
        rows.add(Values.list(name + ":" + index.getKey(), n, "index", n, 0L, 0L, 0L, 0L, ""));
      }
    }
    rows.sort((a, b) -> Values.compare(a, b));
    return new Engine.Result(RELATIONS_HEADERS, rows);
  }

  /**
   * {@code ::compact}: a file store rewrites its data file without the space deleted rows
   * left ({@code CHECKPOINT DEFRAG}); an in-memory store has nothing to compact.
   */
  Engine.Result compact() throws SQLException {
    if (session.location().hsqldbUrl().startsWith("jdbc:hsqldb:file:")) {
      execute("CHECKPOINT DEFRAG");
    }
    return ok();
  }

  /**
   * {@code ::columns rel}: CozoDB's columns; of an index {@code rel:idx}, its columns in order,
   * all keys.
   */
  Engine.Result columns(String relation, Pos pos) {
    final int colon = relation.indexOf(':');
    final String base = colon < 0 ? relation : relation.substring(0, colon);
    final String table = staged.find(base).orElseThrow(() -> notFound(relation, pos));
    final StoredSchema schema = StoredSchema.read(session, table);
    final List<List<Object>> rows = new ArrayList<>();
    long index = 0;
    if (colon >= 0) {
      final List<String> columns = indices(session, table).get(relation.substring(colon + 1));
      if (columns == null) {
        final List<List<Object>> search = searchIndexColumns(table, schema,
            relation.substring(colon + 1));
        if (search == null) {
          throw notFound(relation, pos);
        }
        return new Engine.Result(COLUMNS_HEADERS, search);
      }
      for (String name : columns) {
        final StoredSchema.Column c = schema.column(name);
        rows.add(Values.list(c.name(), true, index++, c.type().toString(), c.hasDefault()));
      }
    } else {
      for (StoredSchema.Column c : schema.keysFirst()) {
        rows.add(Values.list(c.name(), c.key() && schema.hasPrimaryKey(), index++,
            c.type().toString(), c.hasDefault()));
      }
    }
    return new Engine.Result(COLUMNS_HEADERS, rows);
  }

  /**
   * The columns of the relation CozoDB keeps a search index of {@code table} in, {@code idx}
   * the index's name and for MinHash-LSH's inverse relation {@code idx:inv}, as {@code
   * ::columns} shows them ({@code SearchIndex.Kind#relationColumns}); null when there is no
   * such index.
   */
  private List<List<Object>> searchIndexColumns(String table, StoredSchema schema,
      String idx) {
    final int colon = idx.indexOf(':');
    final SearchIndex.Definition d = TablePolicy.of(session, table).searchIndices()
        .get(colon < 0 ? idx : idx.substring(0, colon));
    if (d == null) {
      return null;
    }
    final List<SearchIndex.RelationColumn> columns = SearchIndexes.kind(d.kind())
        .relationColumns(d, SearchIndexes.columns(schema),
            colon < 0 ? "" : idx.substring(colon + 1));
    if (columns == null) {
      return null;
    }
    final List<List<Object>> rows = new ArrayList<>();
    for (SearchIndex.RelationColumn c : columns) {
      rows.add(Values.list(c.name(), c.key(), (long) rows.size(), c.type(), false));
    }
    return rows;
  }

  private static DatalogException notFound(String relation, Pos pos) {
    return error(pos, ErrorCode.QUERY_RELATION_NOT_FOUND,
        "Cannot find requested stored relation '" + relation + "'");
  }

  /**
   * The indices ({@code ::index create}) of the store's table {@code table}, each its name and
   * columns in order: the store's indexes named {@code table:name}. An index is an index of the
   * store's own ({@code CREATE INDEX "rel:name" ON "rel" (...)}), which HSQLDB keeps in step with
   * its table in the writing transaction, drops with it ({@code DROP TABLE}) and shows in JDBC's
   * {@code getIndexInfo}; its name and columns are all there is to know of it.
   */
  static Map<String, List<String>> indices(Session session, String table) {
    final Map<String, List<String>> indices = new LinkedHashMap<>();
    StoreCatalog.indexes(session, table).forEach((name, columns) -> {
      if (name.startsWith(table + ":")) {
        indices.put(name.substring(table.length() + 1), columns);
      }
    });
    return indices;
  }

  /**
   * {@code ::index create rel:idx {a, b}}: an index of {@code rel}, its columns the given ones
   * then the relation's other keys (so that its rows are the relation's rows, each once), as
   * CozoDB makes it; one statement of the store ({@code CREATE INDEX}), which commits.
   */
  Engine.Result createIndex(String relation, String name, List<String> columns, Pos pos)
      throws SQLException {
    final String table = staged.find(relation).orElseThrow(() -> notFound(relation, pos));
    if (indices(session, table).containsKey(name)) {
      throw error(pos, ErrorCode.TX_INDEX_ALREADY_EXISTS,
          "index " + name + " for relation " + relation + " already exists");
    }
    final StoredSchema schema = StoredSchema.read(session, table);
    final List<String> indexed = new ArrayList<>();
    for (String column : columns) {
      if (schema.columns().stream().noneMatch(c -> c.name().equals(column))) {
        throw error(pos, ErrorCode.TX_COL_IN_IDX_NOT_FOUND, "column " + column + " in index "
            + name + " for relation " + relation + " not found");
      }
      if (indexed.contains(column)) {
        throw error(pos, ErrorCode.MNESTIC_DUPLICATE_INDEX_COLUMN, "column " + column
            + " is named twice in index " + name + ": the store's index holds a column once");
      }
      indexed.add(column);
    }
    for (StoredSchema.Column key : schema.keysFirst()) {
      if (key.key() && !indexed.contains(key.name())) {
        indexed.add(key.name());
      }
    }
    execute("CREATE INDEX " + quote(table + ":" + name) + " ON " + quote(table) + " ("
        + indexed.stream().map(StoredRelations::quote).collect(Collectors.joining(", ")) + ")");
    return ok();
  }

  /**
   * {@code ::hnsw create rel:idx {options}} (also {@code ::fts}, {@code ::lsh}): the index's
   * kind checks the options ({@link SearchIndex.Kind#define}) and its definition is kept with
   * the relation ({@link TablePolicy}: DDL, which commits). The index itself is built from the
   * relation's rows at its first search ({@link SearchIndexes}).
   */
  Engine.Result createSearchIndex(SearchIndex.Kind kind, String relation, String name,
      Map<String, Object> options, Pos pos) throws SQLException {
    final String table = staged.find(relation).orElseThrow(() -> notFound(relation, pos));
    final TablePolicy policy = TablePolicy.of(session, table);
    if (indices(session, table).containsKey(name) || policy.searchIndices().containsKey(name)) {
      // CozoDB 0.7.6's message names the index twice
      throw error(pos, ErrorCode.TX_INDEX_ALREADY_EXISTS,
          "index " + name + " for relation " + name + " already exists");
    }
    requireLevel(relation, policy, TablePolicy.Level.PROTECTED, "index creation", pos);
    final SearchIndex.Definition definition;
    try {
      definition = kind.define(name, SearchIndexes.columns(StoredSchema.read(session, table)),
          options);
    } catch (ValueException e) {
      throw new DatalogException(e.errorCode(), e.getMessage(), pos.line(), pos.column(),
          e.help());
    }
    TablePolicy.store(session, table, policy.withSearchIndex(name, definition));
    return ok();
  }

  /** {@code ::index drop rel:idx}: one statement of the store ({@code DROP INDEX}), which commits. */
  Engine.Result dropIndex(String relation, String name, Pos pos) throws SQLException {
    final String table = staged.find(relation).orElseThrow(() -> notFound(relation, pos));
    final TablePolicy policy = TablePolicy.of(session, table);
    if (policy.searchIndices().containsKey(name)) {
      TablePolicy.store(session, table, policy.withSearchIndex(name, null));
      return ok();
    }
    if (!indices(session, table).containsKey(name)) {
      throw error(pos, ErrorCode.TX_IDX_NOT_FOUND,
          "index " + name + " for relation " + relation + " not found");
    }
    execute("DROP INDEX " + quote(table + ":" + name));
    return ok();
  }

  /**
   * {@code ::indices rel}: CozoDB's columns, an index a row (its name, type {@code normal}, the
   * relation holding it, and its columns as positions among the relation's, keys first).
   */
  Engine.Result listIndices(String relation, Pos pos) {
    final List<List<Object>> rows = new ArrayList<>();
    if (relation.indexOf(':') < 0) {
      final String table = staged.find(relation).orElseThrow(() -> notFound(relation, pos));
      final List<String> positions = StoredSchema.read(session, table).keysFirst().stream()
          .map(StoredSchema.Column::name).toList();
      indices(session, table).forEach((name, columns) -> rows.add(Values.list(name, "normal",
          Values.list(relation + ":" + name), Json.object(Map.of("indices", Values.listOf(
              columns.stream().map(c -> (Object) (long) positions.indexOf(c)).toList()))))));
      // search indices: their kind and definition, CozoDB's manifest without the index's
      // filter (which CozoDB's config does not show)
      TablePolicy.of(session, table).searchIndices().forEach((name, d) -> {
        final Map<String, Object> config = new LinkedHashMap<>();
        ((Map<?, ?>) d.options().tree()).forEach((k, v) -> config.put((String) k, Json.wrap(v)));
        config.remove("index_filter");
        // CozoDB keeps an LSH index in two relations, rel:idx and its inverse rel:idx:inv
        final List<Object> relations = d.kind().equals("lsh")
            ? Values.list(relation + ":" + name, relation + ":" + name + ":inv")
            : Values.list(relation + ":" + name);
        rows.add(Values.list(name, d.kind(), relations, Json.object(config)));
      });
    } else {
      columns(relation, pos); // an index has no indices, but must exist
    }
    return new Engine.Result(List.of("name", "type", "relations", "config"), rows);
  }

  /**
   * {@code ::remove a, b}: every relation is found, and none read besides scripts
   * ({@link StagedTables#refuseIfRead}), before any is dropped, so a missing or read one drops
   * none. Each drop is DDL, which the store commits: a process that dies between two drops
   * leaves the first dropped.
   */
  Engine.Result remove(List<String> relations, Pos pos) throws SQLException {
    final List<String> tables = new ArrayList<>();
    for (String relation : relations) {
      final String table = staged.find(relation).orElseThrow(() -> notFound(relation, pos));
      if (!indices(session, table).isEmpty()
          || !TablePolicy.of(session, table).searchIndices().isEmpty()) {
        // CozoDB's message, without a code
        throw new DatalogException(null, "Cannot remove stored relation `" + relation
            + "` with indices attached.", pos.line(), pos.column());
      }
      tables.add(table);
    }
    for (int i = 0; i < tables.size(); i++) {
      requireLevel(relations.get(i), TablePolicy.of(session, tables.get(i)),
          TablePolicy.Level.NORMAL, "relation removal", pos);
      staged.refuseIfRead(tables.get(i), "remove", pos);
    }
    for (String table : tables) {
      execute("DROP TABLE " + quote(table));
    }
    return ok();
  }

  /**
   * {@code ::rename a -> b, c -> d} ({@code pairs}: each old name, then its new one), in
   * order as CozoDB renames: a later pair sees the earlier ones done ({@code a -> b, b -> c}
   * holds; {@code a -> c, c -> a} with both stored does not). Every pair is checked before any
   * table is renamed: a new name taken fails with {@code eval::rel_name_conflict}, an old one
   * missing with {@code query::relation_not_found}, and nothing is renamed. Each rename is DDL,
   * which the store commits; one the store refuses undoes those before it.
   */
  Engine.Result rename(List<String> pairs, Pos pos) throws SQLException {
    // the relations as they will be, each with its table's name at that point
    final Map<String, String> now = new LinkedHashMap<>();
    for (String name : staged.names()) {
      now.put(name, staged.find(name).orElseThrow());
    }
    final List<String[]> renames = new ArrayList<>();
    for (int i = 0; i < pairs.size(); i += 2) {
      final String from = pairs.get(i);
      final String to = pairs.get(i + 1);
      if (lookup(now, to) != null) {
        throw error(pos, ErrorCode.EVAL_REL_NAME_CONFLICT,
            "Cannot create relation " + to + " as one with the same name already exists");
      }
      final String fromName = lookup(now, from);
      if (fromName == null) {
        throw error(pos, ErrorCode.QUERY_RELATION_NOT_FOUND,
            "Cannot find requested stored relation '" + from + "'");
      }
      checkNewName(to, pos);
      requireLevel(fromName, TablePolicy.of(session, now.get(fromName)),
          TablePolicy.Level.NORMAL, "renaming relation", pos);
      final String table = now.remove(fromName);
      staged.refuseIfRead(table, "rename", pos);
      now.put(to, to);
      renames.add(new String[] {table, to});
    }
    final List<String[]> done = new ArrayList<>();
    try {
      for (String[] r : renames) {
        rename(r[0], r[1]);
        done.add(r);
      }
    } catch (SQLException e) {
      for (int i = done.size() - 1; i >= 0; i--) {
        rename(done.get(i)[1], done.get(i)[0]);
      }
      throw e;
    }
    return ok();
  }

  /** {@code ::show_triggers rel}: CozoDB's columns, a row per trigger (put, rm, replace). */
  Engine.Result showTriggers(String relation, Pos pos) {
    final TablePolicy policy = TablePolicy.of(session, existing(relation, pos));
    final List<List<Object>> rows = new ArrayList<>();
    final List<List<String>> kinds = List.of(policy.put(), policy.rm(), policy.replace());
    final List<String> names = List.of("put", "rm", "replace");
    for (int k = 0; k < kinds.size(); k++) {
      for (int i = 0; i < kinds.get(k).size(); i++) {
        rows.add(Values.list(names.get(k), (long) i, kinds.get(k).get(i)));
      }
    }
    return new Engine.Result(List.of("type", "idx", "trigger"), rows);
  }

  /**
   * {@code ::set_triggers rel on put {...} ...}: the relation's triggers become
   * {@code triggers} (none: it has none), as CozoDB sets them, on a relation at least
   * protected. Setting them is DDL ({@link TablePolicy#store}), which commits.
   */
  Engine.Result setTriggers(String relation, List<Script.Trigger> triggers, Pos pos)
      throws SQLException {
    final String table = existing(relation, pos);
    final TablePolicy policy = TablePolicy.of(session, table);
    requireLevel(relation, policy, TablePolicy.Level.PROTECTED, "set triggers", pos);
    final Map<String, List<String>> scripts = new LinkedHashMap<>();
    for (String on : List.of("put", "rm", "replace")) {
      scripts.put(on, new ArrayList<>());
    }
    for (Script.Trigger t : triggers) {
      scripts.get(t.on()).add(t.script());
    }
    TablePolicy.store(session, table, policy.withTriggers(scripts.get("put"), scripts.get("rm"),
        scripts.get("replace")));
    return ok();
  }

  /**
   * {@code ::access_level level a, b}: each relation's level becomes {@code level}, whatever it
   * was (as in CozoDB, any level may be set from any). Every relation is found before any is
   * changed. DDL ({@link TablePolicy#store}), which commits.
   */
  Engine.Result accessLevel(String level, List<String> relations, Pos pos) throws SQLException {
    final List<String> tables = new ArrayList<>();
    for (String relation : relations) {
      tables.add(existing(relation, pos));
    }
    for (String table : tables) {
      TablePolicy.store(session, table,
          TablePolicy.of(session, table).withLevel(TablePolicy.Level.of(level)));
    }
    return ok();
  }

  /** The table of {@code relation}, or CozoDB's error when it does not exist. */
  private String existing(String relation, Pos pos) {
    return staged.find(relation).orElseThrow(() -> error(pos, ErrorCode.QUERY_RELATION_NOT_FOUND,
        "Cannot find requested stored relation '" + relation + "'"));
  }

  /**
   * Renames table {@code from} to {@code to}, and its indices with it ({@code from:idx} becomes
   * {@code to:idx}; CozoDB 0.7.6 leaves them under the old name, where {@code *to:idx} cannot
   * read them).
   */
  private void rename(String from, String to) throws SQLException {
    final Set<String> indices = indices(session, from).keySet();
    execute("ALTER TABLE " + quote(from) + " RENAME TO " + quote(to));
    for (String index : indices) {
      execute("ALTER INDEX " + quote(from + ":" + index) + " RENAME TO " + quote(to + ":" + index));
    }
  }

  /** The name in {@code relations} that {@code name} finds, as {@link StagedTables#find} does. */
  private static String lookup(Map<String, String> relations, String name) {
    if (relations.containsKey(name)) {
      return name;
    }
    return relations.keySet().stream().filter(n -> n.equalsIgnoreCase(name)).findFirst()
        .orElse(null);
  }

  private void execute(String sql) throws SQLException {
    try (Statement s = session.getConnection().createStatement()) {
      s.execute(sql);
    }
  }

  private static String executing(Script.RelationOp op) {
    return "when executing against relation '" + op.relation() + "'";
  }

  private static DatalogException noEntry() {
    return new DatalogException(ErrorCode.PARSER_NO_ENTRY, "Program has no entry", 0, 0,
        "You need to have one rule named '?'");
  }

  private static DatalogException noKeys(Script.RelationOp op) {
    return error(op.pos(), ErrorCode.PARSER_RELATION_HAS_NO_KEYS,
        "Input relation '" + op.relation() + "' has no keys");
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    final List<T> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  private static DatalogException error(Pos pos, ErrorCode code, String message) {
    return new DatalogException(code, message, pos.line(), pos.column());
  }
}
