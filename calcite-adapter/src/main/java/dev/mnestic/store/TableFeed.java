package dev.mnestic.store;

import org.hsqldb.Table;
import org.hsqldb.jdbc.JDBCResultSet;
import org.hsqldb.navigator.RowSetNavigator;
import org.hsqldb.persist.PersistentStore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The committed rows inserted into one store table, followed from a version, for a reader that
 * keeps what it computed from the table and brings it up to date instead of reading the table
 * again. Every write reaches the store's transaction manager ({@link TableVersions}), whatever
 * path made it (SQL, Datalog, a batch, a direct write on the session's HSQLDB connection):
 * each commit of the table moves its version by one, and while a feed follows the table the
 * rows each commit inserted and deleted are logged; a rollback logs nothing.
 *
 * <p>A reader {@link #mark marks} the version its state was read at (a read of the table that
 * started and ended at that version, no commit of it in flight); {@link #changesSince} then
 * gives the rows committed since, inserted and deleted, whole (read as (time in epoch
 * milliseconds, value) pairs of two columns by {@link #pairs}, or scanned as the table by a
 * plan given {@link #rows}), or null when a commit's rows are not known (a statement rolled back in
 * part, more than {@code TableVersions.MAX_APPENDED} rows) or the log no longer reaches back:
 * the reader reads the table again. The log is kept from the least version a live feed has marked, at most
 * {@code TableVersions.MAX_APPENDED} rows.
 *
 * <p>A feed of whole rows ({@link #of(Session, String)}) serves readers that keep something
 * built from every row and are used from many sessions of the store (the search indices): its
 * {@code ...(Session reader, ...)} methods answer for the session reading now, which also
 * tells its own writes not yet committed ({@link #ownChanges}).
 */
public final class TableFeed {
  private final TableVersions versions;
  private final Session store;
  private final Table table;
  private final int timeColumn;
  private final int valueColumn;
  /** The table's row store when the feed was made: another one holds other rows. */
  private final PersistentStore rowStore;

  private TableFeed(TableVersions versions, Session store, Table table, int timeColumn,
      int valueColumn) {
    this.versions = versions;
    this.store = store;
    this.table = table;
    this.timeColumn = timeColumn;
    this.valueColumn = valueColumn;
    this.rowStore = table.getRowStore(session(store));
  }

  /**
   * A feed of {@code table}'s (its stored name) whole rows, or null when the store keeps no
   * table versions or has no such table.
   */
  public static TableFeed of(Session store, String table) {
    final TableVersions versions = store.versions();
    if (versions == null) {
      return null;
    }
    try {
      return new TableFeed(versions, store, session(store).database.schemaManager
          .getUserTable(table, Session.SCHEMA), -1, -1);
    } catch (org.hsqldb.HsqlException e) {
      return null;
    }
  }

  /**
   * The version of the table whose committed rows a statement of {@code reader} (a session of
   * the same store) starting now sees, its own uncommitted writes ({@link #ownChanges}) on
   * top; -1 when it sees other rows (an isolation above READ COMMITTED in a transaction), a
   * commit of the table is under way, or the table's name now names another table (dropped
   * and created again) or its rows another row store.
   */
  public long version(Session reader) {
    final org.hsqldb.Session session = session(reader);
    try {
      if (!reader.getAutoCommit()
          && session.getIsolation() != java.sql.Connection.TRANSACTION_READ_COMMITTED
          || session.database.schemaManager.getUserTable(table.getName().name, Session.SCHEMA)
              != table
          || table.getRowStore(session) != rowStore) {
        return -1;
      }
    } catch (SQLException | org.hsqldb.HsqlException e) {
      return -1;
    }
    return versions.version(table);
  }

  /**
   * What {@code reader}'s transaction has written to the table and not committed, which its
   * statements see: its rows inserted and deleted, as {@link #changesSince} gives them; null
   * when that cannot be told (it rolled part of itself back, wrote very many rows, appended
   * a batch not yet folded).
   */
  public Changes ownChanges(Session reader) {
    final TableVersions.Step own = versions.own(session(reader), table);
    return own == null ? null : new Changes(own.inserted(), own.deleted());
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
    if (!session(store).getRowActionList().isEmpty() || versions.hasPending(session(store))) {
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
   * The rows committed after {@code version} up to {@code now} (a {@link #version} read
   * since): each commit's inserted and deleted rows (an UPDATE deletes the old row and inserts
   * the new) as HSQLDB holds them ({@link #pairs} and {@link #rows} read them); null when they
   * cannot be told (see the class comment) or the table has moved past {@code now}.
   */
  public Changes changesSince(long version, long now) {
    final List<TableVersions.Step> steps = versions.since(table, version);
    if (steps == null || versions.version(table) != now) {
      return null;
    }
    final List<Object[]> inserted = new ArrayList<>();
    final List<Object[]> deleted = new ArrayList<>();
    for (TableVersions.Step step : steps) {
      inserted.addAll(step.inserted());
      deleted.addAll(step.deleted());
    }
    return new Changes(inserted, deleted);
  }

  /** What commits changed: the rows each way, as HSQLDB holds them. */
  public record Changes(List<Object[]> inserted, List<Object[]> deleted) {
    /**
     * The same changes as one deletion and one insertion per row at most: the rows deleted
     * that no insertion brought back, and the rows inserted that no deletion took away, each
     * in its list's order. Rows are matched by their values: one key's rows follow one
     * another (its row deleted before another is inserted), so over any run of commits the
     * rows left are the key's row before, if it is gone or changed, and after, if it is new
     * or changed. Deleting the first list's rows by key, then inserting the second's, gives
     * the table after the changes.
     */
    public Changes net() {
      final Map<List<Object>, Integer> count = new HashMap<>();
      for (Object[] row : inserted) {
        count.merge(values(row), 1, Integer::sum);
      }
      for (Object[] row : deleted) {
        count.merge(values(row), -1, Integer::sum);
      }
      return new Changes(left(inserted, count, 1), left(deleted, count, -1));
    }

    /** The rows of {@code rows} whose count still goes {@code sign}'s way, one each time. */
    private static List<Object[]> left(List<Object[]> rows, Map<List<Object>, Integer> count,
        int sign) {
      final List<Object[]> out = new ArrayList<>();
      for (Object[] row : rows) {
        final List<Object> v = values(row);
        final int c = count.get(v);
        if (c * sign > 0) {
          out.add(row);
          count.put(v, c - sign);
        }
      }
      return out;
    }

    /** A row's values compared by content (an ARRAY's elements too). */
    private static List<Object> values(Object[] row) {
      final List<Object> out = new ArrayList<>(row.length);
      for (Object v : row) {
        out.add(v instanceof Object[] a ? values(a) : v);
      }
      return out;
    }
  }

  /** The (time in epoch milliseconds, value) of {@code rows}, those with a null left out. */
  public List<double[]> pairs(List<Object[]> rows) {
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

  /**
   * {@code rows} (as {@link #changesSince} or {@link #rowsIn} give them) as the value of the
   * context variable {@link StoreReads#ROWS}: a plan run with it scans them as the table.
   */
  public Object rows(List<Object[]> rows) {
    return rows(store, rows);
  }

  /** {@link #rows(List)} for a plan that {@code reader} (a session of the same store) runs. */
  public Object rows(Session reader, List<Object[]> rows) {
    return StoreSnapshot.of(session(reader), table, rows.toArray(new Object[0][]));
  }

  /** Receives a row's time (epoch milliseconds) and value. */
  @FunctionalInterface
  public interface Sink {
    void row(long time, double value);
  }

  /**
   * Reads the (time, value) of the committed rows whose time is in [from, to) (null values
   * left out) into {@code sink}, in a statement of the store's session; returns whether the
   * table was at version {@code now} before and after it, so that the statement read exactly
   * the rows committed at {@code now}.
   */
  public boolean read(long now, long from, long to, Sink sink) throws SQLException {
    final String value = StoreDdlExecutor.quote(table.getColumn(valueColumn).getName().name);
    final PreparedStatement select = inRange(
        StoreDdlExecutor.quote(table.getColumn(timeColumn).getName().name) + ", " + value,
        from, to, " AND " + value + " IS NOT NULL");
    if (version() != now) {
      return false;
    }
    try (ResultSet rs = select.executeQuery()) {
      while (rs.next()) {
        sink.row(StoreReads.timestamp(rs, 1), rs.getDouble(2));
      }
    }
    return version() == now;
  }

  /**
   * The committed rows whose time is in [from, to), whole, as HSQLDB holds them, read in a
   * statement of the store's session; null unless the table was at version {@code now} before
   * and after it (see {@link #read}).
   */
  public List<Object[]> rowsIn(long now, long from, long to) throws SQLException {
    final PreparedStatement select = inRange("*", from, to, "");
    if (version() != now) {
      return null;
    }
    final List<Object[]> rows = new ArrayList<>();
    final int columns = table.getColumnCount();
    try (ResultSet rs = select.executeQuery()) {
      // HSQLDB's own values of the rows, as its row store holds them (not JDBC's)
      final RowSetNavigator navigator = ((JDBCResultSet) rs).result.getNavigator();
      while (navigator.next()) {
        rows.add(Arrays.copyOf(navigator.getCurrent(), columns));
      }
    }
    return version() == now ? rows : null;
  }

  /** {@code SELECT columns} of the rows whose time is in [from, to){@code and}, bound. */
  private PreparedStatement inRange(String columns, long from, long to, String and)
      throws SQLException {
    final String time = StoreDdlExecutor.quote(table.getColumn(timeColumn).getName().name);
    final PreparedStatement select = store.prepared("SELECT " + columns + " FROM "
        + StoreDdlExecutor.quote(Session.SCHEMA) + "."
        + StoreDdlExecutor.quote(table.getName().name) + " WHERE " + time + " >= ? AND " + time
        + " < ?" + and);
    select.setObject(1, LocalDateTime.ofEpochSecond(Math.floorDiv(from, 1000),
        Math.floorMod(from, 1000) * 1_000_000, ZoneOffset.UTC));
    select.setObject(2, LocalDateTime.ofEpochSecond(Math.floorDiv(to, 1000),
        Math.floorMod(to, 1000) * 1_000_000, ZoneOffset.UTC));
    return select;
  }

  @Override public String toString() {
    return "table " + table.getName().name;
  }
}
