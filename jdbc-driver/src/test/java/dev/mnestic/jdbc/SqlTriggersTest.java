package dev.mnestic.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;

import static dev.mnestic.jdbc.Rows.query;
import static dev.mnestic.jdbc.Rows.row;
import static dev.mnestic.jdbc.Rows.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SQL writes fire a relation's CozoScript triggers as CozoScript's writes of the same rows do:
 * random operations run once as CozoScript on relation {@code a} and once as SQL on its copy
 * {@code b}, both with the same triggers (logging {@code _new} and {@code _old} into other
 * relations, and one that fails on a value), and after each the two relations, their logs and
 * the outcome (written, or failed with the trigger's error) must be the same, and {@code a} as
 * the test's own model of the operations says.
 */
class SqlTriggersTest {
  private static String memory() {
    return "jdbc:mnestic:db=mem:sql-triggers-" + UUID.randomUUID();
  }

  /** The logs each relation's triggers write. */
  private static final List<String> LOGS = List.of("puts", "replaced", "rms", "removed", "never");

  /** Makes relation {@code x}, its logs and its triggers. */
  private static void setUp(Connection datalog, String x) throws SQLException {
    query(datalog, ":create " + x + " {k: Int => v: String}");
    query(datalog, ":create " + x + "_puts {k: Int, v: String}");
    query(datalog, ":create " + x + "_replaced {k: Int, v: String}");
    query(datalog, ":create " + x + "_rms {k: Int}");
    query(datalog, ":create " + x + "_removed {k: Int, v: String}");
    query(datalog, ":create " + x + "_never {k: Int}");
    query(datalog, "::set_triggers " + x + "\n"
        + "on put { ?[k, v] := _new[k, v] :put " + x + "_puts {k, v} }\n"
        + "on put { ?[k, v] := _old[k, v] :put " + x + "_replaced {k, v} }\n"
        + "on put { ?[k, v] := _new[k, v], v == 'boom' :ensure_not " + x + " {k => v} }\n"
        + "on rm { ?[k] := _new[k] :put " + x + "_rms {k} }\n"
        + "on rm { ?[k, v] := _old[k, v] :put " + x + "_removed {k, v} }");
    // a trigger's writes fire no triggers: this one never runs
    query(datalog, "::set_triggers " + x + "_rms on put { ?[k] := _new[k] :put " + x
        + "_never {k} }");
  }

  /** Relation {@code x} and its logs, as SQL reads them (the same texts: plans cached). */
  private static List<List<List<Object>>> state(Connection sql, String x) throws SQLException {
    final List<List<List<Object>>> out = new ArrayList<>();
    out.add(query(sql, "SELECT k, v FROM " + x + " ORDER BY k"));
    for (String log : LOGS) {
      out.add(query(sql, "SELECT * FROM " + x + "_" + log + " ORDER BY 1"
          + (log.equals("rms") || log.equals("never") ? "" : ", 2")));
    }
    return out;
  }

  private static String values(Map<Long, String> rows) {
    return rows.entrySet().stream().map(e -> "(" + e.getKey() + ", '" + e.getValue() + "')")
        .collect(Collectors.joining(", "));
  }

  private static String cozoRows(Map<Long, String> rows) {
    return "[" + rows.entrySet().stream().map(e -> "[" + e.getKey() + ", '" + e.getValue() + "']")
        .collect(Collectors.joining(", ")) + "]";
  }

  private static String keys(TreeSet<Long> keys) {
    return keys.stream().map(String::valueOf).collect(Collectors.joining(", "));
  }

  /** Runs {@code call}; returns its failure's message, or null. */
  private static String outcome(SqlCall call) {
    try {
      call.run();
      return null;
    } catch (SQLException e) {
      return e.getSQLState() + " " + e.getMessage();
    }
  }

  @FunctionalInterface
  private interface SqlCall {
    void run() throws SQLException;
  }

  @Test void sqlWritesEndAsCozoScriptWritesOfTheSameRows() throws SQLException {
    final String url = memory();
    final Random random = new Random(17);
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
      setUp(datalog, "a");
      setUp(datalog, "b");
      final TreeMap<Long, String> model = new TreeMap<>();
      int failures = 0;
      for (int step = 0; step < 30; step++) {
        final String[] words = {"x", "y", "z", "boom"};
        final TreeMap<Long, String> rows = new TreeMap<>();
        final int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
          rows.put((long) random.nextInt(12), words[random.nextInt(10) == 0 ? 3 : random.nextInt(3)]);
        }
        final TreeSet<Long> present = new TreeSet<>(model.keySet());
        final TreeSet<Long> existing = new TreeSet<>(rows.keySet());
        existing.retainAll(present);
        final String cozo;
        final SqlCall sqlWrite;
        final TreeMap<Long, String> next = new TreeMap<>(model);
        switch (random.nextInt(5)) {
        case 0 -> { // put: MERGE, an upsert
          cozo = "?[k, v] <- " + cozoRows(rows) + " :put a {k => v}";
          sqlWrite = () -> update(sql, "MERGE INTO b USING (VALUES " + values(rows)
              + ") AS s (k, v) ON b.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v"
              + " WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k, s.v)");
          next.putAll(rows);
        }
        case 1 -> { // insert of new keys
          rows.keySet().removeAll(present);
          if (rows.isEmpty()) {
            continue;
          }
          cozo = "?[k, v] <- " + cozoRows(rows) + " :insert a {k => v}";
          sqlWrite = () -> update(sql, "INSERT INTO b VALUES " + values(rows));
          next.putAll(rows);
        }
        case 2 -> { // update of existing keys
          rows.keySet().retainAll(present);
          if (rows.isEmpty()) {
            continue;
          }
          final String v = rows.firstEntry().getValue();
          rows.replaceAll((k, old) -> v);
          cozo = "?[k, v] <- " + cozoRows(rows) + " :update a {k => v}";
          sqlWrite = () -> update(sql, "UPDATE b SET v = '" + v + "' WHERE k IN ("
              + keys(new TreeSet<>(rows.keySet())) + ")");
          next.putAll(rows);
        }
        case 3 -> { // removal of existing keys
          if (existing.isEmpty()) {
            continue;
          }
          cozo = "?[k] <- [" + existing.stream().map(k -> "[" + k + "]")
              .collect(Collectors.joining(", ")) + "] :rm a {k}";
          sqlWrite = () -> update(sql, "DELETE FROM b WHERE k IN (" + keys(existing) + ")");
          next.keySet().removeAll(existing);
        }
        default -> { // an update of the key: an rm of the old key, then a put of the new row
          if (present.isEmpty()) {
            continue;
          }
          final long from = present.first();
          final long to = 100 + random.nextInt(1000);
          if (present.contains(to)) {
            continue;
          }
          cozo = "{?[k] <- [[" + from + "]] :rm a {k}}\n{?[k, v] <- [[" + to + ", '"
              + model.get(from) + "']] :put a {k => v}}";
          sqlWrite = () -> update(sql, "UPDATE b SET k = " + to + " WHERE k = " + from);
          next.put(to, next.remove(from));
        }
        }
        final List<List<List<Object>>> before = state(sql, "b");
        final String cozoFailure = outcome(() -> query(datalog, cozo));
        final String sqlFailure = outcome(sqlWrite);
        assertEquals(cozoFailure == null, sqlFailure == null, cozo + "\n" + cozoFailure + "\n"
            + sqlFailure);
        if (sqlFailure != null) {
          failures++;
          // the trigger's error, and nothing of the statement or of the triggers stays
          assertTrue(sqlFailure.startsWith("23000 ") && sqlFailure.contains(
              "transact::assertion_failure") && sqlFailure.contains("in the put trigger of b"),
              sqlFailure);
          assertEquals(before, state(sql, "b"));
        } else {
          model.clear();
          model.putAll(next);
        }
        final List<List<List<Object>>> a = state(sql, "a");
        assertEquals(a, state(sql, "b"), cozo);
        assertEquals(model.entrySet().stream().map(e -> row(e.getKey(), e.getValue())).toList(),
            a.get(0));
      }
      assertTrue(failures > 0, "no failing trigger met");
      assertEquals(List.of(), query(datalog, "?[k] := *b_never[k]"));
      assertTrue(!query(datalog, "?[k] := *b_rms[k]").isEmpty());
      assertTrue(!query(datalog, "?[k, v] := *b_replaced[k, v]").isEmpty());
    }
  }

  @Test void aTriggerRunsInTheStatementsTransaction() throws SQLException {
    final String url = memory();
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
      setUp(datalog, "b");
      sql.setAutoCommit(false);
      update(sql, "INSERT INTO b VALUES (1, 'x')");
      // the trigger's write is in the open transaction: this connection sees it, others not
      assertEquals(List.of(row(1L, "x")), query(sql, "SELECT k, v FROM b_puts"));
      assertEquals(List.of(), query(datalog, "?[k, v] := *b_puts[k, v]"));
      sql.rollback();
      assertEquals(List.of(), query(sql, "SELECT k, v FROM b_puts"));
      // a failing statement inside a transaction takes back its own writes and its
      // triggers', not the transaction's earlier ones
      update(sql, "INSERT INTO b VALUES (2, 'y')");
      final SQLException e = assertThrows(SQLException.class,
          () -> update(sql, "INSERT INTO b VALUES (3, 'boom')"));
      assertEquals("23000", e.getSQLState(), e.getMessage());
      sql.commit();
      assertEquals(List.of(row(2L, "y")), query(datalog, "?[k, v] := *b[k, v]"));
      assertEquals(List.of(row(2L, "y")), query(datalog, "?[k, v] := *b_puts[k, v]"));
      sql.setAutoCommit(true);
      // a batch of a prepared INSERT: each execution a statement, each firing the triggers
      try (PreparedStatement insert = sql.prepareStatement("INSERT INTO b VALUES (?, ?)")) {
        for (long k = 10; k < 13; k++) {
          insert.setLong(1, k);
          insert.setString(2, "p");
          insert.addBatch();
        }
        insert.executeBatch();
      }
      assertEquals(List.of(row(2L, "y"), row(10L, "p"), row(11L, "p"), row(12L, "p")),
          query(datalog, "?[k, v] := *b_puts[k, v] :order k"));
    }
  }

  @Test void replaceTriggersAreNotSkippedByCreateOrReplace() throws SQLException {
    final String url = memory();
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
      query(datalog, ":create r {k: Int}");
      query(datalog, ":create replaced {k: Int}");
      query(datalog, "?[k] <- [[1]] :put r {k}");
      query(datalog, "::set_triggers r on replace { ?[k] <- [[7]] :put replaced {k} }");
      final SQLException e = assertThrows(SQLException.class,
          () -> update(sql, "CREATE OR REPLACE TABLE r (x INT PRIMARY KEY)"));
      assertEquals("0A000", e.getSQLState(), e.getMessage());
      assertEquals(List.of(row(1L)), query(sql, "SELECT k FROM r"));
      // CozoScript's :replace runs them
      query(datalog, "?[k] <- [[2]] :replace r {k}");
      assertEquals(List.of(row(7L)), query(sql, "SELECT k FROM replaced"));
      assertEquals(List.of(row(2L)), query(datalog, "?[k] := *r[k]"));
    }
  }

  /**
   * A table made by SQL without a primary key is, as a relation, keyed by its whole row: an SQL
   * INSERT of a row already stored is a put that replaces it, its {@code _old} that row, as
   * CozoScript's put of the row (SQL still keeps the second copy, a table without key being a
   * bag); a DELETE is an rm of the whole rows. Random writes of a few rows, once each way.
   */
  @Test void aTableWithoutPrimaryKeyIsKeyedByItsWholeRow() throws SQLException {
    final String url = memory();
    final Random random = new Random(5);
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog")) {
      for (String x : List.of("a", "b")) {
        update(sql, "CREATE TABLE " + x + " (k INT, v VARCHAR(10))");
        query(datalog, ":create " + x + "_puts {k: Int, v: String}");
        query(datalog, ":create " + x + "_replaced {k: Int, v: String}");
        query(datalog, ":create " + x + "_removed {k: Int, v: String}");
        query(datalog, "::set_triggers " + x + "\n"
            + "on put { ?[k, v] := _new[k, v] :put " + x + "_puts {k, v} }\n"
            + "on put { ?[k, v] := _old[k, v] :put " + x + "_replaced {k, v} }\n"
            + "on rm { ?[k, v] := _old[k, v] :put " + x + "_removed {k, v} }");
      }
      int replaced = 0;
      for (int step = 0; step < 40; step++) {
        final long k = random.nextInt(3);
        final String v = random.nextBoolean() ? "x" : "y";
        if (random.nextInt(4) > 0) {
          query(datalog, "?[k, v] <- [[" + k + ", '" + v + "']] :put a {k, v}");
          update(sql, "INSERT INTO b VALUES (" + k + ", '" + v + "')");
        } else {
          query(datalog, "?[k, v] := *a[k, v], k = " + k + " :rm a {k, v}");
          update(sql, "DELETE FROM b WHERE k = " + k);
        }
        for (String log : List.of("", "_puts", "_replaced", "_removed")) {
          assertEquals(query(datalog, "?[k, v] := *a" + log + "[k, v]"),
              query(datalog, "?[k, v] := *b" + log + "[k, v]"), "step " + step + ": " + log);
        }
        replaced = query(datalog, "?[k, v] := *a_replaced[k, v]").size();
      }
      assertTrue(replaced > 0, "no row put twice");
    }
  }

  /**
   * A put trigger whose recursion never settles (each round derives its one new row a thousand
   * times over), with a log of its own.
   */
  private static void setUpRunaway(Connection datalog) throws SQLException {
    query(datalog, ":create r {k: Int => v: String}");
    query(datalog, ":create r_log {n: Int}");
    query(datalog, ":create r_first {k: Int}");
    query(datalog, "::set_triggers r\n"
        + "on put { ?[k] := _new[k, _] :put r_first {k} }\n"
        + "on put { p[n] := n = 0\n p[m] := p[n], j in int_range(1000), m = n + 1\n"
        + " ?[n] := p[n], n < 0 :put r_log {n} }");
  }

  /** What the runaway's relation and logs hold, as SQL reads them. */
  private static List<List<List<Object>>> runawayState(Connection sql) throws SQLException {
    return List.of(query(sql, "SELECT k, v FROM r ORDER BY k"),
        query(sql, "SELECT n FROM r_log"), query(sql, "SELECT k FROM r_first ORDER BY k"));
  }

  /**
   * An SQL statement's query timeout, or its cancel from another thread, stops a trigger it
   * fired while the trigger runs (its script sees the statement's stop as a {@code ::kill}),
   * with the stop's SQLSTATE; nothing of the statement nor of its triggers (the one that ran
   * before, here) stays, and the connection then writes again.
   */
  @Test void aStatementsTimeoutOrCancelStopsItsRunningTrigger() throws Exception {
    final String url = memory();
    try (Connection sql = DriverManager.getConnection(url);
         Connection datalog = DriverManager.getConnection(url + ";lang=datalog");
         java.sql.Statement s = sql.createStatement()) {
      setUpRunaway(datalog);
      update(sql, "INSERT INTO r_first VALUES (0)");
      final List<List<List<Object>>> before = runawayState(sql);
      s.setQueryTimeout(1);
      final long start = System.nanoTime();
      final SQLException timeout = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO r VALUES (1, 'x')"));
      assertEquals("HYT00", timeout.getSQLState(), timeout.getMessage());
      assertTrue((System.nanoTime() - start) / 1e9 < 30, "the trigger was not stopped");
      assertEquals(before, runawayState(sql));
      s.setQueryTimeout(0);
      final java.util.concurrent.CompletableFuture<Void> canceller =
          java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
              Thread.sleep(500);
              s.cancel();
            } catch (InterruptedException | SQLException e) {
              throw new IllegalStateException(e);
            }
          });
      final SQLException cancel = assertThrows(SQLException.class,
          () -> s.executeUpdate("INSERT INTO r VALUES (2, 'y')"));
      canceller.get();
      assertEquals("57014", cancel.getSQLState(), cancel.getMessage());
      assertEquals(before, runawayState(sql));
      // the triggers run again for the next statement: the log trigger is dropped first
      query(datalog, "::set_triggers r on put { ?[k] := _new[k, _] :put r_first {k} }");
      assertEquals(1, s.executeUpdate("INSERT INTO r VALUES (3, 'z')"));
      assertEquals(List.of(row(0L), row(3L)), query(sql, "SELECT k FROM r_first ORDER BY k"));
    }
  }
}
