package dev.mnestic.datalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mnestic.rel.Plans;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

/**
 * A script run again reuses the programs compiled for its plans ({@link Plans#compilations}),
 * and what it reads changing (rows, an index, the relation made anew with other column types)
 * never gives an answer other than the exact one.
 */
class CompiledPlansTest extends OneStoreTest {
  private static final String CLOSURE = "tc[a, b] := *edge[a, b]\n"
      + "tc[a, c] := tc[a, b], *edge[b, c]\n?[count(a)] := tc[a, b]";

  /** Puts a chain {@code 0 -> 1 -> ... -> n - 1} ({@code text}: of strings) into edge. */
  private static void chain(int n, boolean text) throws Exception {
    final StringBuilder rows = new StringBuilder();
    for (int i = 0; i < n - 1; i++) {
      rows.append(i == 0 ? "" : ", ").append(text ? "['" + i + "', '" + (i + 1) + "']"
          : "[" + i + ", " + (i + 1) + "]");
    }
    run("?[a, b] <- [" + rows + "] :put edge {a, b}");
  }

  /** The pairs of a chain's transitive closure. */
  private static long pairs(int n) {
    return (long) n * (n - 1) / 2;
  }

  private static Object count(String script, Map<String, Object> params) throws Exception {
    return store.engine().run(script, params).rows().get(0).get(0);
  }

  @Test void aScriptRunAgainCompilesNothing() throws Exception {
    run(":create edge {a: Int, b: Int}");
    chain(30, false);
    assertEquals(pairs(30), count(CLOSURE, Map.of()));
    final long before = Plans.compilations();
    assertEquals(pairs(30), count(CLOSURE, Map.of()));
    assertEquals(0, Plans.compilations() - before, "programs compiled by the second run");

    // more rows, an index, other parameters, the relation made anew: still the exact answers
    chain(45, false);
    assertEquals(pairs(45), count(CLOSURE, Map.of()));
    run("::index create edge:by_b {b}");
    assertEquals(pairs(45), count(CLOSURE, Map.of()));
    final String from = "tc[a, b] := *edge[a, b]\ntc[a, c] := tc[a, b], *edge[b, c]\n"
        + "?[count(b)] := tc[$src, b]";
    for (long src : List.of(0L, 7L, 44L)) {
      assertEquals(44 - src, count(from, Map.of("src", src)));
    }
    run("::index drop edge:by_b");
    run("::remove edge");
    run(":create edge {a: String, b: String}");
    chain(20, true);
    assertEquals(pairs(20), count(CLOSURE, Map.of()));
    assertEquals(12L, count(from, Map.of("src", "7")));
    final long again = Plans.compilations();
    assertEquals(pairs(20), count(CLOSURE, Map.of()));
    assertEquals(again, Plans.compilations(), "programs compiled by a run after the same one");
    run("::remove edge");
  }
}
