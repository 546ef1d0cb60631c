package dev.mnestic.store;

import org.hsqldb.Database;
import org.hsqldb.Row;
import org.hsqldb.RowAction;
import org.hsqldb.RowActionBase;
import org.hsqldb.Statement;
import org.hsqldb.Table;
import org.hsqldb.TransactionManagerMVCC;
import org.hsqldb.persist.PersistentStore;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.SoftReference;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
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
  /** How many rows reads took from the tables' row stores: walked, or found through an index. */
  private final AtomicLong rowsRead = new AtomicLong();
  /** How many guarded writes met a row another transaction had changed ({@link #guard}). */
  private final AtomicLong writeConflicts = new AtomicLong();
  /** The write each session has under guard ({@link #guard}), at most one a session. */
  private final Map<org.hsqldb.Session, WriteGuard> guards = new ConcurrentHashMap<>();
  /** Each table's append-only segment, once a batch was appended to it ({@link Segment}). */
  private final Map<Table, Segment> segments = new WeakHashMap<>();
  /** Whether any table has had a segment: until then no statement looks for one. */
  private volatile boolean segmented;
  /** The blocks each session has appended in its transaction, by table, in order. */
  private final Map<org.hsqldb.Session, Map<Table, List<Segment.Block>>> pending =
      new ConcurrentHashMap<>();
  /**
   * The pending blocks each session has folded into its own inserts ({@link #fold}), with
   * where their row actions start in its transaction: a rollback to a savepoint set after a
   * block was appended and before it was folded puts its rows back.
   */
  private final Map<org.hsqldb.Session, List<Folded>> foldedOwn = new ConcurrentHashMap<>();

  private static final class Folded {
    final Segment.Block block;
    /** The index of its first row action in the session's row actions. */
    int start;

    Folded(Segment.Block block, int start) {
      this.block = block;
      this.start = start;
    }
  }

  /** The session that folds published blocks into HSQLDB's rows (see {@link #fold}). */
  private org.hsqldb.Session folder;

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

  private void partlyRolledBack(org.hsqldb.Session session) {
    final Map<Table, Writes> tables = written.get(session);
    if (tables != null) {
      tables.values().forEach(Writes::lost);
    }
  }

  @Override public void rollbackPartial(org.hsqldb.Session session, int start, long timestamp) {
    // Blocks appended after the savepoint (or the statement) rolled back to: their change
    // numbers, taken when appended, are above its own.
    final Map<Table, List<Segment.Block>> blocks = pending.get(session);
    if (blocks != null) {
      blocks.values().forEach(list -> list.removeIf(b -> b.scn > timestamp));
    }
    partlyRolledBack(session);
    // Folded blocks appended before it whose rows HSQLDB is about to take back: put back.
    final List<Folded> folded = foldedOwn.get(session);
    final List<Folded> back = new ArrayList<>();
    if (folded != null) {
      for (Folded f : folded) {
        if (f.start >= start) {
          back.add(f);
        }
      }
      folded.removeAll(back);
    }
    super.rollbackPartial(session, start, timestamp);
    for (Folded f : back) {
      if (f.block.scn < timestamp) {
        insertOwn(session, f.block);
      }
    }
  }

  /** Inserts {@code block}'s rows as {@code session}'s own, remembering where they start. */
  private void insertOwn(org.hsqldb.Session session, Segment.Block block) {
    final int first = session.getRowActionList().size();
    final PersistentStore store = block.segment.table.getRowStore(session);
    for (int i = 0; i < block.count; i++) {
      insert(session, store, block.segment.table, block.hsqldbRow(session, i));
    }
    foldedRows.addAndGet(block.count);
    foldedOwn.computeIfAbsent(session, s -> new ArrayList<>()).add(new Folded(block, first));
  }

  @Override public boolean commitTransaction(org.hsqldb.Session session) {
    foldedOwn.remove(session);
    final Map<Table, List<Segment.Block>> blocks = pending.remove(session);
    if (blocks == null) {
      return commitRows(session);
    }
    // Readers wait while the blocks are published: they get the commit's change number, which
    // HSQLDB assigns inside its commit, before any read can count them in or out.
    final List<Segment> locked = new ArrayList<>();
    blocks.entrySet().stream().filter(e -> !e.getValue().isEmpty())
        .sorted(Comparator.comparing(e -> e.getKey().getName().name))
        .forEach(e -> locked.add(e.getValue().get(0).segment));
    locked.forEach(g -> g.lock.writeLock().lock());
    try {
      final boolean committed = commitRows(session);
      if (committed) {
        publish(blocks, (long) ACTION_SCN.get(session));
      }
      return committed;
    } finally {
      locked.forEach(g -> g.lock.writeLock().unlock());
    }
  }

  /** Commits the session's HSQLDB rows, moving the versions of the tables it wrote. */
  private boolean commitRows(org.hsqldb.Session session) {
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
      end(tables, committed, session == folder);
    }
  }

  @Override public void rollback(org.hsqldb.Session session) {
    written.remove(session);
    pending.remove(session);
    foldedOwn.remove(session);
    super.rollback(session);
  }

  private synchronized void begin(Map<Table, Writes> tables) {
    for (Table t : tables.keySet()) {
      entries.computeIfAbsent(t, k -> new Entry()).inFlight++;
    }
  }

  /**
   * Ends the commit of {@code tables}; {@code folded}: the rows are published blocks folded
   * into HSQLDB's rows, which followers have had as the blocks' commits' rows.
   */
  private synchronized void end(Map<Table, Writes> tables, boolean committed, boolean folded) {
    tables.forEach((t, w) -> {
      final Entry e = entries.get(t);
      e.inFlight--;
      e.version++;
      if (!e.followers.isEmpty()) {
        final int rows = w.inserted == null ? 0 : w.inserted.size() + w.deleted.size();
        if (!committed || folded) {
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

  /**
   * The rows {@code session}'s transaction, not yet committed, has inserted into and deleted
   * from {@code table}, in order each way; null when they are not known (it rolled part of
   * itself back, wrote more than {@link #MAX_APPENDED} rows, or has appended blocks not yet
   * folded into HSQLDB's rows). Called from the session's own thread.
   */
  Step own(org.hsqldb.Session session, Table table) {
    if (hasPending(session)) {
      return null;
    }
    final Map<Table, Writes> tables = written.get(session);
    final Writes w = tables == null ? null : tables.get(table);
    if (w == null) {
      return new Step(List.of(), List.of());
    }
    return w.inserted == null ? null
        : new Step(new ArrayList<>(w.inserted), new ArrayList<>(w.deleted));
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

  /** Counts {@code rows} taken from a table's row store by a read. */
  void read(long rows) {
    rowsRead.addAndGet(rows);
  }

  /** How many rows reads took from the database's tables' row stores ({@link #read}). */
  long rowsRead() {
    return rowsRead.get();
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

  // The append-only segments (Segment): appended, published at commit, folded before any
  // other statement touches their table.

  private static final VarHandle ACTION_SCN;
  private static final VarHandle TRANSACTION_SCN;
  private static final VarHandle ACTION_INDEX;
  private static final Method INSERT_ROW;

  static {
    try {
      final MethodHandles.Lookup sessions =
          MethodHandles.privateLookupIn(org.hsqldb.Session.class, MethodHandles.lookup());
      ACTION_SCN = sessions.findVarHandle(org.hsqldb.Session.class, "actionSCN", long.class);
      TRANSACTION_SCN =
          sessions.findVarHandle(org.hsqldb.Session.class, "transactionSCN", long.class);
      ACTION_INDEX = sessions.findVarHandle(org.hsqldb.Session.class, "actionIndex", int.class);
      INSERT_ROW = Table.class.getDeclaredMethod("insertSingleRow", org.hsqldb.Session.class,
          PersistentStore.class, Object[].class, int[].class);
      INSERT_ROW.setAccessible(true);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError("HSQLDB's sessions and tables are not as HSQLDB "
          + "2.7.4 has them: " + e);
    }
  }

  /**
   * The segment of the table named {@code name} (stored name), or null when batches into it
   * take HSQLDB's INSERT ({@link Segment}'s rule).
   */
  Segment segment(String name) {
    final Table t;
    try {
      t = database.schemaManager.getUserTable(name, Session.SCHEMA);
    } catch (org.hsqldb.HsqlException e) {
      return null;
    }
    synchronized (segments) {
      final Segment had = segments.get(t);
      final Segment now = Segment.of(database, t);
      if (now == null) {
        return null;
      }
      if (had == null) {
        forgetDropped();
      }
      if (had != null) {
        // A table DDL changed in place (its types, its NULLs) keeps the segment it had, which
        // blocks still pending may have been appended to; batches take HSQLDB's INSERT.
        return java.util.Arrays.equals(had.kinds, now.kinds)
            && java.util.Arrays.equals(had.types, now.types)
            && java.util.Arrays.equals(had.notNull, now.notNull) ? had : null;
      }
      segments.put(t, now);
      segmented = true;
      return now;
    }
  }

  /**
   * Forgets the segments of tables no longer in the schema (dropped, or replaced by DDL that
   * rebuilt them), under {@code segments}' lock: no read can reach their blocks. A table's
   * segment holds its table, so the map's weak keys never let them go by themselves, and with
   * them every block published and never folded (a table dropped after a bulk load).
   */
  private void forgetDropped() {
    segments.keySet().removeIf(t -> database.schemaManager
        .findUserTable(t.getName().name, t.getSchemaName().name) != t);
  }

  /** How many tables have a segment (a dropped table's goes at the next DDL statement). */
  int segmentTables() {
    synchronized (segments) {
      return segments.size();
    }
  }

  /** {@code table}'s segment, which its appended blocks were made for. */
  private Segment segments(Table table) {
    synchronized (segments) {
      return segments.get(table);
    }
  }

  /** How many rows batches appended to segments, committed or not. */
  private final AtomicLong appendedRows = new AtomicLong();
  /** How many rows of segments' blocks were folded into HSQLDB's rows ({@link #fold}). */
  private final AtomicLong foldedRows = new AtomicLong();

  /** How many rows of segments' blocks were folded into HSQLDB's rows. */
  long foldedRows() {
    return foldedRows.get();
  }

  /** How many rows batches appended to the store's segments, committed or not. */
  long appendedRows() {
    return appendedRows.get();
  }

  /** Appends {@code block} to the transaction of {@code session}, which has begun. */
  void append(org.hsqldb.Session session, Segment.Block block) {
    appendedRows.addAndGet(block.count);
    block.scn = getNextSystemChangeNumber();
    pending.computeIfAbsent(session, s -> new IdentityHashMap<>())
        .computeIfAbsent(block.segment.table, t -> new ArrayList<>()).add(block);
  }

  /** Whether {@code session} has appended blocks its transaction has not committed. */
  boolean hasPending(org.hsqldb.Session session) {
    final Map<Table, List<Segment.Block>> blocks = pending.get(session);
    return blocks != null && blocks.values().stream().anyMatch(l -> !l.isEmpty());
  }

  /** Publishes {@code blocks}, committed at change number {@code scn} (segments locked). */
  private void publish(Map<Table, List<Segment.Block>> blocks, long scn) {
    blocks.forEach((t, list) -> {
      if (list.isEmpty()) {
        return;
      }
      for (Segment.Block b : list) {
        b.scn = scn;
        b.segment.published.add(b);
      }
      synchronized (this) {
        final Entry e = entries.computeIfAbsent(t, k -> new Entry());
        e.version++;
        e.stepsFrom(e.version);
        if (e.followers.isEmpty()) {
          e.log.clear();
          e.logRows = 0;
          e.logFrom = e.version;
          return;
        }
        final List<Object[]> rows = new ArrayList<>();
        for (Segment.Block b : list) {
          for (int i = 0; i < b.count && e.logRows + rows.size() < MAX_APPENDED; i++) {
            rows.add(b.hsqldbRow(folder(), i));
          }
        }
        final int all = list.stream().mapToInt(b -> b.count).sum();
        if (rows.size() == all) {
          e.log.add(new Step(rows, List.of()));
          e.logRows += all;
        } else {
          e.log.add(null);
        }
      }
    });
  }

  /**
   * What a statement of {@code session} that has started (its change numbers set) sees of
   * {@code table}'s segment: the blocks published before what it sees, then its own pending
   * ones; null when the table has no segment. Called and used under the segment's read lock.
   */
  Segment.Seen seen(org.hsqldb.Session session, Segment segment) {
    final int isolation = session.getIsolation();
    final long sees = isolation == java.sql.Connection.TRANSACTION_READ_UNCOMMITTED
        ? Long.MAX_VALUE : isolation == java.sql.Connection.TRANSACTION_READ_COMMITTED
        ? (long) ACTION_SCN.get(session) : (long) TRANSACTION_SCN.get(session);
    final List<Segment.Block> blocks = new ArrayList<>();
    for (Segment.Block b : segment.published) {
      if (b.scn < sees) {
        blocks.add(b);
      }
    }
    final Map<Table, List<Segment.Block>> own = pending.get(session);
    final List<Segment.Block> mine = own == null ? null : own.get(segment.table);
    if (mine != null) {
      blocks.addAll(mine);
    }
    return new Segment.Seen(blocks);
  }

  /** {@code table}'s segment, or null when it has none. */
  Segment segmentOf(Table table) {
    return segmented ? segments(table) : null;
  }

  /**
   * Folds the segments of the tables the statement {@code session} is starting touches into
   * HSQLDB's rows first, unless it is a read's probe ({@link StoreSnapshot}), which reads no
   * row. Here, after HSQLDB has made the statement wait for what it waits on (a DDL statement
   * for every other transaction), and before its transaction and change number are fixed.
   */
  @Override public void beginActionResume(org.hsqldb.Session session) {
    if (segmented && session != folder) {
      final Statement statement = session.sessionContext.currentStatement;
      if (statement != null) {
        for (Segment segment : touched(statement)) {
          fold(session, segment);
        }
      }
    }
    super.beginActionResume(session);
  }

  /**
   * The segments of the tables {@code statement} touches: all of them for DDL that may rebuild
   * or constrain a table's rows, none for CREATE TABLE (but those it reads) and DROP TABLE
   * (whose rows go, segment and all).
   */
  private List<Segment> touched(Statement statement) {
    final List<Segment> out = new ArrayList<>();
    synchronized (segments) {
      final int type = statement.getType();
      if (statement.isCatalogChange()) {
        forgetDropped();
      }
      if (type == org.hsqldb.StatementTypes.DROP_TABLE) {
        // its write names hold the table: folding its rows into HSQLDB's only to drop them
        // cost a bulk load's time again
        return out;
      }
      if (statement.isCatalogChange() && type != org.hsqldb.StatementTypes.CREATE_TABLE
          && type != org.hsqldb.StatementTypes.DROP_TABLE) {
        out.addAll(segments.values());
        return out;
      }
      final org.hsqldb.HsqlNameManager.HsqlName[] read = statement.getTableNamesForRead();
      if (read.length == 1 && statement.getTableNamesForWrite().length == 0
          && Session.probeSql(read[0].name).equals(statement.getSQL())) {
        return out;
      }
      for (Segment s : segments.values()) {
        if (contains(read, s.table) || contains(statement.getTableNamesForWrite(), s.table)) {
          out.add(s);
        }
      }
    }
    return out;
  }

  private static boolean contains(org.hsqldb.HsqlNameManager.HsqlName[] names, Table t) {
    for (org.hsqldb.HsqlNameManager.HsqlName n : names) {
      if (n == t.getName()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Folds {@code segment} into HSQLDB's rows before a statement of {@code session} touches
   * its table: the session's own pending blocks become its own uncommitted inserts (in its
   * transaction, before the statement's own row actions, so that a failing statement keeps
   * them); the published blocks become rows inserted by {@link #folder}'s transaction,
   * committed, then given their block's commit change number, so that each transaction's
   * HSQLDB reads see them exactly when its reads saw the block. Readers wait meanwhile.
   */
  private void fold(org.hsqldb.Session session, Segment segment) {
    segment.lock.writeLock().lock();
    try {
      final Map<Table, List<Segment.Block>> own = pending.get(session);
      final List<Segment.Block> mine = own == null ? null : own.remove(segment.table);
      if (mine != null && !mine.isEmpty()) {
        for (Segment.Block b : mine) {
          insertOwn(session, b);
        }
        ACTION_INDEX.set(session, session.getRowActionList().size());
      }
      if (!segment.published.isEmpty()) {
        foldPublished(segment);
      }
    } finally {
      segment.lock.writeLock().unlock();
    }
  }

  private void foldPublished(Segment segment) {
    final org.hsqldb.Session f = folder();
    synchronized (f) {
      final List<Row[]> rows = new ArrayList<>();
      beginTransaction(f);
      boolean inserted = false;
      try {
        final PersistentStore store = segment.table.getRowStore(f);
        for (Segment.Block b : segment.published) {
          final Row[] made = new Row[b.count];
          for (int i = 0; i < b.count; i++) {
            made[i] = insert(f, store, segment.table, b.hsqldbRow(f, i));
          }
          foldedRows.addAndGet(b.count);
          rows.add(made);
        }
        inserted = true;
      } finally {
        if (!inserted) {
          f.rollback(false);
        }
      }
      f.commit(false);
      for (int k = 0; k < rows.size(); k++) {
        final long scn = segment.published.get(k).scn;
        for (Row row : rows.get(k)) {
          final RowAction action = row.rowAction;
          if (action != null) {
            synchronized (action) {
              COMMIT_SCN.set(action, scn);
            }
          }
        }
      }
      segment.published.clear();
    }
  }

  private static Row insert(org.hsqldb.Session session, PersistentStore store, Table table,
      Object[] data) {
    try {
      return (Row) INSERT_ROW.invoke(table, session, store, data, null);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The session folding published blocks, made once. */
  private synchronized org.hsqldb.Session folder() {
    if (folder == null) {
      folder = database.sessionManager.newSysSession();
    }
    return folder;
  }
}
