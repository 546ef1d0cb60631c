package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.store.Session;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Writes to stored relations are all-or-nothing (issue 3, point 2): a bad
 * row anywhere leaves the relation as it was, whether the script runs as its
 * own transaction or inside one that the caller holds open. (What each write
 * does is checked against CozoDB in {@code conformance/queries/writes.json}.)
 */
class StoredRelationsTest {
  private QueryConformanceTest.Store store;
  private Session session;
  private Engine engine;

  @BeforeEach void open() throws SQLException {
    store = new QueryConformanceTest.Store();
    session = store.session();
    engine = store.engine();
    run(":create r {k: Int => v: Int, w: [Int; 2] default [0, 0]}");
    run("?[k, v] := k in int_range(1000), v = k * 10 :put r {k, v}");
  }

  @AfterEach void close() throws SQLException {
    store.close();
  }

  /** 1,000 rows {@code [k, k]} from {@code k = from}, but the 500th is {@code [k, bad]}. */
  private static String rows(int from, String bad) {
    return "?[k, v] := k in int_range(" + from + ", " + (from + 1000) + "), k != " + (from + 499)
        + ", v = k\n?[k, v] := k = " + (from + 499) + ", v = " + bad + "\n";
  }

  @Test void everyWriteFailingAtRow500LeavesTheRelation() throws SQLException {
    final String before = contents();
    for (List<String> write : List.of(
        List.of(rows(0, "'x'") + ":put r {k, v}", "eval::coercion_failed"),
        List.of(rows(1000, "'x'") + ":insert r {k, v}", "eval::coercion_failed"),
        List.of(rows(500, "1") + ":insert r {k, v}", "transact::assertion_failure"),
        List.of(rows(0, "2.5") + ":update r {k, v}", "eval::coercion_failed"),
        List.of(rows(0, "null") + ":put r {k, v}", "eval::coercion_null"),
        List.of("?[k, w] := k in int_range(1000), k != 499, w = [k, k]\n"
            + "?[k, w] := k = 499, w = [1]\n:put r {k, v = k, w}", "eval::coercion_bad_list_len"),
        List.of("?[k] := k in int_range(1001) :delete r {k}", "transact::assertion_failure"),
        List.of("?[k, v] := k in int_range(1001), v = k :update r {k, v}",
            "transact::assertion_failure"),
        List.of(rows(0, "'x'") + ":replace r {k: Int => v: Int}", "eval::coercion_failed"))) {
      final DatalogException e = assertThrows(DatalogException.class, () -> run(write.get(0)),
          write.get(0));
      assertEquals(write.get(1), e.code(), write.get(0));
      assertEquals(before, contents(), write.get(0));
    }
    final DatalogException e = assertThrows(DatalogException.class, () ->
        run(rows(0, "'x'") + ":create s {k: Int => v: Int}"));
    assertEquals("eval::coercion_failed", e.code());
    assertEquals("{\"headers\":[\"name\",\"arity\",\"access_level\",\"n_keys\",\"n_non_keys\","
        + "\"n_put_triggers\",\"n_rm_triggers\",\"n_replace_triggers\",\"description\"],"
        + "\"rows\":[[\"r\",3,\"normal\",1,2,0,0,0,\"\"]]}", run("::relations").toJson(),
        "the failed :create made no relation");
  }

  @Test void aFailedWriteInsideAnOpenTransactionKeepsTheWritesBeforeIt() throws SQLException {
    session.setAutoCommit(false);
    run("?[k, v] <- [[1000, 1]] :put r {k, v}");
    assertThrows(DatalogException.class, () -> run(rows(0, "'x'") + ":put r {k, v}"));
    assertEquals(1001, engine.run("?[k] := *r{k}", Map.of()).rows().size(),
        "the transaction holds the first write, not the second");
    session.rollback();
    session.setAutoCommit(true);
    assertEquals(1000, engine.run("?[k] := *r{k}", Map.of()).rows().size());
  }

  /**
   * CozoDB's relation-JSON import coerces each column to its type: objects
   * are Json values, strings become Uuids and Bytes. (CozoDB itself gives
   * these rows for this import.)
   */
  @Test void importCoercesToColumnTypes() throws SQLException {
    run(":create t {k: Int => j: Json, a: Any, u: Uuid, b: Bytes}");
    engine.importRelations("{\"t\": {\"headers\": [\"k\", \"j\", \"a\", \"u\", \"b\"], \"rows\": ["
        + "[1, {\"x\": [1, 2.5]}, {\"y\": null}, \"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\", \"AQI=\"],"
        + "[2.0, 3, [1, {\"z\": 1}], \"00000000-0000-0000-0000-000000000001\", \"\"]]}}");
    assertEquals("{\"headers\":[\"k\",\"j\",\"a\",\"u\",\"b\",\"x\"],\"rows\":["
        + "[1,{\"x\":[1,2.5]},{\"y\":null},\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\",\"AQI=\",true],"
        + "[2,3,[1,{\"z\":1}],\"00000000-0000-0000-0000-000000000001\",\"\",false]]}",
        run("?[k, j, a, u, b, x] := *t{k, j, a, u, b}, x = is_json(a)").toJson());
  }

  /**
   * A {@code ::rename} whose later pair fails renames nothing, as CozoDB (which checks
   * the pairs in order, each seeing the ones before done) leaves both names.
   */
  @Test void aFailedRenameRenamesNothing() throws SQLException {
    run(":create c {x}");
    final String before = run("::relations").toJson();
    for (List<String> rename : List.of(
        List.of("::rename r -> s, q -> t", "query::relation_not_found"),
        List.of("::rename r -> s, c -> s", "eval::rel_name_conflict"),
        List.of("::rename r -> s, s -> c", "eval::rel_name_conflict"),
        // CozoDB takes a dotted name; mnestic's :create and ::rename refuse one
        List.of("::rename r -> s, c -> MNESTIC.c", "eval::invalid_relation_name"))) {
      final DatalogException e = assertThrows(DatalogException.class, () -> run(rename.get(0)),
          rename.get(0));
      assertEquals(rename.get(1), e.code(), rename.get(0));
      assertEquals(before, run("::relations").toJson(), rename.get(0));
    }
    final String rows = contents();
    run("::rename r -> s, s -> t, c -> r");
    assertEquals(rows, run("?[k, v, w] := *t{k, v, w}").toJson());
    assertEquals(List.of(List.of("r"), List.of("t")),
        run("::relations").rows().stream().map(row -> row.subList(0, 1)).toList());
  }

  private Engine.Result run(String script) throws SQLException {
    return engine.run(script, Map.of());
  }

  private String contents() throws SQLException {
    return run("?[k, v, w] := *r{k, v, w}").toJson();
  }
}
