package dev.mnestic.store;

import org.hsqldb.Database;
import org.hsqldb.Row;
import org.hsqldb.RowAction;
import org.hsqldb.Table;
import org.hsqldb.TransactionManagerMVCC;
import org.hsqldb.persist.PersistentStore;

import java.lang.ref.SoftReference;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HSQLDB's MVCC transaction manager, counting for each table the commits that change it, so
 * that what one read of a table computed from its committed rows can serve later reads while
 * the table has not changed ({@link StoreSnapshot#read}).
 *
 * <p>Every row HSQLDB writes, whatever statement or connection writes it, is registered with
 * the transaction manager ({@code addInsertAction}, {@code addDeleteAction}; an UPDATE is a
 * delete and an insert); this one remembers, per session, the tables written since the
 * session's transaction began. A commit of such a session moves each of those tables' version
 * twice: to an odd number before HSQLDB makes the rows visible and to the next even number
 * after. A version read before a table's rows and still the same, even number after them
 * therefore names exactly the committed rows read, and a later read finding the same version
 * would find the same committed rows. A rollback changes no committed row and moves nothing.
 *
 * <p>HSQLDB creates its transaction manager when it opens a database; {@link #install} puts
 * this one in its place the way HSQLDB's own {@code SET DATABASE TRANSACTION CONTROL} does,
 * and only while no session of the database is inside a transaction.
 */
public final class TableVersions extends TransactionManagerMVCC {
  /** The tables each session has written rows of since its transaction began. */
  private final Map<org.hsqldb.Session, Set<Table>> written = new ConcurrentHashMap<>();
  /** Each table's version and what was left for reads of it, by table (HSQLDB's object). */
  private final Map<Table, Entry> entries = new WeakHashMap<>();
  /** How many reads were served from what an earlier read shared. */
  private final AtomicLong sharedReads = new AtomicLong();

  private static final class Entry {
    long version;
    /** What a read left for later reads of {@link #sharedVersion}. */
    SoftReference<Object> shared;
    long sharedVersion = -1;
  }

  private TableVersions(Database database) {
    super(database);
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

  @Override public void addInsertAction(org.hsqldb.Session session, Table table,
      PersistentStore store, Row row, int[] changedColumns) {
    wrote(session, table);
    super.addInsertAction(session, table, store, row, changedColumns);
  }

  @Override public RowAction addDeleteAction(org.hsqldb.Session session, Table table,
      PersistentStore store, Row row, int[] changedColumns) {
    wrote(session, table);
    return super.addDeleteAction(session, table, store, row, changedColumns);
  }

  private void wrote(org.hsqldb.Session session, Table table) {
    // A session runs one statement at a time: its own set needs no lock.
    written.computeIfAbsent(session,
        s -> Collections.newSetFromMap(new IdentityHashMap<>())).add(table);
  }

  @Override public boolean commitTransaction(org.hsqldb.Session session) {
    final Set<Table> tables = written.remove(session);
    if (tables == null) {
      return super.commitTransaction(session);
    }
    move(tables);
    try {
      return super.commitTransaction(session);
    } finally {
      move(tables);
    }
  }

  @Override public void rollback(org.hsqldb.Session session) {
    written.remove(session);
    super.rollback(session);
  }

  private synchronized void move(Set<Table> tables) {
    for (Table t : tables) {
      entries.computeIfAbsent(t, k -> new Entry()).version++;
    }
  }

  /** {@code table}'s version now: even when no commit changing it is under way. */
  synchronized long version(Table table) {
    final Entry e = entries.get(table);
    return e == null ? 0 : e.version;
  }

  /** What a read of {@code table} at {@code version} left, or null. */
  synchronized Object shared(Table table, long version) {
    final Entry e = entries.get(table);
    if (e == null || e.version != version || e.sharedVersion != version) {
      return null;
    }
    return e.shared.get();
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
   * later reads; nothing when the table has moved on meanwhile. The collector may drop it
   * when memory runs short.
   */
  synchronized void share(Table table, long version, Object value) {
    final Entry e = entries.computeIfAbsent(table, k -> new Entry());
    if (e.version == version && (version & 1) == 0) {
      e.shared = new SoftReference<>(value);
      e.sharedVersion = version;
    }
  }
}
