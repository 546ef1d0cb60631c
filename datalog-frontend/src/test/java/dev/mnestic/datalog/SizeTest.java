package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.parse.Parser;
import dev.mnestic.runtime.RunningStatement;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for issue 13, point 5 (CozoScript sizes): long rule bodies, many rules, many
 * blocks, long strings, wide relations and many inline rows either give the answer computed
 * here independently or, past the {@link Parser} limits, are refused before anything runs
 * with {@code parser::too_large} at the place the limit is passed, naming it.
 */
class SizeTest {
  private static final int TEN_THOUSAND = 10_000;

  private QueryConformanceTest.Store store;
  private Engine engine;

  @BeforeEach void open() throws SQLException {
    store = new QueryConformanceTest.Store();
    engine = store.engine();
  }

  @AfterEach void close() throws SQLException {
    store.close();
  }

  private static String join(int n, IntFunction<String> item, String separator) {
    return IntStream.range(0, n).mapToObj(item).collect(Collectors.joining(separator));
  }

  private List<List<Object>> rows(String script) throws SQLException {
    return engine.run(script, Map.of()).rows();
  }

  @Test void aBodyOfAsManyAtomsAsAllowed() throws SQLException {
    // x0 = 0, ..., x249 = 249, x1 > x0, ..., x249 > x248, s = x0 + ... + x249: 500 atoms
    final int n = Parser.MAX_BODY_ATOMS / 2;
    final String script = "?[s] := " + join(n, i -> "x" + i + " = " + i, ", ") + ", "
        + join(n - 1, i -> "x" + (i + 1) + " > x" + i, ", ") + ", s = "
        + join(n, i -> "x" + i, " + ");
    assertEquals(List.of(List.of((long) n * (n - 1) / 2)), rows(script));
  }

  @Test void aChainOfUnificationsAndOfJoins() throws SQLException {
    final int n = Parser.MAX_BODY_ATOMS - 2;
    // each unification reads the one before it; in a statement, as the JDBC driver runs
    // scripts, its program compiles on another thread (RunningStatement.await), whose stack
    // once overflowed at this size
    try (RunningStatement s = RunningStatement.start(new AtomicBoolean(), 0, 0).enter()) {
      try {
        assertEquals(List.of(List.of((long) n)), rows("?[y] := x0 = 0, "
            + join(n, i -> "x" + (i + 1) + " = x" + i + " + 1", ", ") + ", y = x" + n));
      } finally {
        s.exit();
      }
    }
    // a path of 20 edges through the edges i -> i + 1 of 0..40: it starts at 0..20
    final int joins = 20;
    final List<List<Object>> starts = new ArrayList<>();
    for (long i = 0; i + joins <= 40; i++) {
      starts.add(List.of(i));
    }
    assertEquals(starts, sorted(rows("e[a, b] := a in int_range(40), b = a + 1\n?[x0] := "
        + join(joins, i -> "e[x" + i + ", x" + (i + 1) + "]", ", "))));
  }

  @Test void asManyRulesOfOneNameAndDisjunctsAsAllowed() throws SQLException {
    final int n = Parser.MAX_RULES;
    final List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      expected.add(List.of(i));
    }
    assertEquals(expected, sorted(rows(join(n, i -> "?[x] := x = " + i, "\n"))));
    assertEquals(expected, sorted(rows("?[x] := " + join(n, i -> "x = " + i, " or "))));
  }

  @Test void aMegabyteString() throws SQLException {
    final String megabyte = "ab".repeat(500_000);
    assertEquals(List.of(List.of((long) megabyte.length(), megabyte.toUpperCase())),
        rows("?[n, t] := s = '" + megabyte + "', n = length(s), t = uppercase(s)"));
  }

  @Test void aThousandColumns() throws SQLException {
    final int columns = 1_000;
    final String names = join(columns, i -> "c" + i, ", ");
    rows("?[" + names + "] <- [[" + join(columns, i -> Integer.toString(3 * i), ", ")
        + "]] :create wide {" + names + "}");
    final List<Object> row = new ArrayList<>();
    for (long i = 0; i < columns; i++) {
      row.add(3 * i);
    }
    assertEquals(List.of(row), rows("?[" + names + "] := *wide[" + names + "]"));
    assertEquals(List.of(List.of(row.get(columns - 1))),
        rows("?[c" + (columns - 1) + "] := *wide{c" + (columns - 1) + "}"));
  }

  @Test void aHundredThousandInlineRows() throws SQLException {
    final int inline = 100_000;
    rows("?[a, b] <- [] :create many {a => b}");
    rows("?[a, b] <- [" + join(inline, i -> "[" + i + ", " + (i % 7) + "]", ", ")
        + "] :put many {a => b}");
    long sum = 0;
    for (int i = 0; i < inline; i++) {
      sum += i % 7;
    }
    // CozoDB's sum is a Float
    assertEquals(List.of(List.of((long) inline, (double) sum)),
        rows("?[count(a), sum(b)] := *many[a, b]"));
  }

  @Test void tenThousandAreRefusedWhereTheLimitIsPassed() {
    final String unifications = join(TEN_THOUSAND, i -> "x" + i + " = " + i, ",\n");
    refused("?[x0] := " + unifications, Parser.MAX_BODY_ATOMS + 1, 1,
        "the rule body holds more than 500 atoms here");
    refused("?[x] := x = 1,\n" + join(TEN_THOUSAND, i -> "x > " + i, ",\n"),
        Parser.MAX_BODY_ATOMS + 1, 1, "the rule body holds more than 500 atoms here");
    // grouped and negated atoms count too
    refused("?[x] := x = 1,\n" + join(TEN_THOUSAND, i -> "(not x == " + i + ")", ",\n"),
        Parser.MAX_BODY_ATOMS + 1, 2, "the rule body holds more than 500 atoms here");
    refused("e[a] <- [[1]]\n?[x] := e[x],\n" + join(TEN_THOUSAND, i -> "e[x]", ",\n"),
        Parser.MAX_BODY_RELATIONS + 2, 1, "the rule body joins more than 50 relations here");
    refused("?[x] :=\n" + join(TEN_THOUSAND, i -> "x = " + i, " or\n"), Parser.MAX_RULES + 2, 1,
        "the rule body expands to more than 200 conjunctions (one rule each) through its"
            + " disjunctions here");
    // 2^20 conjunctions from 20 disjunctions of two: refused in the 8th (2^8 > 200)
    refused("?[x] := x = 1,\n" + join(20, i -> "(x > " + i + " or x < " + i + ")", ",\n"), 9,
        11, "the rule body expands to more than 200 conjunctions (one rule each) through its"
            + " disjunctions here");
    refused(join(TEN_THOUSAND, i -> "?[x] := x = " + i, "\n"), Parser.MAX_RULES + 1, 1,
        "the query holds more than 200 rules here");
    refused(join(TEN_THOUSAND, i -> "r" + i + "[x] := x = " + i, "\n") + "\n?[x] := r0[x]",
        Parser.MAX_RULES + 1, 1, "the query holds more than 200 rules here");
    refused(join(TEN_THOUSAND, i -> "{?[x] := x = " + i + "}", "\n"), Parser.MAX_BLOCKS + 1, 1,
        "the script chains more than 100 query blocks here");
  }

  /** {@code script} is refused at once with {@code parser::too_large} at line:column. */
  private void refused(String script, int line, int column, String message) {
    final long start = System.nanoTime();
    final DatalogException e = assertThrows(DatalogException.class,
        () -> engine.run(script, Map.of()));
    // a safety bound, not a speed measurement: the refusal comes from the parser
    final double seconds = (System.nanoTime() - start) / 1e9;
    assertTrue(seconds < 20, "refused only after " + seconds + " s");
    assertEquals("parser::too_large", e.code(), e.getMessage());
    assertEquals(line + ":" + column, e.line() + ":" + e.column());
    assertEquals(message, e.getMessage());
    assertTrue(e.render(script).startsWith(line + ":" + column + ": " + message
        + " [parser::too_large]"), e.render(script));
    assertThrows(DatalogException.class, () -> Engine.describe(script));
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    final List<List<Object>> sorted = new ArrayList<>(rows);
    sorted.sort((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0)));
    return sorted;
  }
}
