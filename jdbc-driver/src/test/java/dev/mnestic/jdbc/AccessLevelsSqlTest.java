package dev.mnestic.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.mnestic.jdbc.Rows.query;
import static dev.mnestic.jdbc.Rows.row;
import static dev.mnestic.jdbc.Rows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each of CozoDB's access levels against each kind of SQL statement, as CozoDB's levels order
 * them ({@code cozo-core/src/query/stored.rs}, {@code runtime/relation.rs}: hidden < read_only <
 * protected < normal; reading needs read_only, writing rows protected, removing or replacing the
 * relation normal): a statement below its level fails with SQLSTATE 42501 and CozoDB's message
 * naming the relation and its level, and leaves the relation as it was; one at or above it runs.
 * JDBC's metadata shows a hidden relation as CozoDB's {@code ::relations} and
 * {@code ::columns} do (its name, columns and types), never its rows.
 */
class AccessLevelsSqlTest {
  private static final List<String> LEVELS = List.of("hidden", "read_only", "protected",
      "normal");

  /** Each statement kind and the least level that allows it (CozoDB's rule for its kind). */
  private static final Map<String, String> STATEMENTS = Map.ofEntries(
      Map.entry("SELECT k, v FROM r", "read_only"),
      Map.entry("SELECT v FROM r WHERE k = 1", "read_only"),
      Map.entry("SELECT COUNT(*) FROM (SELECT k FROM r) AS t", "read_only"),
      Map.entry("EXPLAIN PLAN FOR SELECT * FROM r", "read_only"),
      Map.entry("INSERT INTO r VALUES (9, 'n')", "protected"),
      Map.entry("UPDATE r SET v = 'u' WHERE k = 1", "protected"),
      Map.entry("DELETE FROM r WHERE k = 2", "protected"),
      Map.entry("MERGE INTO r USING (VALUES (1, 'm'), (8, 'm')) AS s (k, v) ON r.k = s.k"
          + " WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (k, v)"
          + " VALUES (s.k, s.v)", "protected"),
      Map.entry("CREATE OR REPLACE TABLE r (x INT PRIMARY KEY)", "normal"),
      Map.entry("DROP TABLE r", "normal"));

  private static String memory() {
    return "jdbc:mnestic:db=mem:levels-" + UUID.randomUUID();
  }

  private static boolean allows(String level, String needed) {
    return LEVELS.indexOf(level) >= LEVELS.indexOf(needed);
  }

  /** The relation's rows, read as the store holds them (any level: through CozoScript's own). */
  private static List<List<Object>> rows(Connection datalog, String level) throws SQLException {
    query(datalog, "::access_level normal r");
    final List<List<Object>> rows = query(datalog, "?[k, v] := *r[k, v] :order k");
    query(datalog, "::access_level " + level + " r");
    return rows;
  }

  @Test void eachLevelAgainstEachSqlStatement() throws SQLException {
    int refused = 0;
    int ran = 0;
    for (String level : LEVELS) {
      for (Map.Entry<String, String> statement : STATEMENTS.entrySet()) {
        final String url = memory();
        try (Connection sql = DriverManager.getConnection(url);
             Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
          query(datalog, ":create r {k: Int => v: String}");
          query(datalog, "?[k, v] <- [[1, 'a'], [2, 'b']] :put r {k => v}");
          query(datalog, "::access_level " + level + " r");
          final String text = statement.getKey();
          if (allows(level, statement.getValue())) {
            if (text.startsWith("SELECT") || text.startsWith("EXPLAIN")) {
              assertFalse(query(sql, text).isEmpty(), text);
            } else {
              update(sql, text);
            }
            ran++;
            continue;
          }
          final List<List<Object>> before = rows(datalog, level);
          final SQLException e = assertThrows(SQLException.class, () -> {
            if (text.startsWith("SELECT") || text.startsWith("EXPLAIN")) {
              query(sql, text);
            } else {
              update(sql, text);
            }
          }, level + ": " + text);
          assertEquals("42501", e.getSQLState(), level + ": " + text + ": " + e.getMessage());
          assertTrue(e.getMessage().contains("Insufficient access level " + level + " for ")
              && e.getMessage().contains(" on stored relation 'r'"), e.getMessage());
          assertEquals(before, rows(datalog, level), level + ": " + text);
          refused++;
        }
      }
    }
    // every level refuses what is above it: 4 statements need read_only, 4 protected, 2 normal
    assertEquals(4 * 1 + 4 * 2 + 2 * 3, refused);
    assertEquals(LEVELS.size() * STATEMENTS.size() - refused, ran);
  }

  @Test void statementsSqlDoesNotRunCannotGetPastALevel() throws SQLException {
    final String url = memory();
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
      query(datalog, ":create r {k: Int => v: String}");
      query(datalog, "?[k, v] <- [[1, 'a']] :put r {k => v}");
      query(datalog, "::access_level read_only r");
      for (String text : List.of("ALTER TABLE r ADD COLUMN w INT", "ALTER TABLE r DROP COLUMN v",
          "TRUNCATE TABLE r", "ALTER TABLE r RENAME TO s")) {
        final SQLException e = assertThrows(SQLException.class, () -> update(sql, text), text);
        assertNotEquals("42501", e.getSQLState(), text + ": " + e.getMessage());
      }
      query(datalog, "::access_level normal r");
      assertEquals(List.of(row(1L, "a")), query(sql, "SELECT k, v FROM r"));
    }
  }

  @Test void aPreparedReadOfARelationHiddenSinceFails() throws SQLException {
    final String url = memory();
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
      query(datalog, ":create r {k: Int => v: String}");
      query(datalog, "?[k, v] <- [[1, 'a']] :put r {k => v}");
      assertEquals(List.of(row(1L, "a")), query(sql, "SELECT k, v FROM r"));
      try (PreparedStatement scan = sql.prepareStatement("SELECT k, v FROM r");
           PreparedStatement lookup = sql.prepareStatement("SELECT v FROM r WHERE k = ?")) {
        lookup.setLong(1, 1);
        query(datalog, "::access_level hidden r");
        // the text planned before (its plan cached) is refused where it runs
        assertEquals("42501", assertThrows(SQLException.class,
            () -> query(sql, "SELECT k, v FROM r")).getSQLState());
        for (PreparedStatement p : List.of(scan, lookup)) {
          final SQLException e = assertThrows(SQLException.class, () -> {
            try (ResultSet rs = p.executeQuery()) {
              rs.next();
            }
          });
          assertEquals("42501", e.getSQLState(), e.getMessage());
        }
      }
    }
  }

  @Test void metadataShowsAHiddenRelationAsCozoDbsRelationsAndColumnsDo() throws SQLException {
    final String url = memory();
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
      query(datalog, ":create r {k: Int, s: String => v: Float default 1.5, w: Bytes? default null}");
      query(datalog, "?[k, s] <- [[1, 'x'], [2, 'y']] :put r {k, s}");
      query(datalog, "::access_level hidden r");
      final List<List<Object>> relations = query(datalog, "::relations");
      assertEquals("[r, 4, hidden]", relations.get(0).subList(0, 3).toString());
      final DatabaseMetaData md = sql.getMetaData();
      final List<String> tables = new ArrayList<>();
      try (ResultSet rs = md.getTables(null, "PUBLIC", "%", null)) {
        while (rs.next()) {
          tables.add(rs.getString("TABLE_NAME"));
          assertNull(rs.getString("REMARKS"));
        }
      }
      assertEquals(List.of("r"), tables);
      final List<List<Object>> columns = new ArrayList<>();
      try (ResultSet rs = md.getColumns(null, "PUBLIC", "r", "%")) {
        while (rs.next()) {
          columns.add(List.of(rs.getString("COLUMN_NAME"), rs.getInt("ORDINAL_POSITION") - 1L));
        }
      }
      final List<List<Object>> cozoColumns = new ArrayList<>();
      for (List<Object> c : query(datalog, "::columns r")) {
        cozoColumns.add(List.of(c.get(0), c.get(2)));
      }
      assertEquals(cozoColumns.toString(), columns.toString());
      // no row counts: JDBC's index statistics give none
      try (ResultSet rs = md.getIndexInfo(null, "PUBLIC", "r", false, false)) {
        while (rs.next()) {
          assertEquals(0L, rs.getLong("CARDINALITY"), "CARDINALITY");
          assertEquals(0L, rs.getLong("PAGES"), "PAGES");
        }
      }
    }
  }
}
