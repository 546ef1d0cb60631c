package dev.mnestic.datalog;

import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.ast.Script;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;
import dev.mnestic.store.TablePolicy;
import dev.mnestic.value.ErrorCode;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

/**
 * The store's relations as one script sees them while it runs, so that a script that fails
 * leaves every relation as it was (issue 13, point 3). HSQLDB commits the open transaction
 * when it runs DDL, so no DDL runs between a script's writes:
 * <ol>
 *   <li>{@link #prepare}, before any block runs: every block that makes a table
 *       ({@code :create}; {@code :replace} of a relation that does not exist or whose columns
 *       differ) gets an empty table of its columns under a hidden name ({@link #PREFIX}). A
 *       {@code :replace} with the relation's own columns makes none: it deletes the rows and
 *       puts the new ones in the script's transaction.
 *   <li>The blocks run in one transaction; from the block that made it on, a relation is read
 *       and written in its hidden table ({@link #find}, {@link #made}).
 *   <li>A failure rolls the transaction back, then {@link #abandon} drops the hidden tables.
 *       Success: {@link #commit} journals each relation's swap (a row of
 *       {@code MNESTIC.STAGED_RELATION}) in the transaction and commits it, then drops each
 *       replaced table, renames the hidden table to the relation's name and deletes the
 *       journal row, one relation at a time.
 * </ol>
 *
 * <p>An ephemeral relation ({@code _name}, {@link #isEphemeral}) is made as any other but
 * never swapped in: its hidden table is dropped when its script ends, as CozoDB forgets it.
 *
 * <p>Other sessions never see a script's rows before it commits, but do see, for a moment
 * after it commits, a changed relation missing between the drop and the rename, and the
 * hidden tables' names in the store's metadata while the script runs. A process that dies
 * mid-script leaves hidden tables, which the next script on the store settles before it runs
 * ({@link #recover}): those of a commit that was journalled are swapped in (the script's
 * commit completes), the others dropped (it never happened).
 */
final class StagedTables {
  /** What begins the name of a hidden table; no relation may be named so. */
  static final String PREFIX = "mnestic$staged$";
  private static final String JOURNAL_SCHEMA = "MNESTIC";
  private static final String JOURNAL = "\"" + JOURNAL_SCHEMA + "\".\"STAGED_RELATION\"";
  /** The prefixes of the hidden tables of the scripts running in this process. */
  private static final Set<String> LIVE = ConcurrentHashMap.newKeySet();

  private final Session session;
  /** What reads the store's tables besides scripts: their tables are not dropped. */
  private final Engine.TableReaders readers;
  /** This script's hidden tables: {@link #PREFIX}, a random nonce, {@code $}. */
  private final String prefix;
  /** The hidden table each block that makes one writes. */
  private final Map<Script.RelationOp, String> targets = new IdentityHashMap<>();
  /** The tables the script made so far, by relation name as written. */
  private final Map<String, String> made = new LinkedHashMap<>();
  /** Whether the script's transaction committed: from then on its hidden tables are kept. */
  private boolean committed;
  /** The store's table each relation in {@link #made} replaces (stored name), or absent. */
  private final Map<String, String> replaced = new LinkedHashMap<>();

  private StagedTables(Session session, Engine.TableReaders readers) {
    this.session = session;
    this.readers = readers;
    String p;
    do {
      p = PREFIX + Long.toHexString(ThreadLocalRandom.current().nextLong()) + "$";
    } while (!LIVE.add(p));
    this.prefix = p;
  }

  /**
   * The relations as the store holds them, for CozoScript run without a script of its own (the
   * triggers an SQL write fires, {@link Engine#fireTriggers}): no hidden table is made and none
   * recovered, so no DDL commits the writer's transaction. {@link #abandon} ends it.
   */
  static StagedTables none(Session session, Engine.TableReaders readers) {
    return new StagedTables(session, readers);
  }

  /**
   * Settles what dead scripts left ({@link #recover}), then makes a hidden table for each
   * block of {@code blocks} that makes a table. Runs DDL only when a block needs a table, and
   * then commits an open transaction. A block whose relation op fails to resolve gets none:
   * it fails when it runs. A block that would make anew a store's table that {@code readers}
   * read fails the script first, before any DDL ({@link #refuseIfRead}). With {@code flowing}
   * (an imperative script's blocks, which may run in another order, more than once, or not at
   * all) every block that makes or replaces a relation gets a hidden table: which table it
   * writes is chosen when it runs ({@link StoredRelations}). A block's columns are its entry
   * rule's head, {@code headed} as the engine runs it.
   */
  static StagedTables prepare(Session session, List<Script.Query> blocks, UnaryOperator<Rule> headed,
      Engine.TableReaders readers, boolean flowing) throws SQLException {
    recover(session);
    final StagedTables staged = new StagedTables(session, readers);
    // the hidden tables to make, once every block is known to be allowed
    final Map<String, List<StoredSchema.Column>> hidden = new LinkedHashMap<>();
    // the columns each relation has as the blocks before this one leave it; null: none
    final Map<String, List<StoredSchema.Column>> columns = new LinkedHashMap<>();
    try {
      for (Script.Query block : blocks) {
        final Script.RelationOp op = block.options().relationOp();
        if (op == null || (op.kind() != Script.RelationOp.Kind.CREATE
            && op.kind() != Script.RelationOp.Kind.REPLACE)) {
          continue;
        }
        final List<StoredSchema.Column> declared;
        try {
          declared = List.copyOf(StoredRelations.declared(op, headers(block, headed)).keySet());
        } catch (DatalogException e) {
          continue;
        }
        final String name = op.relation();
        if (!columns.containsKey(name)) {
          final Optional<String> table = staged.find(name);
          columns.put(name, table.isPresent() && table.get().equals(name)
              ? StoredSchema.read(session, table.get()).columns() : null);
        }
        final List<StoredSchema.Column> now = columns.get(name);
        if (op.kind() == Script.RelationOp.Kind.CREATE && staged.find(name).isPresent()) {
          continue; // fails as a conflict when it runs
        }
        final Optional<String> stored = staged.find(name);
        // rewritten in place, unless it has triggers or a level: CozoDB 0.7.6 makes the relation
        // anew, without them (a new table, without the old one's comment)
        if (op.kind() == Script.RelationOp.Kind.REPLACE && now != null && same(now, declared)
            && stored.map(t -> TablePolicy.of(session, t)).orElse(TablePolicy.NORMAL)
            .equals(TablePolicy.NORMAL)) {
          if (!flowing) {
            continue; // rewritten in place
          }
        } else if (stored.isPresent()) {
          staged.refuseIfRead(stored.get(), "replace", op.pos());
        }
        final String table = staged.prefix + staged.targets.size();
        hidden.put(table, declared);
        staged.targets.put(op, table);
        if (!flowing) {
          columns.put(name, declared);
        }
      }
      for (Map.Entry<String, List<StoredSchema.Column>> table : hidden.entrySet()) {
        StoredRelations.createTable(session, table.getKey(), table.getValue());
      }
      if (!staged.targets.isEmpty()) {
        createJournal(session);
      }
    } catch (SQLException | RuntimeException e) {
      staged.abandon();
      throw e;
    }
    return staged;
  }

  /** The entry rule's head as the block's relation op takes it (as {@link Engine} runs it). */
  private static List<String> headers(Script.Query block, UnaryOperator<Rule> headed) {
    for (Rule r : block.rules()) {
      if (r.name().equals(Rule.ENTRY)) {
        return headed.apply(r).head().stream().map(Rule.HeadArg::toString)
            .toList();
      }
    }
    return List.of();
  }

  /**
   * Whether a relation of {@code stored} columns is one of {@code declared}: names, types, keys
   * and defaults alike, each column declared by CozoScript (its type in its comment).
   */
  static boolean same(List<StoredSchema.Column> stored, List<StoredSchema.Column> declared) {
    if (stored.size() != declared.size()) {
      return false;
    }
    for (int i = 0; i < stored.size(); i++) {
      final StoredSchema.Column s = stored.get(i);
      final StoredSchema.Column d = declared.get(i);
      if (!s.name().equals(d.name()) || !s.type().equals(d.type()) || s.key() != d.key()
          || s.sqlDefault() || s.codec() != d.codec()
          || !java.util.Objects.equals(s.defaultSource(), d.defaultSource())
          || (s.defaultValue() == null) != (d.defaultValue() == null)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The table holding {@code relation} as the script sees it now: one it made, else the
   * store's, exactly named or else ignoring case (never a hidden table).
   */
  Optional<String> find(String relation) {
    String match = null;
    for (Map.Entry<String, String> e : made.entrySet()) {
      if (e.getKey().equals(relation)) {
        return Optional.of(e.getValue());
      }
      if (e.getKey().equalsIgnoreCase(relation)) {
        match = e.getValue();
      }
    }
    for (String table : StoreCatalog.tableNames(session)) {
      if (table.startsWith(PREFIX) || replaced.containsValue(table)) {
        continue;
      }
      if (table.equals(relation)) {
        return Optional.of(table);
      }
      if (match == null && table.equalsIgnoreCase(relation)) {
        match = table;
      }
    }
    return Optional.ofNullable(match);
  }

  /**
   * Refuses to drop, or make anew, the store's table {@code table} (its stored name) when
   * something besides scripts reads it: the script fails at {@code pos}, where its op
   * ({@code what}: replace, remove) names the table.
   */
  void refuseIfRead(String table, String what, Pos pos) {
    final List<String> dependents = readers.of(table);
    if (!dependents.isEmpty()) {
      final boolean one = dependents.size() == 1;
      throw new DatalogException(ErrorCode.MNESTIC_TABLE_READ_ELSEWHERE, "cannot " + what
          + " stored relation " + table + " because standing " + (one ? "query " : "queries ")
          + String.join(", ", dependents) + " read" + (one ? "s" : "") + " it", pos.line(),
          pos.column(), "drop " + (one ? "it" : "them") + " first (DROP STANDING QUERY name),"
          + " or change the relation's rows with :put and :rm");
    }
  }

  /** The relations as the script sees them now (stored names and the names it made). */
  List<String> names() {
    final List<String> names = new ArrayList<>(made.keySet());
    for (String table : StoreCatalog.tableNames(session)) {
      if (!table.startsWith(PREFIX) && !replaced.containsValue(table)) {
        names.add(table);
      }
    }
    return names;
  }

  /** The hidden table {@code op} writes, or null when it rewrites the relation in place. */
  String target(Script.RelationOp op) {
    return targets.get(op);
  }

  /** Whether {@code op}'s hidden table holds a relation other than {@code op}'s now (after a %swap). */
  boolean targetHeldByOther(Script.RelationOp op) {
    final String target = targets.get(op);
    return made.entrySet().stream()
        .anyMatch(e -> e.getValue().equals(target) && !e.getKey().equals(op.relation()));
  }

  /**
   * {@code %swap left right}: the two ephemeral relations the script made trade their tables.
   * Returns null, or (nothing swapped) the first of the two that is no such relation.
   */
  String swap(String left, String right) {
    for (String name : List.of(left, right)) {
      if (!isEphemeral(name) || !made.containsKey(name)) {
        return name;
      }
    }
    final String table = made.get(left);
    made.put(left, made.get(right));
    made.put(right, table);
    return null;
  }

  /**
   * Records that {@code op} made its relation in its hidden table: from now on the relation
   * is that table, and the table it had (the store's, or an earlier block's) goes at commit.
   */
  void made(Script.RelationOp op) {
    final String previous = find(op.relation()).orElse(null);
    if (previous != null && !previous.startsWith(prefix) && !replaced.containsKey(op.relation())) {
      replaced.put(op.relation(), previous);
    }
    // an earlier spelling of the same relation gives way to this one
    made.keySet().removeIf(name -> name.equalsIgnoreCase(op.relation()));
    made.put(op.relation(), targets.get(op));
  }

  /**
   * Ends a script whose blocks all ran. Without hidden tables, commits the transaction when
   * it is the script's own ({@code own}; else the caller's transaction goes on). With them,
   * journals the swaps, commits the transaction (the caller's too: the hidden tables' DDL has
   * committed it already), then swaps each made relation in and drops the hidden tables no
   * relation kept (those of a relation a later block made again).
   */
  void commit(boolean own) throws SQLException {
    // an ephemeral relation ends with its script: its hidden table is dropped, never swapped in
    made.keySet().removeIf(StagedTables::isEphemeral);
    if (targets.isEmpty()) {
      if (own) {
        session.commit();
      }
      LIVE.remove(prefix);
      return;
    }
    final Connection c = session.getConnection();
    if (!made.isEmpty()) {
      for (Map.Entry<String, String> e : made.entrySet()) {
        final Optional<String> now = StoreCatalog.findTable(session, e.getKey());
        if (now.isPresent() && now.get().equals(e.getKey())
            && !now.get().equals(replaced.get(e.getKey()))) {
          throw new DatalogException(ErrorCode.EVAL_STORED_RELATION_CONFLICT, "Stored relation "
              + e.getKey() + " conflicts with an existing one", 0, 0,
              "another connection made it while the script ran");
        }
      }
      try (PreparedStatement journal = c.prepareStatement("INSERT INTO " + JOURNAL
          + " (\"STAGED\", \"RELATION\", \"REPLACED\") VALUES (?, ?, ?)")) {
        for (Map.Entry<String, String> e : made.entrySet()) {
          journal.setString(1, e.getValue());
          journal.setString(2, e.getKey());
          journal.setString(3, replaced.get(e.getKey()));
          journal.executeUpdate();
        }
      }
    }
    session.commit();
    // from here on a failure leaves the journalled swaps to recover()
    committed = true;
    for (Map.Entry<String, String> e : made.entrySet()) {
      swap(session, e.getValue(), e.getKey(), replaced.get(e.getKey()));
    }
    dropOwn(made.values());
  }

  /** Whether {@code relation} is ephemeral ({@code _name}): it lives only while its script runs. */
  static boolean isEphemeral(String relation) {
    return relation.startsWith("_");
  }

  /**
   * Drops the hidden tables of a script that failed (its transaction rolled back); after its
   * commit, leaves them to the next script's {@link #recover}.
   */
  void abandon() throws SQLException {
    if (targets.isEmpty() || committed) {
      LIVE.remove(prefix);
      return;
    }
    dropOwn(List.of());
  }

  /** Drops this script's hidden tables but {@code kept}, and forgets its prefix. */
  private void dropOwn(java.util.Collection<String> kept) throws SQLException {
    try {
      for (String table : StoreCatalog.tableNames(session)) {
        if (table.startsWith(prefix) && !kept.contains(table)) {
          execute(session, "DROP TABLE " + quote(table));
        }
      }
    } finally {
      LIVE.remove(prefix);
    }
  }

  /**
   * Drops {@code replaced} (when it still exists), renames {@code staged} to
   * {@code relation} and deletes the swap's journal row, each committed.
   */
  private static void swap(Session session, String staged, String relation, String replaced)
      throws SQLException {
    final List<String> tables = StoreCatalog.tableNames(session);
    if (tables.contains(staged)) {
      if (replaced != null && tables.contains(replaced)) {
        execute(session, "DROP TABLE " + quote(replaced));
      }
      execute(session, "ALTER TABLE " + quote(staged) + " RENAME TO " + quote(relation));
    }
    try (PreparedStatement delete = session.getConnection().prepareStatement(
        "DELETE FROM " + JOURNAL + " WHERE \"STAGED\" = ?")) {
      delete.setString(1, staged);
      delete.executeUpdate();
    }
    session.commit();
  }

  /**
   * Settles the hidden tables of scripts no longer running (their process died): a table whose
   * swap is journalled (its script committed) is swapped in, any other dropped. Runs DDL only
   * when there is such a table.
   */
  static void recover(Session session) throws SQLException {
    final List<String> left = new ArrayList<>();
    for (String table : StoreCatalog.tableNames(session)) {
      if (table.startsWith(PREFIX) && LIVE.stream().noneMatch(table::startsWith)) {
        left.add(table);
      }
    }
    if (left.isEmpty()) {
      return;
    }
    final Map<String, String[]> journalled = new LinkedHashMap<>();
    try (ResultSet rs = session.getConnection().getMetaData()
        .getTables(null, JOURNAL_SCHEMA, "STAGED_RELATION", null)) {
      if (rs.next()) {
        try (Statement s = session.getConnection().createStatement();
             ResultSet j = s.executeQuery(
                 "SELECT \"STAGED\", \"RELATION\", \"REPLACED\" FROM " + JOURNAL)) {
          while (j.next()) {
            journalled.put(j.getString(1), new String[] {j.getString(2), j.getString(3)});
          }
        }
      }
    }
    for (String table : left) {
      final String[] swap = journalled.get(table);
      if (swap != null) {
        swap(session, table, swap[0], swap[1]);
      } else {
        execute(session, "DROP TABLE " + quote(table));
      }
    }
  }

  /** Creates the journal of swaps when the store has none: DDL, run before any block writes. */
  private static void createJournal(Session session) throws SQLException {
    try (ResultSet rs = session.getConnection().getMetaData()
        .getTables(null, JOURNAL_SCHEMA, "STAGED_RELATION", null)) {
      if (rs.next()) {
        return;
      }
    }
    execute(session, "CREATE SCHEMA IF NOT EXISTS \"" + JOURNAL_SCHEMA + "\"");
    execute(session, "CREATE TABLE IF NOT EXISTS " + JOURNAL + " (\"STAGED\" VARCHAR(1024)"
        + " PRIMARY KEY, \"RELATION\" VARCHAR(1024) NOT NULL, \"REPLACED\" VARCHAR(1024))");
  }

  private static void execute(Session session, String sql) throws SQLException {
    try (Statement s = session.getConnection().createStatement()) {
      s.execute(sql);
    }
  }

  private static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }
}
