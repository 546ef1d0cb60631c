package dev.mnestic.store;

import org.hsqldb.Table;
import org.hsqldb.navigator.RowIterator;
import org.hsqldb.persist.PersistentStore;
import org.hsqldb.types.Type;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The rows of one store table that one statement of a session sees, read from
 * HSQLDB's own row store: each row is HSQLDB's value array of the row (not a
 * copy), in HSQLDB's value objects ({@code TimestampData}, {@code BinaryData},
 * {@code Integer} for the small integers, ...).
 *
 * <p>How a snapshot is taken, as HSQLDB runs a SELECT (MVCC, READ COMMITTED):
 * <ol>
 *   <li>a prepared {@code SELECT 1 FROM t WHERE FALSE} runs on the session, with
 *       auto-commit turned off for the while when it is on: HSQLDB waits there for a
 *       table or catalog lock another session holds (DDL), starts the session's
 *       transaction if none is open (so that no transaction committing meanwhile is
 *       merged into the rows, nor a row this statement sees taken out of the index)
 *       and gives the session a new statement change number, from which its visibility
 *       check counts what is committed;
 *   <li>the table's primary index is walked with HSQLDB's own iterator, which keeps each
 *       row the session may read ({@code RowAction.canRead}: its own uncommitted writes,
 *       what others committed before step 1, not what they have not);
 *   <li>auto-commit, if it was on, is turned back on, which ends the transaction of
 *       step 1 as HSQLDB ends an auto-committed SELECT.
 * </ol>
 * HSQLDB never changes a row's value array in place (an UPDATE deletes the row and inserts
 * a new one), so the arrays stay what they were when read whatever runs afterwards, and a
 * statement writing the table it reads (INSERT INTO t SELECT ... FROM t) does not see its
 * own rows.
 *
 * <p>What a read computes from the rows it can leave for later reads of the same table
 * ({@link #share}): a later read whose statement would see the same committed rows, or those
 * and rows committed since by transactions that only inserted, gets it with the rows added
 * instead of walking the rows again ({@link Reading#fromShared}). It would see those rows when
 * the table's {@link TableVersions versions} say so, the table's version is the same just
 * before and just after step 1 (a commit counted in between may have been made visible after
 * step 1 fixed what the statement sees: rows read then are older than the version, and must
 * neither be shared as it nor be served what it holds), the table's row store is the same and
 * holds as many rows as those, and the session has no uncommitted write of its own and sees
 * what is committed at its statement's start (READ COMMITTED, or auto-commit, in which each
 * statement is a transaction of its own).
 */
public final class StoreSnapshot {
  /** How many rows the walk reads between two looks at the cancel flag. */
  private static final int CANCEL_CHECK = 4096;

  /** The session's HSQLDB session: the one the JDBC path runs on. */
  public final org.hsqldb.Session session;
  /** Each column's HSQLDB type. */
  public final Type[] types;
  /** The rows read, {@code rows[0..count)}. */
  public final Object[][] rows;
  public final int count;
  private final Table table;
  /** Where this read can leave what it computes: null when later reads cannot use it. */
  private final TableVersions versions;
  /** The table's version these rows complete, whether they were walked, and the row store. */
  private final long version;
  private final boolean walked;
  private final PersistentStore rowStore;
  /** How many rows the row store held when read. */
  private final long elements;
  /** What an earlier read of the same version left, or null. */
  private final Object previous;
  /** What the statement sees of the table's segment ({@link Segment}), after the rows. */
  final Segment.Seen segment;

  private StoreSnapshot(org.hsqldb.Session session, Table table, Object[][] rows, int count,
      TableVersions versions, long version, boolean walked, PersistentStore rowStore,
      long elements, Object previous) {
    this(session, table, rows, count, versions, version, walked, rowStore, elements, previous,
        null);
  }

  private StoreSnapshot(org.hsqldb.Session session, Table table, Object[][] rows, int count,
      TableVersions versions, long version, boolean walked, PersistentStore rowStore,
      long elements, Object previous, Segment.Seen segment) {
    this.segment = segment;
    this.session = session;
    this.table = table;
    this.types = table.getColumnTypes();
    this.rows = rows;
    this.count = count;
    this.versions = versions;
    this.version = version;
    this.walked = walked;
    this.rowStore = rowStore;
    this.elements = elements;
    this.previous = previous;
  }

  /** No rows of {@code table}: what converting its values needs ({@code StoreReads}). */
  static StoreSnapshot of(org.hsqldb.Session session, Table table) {
    return of(session, table, new Object[0][]);
  }

  /** {@code rows} (HSQLDB's values) of {@code table}, shared with no later read. */
  static StoreSnapshot of(org.hsqldb.Session session, Table table, Object[][] rows) {
    return new StoreSnapshot(session, table, rows, rows.length, null, -1, false, null, 0, null);
  }

  /** The stored name of the table the rows are of. */
  String tableName() {
    return table.getName().name;
  }

  /** A table read from rows, or from what an earlier read left. */
  public interface Reading<T> {
    /**
     * The read from {@code shared}, which an earlier read left ({@link #share}), and
     * {@code appended}, the rows committed since then (none when the table has not changed),
     * which a read that adds them to {@code shared} shares the whole through; null when
     * {@code shared} does not hold what this read needs.
     */
    T fromShared(Object shared, StoreSnapshot appended);

    /** The read from the rows the statement sees. */
    T fromRows(StoreSnapshot snapshot);
  }

  /** What a read left: its value, and the row store and row count it was read from. */
  private record Held(PersistentStore store, long elements, Object value) {
  }

  /**
   * {@code reading} of the rows of {@code table} (its stored name) that a statement of
   * {@code store} starting now sees; {@code cancel}, when set (by another thread), stops the
   * walk over the rows with an {@link IllegalStateException}.
   */
  public static <T> T read(Session store, String table, AtomicBoolean cancel,
      Reading<T> reading) {
    return started(store, table, (session, t, versions, before, autoCommit) -> {
      final PersistentStore rowStore = t.getRowStore(session);
      final Segment segment = versions == null ? null : versions.segmentOf(t);
      if (segment != null) {
        // The rows and the blocks seen together: no fold moves blocks into rows meanwhile.
        final StoreSnapshot withBlocks;
        segment.lock.readLock().lock();
        try {
          final Segment.Seen seen = versions.seen(session, segment);
          withBlocks = seen.blocks().isEmpty() ? null
              : counted(versions, walk(session, t, rowStore, cancel, null, -1, 0, null, seen));
        } finally {
          segment.lock.readLock().unlock();
        }
        if (withBlocks != null) {
          return reading.fromRows(withBlocks);
        }
      }
      if (versions == null || !seesCommitted(session, autoCommit) || before < 0
          || versions.version(t) != before) {
        return reading.fromRows(counted(versions,
            walk(session, t, rowStore, cancel, null, -1, 0, null, null)));
      }
      final long version = before;
      final long elements = rowStore.elementCount();
      final TableVersions.Shared shared = versions.shared(t);
      Object previous = null;
      if (shared != null && shared.version() == version
          && shared.value() instanceof Held held && held.store == rowStore
          && held.elements + shared.appended().length == elements) {
        final T answer = reading.fromShared(held.value, new StoreSnapshot(session, t,
            shared.appended(), shared.appended().length, versions, shared.version(), false,
            rowStore, elements, null));
        if (answer != null) {
          versions.servedShared();
          return answer;
        }
        if (shared.from() == version) {
          previous = held.value;
        }
      }
      // 2. The rows it sees.
      return reading.fromRows(counted(versions, walk(session, t, rowStore, cancel,
          versions, version, elements, previous, null)));
    });
  }

  /** What a read does once its statement has started ({@link #started}). */
  @FunctionalInterface
  private interface Started<T> {
    /**
     * The read of {@code table} by {@code session}, whose statement has started; the store's
     * {@code versions} (null where it keeps none), the table's version {@code before} the
     * start (-1 for none), and whether the session was in auto-commit mode.
     */
    T run(org.hsqldb.Session session, Table table, TableVersions versions, long before,
        boolean autoCommit);
  }

  /**
   * {@code body} run on {@code table} (its stored name) inside the start of a statement of
   * {@code store} (steps 1 and 3 of the class comment): auto-commit off for the while, the
   * table's version taken, then the probe (locks, transaction, change number); auto-commit, if
   * it was on, turned back on after the body, ending the probe's transaction.
   */
  private static <T> T started(Session store, String table, Started<T> body) {
    final org.hsqldb.jdbc.JDBCConnection connection =
        (org.hsqldb.jdbc.JDBCConnection) store.getConnection();
    final org.hsqldb.Session session = (org.hsqldb.Session) connection.getSession();
    try {
      final boolean autoCommit = connection.getAutoCommit();
      if (autoCommit) {
        connection.setAutoCommit(false);
      }
      try {
        final TableVersions versions = store.versions();
        // The version before the statement's start: the rows it will see are those of the
        // version after it only when no commit of the table came between (a commit counted
        // after the start may have made rows visible that the start does not see).
        final long before = versions == null ? -1 : versionBefore(versions, session, table);
        // 1. The statement's start: locks, transaction, change number.
        store.probe(table).executeQuery().close();
        return body.run(session,
            session.database.schemaManager.getUserTable(table, Session.SCHEMA), versions,
            before, autoCommit);
      } finally {
        // 3. An auto-committed read ends its transaction.
        if (autoCommit) {
          connection.setAutoCommit(true);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read table " + table + " of the store: "
          + e.getMessage(), e);
    }
  }

  /**
   * The rows of {@code table} (its stored name) whose column {@code column} holds one of
   * {@code values} (as Calcite holds them; none null), that a statement of {@code store}
   * starting now sees, found through an index of HSQLDB's whose first column is
   * {@code column}: one walk down the index per value, in the index's order (the values
   * sorted first), each row as {@link #read} would give it. Null when no index leads with the
   * column or the statement sees rows of the table's segment, which no index holds
   * ({@link Segment}): the caller reads the table instead. A value the column's type cannot
   * hold finds no row.
   */
  public static StoreSnapshot lookup(Session store, String table, int column,
      java.util.Collection<Object> values, AtomicBoolean cancel) {
    return started(store, table, (session, t, versions, before, autoCommit) -> {
      final org.hsqldb.index.Index index = leading(t, column);
      if (index == null) {
        return null;
      }
      final Segment segment = versions == null ? null : versions.segmentOf(t);
      if (segment != null) {
        segment.lock.readLock().lock();
        try {
          if (!versions.seen(session, segment).blocks().isEmpty()) {
            return null;
          }
        } finally {
          segment.lock.readLock().unlock();
        }
      }
      final Type type = t.getColumnTypes()[column];
      final java.util.List<Object> keys = new java.util.ArrayList<>();
      for (Object v : values) {
        try {
          keys.add(type.convertToDefaultType(session, v));
        } catch (org.hsqldb.HsqlException e) {
          // no row holds a value the column cannot
        }
      }
      keys.sort((a, b) -> type.compare(session, a, b));
      final PersistentStore rowStore = t.getRowStore(session);
      // the value at the column's place in a row of the table, which the map points to
      final int[] map = {column};
      final Object[] data = new Object[t.getColumnCount()];
      Object[][] rows = new Object[Math.max(16, keys.size())][];
      int count = 0;
      for (Object key : keys) {
        data[column] = key;
        final RowIterator it = index.findFirstRow(session, rowStore, data, map);
        try {
          while (it.next()) {
            final Object[] row = it.getCurrent();
            if (type.compare(session, row[column], key) != 0) {
              break;
            }
            if (count == rows.length) {
              rows = Arrays.copyOf(rows, rows.length + (rows.length >> 1));
            }
            checkCancel(cancel, table, count);
            rows[count++] = row;
          }
        } finally {
          it.release();
        }
      }
      return counted(versions, new StoreSnapshot(session, t, rows, count, null, -1, false,
          null, 0, null));
    });
  }

  /** An index of {@code table} whose first column is {@code column}, or null. */
  private static org.hsqldb.index.Index leading(Table table, int column) {
    for (org.hsqldb.index.Index index : table.getIndexList()) {
      final int[] columns = index.getColumns();
      if (columns.length > 0 && columns[0] == column) {
        return index;
      }
    }
    return null;
  }

  /**
   * How many rows reads of {@code store}'s tables have taken from their row stores, walking a
   * table or through an index ({@link #lookup}); 0 where the store keeps no table versions.
   */
  public static long rowsRead(Session store) {
    final TableVersions versions = store.versions();
    return versions == null ? 0 : versions.rowsRead();
  }

  private static StoreSnapshot counted(TableVersions versions, StoreSnapshot read) {
    if (versions != null) {
      versions.read(read.count);
    }
    return read;
  }

  /** {@code table}'s version now, or -1 when it has none (being created, or not there). */
  private static long versionBefore(TableVersions versions, org.hsqldb.Session session,
      String table) {
    try {
      return versions.version(session.database.schemaManager.getUserTable(table,
          Session.SCHEMA));
    } catch (org.hsqldb.HsqlException e) {
      return -1;
    }
  }

  /**
   * Stops a read of {@code table} at row {@code i}, looking every {@value #CANCEL_CHECK} rows,
   * when its statement is cancelled ({@code cancel} set by another thread).
   */
  public static void checkCancel(AtomicBoolean cancel, String table, int i) {
    if ((i & (CANCEL_CHECK - 1)) == CANCEL_CHECK - 1 && cancel != null && cancel.get()) {
      throw new IllegalStateException("reading table " + table
          + " cancelled (query timeout or cancel) after " + i + " rows");
    }
  }

  private static boolean seesCommitted(org.hsqldb.Session session, boolean autoCommit) {
    return session.getRowActionList().isEmpty()
        && (autoCommit || session.getIsolation() == Connection.TRANSACTION_READ_COMMITTED);
  }

  private static StoreSnapshot walk(org.hsqldb.Session session, Table table,
      PersistentStore rowStore, AtomicBoolean cancel, TableVersions versions, long version,
      long elements, Object previous, Segment.Seen segment) {
    final String name = table.getName().name;
    final RowIterator it = table.getPrimaryIndex().firstRow(session, rowStore, null, 0, null);
    Object[][] rows = new Object[(int) Math.min(Math.max(rowStore.elementCount(), 16),
        Integer.MAX_VALUE - 8)][];
    int count = 0;
    try {
      while (it.next()) {
        if (count == rows.length) {
          rows = Arrays.copyOf(rows, rows.length + (rows.length >> 1));
        }
        checkCancel(cancel, name, count);
        rows[count++] = it.getCurrent();
      }
    } finally {
      it.release();
    }
    return new StoreSnapshot(session, table, rows, count, versions, version, true, rowStore,
        elements, previous, segment);
  }

  /**
   * Whether what is computed from these rows can be left for later reads ({@link #share}):
   * not for rows read with the segment's blocks, by a session with uncommitted writes, nor for
   * rows a {@link TableFeed} gave.
   */
  boolean shareable() {
    return versions != null;
  }

  /**
   * What an earlier read of the same committed rows left (with {@link #share}), or null: a
   * read that needs more than it holds adds to it and shares the whole.
   */
  public Object shared() {
    return previous;
  }

  /**
   * Leaves {@code value}, computed from these rows (with what {@link Reading#fromShared} was
   * given, for appended rows), for later reads; nothing when they cannot be told apart from
   * other rows (see the class comment) or the table has changed since.
   */
  public void share(Object value) {
    if (versions != null) {
      versions.share(table, version, walked, new Held(rowStore, elements, value));
    }
  }

  /** The stored name of column {@code i}. */
  public String columnName(int i) {
    return table.getColumn(i).getName().name;
  }
}
