package dev.mnestic.server;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Test case for #14 (point 5): every type reaches a thin client through the server as the
 * embedded driver gives it: {@code getObject}, {@code getString}, arrays'
 * {@code getArray()} (which failed: "invalid column ordinal: 2", because Calcite's
 * {@code Array.getResultSet()} had one column where JDBC says two), and the column's
 * type in {@link ResultSetMetaData}, for values and for NULLs of each type.
 */
class WireTypesTest {
  /** One expression per type; each is also selected as a NULL of its type. */
  private static final List<String> VALUES = List.of(
      "TRUE", "CAST(3 AS SMALLINT)", "7", "CAST(7 AS BIGINT)", "CAST(2.5 AS REAL)", "1.5e0",
      "CAST(1.25 AS DECIMAL(10, 3))", "'text'", "CAST('ab' AS CHAR(4))", "X'0102ff'",
      "DATE '2024-01-02'", "TIME '03:04:05'", "TIMESTAMP '2024-01-02 03:04:05.678'",
      "ARRAY[1, 2]", "ARRAY[1.5, 2.5]", "ARRAY['a', 'bc']", "ARRAY[1, NULL]",
      "ARRAY[TRUE, FALSE]", "ARRAY[CAST(1.25 AS DECIMAL(10, 3))]",
      "ARRAY[TIMESTAMP '2024-01-02 03:04:05.678', NULL]", "ARRAY[DATE '2024-01-02', NULL]",
      "ARRAY[ARRAY[1, 2], ARRAY[3]]", "ARRAY[ARRAY[DATE '2024-01-02']]",
      "ARRAY[ARRAY[ARRAY['x']]]");

  @Test void eachTypeAsEmbedded() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).db("mem:wire-types")
        .build()) {
      server.start();
      try (Connection embedded = DriverManager.getConnection("jdbc:mnestic:db=mem:wire-types");
           Connection remote = DriverManager.getConnection(server.jdbcUrl())) {
        for (String value : VALUES) {
          final String sql = "SELECT " + value + ", CASE WHEN 1 = 0 THEN " + value + " END";
          assertEquals(rows(embedded, sql), rows(remote, sql), sql);
        }
      }
    }
  }

  /**
   * PARETO_MIN and PARETO_MAX results, arrays of points that are arrays (which failed: "cannot
   * convert to long"), and arrays built from each row's columns.
   */
  @Test void paretoResultsAsEmbedded() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).db("mem:wire-pareto")
        .build()) {
      server.start();
      try (Connection embedded = DriverManager.getConnection("jdbc:mnestic:db=mem:wire-pareto");
           Connection remote = DriverManager.getConnection(server.jdbcUrl())) {
        final String points = " FROM (VALUES (1.5, 2), (2, 1), (3, 3)) AS t(x, y)";
        for (String sql : List.of("SELECT PARETO_MIN(ARRAY[x, y]), PARETO_MAX(ARRAY[x, y])"
            + points, "SELECT ARRAY[x, y]" + points)) {
          assertEquals(rows(embedded, sql), rows(remote, sql), sql);
        }
      }
    }
  }

  /** What a client reads of each column of each row, in a form that compares by value. */
  private static List<List<Object>> rows(Connection c, String sql) throws SQLException {
    final List<List<Object>> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      final ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        final List<Object> row = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          row.add(md.getColumnType(i) + " " + md.getColumnTypeName(i) + " "
              + md.getColumnClassName(i));
          final Object o = rs.getObject(i);
          row.add(o == null ? null
              : o instanceof java.sql.Array ? "java.sql.Array" : o.getClass().getName());
          row.add(plain(o));
          row.add(rs.wasNull());
          if (md.getColumnType(i) != Types.BINARY && md.getColumnType(i) != Types.VARBINARY) {
            row.add(rs.getString(i));
          }
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /**
   * {@code o} with arrays (JDBC and Java ones) as lists of boxed values. Embedded, Avatica's
   * {@code getArray()} fails on arrays of arrays and of non-null dates or timestamps (it casts
   * the elements to Calcite's internal Java type), so those compare by their elements'
   * {@code getObject} through {@code getResultSet()}, which the server reads them by.
   */
  private static Object plain(Object o) throws SQLException {
    if (o instanceof java.sql.Array a) {
      final int base = a.getBaseType();
      if (base == Types.ARRAY || base == Types.DATE || base == Types.TIMESTAMP) {
        final List<Object> items = new ArrayList<>();
        try (ResultSet rs = a.getResultSet()) {
          while (rs.next()) {
            items.add(plain(rs.getObject(2)));
          }
        }
        return items;
      }
      return plain(a.getArray());
    }
    if (o != null && o.getClass().isArray()) {
      final List<Object> items = new ArrayList<>();
      for (int i = 0; i < Array.getLength(o); i++) {
        items.add(plain(Array.get(o, i)));
      }
      return items;
    }
    return o;
  }
}
