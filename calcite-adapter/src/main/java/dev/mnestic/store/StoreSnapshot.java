package dev.mnestic.store;

import org.hsqldb.Table;
import org.hsqldb.navigator.RowIterator;
import org.hsqldb.persist.PersistentStore;
import org.hsqldb.types.Type;

import java.sql.PreparedStatement;
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

  private StoreSnapshot(org.hsqldb.Session session, Table table, Object[][] rows, int count) {
    this.session = session;
    this.table = table;
    this.types = table.getColumnTypes();
    this.rows = rows;
    this.count = count;
  }

  /**
   * The rows of {@code table} (its stored name) that a statement of {@code store} starting
   * now sees; {@code cancel}, when set (by another thread), stops the reading with an
   * {@link IllegalStateException}.
   */
  public static StoreSnapshot take(Session store, String table, AtomicBoolean cancel) {
    final org.hsqldb.jdbc.JDBCConnection connection =
        (org.hsqldb.jdbc.JDBCConnection) store.getConnection();
    final org.hsqldb.Session session = (org.hsqldb.Session) connection.getSession();
    try {
      final boolean autoCommit = connection.getAutoCommit();
      if (autoCommit) {
        connection.setAutoCommit(false);
      }
      try {
        // 1. The statement's start: locks, transaction, change number.
        store.probe(table).executeQuery().close();
        // 2. The rows it sees.
        return read(session, table, cancel);
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

  private static StoreSnapshot read(org.hsqldb.Session session, String name,
      AtomicBoolean cancel) {
    final Table table = session.database.schemaManager.getUserTable(name, Session.SCHEMA);
    final PersistentStore rowStore = table.getRowStore(session);
    final RowIterator it = table.getPrimaryIndex().firstRow(session, rowStore, null, 0, null);
    Object[][] rows = new Object[(int) Math.min(Math.max(rowStore.elementCount(), 16),
        Integer.MAX_VALUE - 8)][];
    int count = 0;
    try {
      while (it.next()) {
        if (count == rows.length) {
          rows = Arrays.copyOf(rows, rows.length + (rows.length >> 1));
        }
        rows[count++] = it.getCurrent();
        if ((count & (CANCEL_CHECK - 1)) == 0 && cancel != null && cancel.get()) {
          throw new IllegalStateException("reading table " + name
              + " cancelled (query timeout or cancel) after " + count + " rows");
        }
      }
    } finally {
      it.release();
    }
    return new StoreSnapshot(session, table, rows, count);
  }

  /** The stored name of column {@code i}. */
  public String columnName(int i) {
    return table.getColumn(i).getName().name;
  }
}
