package dev.mnestic.store;

import org.hsqldb.Table;

import java.util.ArrayList;
import java.util.List;

/**
 * The committed rows inserted into one store table, followed from a version, for a reader that
 * keeps what it computed from the table and brings it up to date instead of reading the table
 * again. Every write reaches the store's transaction manager ({@link TableVersions}), whatever
 * path made it (SQL, Datalog, a batch, a direct write on the session's HSQLDB connection):
 * each commit of the table moves its version by one, and while a feed follows the table the
 * rows of each commit that only inserted are logged; a rollback logs nothing.
 *
 * <p>A reader {@link #mark marks} the version its state was read at (a read of the table that
 * started and ended at that version, no commit of it in flight); {@link #insertedSince} then
 * gives the rows committed since, as (time in epoch milliseconds, value) pairs of two columns,
 * or null when a commit did more than insert (an UPDATE, DELETE or MERGE changing rows, a
 * statement rolled back in part) or the log no longer reaches back: the reader reads the table
 * again. The log is kept from the least version a live feed has marked, at most
 * {@code TableVersions.MAX_APPENDED} rows.
 */
public final class TableFeed {
  private final TableVersions versions;
  private final Session store;
  private final Table table;
  private final int timeColumn;
  private final int valueColumn;

  private TableFeed(TableVersions versions, Session store, Table table, int timeColumn,
      int valueColumn) {
    this.versions = versions;
    this.store = store;
    this.table = table;
    this.timeColumn = timeColumn;
    this.valueColumn = valueColumn;
  }

  /**
   * A feed of {@code table}'s (its stored name) rows' {@code timeColumn} (a TIMESTAMP) and
   * {@code valueColumn} (numeric), or null when the store keeps no table versions or has no
   * such table.
   */
  public static TableFeed of(Session store, String table, String timeColumn,
      String valueColumn) {
    final TableVersions versions = store.versions();
    if (versions == null) {
      return null;
    }
    final org.hsqldb.Session session = session(store);
    try {
      final Table t = session.database.schemaManager.getUserTable(table, Session.SCHEMA);
      return new TableFeed(versions, store, t, t.getColumnIndex(timeColumn),
          t.getColumnIndex(valueColumn));
    } catch (org.hsqldb.HsqlException e) {
      return null;
    }
  }

  private static org.hsqldb.Session session(Session store) {
    return (org.hsqldb.Session) ((org.hsqldb.jdbc.JDBCConnection) store.getConnection())
        .getSession();
  }

  /**
   * The table's version now, or -1 while a commit of it is under way or the session has
   * writes of its own not committed (its reads see rows no version counts).
   */
  public long version() {
    if (!session(store).getRowActionList().isEmpty()) {
      return -1;
    }
    return versions.version(table);
  }

  /** Stops following the table: nothing more is logged for this feed. */
  public void close() {
    versions.unfollow(table, this);
  }

  /** Follows the table from {@code version}: commits after it are logged for this feed. */
  public void mark(long version) {
    versions.follow(table, this, version);
  }

  /**
   * The (time, value) of each row committed after {@code version} up to {@code now} (a
   * {@link #version} read since), rows with a null time or value left out; null when they
   * cannot be told (see the class comment) or the table has moved past {@code now}.
   */
  public List<double[]> insertedSince(long version, long now) {
    final List<Object[]> rows = versions.insertedSince(table, version);
    if (rows == null || versions.version(table) != now) {
      return null;
    }
    final StoreSnapshot s = StoreSnapshot.of(session(store), table);
    final List<double[]> out = new ArrayList<>(rows.size());
    for (Object[] row : rows) {
      final Object t = StoreReads.read(s, StoreReads.Read.TIMESTAMP, timeColumn, row[timeColumn]);
      final Object v = row[valueColumn];
      if (t != null && v != null) {
        out.add(new double[] {(Long) t, ((Number) v).doubleValue()});
      }
    }
    return out;
  }
}
