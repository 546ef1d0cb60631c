package dev.mnestic.jdbc;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.mnestic.jdbc.Rows.row;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stored relations of every CozoDB column type are tables of the store, both
 * ways: a relation made by {@code :create} is read, filtered and written by
 * SQL, and a table made by SQL is written by {@code :put} and {@code :update}
 * with SQL's own defaults (issue 3, points 2 and 6).
 */
class StoredRelationTypesTest {
  private static final UUID ID = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");

  @Test void datalogRelationIsASqlTable() throws SQLException {
    final String db = "mem:types-" + UUID.randomUUID();
    try (Connection sql = DriverManager.getConnection("jdbc:mnestic:db=" + db);
         Connection datalog = DriverManager.getConnection("jdbc:mnestic:db=" + db + ";lang=datalog")) {
      run(datalog, ":create doc {id: Uuid => body: Bytes, tags: [String], meta: Json,"
          + " at: Validity, any, score: Float default 0.5, note: String?}");
      run(datalog, "?[id, body, tags, meta, at, any, note] <- [['" + ID + "', 'AQI=', ['a', 'b'],"
          + " [1, 2.5], [1700000000000000, true], 2.0, null]]"
          + " :put doc {id, body, tags, meta, at, any, note}");

      try (Statement s = sql.createStatement();
           ResultSet rs = s.executeQuery("SELECT id, body, tags, meta, at, \"any\", score, note FROM doc")) {
        assertTrue(rs.next());
        assertArrayEquals(bytes(ID), rs.getBytes(1), "a Uuid is the store's UUID, 16 bytes in SQL");
        assertArrayEquals(new byte[] {1, 2}, rs.getBytes(2), "Bytes are VARBINARY");
        assertEquals("[\"a\",\"b\"]", rs.getString(3), "a list is JSON text");
        assertEquals("[1,2.5]", rs.getString(4), "a Json value is its document's text");
        assertEquals("{\"$validity\":[1700000000000000,true]}", rs.getString(5));
        assertEquals("2.0", rs.getString(6), "Any keeps a Float a Float");
        assertEquals(0.5, rs.getDouble(7), "the default filled the omitted column");
        assertNull(rs.getObject(8));
        assertFalse(rs.next());
      }
      // SQL filters on the stored forms, and writes rows that Datalog reads back
      assertEquals(List.of(row(0.5)), Rows.query(sql,
          "SELECT score FROM doc WHERE meta = '[1,2.5]' AND body = X'0102'"));
      Rows.update(sql, "INSERT INTO doc VALUES (X'00000000000000000000000000000001', X'FF',"
          + " '[]', '{\"k\":true}', '{\"$validity\":[5,false]}', '\"x\"', 1.5, 'n')");
      final List<List<Object>> rows = query(datalog, "?[id, body, tags, meta, at, any, score, note]"
          + " := *doc{id, body, tags, meta, at, any, score, note}");
      assertEquals(2, rows.size());
      // CozoDB's order of Uuids: time-high first, so ...0001 (time-high 0) before a0eebc99-9c0b-4ef8-...
      assertEquals(UUID.fromString("00000000-0000-0000-0000-000000000001"), rows.get(0).get(0));
      assertArrayEquals(new byte[] {(byte) 0xff}, (byte[]) rows.get(0).get(1));
      assertEquals(List.of(), rows.get(0).get(2));
      assertEquals("{\"k\":true}", rows.get(0).get(3));
      assertEquals(List.of(5L, false), rows.get(0).get(4));
      assertEquals("x", rows.get(0).get(5));
      assertEquals(List.of(ID, List.of("a", "b"), "[1,2.5]", List.of(1700000000000000L, true),
          2.0, 0.5), List.of(rows.get(1).get(0), rows.get(1).get(2), rows.get(1).get(3),
          rows.get(1).get(4), rows.get(1).get(5), rows.get(1).get(6)));
      assertEquals(List.of(row("doc", "any", "cozo: Any?"), row("doc", "tags", "cozo: [String]"),
          row("doc", "score", "cozo: Float default 0.5")), remarks(sql, "any", "tags", "score"));
    }
  }

  @Test void sqlTableIsWrittenByDatalog() throws SQLException {
    final String db = "mem:types-" + UUID.randomUUID();
    try (Connection sql = DriverManager.getConnection("jdbc:mnestic:db=" + db);
         Connection datalog = DriverManager.getConnection("jdbc:mnestic:db=" + db + ";lang=datalog")) {
      Rows.update(sql, "CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL,"
          + " data VARBINARY(8), price DECIMAL(10, 2) DEFAULT 1.50)");
      // Int takes an integral Float; Bytes take base64; price is left to SQL's default
      run(datalog, "?[id, name, data] <- [[1, 'a', 'AQI='], [2.0, 'b', null]] :put item {id, name, data}");
      run(datalog, "?[id, name] <- [[2, 'B']] :update item {id => name}");
      assertEquals(List.of(row(1, "a", "0102", new BigDecimal("1.50")),
          row(2, "B", null, new BigDecimal("1.50"))),
          Rows.query(sql, "SELECT id, name, LOWER(CAST(data AS VARCHAR(16))), price FROM item ORDER BY id"));
      assertEquals(List.of(List.of("id", true, 0L, "Int", false), List.of("name", false, 1L, "String", false),
          List.of("data", false, 2L, "Bytes?", true), List.of("price", false, 3L, "Float?", true)),
          query(datalog, "::columns item"));
      // a nullable column of a SQL table defaults to null; a type error in the
      // last row leaves the table as it was
      final SQLException e = assertThrows(SQLException.class, () -> run(datalog,
          "?[id, name] <- [[3, 'c'], [4, 'd'], [5, 6]] :put item {id, name}"));
      assertTrue(e.getMessage().contains("eval::coercion_failed"), e.getMessage());
      assertEquals(List.of(row(1), row(2)), Rows.query(sql, "SELECT id FROM item ORDER BY id"));
      // an :update of a key that is not there changes nothing either
      assertThrows(SQLException.class, () -> run(datalog,
          "?[id, name] <- [[1, 'x'], [9, 'y']] :update item {id => name}"));
      assertEquals(List.of(row("a"), row("B")), Rows.query(sql, "SELECT name FROM item ORDER BY id"));
    }
  }

  private static void run(Connection datalog, String script) throws SQLException {
    try (Statement s = datalog.createStatement()) {
      s.executeQuery(script).close();
    }
  }

  private static List<List<Object>> query(Connection datalog, String script) throws SQLException {
    final List<List<Object>> rows = new ArrayList<>();
    try (Statement s = datalog.createStatement(); ResultSet rs = s.executeQuery(script)) {
      while (rs.next()) {
        final List<Object> row = new ArrayList<>();
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          row.add(rs.getObject(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** The REMARKS of the given columns of {@code doc}, as SQL tools see them. */
  private static List<List<Object>> remarks(Connection sql, String... columns) throws SQLException {
    final List<List<Object>> rows = new ArrayList<>();
    final DatabaseMetaData md = sql.getMetaData();
    for (String column : columns) {
      try (ResultSet rs = md.getColumns(null, null, "doc", column)) {
        assertTrue(rs.next(), column);
        rows.add(row(rs.getString("TABLE_NAME"), rs.getString("COLUMN_NAME"),
            rs.getString("REMARKS")));
      }
    }
    return rows;
  }

  private static byte[] bytes(UUID u) {
    return ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
        .putLong(u.getLeastSignificantBits()).array();
  }
}
