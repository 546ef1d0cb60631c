package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.parse.Parser;
import dev.mnestic.store.Session;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for issue 13, point 5 (CozoScript): chains of 10,000 terms and nesting 1,000
 * levels deep run and give the answer computed here independently; 100,000 levels are refused
 * with {@code parser::too_deep} at the place the limit is passed, naming it.
 */
class NestingTest {
  private static final int TERMS = 10_000;
  private static final int LEVELS = 1_000;

  private QueryConformanceTest.Store store;
  private Session session;
  private Engine engine;

  @BeforeEach void open() throws SQLException {
    store = new QueryConformanceTest.Store();
    session = store.session();
    engine = store.engine();
  }

  @AfterEach void close() throws SQLException {
    store.close();
  }

  private Object value(String script) throws SQLException {
    final List<List<Object>> rows = engine.run(script, Map.of()).rows();
    assertEquals(1, rows.size(), script.length() > 200 ? script.substring(0, 200) : script);
    return rows.get(0).get(0);
  }

  private static String chain(String term, String op, int n) {
    return String.join(" " + op + " ", Collections.nCopies(n, term));
  }

  @Test void chainsOfTenThousandTerms() throws SQLException {
    assertEquals(3L * TERMS, value("?[x] := a = 3, x = " + chain("a", "+", TERMS)));
    assertEquals((long) TERMS * (TERMS + 1) / 2, value("?[x] := x = " + IntStream
        .rangeClosed(1, TERMS).mapToObj(Integer::toString).collect(Collectors.joining(" + "))));
    assertEquals(Boolean.TRUE, value("?[x] := a = false, x = " + chain("a", "||", TERMS - 1)
        + " || true"));
    assertEquals(Boolean.FALSE, value("?[x] := a = true, x = " + chain("a", "&&", TERMS - 1)
        + " && false"));
    assertEquals("ab".repeat(TERMS), value("?[x] := a = 'ab', x = " + chain("a", "++", TERMS)));
    assertEquals(1L, value("?[x] := a = 1, x = " + chain("a", "*", TERMS)));
  }

  @Test void countOfAListOfTenThousand() throws SQLException {
    assertEquals((long) TERMS, value("?[count(x)] := x in [" + IntStream.range(0, TERMS)
        .mapToObj(Integer::toString).collect(Collectors.joining(", ")) + "]"));
  }

  @Test void aThousandLevels() throws SQLException {
    assertEquals(1L, value("?[x] := a = 1, x = " + "(".repeat(LEVELS) + "a" + ")".repeat(LEVELS)));
    assertEquals(7L, value("?[x] := a = -7, x = " + "abs(".repeat(LEVELS) + "a"
        + ")".repeat(LEVELS)));
    // an even number of minus signs gives the value back
    assertEquals(5L, value("?[x] := a = 5, x = " + "-(".repeat(LEVELS) + "a"
        + ")".repeat(LEVELS)));
    Object nested = List.of(1L);
    for (int i = 1; i < LEVELS; i++) {
      nested = List.of(nested);
    }
    assertEquals(nested, value("?[x] := a = 1, x = " + "[".repeat(LEVELS) + "a"
        + "]".repeat(LEVELS)));
    assertEquals(-(long) (LEVELS - 2), value("?[x] := a = 1, x = " + chain("a", "-", LEVELS)));
    assertEquals(1L, value("?[x] := " + "(".repeat(LEVELS) + "x = 1" + ")".repeat(LEVELS)));
  }

  @Test void aHundredThousandLevelsAreRefusedAtTheLimit() throws SQLException {
    final int n = 100_000;
    for (String script : List.of(
        "?[x] := a = 1,\n x = " + "(".repeat(n) + "a" + ")".repeat(n),
        "?[x] := a = 1,\n x = " + "[".repeat(n) + "a" + "]".repeat(n),
        "?[x] := a = 1,\n x = " + "-".repeat(n) + "a",
        "?[x] := a = 1,\n x = " + chain("a", "-", n),
        "?[x] := \n" + "(".repeat(n) + "x = 1" + ")".repeat(n))) {
      final DatalogException e = assertThrows(DatalogException.class,
          () -> engine.run(script, Map.of()));
      assertEquals("parser::too_deep", e.code());
      assertEquals(2, e.line());
      assertTrue(e.column() > Parser.MAX_NESTING / 2 && e.column() < Parser.MAX_NESTING * 5,
          "column " + e.column());
      assertTrue(e.render(script).startsWith("2:" + e.column() + ": the script nests deeper than "
          + Parser.MAX_NESTING + " levels here [parser::too_deep]"), e.render(script)
          .substring(0, 100));
      assertThrows(DatalogException.class, () -> Engine.describe(script));
    }
  }
}
