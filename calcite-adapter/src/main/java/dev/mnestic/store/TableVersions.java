package dev.mnestic.store;

import org.hsqldb.Database;
import org.hsqldb.Row;
import org.hsqldb.RowAction;
import org.hsqldb.RowActionBase;
import org.hsqldb.Table;
import org.hsqldb.TransactionManagerMVCC;
import org.hsqldb.persist.PersistentStore;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.SoftReference;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HSQLDB's MVCC transaction manager, counting for each table the commits that change it, so
 * that what one read of a table computed from its committed rows can serve later reads while
 * the table has not changed, or has only had rows added ({@link StoreSnapshot#read}).
 *
 * <p>Every row HSQLDB writes, whatever statement or connection writes it, is registered with
 * the transaction manager ({@code addInsertAction}, {@code addDeleteAction}; an UPDATE is a
 * delete and an insert); this one remembers, per session, the tables written since the
 * session's transaction began, and the rows it inserted into and deleted from a table while it
 * has rolled nothing back. A commit of such a session counts each of those tables in flight
 * while HSQLDB makes the rows visible, then moves the table's version by one and, when the
 * transaction only inserted, keeps its rows as the step from the old version to the new; while
 * a {@link TableFeed} follows the table, it logs the rows inserted and deleted either way. A
 * rollback changes no committed row and moves nothing.
 *
 * <p>So a walk over a table's rows that starts after its version is read with no commit of it
 * in flight, and ends with the version unchanged and still none in flight, read exactly the
 * rows committed at that version; what it computed can serve every later read of the version,
 * and, with the rows of the steps after it added, of the versions after it.
 *
 * <p>They also guard a statement's writes against lost updates ({@link #guard}): mnestic
 * computes an UPDATE's or DELETE's rows in Calcite from what the statement read, then writes
 * them back by key; a row that another transaction committed a new version of since then must
 * not be overwritten with values computed from the old one. Every row an UPDATE or DELETE
 * removes passes through {@link #addDeleteAction}, under HSQLDB's row lock (a row another
 * transaction has changed and not committed makes the writer wait, then find the row again,
 * as HSQLDB's READ COMMITTED does); there the guard refuses a row version that another
 * session committed after the statement began.
 *
 * <p>HSQLDB creates its transaction manager when it opens a database; {@link #install} puts
 * this one in its place the way HSQLDB's own {@code SET DATABASE TRANSACTION CONTROL} does,
 * and only while no session of the database is inside a transaction.
 */
public final class TableVersions extends TransactionManagerMVCC {
  /** At most this many inserted rows are kept as steps of one table or one transaction. */
  static final int MAX_APPENDED = 1 << 20;

  /** What each session has written since its transaction began, by table. */
  private final Map<org.hsqldb.Session, Map<Table, Writes>> written = new ConcurrentHashMap<>();
  /** Each table's version and what was left for reads of it, by table (HSQLDB's object). */
  private final Map<Table, Entry> entries = new WeakHashMap<>();
  /** How many reads were served from what an earlier read shared. */
  private final AtomicLong sharedReads = new AtomicLong();
  /** How many guarded writes met a row another transaction had changed ({@link #guard}). */
  private final AtomicLong writeConflicts = new AtomicLong();
  /** The write each session has under guard ({@link #guard}), at most one a session. */
  private final Map<org.hsqldb.Session, WriteGuard> guards = new ConcurrentHashMap<>();

  /** What one transaction wrote to one table. */
  private static final class Writes {
    /**
     * The rows' values inserted, in order, while nothing it did was rolled back and it wrote
     * at most {@link #MAX_APPENDED} rows; else null.
     */
    List<Object[]> inserted = new ArrayList<>();
    /** The rows' values deleted (an UPDATE's old rows among them), as {@link #inserted}. */
    List<Object[]> deleted = new ArrayList<>();

    /** The rows inserted when it has only inserted (a step of reads' sharing), else null. */
    List<Object[]> onlyInserted() {
      return deleted != null && deleted.isEmpty() ? inserted : null;
    }

    /** Forgets the rows written: they are no longer what it changed. */
    void lost() {
      inserted = null;
      deleted = null;
    }
  }

  private static final class Entry {
    long version;
    /** Commits of the table under way. */
    int inFlight;
    /** What a read left for later reads, at {@link #sharedVersion}. */
    SoftReference<Object> shared;
    long sharedVersion = -1;
    /**
     * The rows each commit since version {@link #stepsFrom} inserted, one list a commit: all
     * of them only inserted.
     */
    final List<List<Object[]>> steps = new ArrayList<>();
    long stepsFrom;
    int stepRows;

    /**
     * The commits since {@link #logFrom} while some {@link TableFeed} follows the table: each
     * commit's inserted and deleted rows, or null for one whose rows are not known (it rolled
     * part of itself back, or wrote too many); trimmed to what the furthest-behind follower
     * has not read.
     */
    final List<Step> log = new ArrayList<>();
    long logFrom;
    int logRows;
    /** Each follower's version: the log is kept from the least. */
    final Map<TableFeed, Long> followers = new WeakHashMap<>();

    /** Forgets the steps: the table is at version {@code v} and no step has been taken. */
    void stepsFrom(long v) {
      steps.clear();
      stepRows = 0;
      stepsFrom = v;
    }
  }

  /**
   * What an earlier read left for a read of a table at {@code version}: {@code value}, read at
   * {@code from}, and the rows' values inserted since, in order.
   */
  record Shared(Object value, long from, long version, Object[][] appended) {
  }

  private final Database database;

  private TableVersions(Database database) {
    super(database);
    this.database = database;
  }

  /**
   * The table versions that are the transaction manager of the database of {@code session},
   * installing them if they are not yet (see {@link #install}); null when they cannot be.
   */
  static TableVersions of(org.hsqldb.Session session) {
    if (session.getDatabase().txManager instanceof TableVersions installed) {
      return installed;
    }
    final TableVersions versions = install(session);
    return versions != null && versions.isInstalled() ? versions : null;
  }

  /**
   * The table versions of the database {@code session} belongs to, installing them when the
   * database has HSQLDB's own MVCC manager and no session in a transaction; null when they
   * cannot be installed now (another transaction control, or a transaction open meanwhile).
   */
  static TableVersions install(org.hsqldb.Session session) {
    final Database database = session.getDatabase();
    synchronized (database) {
      if (database.txManager instanceof TableVersions) {
        return (TableVersions) database.txManager;
      }
      if (database.txManager.getClass() != TransactionManagerMVCC.class) {
        return null;
      }
      for (org.hsqldb.Session s : database.sessionManager.getAllSessions()) {
        if (s.isInMidTransaction()) {
          return null;
        }
      }
      final TableVersions versions = new TableVersions(database);
      versions.setSystemChangeNumber(database.txManager.getSystemChangeNumber());
      database.txManager = versions;
      return versions;
    }
  }

  /** Whether these are still their database's transaction manager. */
  boolean isInstalled() {
    return database.txManager == this;
  }

  @Override public void addInsertAction(org.hsqldb.Session session, Table table,
      PersistentStore store, Row row, int[] changedColumns) {
    final Writes w = writes(session, table);
    if (w.inserted != null) {
      if (w.inserted.size() + w.deleted.size() < MAX_APPENDED) {
        w.inserted.add(row.getData());
      } else {
        w.lost();
      }
    }
    super.addInsertAction(session, table, store, row, changedColumns);
  }

  @Override public RowAction addDeleteAction(org.hsqldb.Session session, Table table,
      PersistentStore store, Row row, int[] changedColumns) {
    final Writes w = writes(session, table);
    if (w.deleted != null) {
      if (w.inserted.size() + w.deleted.size() < MAX_APPENDED) {
        w.deleted.add(row.getData());
      } else {
        w.lost();
      }
    }
    // HSQLDB's own conflicts (a row another transaction changed and has not committed) throw
    // here before the guard looks: the statement waits and finds the row again.
    final RowAction action = super.addDeleteAction(session, table, store, row, changedColumns);
    final WriteGuard guard = guards.get(session);
    if (guard != null && guard.table == table && committedSince(action, session, guard.since)) {
      guard.conflicted = true;
      writeConflicts.incrementAndGet();
      // HSQLDB rolls back the statement that meets an exception here, as for its own conflicts
      throw org.hsqldb.error.Error.error(org.hsqldb.error.ErrorCode.X_40001,
          guard.message());
    }
    return action;
  }

  /**
   * Guards the writes of {@code session} to {@code table} until the guard is closed: a row the
   * session deletes (an UPDATE deletes the old row and inserts the new) must not have been
   * inserted by a transaction of another session that committed after change number
   * {@code since} ({@link #getSystemChangeNumber}, taken before the statement read anything).
   * Such a row fails the statement at once with SQLSTATE 40001 and the guard is
   * {@link WriteGuard#conflicted}. A row the statement read was committed before its read;
   * one committed after {@code since} may be one it did not read (or, rarely, one it read
   * right after {@code since}: the guard errs on the safe side). HSQLDB keeps the commit
   * number of every row committed since the oldest open transaction began, which is at or
   * before the statement's first read: rows committed earlier were visible to all its reads.
   */
  WriteGuard guard(org.hsqldb.Session session, Table table, long since) {
    final WriteGuard guard = new WriteGuard(this, session, table, since);
    if (guards.putIfAbsent(session, guard) != null) {
      throw new IllegalStateException("a write of this session is already guarded");
    }
    return guard;
  }

  void unguard(org.hsqldb.Session session, WriteGuard guard) {
    guards.remove(session, guard);
  }

  /** How many guarded writes of the database's tables met a row changed since they read it. */
  long writeConflicts() {
    return writeConflicts.get();
  }

  // HSQLDB keeps a row's versions as a chain of actions (RowActionBase: next, session, type,
  // commitSCN, rolledback), package-private; RowAction's own methods read them under the row
  // action's monitor, and so does committedSince.
  private static final VarHandle NEXT;
  private static final VarHandle SESSION;
  private static final VarHandle TYPE;
  private static final VarHandle COMMIT_SCN;
  private static final VarHandle ROLLED_BACK;

  static {
    try {
      final MethodHandles.Lookup actions =
          MethodHandles.privateLookupIn(RowActionBase.class, MethodHandles.lookup());
      NEXT = actions.findVarHandle(RowActionBase.class, "next", RowActionBase.class);
      SESSION = actions.findVarHandle(RowActionBase.class, "session", org.hsqldb.Session.class);
      TYPE = actions.findVarHandle(RowActionBase.class, "type", byte.class);
      COMMIT_SCN = actions.findVarHandle(RowActionBase.class, "commitSCN", long.class);
      ROLLED_BACK = actions.findVarHandle(RowActionBase.class, "rolledback", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError("HSQLDB's row actions are not as HSQLDB 2.7.4 has "
          + "them: " + e);
    }
  }

  /**
   * Whether the row whose actions start at {@code head} was inserted by a transaction other
   * than {@code session}'s that committed after change number {@code since}.
   */
  private static boolean committedSince(RowAction head, org.hsqldb.Session session,
      long since) {
    if (head == null) {
      return false;
    }
    synchronized (head) {
      for (RowActionBase a = head; a != null; a = (RowActionBase) NEXT.get(a)) {
        if ((byte) TYPE.get(a) == RowActionBase.ACTION_INSERT && !(boolean) ROLLED_BACK.get(a)
            && SESSION.get(a) != session && (long) COMMIT_SCN.get(a) > since) {
          return true;
        }
      }
    }
    return false;
  }

  private Writes writes(org.hsqldb.Session session, Table table) {
    // A session runs one statement at a time: its own map needs no lock.
    return written.computeIfAbsent(session, s -> new IdentityHashMap<>())
        .computeIfAbsent(table, t -> new Writes());
  }

  // A statement or savepoint rolled back takes back rows the session inserted: its inserts are
  // no longer the transaction's rows in order.

  @Override public void rollbackAction(org.hsqldb.Session session) {
    partlyRolledBack(session);
    super.rollbackAction(session);
  }

  @Override public void rollbackSavepoint(org.hsqldb.Session session, int index) {
    partlyRolledBack(session);
    super.rollbackSavepoint(session, index);
  }

  @Override public void rollbackPartial(org.hsqldb.Session session, int start, long timestamp) {
    partlyRolledBack(session);
    super.rollbackPartial(session, start, timestamp);
  }

  private void partlyRolledBack(org.hsqldb.Session session) {
    final Map<Table, Writes> tables = written.get(session);
    if (tables != null) {
      tables.values().forEach(Writes::lost);
    }
  }

  @Override public boolean commitTransaction(org.hsqldb.Session session) {
    final Map<Table, Writes> tables = written.remove(session);
    if (tables == null) {
      return super.commitTransaction(session);
    }
    begin(tables);
    boolean committed = false;
    try {
      committed = super.commitTransaction(session);
      return committed;
    } finally {
      end(tables, committed);
    }
  }

  @Override public void rollback(org.hsqldb.Session session) {
    written.remove(session);
    super.rollback(session);
  }

  private synchronized void begin(Map<Table, Writes> tables) {
    for (Table t : tables.keySet()) {
      entries.computeIfAbsent(t, k -> new Entry()).inFlight++;
    }
  }

  private synchronized void end(Map<Table, Writes> tables, boolean committed) {
    tables.forEach((t, w) -> {
      final Entry e = entries.get(t);
      e.inFlight--;
      e.version++;
      if (!e.followers.isEmpty()) {
        final int rows = w.inserted == null ? 0 : w.inserted.size() + w.deleted.size();
        if (!committed) {
          e.log.add(new Step(List.of(), List.of()));
        } else if (w.inserted != null && e.logRows + rows <= MAX_APPENDED) {
          e.log.add(new Step(w.inserted, w.deleted));
          e.logRows += rows;
        } else {
          e.log.add(null);
        }
        if (e.log.size() > MAX_APPENDED) {
          // a follower this far behind reads the table again
          e.log.clear();
          e.logRows = 0;
          e.logFrom = e.version;
        }
      } else {
        e.log.clear();
        e.logRows = 0;
        e.logFrom = e.version;
      }
      final List<Object[]> inserted = w.onlyInserted();
      if (committed && inserted != null && e.stepRows + inserted.size() <= MAX_APPENDED) {
        e.steps.add(inserted);
        e.stepRows += inserted.size();
      } else {
        e.stepsFrom(e.version);
      }
    });
  }

  /**
   * Starts or moves {@code feed}'s following of {@code table} at {@code version}, the version
   * it has read up to: commits after it are logged for it.
   */
  synchronized void follow(Table table, TableFeed feed, long version) {
    final Entry e = entries.computeIfAbsent(table, k -> new Entry());
    if (e.followers.isEmpty()) {
      e.log.clear();
      e.logRows = 0;
      e.logFrom = e.version;
    }
    e.followers.put(feed, version);
    // The log is kept from the least version a follower has read up to.
    final long least = e.followers.values().stream().mapToLong(Long::longValue).min()
        .orElse(e.version);
    if (least > e.logFrom) {
      // one shift of the log however many steps go (a remove(0) each would be quadratic)
      final List<Step> read = e.log.subList(0, (int) Math.min(least - e.logFrom, e.log.size()));
      for (Step step : read) {
        e.logRows -= step == null ? 0 : step.inserted().size() + step.deleted().size();
      }
      e.logFrom += read.size();
      read.clear();
    }
  }

  /** Stops logging {@code table}'s commits for {@code feed}. */
  synchronized void unfollow(Table table, TableFeed feed) {
    final Entry e = entries.get(table);
    if (e != null) {
      e.followers.remove(feed);
    }
  }

  /** The rows one commit inserted and deleted (an UPDATE's old rows and new). */
  record Step(List<Object[]> inserted, List<Object[]> deleted) {
  }

  /**
   * The commits of {@code table} after {@code version} up to now, in commit order, when they
   * are still logged ({@link #follow}) and their rows known; null when one's are not or the
   * log does not reach back, or while a commit of it is under way.
   */
  synchronized List<Step> since(Table table, long version) {
    final Entry e = entries.get(table);
    if (e == null) {
      return version == 0 ? List.of() : null;
    }
    if (e.inFlight > 0 || version < e.logFrom || version > e.version) {
      return null;
    }
    final List<Step> steps = new ArrayList<>(e.log.subList((int) (version - e.logFrom),
        e.log.size()));
    return steps.contains(null) ? null : steps;
  }

  /**
   * {@code table}'s version now, or -1 while a commit of it is under way (rows read then may
   * belong to a commit its version does not count yet).
   */
  synchronized long version(Table table) {
    final Entry e = entries.get(table);
    return e == null ? 0 : e.inFlight > 0 ? -1 : e.version;
  }

  /**
   * What a read left for a read of {@code table} now: at this version, or at an earlier one
   * followed by commits that only inserted; null when there is none.
   */
  synchronized Shared shared(Table table) {
    final Entry e = entries.get(table);
    // Sharing starts the steps at the version shared; a commit that did not only insert
    // starts them after it.
    if (e == null || e.shared == null || e.sharedVersion != e.stepsFrom) {
      return null;
    }
    final Object value = e.shared.get();
    if (value == null) {
      return null;
    }
    final Object[][] appended = new Object[e.stepRows][];
    int n = 0;
    for (List<Object[]> step : e.steps) {
      for (Object[] row : step) {
        appended[n++] = row;
      }
    }
    return new Shared(value, e.sharedVersion, e.version, appended);
  }

  /** Counts a read served from what an earlier one shared. */
  void servedShared() {
    sharedReads.incrementAndGet();
  }

  /** How many reads of the database's tables were served from what an earlier read shared. */
  long sharedReads() {
    return sharedReads.get();
  }

  /**
   * Leaves {@code value}, computed from {@code table}'s committed rows at {@code version}, for
   * later reads; nothing when the table has moved on meanwhile or, for {@code walked} rows,
   * a commit of it is under way (its rows may be among them). The collector may drop it when
   * memory runs short.
   */
  synchronized void share(Table table, long version, boolean walked, Object value) {
    final Entry e = entries.computeIfAbsent(table, k -> new Entry());
    if (e.version == version && !(walked && e.inFlight > 0)) {
      e.shared = new SoftReference<>(value);
      e.sharedVersion = version;
      e.stepsFrom(version);
    }
  }
}
