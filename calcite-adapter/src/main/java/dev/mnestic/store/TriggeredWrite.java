package dev.mnestic.store;

import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.core.TableModify;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An SQL write of a table whose relation has CozoScript triggers, firing them as CozoScript's
 * write of the same rows would ({@code ::set_triggers}): each row the statement changes is, in
 * CozoScript's terms,
 * <ul>
 *   <li>a put of its new row (INSERT, MERGE's insert; UPDATE and MERGE's update that keep the
 *     row's key): put triggers, {@code _new} the row as stored after the statement,
 *     {@code _old} the row its key held before (none for an insert);
 *   <li>an rm of its key (DELETE): rm triggers, {@code _new} the key, {@code _old} the row;
 *   <li>both (an UPDATE that changes the key, of any column of a table without primary key,
 *     whose whole row is its key): an rm of the old key, then a put of the new row.
 * </ul>
 * One statement is one firing of each kind, rm triggers first, with all its rows, as one
 * CozoScript {@code :rm} and one {@code :put} of them. The triggers run after the statement's
 * rows are written, in its transaction (or savepoint), through the session's
 * {@link TableTriggers}; their writes fire no triggers (CozoDB's rule: triggers never cascade).
 * A trigger that fails fails the statement, and nothing of it or of the triggers stays.
 */
final class TriggeredWrite {
  private TriggeredWrite() {
  }

  /**
   * What runs the triggers {@code operation} fires on {@code table}, or null when it fires
   * none: INSERT put triggers, DELETE rm ones, UPDATE and MERGE either.
   *
   * @throws SQLException 0A000 when the relation has such triggers and nothing runs them on
   *     this session (a session the driver did not open)
   */
  static TableTriggers runner(Session session, String table, TablePolicy policy,
      TableModify.Operation operation) throws SQLException {
    final boolean fires = switch (operation) {
    case INSERT -> !policy.put().isEmpty();
    case DELETE -> !policy.rm().isEmpty();
    default -> !policy.put().isEmpty() || !policy.rm().isEmpty();
    };
    if (!fires) {
      return null;
    }
    final TableTriggers triggers = session.triggers();
    if (triggers == null) {
      throw new SQLException("not supported: stored relation '" + table + "' has CozoScript"
          + " triggers and nothing runs them on this session (open it through the driver)",
          "0A000");
    }
    return triggers;
  }

  /**
   * Writes {@code input}'s rows as {@link StoreWrites#write} does, then fires the relation's
   * triggers with {@code triggers}; {@code guard} (null for an INSERT) is closed before they
   * run, as their own writes guard their tables. Returns the statement's row count.
   */
  static long write(Session session, String table, TableModify.Operation operation,
      String[] updateColumns, Enumerable<Object[]> input, TableTriggers triggers,
      WriteGuard guard) throws SQLException {
    final StoreWrites.Target target = StoreWrites.Target.of(session, table);
    final List<Object[]> rows = input.toList();
    // each changed row of the table's columns (Calcite's values) before and after: null, none
    final List<Object[]> before = new ArrayList<>();
    final List<Object[]> after = new ArrayList<>();
    final int n = target.columns.size();
    for (Object[] row : rows) {
      switch (operation) {
      case INSERT -> change(before, after, null, slice(row, 0, n));
      case DELETE -> change(before, after, slice(row, 0, n), null);
      case UPDATE -> change(before, after, slice(row, 0, n),
          updated(target, row, 0, updateColumns));
      default -> { // MERGE: matched, the table's columns, the updated ones, the row to insert
        if (!(Boolean) row[0]) {
          change(before, after, null, slice(row, 1 + n + updateColumns.length, n));
        } else if (updateColumns.length > 0) {
          change(before, after, slice(row, 1, n), updated(target, row, 1, updateColumns));
        }
      }
      }
    }
    // the keys removed, and the rows put whose old rows are read before the write
    final List<Object[]> removedKeys = new ArrayList<>();
    final Set<List<Object>> removedSet = new HashSet<>();
    final List<Object[]> put = new ArrayList<>();
    for (int i = 0; i < before.size(); i++) {
      final Object[] b = before.get(i);
      final Object[] a = after.get(i);
      if (b != null && (a == null || !target.key(b, 0).equals(target.key(a, 0)))) {
        removedKeys.add(b);
        removedSet.add(target.key(b, 0));
      }
      if (a != null) {
        put.add(a);
      }
    }
    final List<Object[]> removedRows = new ArrayList<>();
    final List<Object[]> replacedRows = new ArrayList<>();
    final long count;
    try (PreparedStatement select = session.getConnection().prepareStatement("SELECT "
        + target.columns.stream().map(StoreWrites.Target::quote)
            .collect(Collectors.joining(", "))
        + " FROM " + StoreWrites.Target.quote(table) + " WHERE " + target.keyCondition())) {
      for (Object[] key : removedKeys) {
        addIfStored(removedRows, read(target, select, key));
      }
      for (Object[] row : put) {
        if (!removedSet.contains(target.key(row, 0))) {
          addIfStored(replacedRows, read(target, select, row));
        }
      }
      count = StoreWrites.write(session, table, operation, updateColumns,
          Linq4j.asEnumerable(rows));
      if (guard != null) {
        guard.close(); // before the triggers, whose writes guard their own tables
      }
      final List<Object[]> putRows = new ArrayList<>();
      for (Object[] row : put) {
        addIfStored(putRows, read(target, select, row));
      }
      if (!removedRows.isEmpty()) {
        triggers.fire(session, table, true, removedRows, removedRows);
      }
      if (!putRows.isEmpty()) {
        triggers.fire(session, table, false, putRows, replacedRows);
      }
    }
    return count;
  }

  private static void change(List<Object[]> before, List<Object[]> after, Object[] b,
      Object[] a) {
    before.add(b);
    after.add(a);
  }

  private static Object[] slice(Object[] row, int offset, int n) {
    return Arrays.copyOfRange(row, offset, offset + n);
  }

  /** The row of the table's columns at {@code offset} with UPDATE's new values put in. */
  private static Object[] updated(StoreWrites.Target target, Object[] row, int offset,
      String[] updateColumns) {
    final int n = target.columns.size();
    final Object[] out = slice(row, offset, n);
    for (int j = 0; j < updateColumns.length; j++) {
      out[target.columns.indexOf(updateColumns[j])] = row[offset + n + j];
    }
    return out;
  }

  private static void addIfStored(List<Object[]> rows, Object[] row) {
    if (row != null) {
      rows.add(row);
    }
  }

  /** The stored row of {@code row}'s key, each value as JDBC's {@code getObject} gives it. */
  private static Object[] read(StoreWrites.Target target, PreparedStatement select,
      Object[] row) throws SQLException {
    target.bindKey(row, 0, 1).bind(select);
    try (ResultSet rs = select.executeQuery()) {
      if (!rs.next()) {
        return null;
      }
      final Object[] stored = new Object[target.columns.size()];
      for (int i = 0; i < stored.length; i++) {
        stored[i] = rs.getObject(i + 1);
      }
      return stored;
    }
  }
}
