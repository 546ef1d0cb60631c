package dev.mnestic.jdbc;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Reads result sets into comparable lists of rows, for tests. */
final class Rows {
  private Rows() {
  }

  static List<List<Object>> query(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return read(rs);
    }
  }

  static List<List<Object>> read(ResultSet rs) throws SQLException {
    final int n = rs.getMetaData().getColumnCount();
    final List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      final List<Object> row = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        row.add(normalize(rs.getObject(i)));
      }
      rows.add(row);
    }
    return rows;
  }

  /** Numbers as BigDecimal without trailing zeros and arrays as lists, so two engines' values compare. */
  static Object normalize(Object o) throws SQLException {
    if (o instanceof Number) {
      final BigDecimal d = new BigDecimal(o.toString());
      return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    }
    if (o instanceof Array) {
      final List<Object> list = new ArrayList<>();
      for (Object e : (Object[]) ((Array) o).getArray()) {
        list.add(normalize(e));
      }
      return list;
    }
    if (o instanceof Object[]) {
      return Arrays.asList((Object[]) o);
    }
    return o;
  }

  static List<Object> row(Object... values) {
    final List<Object> row = new ArrayList<>();
    for (Object v : values) {
      try {
        row.add(normalize(v));
      } catch (SQLException e) {
        throw new AssertionError(e);
      }
    }
    return row;
  }

  static int update(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      return s.executeUpdate(sql);
    }
  }
}
