package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.store.Session;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Test case for issue 13, point 3: a script that fails leaves every relation exactly as it
 * was. Every kind of write runs in a block before a block that fails (at parse time, at run
 * time, at its {@code :timeout}), and a checksum of the whole store (its table list, each
 * table's columns with their types and comments, and each table's rows) is the same before
 * and after; the same writes without the failing block change it, so the checksum sees them.
 */
class FailedScriptTest {
  private QueryConformanceTest.Store store;
  private Session session;
  private Engine engine;

  /** The writes, one block each, against {@code r {k: Int => v: Int}} and {@code s {a => b}}. */
  private static final List<String> WRITES = List.of(
      "{:create n {x: Int => y: String}}",
      "{?[x, y] <- [[1, 'a'], [2, 'b']] :create n {x: Int => y: String}}",
      "{?[k, v] <- [[1, 1], [2, 2]] :replace r {k: Int => v: Int}}",
      "{?[k, v, z] <- [[1, 1, 'z']] :replace r {k: Int => v: Int, z: String}}",
      "{?[k] <- [[7]] :replace r {k}}",
      "{?[a, b] <- [[1, 2]] :replace s {a, b}}",
      "{?[k, v] <- [[5000, 1], [3, 33]] :put r {k => v}}",
      "{?[k, v] <- [[5001, 1]] :insert r {k => v}}",
      "{?[k, v] <- [[4, 44]] :update r {k => v}}",
      "{?[k] <- [[5], [6000]] :rm r {k}}",
      "{?[k] <- [[6]] :delete r {k}}",
      "{?[a, b] := *r[a, b], a < 10 :put s {a => b}}",
      "{?[k, v] <- [[1, 1]] :replace r {k: Int => v: Int}}"
          + " {?[k, v, z] <- [[1, 1, 'z']] :replace r {k: Int => v: Int, z: String}}"
          + " {?[k, v, z] := *r[k, v, z] :create n {k, v, z}}",
      "{:create n {x: Int}} {?[x] <- [[1]] :put n {x}} {?[x] := *n[x] :replace n {x: Int => y: Int default 3}}"
          + " {?[x] <- [[2]] :put n {x}}",
      "{?[k, v] <- [[1, 1]] :replace r {k: Int => v: Int}} {?[k] <- [[1]] :rm r {k}}"
          + " {?[k, v] <- [[2, 2]] :put r {k => v}}");

  /** Blocks that fail, each after the writes. */
  private static final List<String> FAILURES = List.of(
      "{?[x] <- [[1]] :assert none}",
      "{?[x] := *no_such[x]}",
      "{?[k, v] <- [[1, 'text']] :put r {k => v}}",
      "{?[k] <- [[1]] :insert r {k, v: 1}}",
      "{nat[n] := n = 0\n nat[m] := nat[n], m = n + 1\n ?[n] := nat[n] :timeout 1}");

  @BeforeEach void open() throws SQLException {
    store = new QueryConformanceTest.Store();
    session = store.session();
    engine = store.engine();
    run("?[k, v] := k in int_range(1000), v = k * 10 :create r {k: Int => v: Int}");
    run("?[a, b] <- [[1, 'one'], [2, [2]]] :create s {a => b}");
  }

  @AfterEach void close() throws SQLException {
    store.close();
  }

  @Test void everyWriteThenARunTimeFailureLeavesTheStore() throws SQLException {
    int failed = 0;
    for (String write : WRITES) {
      for (String failure : FAILURES) {
        final String before = checksum();
        final String script = write + "\n" + failure;
        assertThrows(DatalogException.class, () -> run(script), script);
        assertEquals(before, checksum(), script);
        failed++;
      }
    }
    assertEquals(WRITES.size() * FAILURES.size(), failed);
  }

  /**
   * Issue 17, point 5: an imperative script runs as one transaction. Each write runs in a
   * %loop whose second lap fails in a %if (or earlier, a :create meeting what its first lap
   * made): the store is as it was.
   */
  @Test void anImperativeScriptFailingInALoopLeavesTheStore() throws SQLException {
    for (String write : WRITES) {
      final String before = checksum();
      final String script = "{?[a] <- [[0]] :create _n {a}}\n%loop\n" + write
          + "\n{?[a] := *_n[b], a = b + 1 :replace _n {a}}"
          + "\n%if {?[a] := *_n[a], a >= 2} %then {?[k, v] <- [[1, 'text']] :put r {k => v}} %end"
          + "\n%end";
      assertThrows(DatalogException.class, () -> run(script), script);
      assertEquals(before, checksum(), script);
    }
  }

  @Test void theWritesAloneChangeTheStore() throws SQLException {
    for (String write : WRITES) {
      final String before = checksum();
      run(write);
      assertNotEquals(before, checksum(), write);
      // back to the starting store for the next write
      close();
      open();
    }
  }

  @Test void aParseErrorAfterEveryWriteLeavesTheStore() throws SQLException {
    for (String write : WRITES) {
      final String before = checksum();
      final String script = write + "\n{?[x] <- [[1]] :put r {k => v}";
      final DatalogException e = assertThrows(DatalogException.class, () -> run(script));
      assertEquals("parser::pest", e.code(), script);
      assertEquals(before, checksum(), script);
    }
  }

  /** Inside a transaction the caller holds open, a failed script is rolled back to its start. */
  @Test void insideAnOpenTransactionAFailedScriptLeavesTheStore() throws SQLException {
    session.setAutoCommit(false);
    for (String write : WRITES) {
      for (String failure : FAILURES.subList(0, 2)) {
        final String before = checksum();
        final String script = write + "\n" + failure;
        assertThrows(DatalogException.class, () -> run(script), script);
        assertEquals(before, checksum(), script);
      }
    }
  }

  @Test void removeOfAMissingRelationRemovesNone() throws SQLException {
    final String before = checksum();
    final DatalogException e = assertThrows(DatalogException.class,
        () -> run("::remove r, no_such"));
    assertEquals("query::relation_not_found", e.code());
    assertEquals(before, checksum());
    run("::remove r, s");
    assertEquals("[]", run("::relations").rows().toString());
  }

  /** A relation made in one block is read by the next, and a changed one keeps its new columns. */
  @Test void madeRelationsAreReadByLaterBlocksAndSwappedIn() throws SQLException {
    run("{?[k, v, z] := *r[k, v], k < 3, z = 'z' :replace r {k: Int => v: Int, z: String}}"
        + " {?[k, z] := *r[k, v, z] :create n {k => z}}"
        + " {?[k, v, z] <- [[9, 90, 'y']] :put r {k => v, z}}");
    assertEquals("[[0, 0, z], [1, 10, z], [2, 20, z], [9, 90, y]]",
        run("?[k, v, z] := *r[k, v, z]").rows().toString());
    assertEquals("[[0, z], [1, z], [2, z]]", run("?[k, z] := *n[k, z]").rows().toString());
    assertEquals(List.of("n", "r", "s"), tables());
  }

  /**
   * A process that dies after a script's commit leaves its hidden tables journalled: the next
   * script swaps them in first; a hidden table without a journal row (the script had not
   * committed) is dropped.
   */
  @Test void theNextScriptSettlesWhatADeadScriptLeft() throws SQLException {
    run("{?[k, v, z] <- [[1, 1, 'z']] :replace r {k: Int => v: Int, z: String}}");
    final String after = checksum();
    run("{?[k, v] := k in int_range(1000), v = k * 10 :replace r {k: Int => v: Int}}");
    // the state a death between the commit and the rename leaves
    try (Statement s = session.getConnection().createStatement()) {
      s.execute("CREATE TABLE \"mnestic$staged$dead$0\" (\"k\" BIGINT NOT NULL,"
          + " \"v\" BIGINT NOT NULL, \"z\" LONGVARCHAR NOT NULL, PRIMARY KEY (\"k\"))");
      s.execute("COMMENT ON COLUMN \"mnestic$staged$dead$0\".\"k\" IS 'cozo: Int'");
      s.execute("COMMENT ON COLUMN \"mnestic$staged$dead$0\".\"v\" IS 'cozo: Int'");
      s.execute("COMMENT ON COLUMN \"mnestic$staged$dead$0\".\"z\" IS 'cozo: String'");
      s.execute("INSERT INTO \"mnestic$staged$dead$0\" VALUES (1, 1, 'z')");
      s.execute("CREATE TABLE \"mnestic$staged$dead$1\" (\"x\" BIGINT PRIMARY KEY)");
      s.execute("INSERT INTO MNESTIC.STAGED_RELATION VALUES ('mnestic$staged$dead$0', 'r', 'r')");
    }
    assertEquals("[[1, 1, z]]", run("?[k, v, z] := *r[k, v, z]").rows().toString());
    assertEquals(after, checksum());
  }

  private Engine.Result run(String script) throws SQLException {
    return engine.run(script, Map.of());
  }

  private List<String> tables() throws SQLException {
    final List<String> names = new ArrayList<>();
    try (ResultSet rs = session.getConnection().getMetaData()
        .getTables(null, Session.SCHEMA, null, new String[] {"TABLE"})) {
      while (rs.next()) {
        names.add(rs.getString("TABLE_NAME"));
      }
    }
    Collections.sort(names);
    return names;
  }

  /** SHA-256 of the store: its tables, each one's columns (name, type, nullability, comment), its rows sorted. */
  private String checksum() throws SQLException {
    final StringBuilder b = new StringBuilder();
    for (String table : tables()) {
      b.append("table ").append(table).append('\n');
      try (ResultSet rs = session.getConnection().getMetaData()
          .getColumns(null, Session.SCHEMA, table, null)) {
        while (rs.next()) {
          b.append(rs.getString("COLUMN_NAME")).append(' ').append(rs.getString("TYPE_NAME"))
              .append(' ').append(rs.getString("IS_NULLABLE")).append(' ')
              .append(rs.getString("REMARKS")).append('\n');
        }
      }
      final List<String> rows = new ArrayList<>();
      try (Statement s = session.getConnection().createStatement();
           ResultSet rs = s.executeQuery("SELECT * FROM \"" + table + "\"")) {
        while (rs.next()) {
          final StringBuilder row = new StringBuilder();
          for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
            row.append(rs.getString(i)).append('\u0001');
          }
          rows.add(row.toString());
        }
      }
      Collections.sort(rows);
      rows.forEach(r -> b.append(r).append('\n'));
    }
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(b.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
