package dev.mnestic.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

import static dev.mnestic.jdbc.Rows.query;
import static dev.mnestic.jdbc.Rows.row;
import static dev.mnestic.jdbc.Rows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CozoScript's {@code ::access_level} and {@code ::set_triggers} as every writer of the store
 * meets them: SQL's writes and DDL obey the access level (SQLSTATE 42501); a trigger that fails
 * leaves the store as it was; levels and triggers outlive the connection and the store's
 * reopening. SQL writes firing triggers: {@link SqlTriggersTest}.
 */
class TriggersAccessLevelsJdbcTest {
  private static String memory() {
    return "jdbc:mnestic:db=mem:triggers-" + UUID.randomUUID();
  }

  private static void assertState(String state, SqlCall call) {
    final SQLException e = assertThrows(SQLException.class, call::run);
    assertEquals(state, e.getSQLState(), e.getMessage());
  }

  @FunctionalInterface
  private interface SqlCall {
    void run() throws SQLException;
  }

  @Test void sqlWritesObeyTheAccessLevel() throws SQLException {
    final String url = memory();
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
      query(datalog, ":create r {k: Int => v: String}");
      query(datalog, "?[k, v] <- [[1, 'a']] :put r {k => v}");
      query(datalog, "::access_level read_only r");
      assertState("42501", () -> update(sql, "INSERT INTO r VALUES (2, 'b')"));
      assertState("42501", () -> update(sql, "UPDATE r SET v = 'z' WHERE k = 1"));
      assertState("42501", () -> update(sql, "DELETE FROM r"));
      assertState("42501", () -> update(sql, "MERGE INTO r t USING (VALUES (1, 'm')) AS s (k, v)"
          + " ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v"));
      final SQLException e = assertThrows(SQLException.class,
          () -> update(sql, "INSERT INTO r VALUES (2, 'b')"));
      assertTrue(e.getMessage().contains(
          "Insufficient access level read_only for row insertion on stored relation 'r'"),
          e.getMessage());
      assertEquals(List.of(row(1L, "a")), query(sql, "SELECT k, v FROM r"));

      query(datalog, "::access_level protected r");
      assertEquals(1, update(sql, "INSERT INTO r VALUES (2, 'b')"));
      assertEquals(1, update(sql, "DELETE FROM r WHERE k = 1"));
      assertState("42501", () -> update(sql, "DROP TABLE r"));
      assertState("42501", () -> update(sql, "CREATE OR REPLACE TABLE r (x INT PRIMARY KEY)"));
      assertEquals(List.of(row(2L, "b")), query(sql, "SELECT k, v FROM r"));

      query(datalog, "::access_level normal r");
      update(sql, "DROP TABLE r");
      assertState("42S02", () -> query(datalog, "?[k] := *r[k, _]"));
    }
  }

  @Test void aFailingTriggerLeavesTheStoreAsItWas() throws SQLException {
    try (Connection datalog = DriverManager.getConnection(memory() + ";lang=datalog")) {
      query(datalog, ":create a {k: Int}");
      query(datalog, ":create log {k: Int}");
      query(datalog, ":create required {k: Int}");
      // the first trigger writes, the second fails: neither the write nor the first stays
      query(datalog, """
          ::set_triggers a
          on put { ?[k] := _new[k] :put log {k} }
          on put { ?[k] := _new[k] :ensure required {k} }""");
      final SQLException e = assertThrows(SQLException.class,
          () -> query(datalog, "?[k] <- [[1]] :put a {k}"));
      assertTrue(e.getMessage().contains("transact::assertion_failure"), e.getMessage());
      assertTrue(e.getMessage().contains("in the put trigger of a at its 1:17"), e.getMessage());
      assertEquals(List.of(), query(datalog, "?[k] := *a[k]"));
      assertEquals(List.of(), query(datalog, "?[k] := *log[k]"));
      // the blocks before it in the same script are taken back too
      assertThrows(SQLException.class, () -> query(datalog,
          "{?[k] <- [[5]] :put log {k}} {?[k] <- [[1]] :put a {k}}"));
      assertEquals(List.of(), query(datalog, "?[k] := *log[k]"));
      query(datalog, "?[k] <- [[1]] :put required {k}");
      query(datalog, "?[k] <- [[1]] :put a {k}");
      assertEquals(List.of(row(1L)), query(datalog, "?[k] := *log[k]"));
    }
  }

  @Test void levelsAndTriggersOutliveTheStoresReopening(@TempDir Path dir) throws SQLException {
    final String url = "jdbc:mnestic:db=" + dir.resolve("store") + ";lang=datalog";
    try (Connection datalog = DriverManager.getConnection(url)) {
      query(datalog, ":create r {k: Int => v: String}");
      query(datalog, ":create mirror {v: String => k: Int}");
      query(datalog, "::set_triggers r on put { ?[v, k] := _new[k, v] :put mirror {v => k} }");
      query(datalog, "::rename mirror -> by_value");
      query(datalog, "::access_level protected r, by_value");
    }
    try (Connection datalog = DriverManager.getConnection(url)) {
      assertEquals(List.of(row("by_value", 2L, "protected", 1L, 1L, 0L, 0L, 0L, ""),
          row("r", 2L, "protected", 1L, 1L, 1L, 0L, 0L, "")), query(datalog, "::relations"));
      final SQLException e = assertThrows(SQLException.class,
          () -> query(datalog, "?[k, v] <- [[1, 'a']] :put r {k => v}"));
      assertTrue(e.getMessage().contains("relation 'mirror'"), e.getMessage());
      query(datalog, "::set_triggers r on put { ?[v, k] := _new[k, v] :put by_value {v => k} }");
      query(datalog, "?[k, v] <- [[1, 'a']] :put r {k => v}");
      assertEquals(List.of(row("a", 1L)), query(datalog, "?[v, k] := *by_value[v, k]"));
      assertState("42501", () -> query(datalog, "::remove r"));
    }
  }
}
