package dev.mnestic.store;

import org.apache.calcite.sql.type.SqlTypeName;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/** What the store itself says about its tables: names, keys and indexes. */
public final class StoreCatalog {
  /** Column types the store holds; CREATE TABLE accepts these and ARRAYs of them. */
  public static final Set<SqlTypeName> STORABLE_TYPES = Collections.unmodifiableSet(
      EnumSet.of(SqlTypeName.BOOLEAN, SqlTypeName.TINYINT, SqlTypeName.SMALLINT,
          SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.DECIMAL,
          SqlTypeName.REAL, SqlTypeName.FLOAT, SqlTypeName.DOUBLE,
          SqlTypeName.CHAR, SqlTypeName.VARCHAR, SqlTypeName.BINARY,
          SqlTypeName.VARBINARY, SqlTypeName.DATE, SqlTypeName.TIME,
          SqlTypeName.TIMESTAMP));

  private StoreCatalog() {
  }

  /** Names of the store's tables, as stored, sorted ({@link Session#tableNames}). */
  public static List<String> tableNames(Session session) {
    return session.tableNames();
  }

  /**
   * Names of the store's tables matching the LIKE pattern {@code pattern} (null: all), as
   * stored, read from the store at each call (so DDL of any session shows at once).
   */
  public static List<String> tableNames(Session session, String pattern) {
    final List<String> names = new ArrayList<>();
    try (ResultSet rs = session.getConnection().getMetaData()
        .getTables(null, Session.SCHEMA, pattern, new String[] {"TABLE"})) {
      while (rs.next()) {
        names.add(rs.getString("TABLE_NAME"));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot list the store's tables", e);
    }
    return names;
  }

  /**
   * {@code name} as a LIKE pattern of the store's metadata calls that matches only itself:
   * {@code _} and {@code %} escaped, for names such as {@code a_b} (which would match
   * {@code axb} too).
   */
  public static String exactly(Session session, String name) {
    try {
      final String escape = session.getConnection().getMetaData().getSearchStringEscape();
      return name.replace(escape, escape + escape).replace("_", escape + "_")
          .replace("%", escape + "%");
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the store's search string escape", e);
    }
  }

  /**
   * The stored name of the table called {@code name} ignoring case; a table
   * whose name matches exactly wins over one that matches ignoring case.
   */
  public static Optional<String> findTable(Session session, String name) {
    String match = null;
    for (String table : tableNames(session)) {
      if (table.equals(name)) {
        return Optional.of(table);
      }
      if (table.equalsIgnoreCase(name)) {
        match = table;
      }
    }
    return Optional.ofNullable(match);
  }

  /**
   * The columns of {@code table} in order: each row is (name, JDBC type,
   * type name, position from 1, whether it takes null, its SQL default or
   * null, its comment or null).
   */
  public static List<Object[]> columns(Session session, String table) {
    final List<Object[]> rows = new ArrayList<>();
    try (ResultSet rs = session.getConnection().getMetaData()
        .getColumns(null, Session.SCHEMA, exactly(session, table), null)) {
      while (rs.next()) {
        rows.add(new Object[] {rs.getString("COLUMN_NAME"), rs.getInt("DATA_TYPE"),
            rs.getString("TYPE_NAME"), rs.getInt("ORDINAL_POSITION"),
            rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls, rs.getString("COLUMN_DEF"),
            rs.getString("REMARKS")});
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the columns of " + table, e);
    }
    rows.sort((a, b) -> Integer.compare((Integer) a[3], (Integer) b[3]));
    return rows;
  }

  /** Rows of a metadata result set, with its column names and Java classes. */
  public record Rows(List<String> names, List<Class<?>> types, List<Object[]> rows) {
  }

  /**
   * The store's own {@link DatabaseMetaData#getColumns} rows, all columns,
   * for tables and columns matching the LIKE patterns (null: all).
   */
  public static Rows columnMetaData(Session session, String tablePattern,
      String columnPattern) {
    try (ResultSet rs = session.getConnection().getMetaData()
        .getColumns(null, Session.SCHEMA, tablePattern, columnPattern)) {
      return rows(rs, rs.getMetaData().getColumnCount());
    } catch (SQLException | ClassNotFoundException e) {
      throw new IllegalStateException("cannot read the store's columns", e);
    }
  }


  /** The store's primary key of {@code table}: each row is (column name, position in key from 1, key name). */
  public static List<Object[]> primaryKey(Session session, String table) {
    final List<Object[]> rows = new ArrayList<>();
    try (ResultSet rs = session.getConnection().getMetaData()
        .getPrimaryKeys(null, Session.SCHEMA, table)) { // a name, not a pattern
      while (rs.next()) {
        rows.add(new Object[] {rs.getString("COLUMN_NAME"),
            rs.getShort("KEY_SEQ"), rs.getString("PK_NAME")});
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the primary key of " + table, e);
    }
    rows.sort((a, b) -> Short.compare((Short) a[1], (Short) b[1]));
    return rows;
  }

  /**
   * The declared length of the column {@code column} of the table {@code table} (stored names),
   * or empty when there is no such column.
   */
  public static OptionalInt columnSize(Session session, String table, String column) {
    try (ResultSet rs = session.getConnection().getMetaData().getColumns(null, Session.SCHEMA,
        exactly(session, table), exactly(session, column))) {
      return rs.next() ? OptionalInt.of(rs.getInt("COLUMN_SIZE"))
          : OptionalInt.empty();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the columns of " + table, e);
    }
  }

  /**
   * The store's own {@link DatabaseMetaData#getIndexInfo} rows of {@code table} (its stored
   * name), the 13 columns JDBC names: the indexes of its primary key and UNIQUE constraints;
   * only the unique ones when {@code unique}.
   */
  public static Rows indexInfo(Session session, String table, boolean unique) {
    return metaData(session, "the indexes of " + table, 13,
        md -> md.getIndexInfo(null, Session.SCHEMA, table, unique, true));
  }

  /**
   * The store's indexes of {@code table} (its stored name): each index's name and its columns
   * in order, the primary key's index and those of UNIQUE constraints and CREATE INDEX alike,
   * in order of name.
   */
  public static Map<String, List<String>> indexes(Session session, String table) {
    final Map<String, SortedMap<Short, String>> columns = new TreeMap<>();
    try (ResultSet rs = session.getConnection().getMetaData()
        .getIndexInfo(null, Session.SCHEMA, table, false, true)) { // a name, not a pattern
      while (rs.next()) {
        columns.computeIfAbsent(rs.getString("INDEX_NAME"), n -> new TreeMap<>())
            .put(rs.getShort("ORDINAL_POSITION"), rs.getString("COLUMN_NAME"));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the indexes of " + table, e);
    }
    final Map<String, List<String>> indexes = new LinkedHashMap<>();
    columns.forEach((name, ordered) -> indexes.put(name, List.copyOf(ordered.values())));
    return indexes;
  }

  /**
   * About how many rows store table {@code table} (its stored name) holds: the count of its row
   * store, which holds rows of transactions not yet committed, and removed rows not yet purged,
   * too; no row is read.
   */
  public static long rowCount(Session session, String table) {
    final org.hsqldb.Session s = (org.hsqldb.Session)
        ((org.hsqldb.jdbc.JDBCConnection) session.getConnection()).getSession();
    return s.database.schemaManager.getUserTable(table, Session.SCHEMA).getRowStore(s)
        .elementCount();
  }

  /** A call of the store's own {@link DatabaseMetaData}. */
  public interface MetaDataCall {
    ResultSet on(DatabaseMetaData store) throws SQLException;
  }

  /**
   * The first {@code columns} columns of the rows the store's own metadata call {@code call}
   * answers ({@code what} it reads, for the failure's message).
   */
  public static Rows metaData(Session session, String what, int columns, MetaDataCall call) {
    try (ResultSet rs = call.on(session.getConnection().getMetaData())) {
      return rows(rs, columns);
    } catch (SQLException | ClassNotFoundException e) {
      throw new IllegalStateException("cannot read " + what, e);
    }
  }

  /** The first {@code n} columns of {@code rs}'s rows, with their names and classes. */
  private static Rows rows(ResultSet rs, int n) throws SQLException, ClassNotFoundException {
    final ResultSetMetaData md = rs.getMetaData();
    final List<String> names = new ArrayList<>();
    final List<Class<?>> types = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      names.add(md.getColumnLabel(i));
      types.add(Class.forName(md.getColumnClassName(i)));
    }
    final List<Object[]> rows = new ArrayList<>();
    while (rs.next()) {
      final Object[] row = new Object[n];
      for (int i = 0; i < n; i++) {
        row[i] = rs.getObject(i + 1);
      }
      rows.add(row);
    }
    return new Rows(names, types, rows);
  }

  /**
   * The store's own {@link DatabaseMetaData#getTypeInfo()} rows (all 18
   * columns) for the types in {@link #STORABLE_TYPES}.
   */
  public static List<Object[]> typeInfo(Session session) {
    final List<Object[]> rows = new ArrayList<>();
    try (ResultSet rs = session.getConnection().getMetaData().getTypeInfo()) {
      final int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        final SqlTypeName type = SqlTypeName.get(rs.getString("TYPE_NAME"));
        if (type != null && STORABLE_TYPES.contains(type)) {
          final Object[] row = new Object[n];
          for (int i = 0; i < n; i++) {
            row[i] = rs.getObject(i + 1);
          }
          rows.add(row);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the store's types", e);
    }
    return rows;
  }
}
