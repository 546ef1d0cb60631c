package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.lower.StrataOptions;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A recursive frontier that never settles (issue 4): over a cycle, every lap
 * has more hops and more strength, a point no other beats. Evaluation stops
 * after {@code :max_epochs} rounds that changed the result (4096 unless the
 * script says), or at {@code :timeout}, whichever comes first, and the
 * store is as it was.
 */
class DivergenceTest extends OneStoreTest {
  private static final String CYCLE = """
      e[a, b, s] <- [['a', 'b', 0.5], ['b', 'a', 0.25]]
      reach[to, pareto_min(p)] := e['a', to, s], p = [1, -s]
      reach[to, pareto_min(p)] := reach[m, q], e[m, to, s], p = [get(q, 0) + 1, get(q, 1) - s]
      ?[to, p] := reach[to, p]
      """;

  @BeforeAll static void createRelation() throws Exception {
    run(":create r {a: Int}");
  }

  @Test void stopsAfterMaxEpochs() {
    final DatalogException e = assertThrows(DatalogException.class,
        () -> run(CYCLE + ":max_epochs 50"));
    assertEquals("mnestic::frontier_diverges", e.code());
    assertEquals("rule 'reach': its 'pareto_min' survivors still changed after 50 epochs",
        e.getMessage());
    assertEquals(2, e.line());
    assertEquals(11, e.column());
    assertTrue(e.help().contains(":max_epochs"), e.help());
  }

  @Test void stopsAfterTheDefaultEpochs() {
    final DatalogException e = assertThrows(DatalogException.class, () -> run(CYCLE));
    assertEquals("mnestic::frontier_diverges", e.code());
    assertTrue(e.getMessage().endsWith("after " + StrataOptions.MAX_EPOCHS + " epochs"), e.getMessage());
  }

  @Test void stopsAtTheTimeoutWhenThatComesFirst() {
    final DatalogException e = assertThrows(DatalogException.class,
        () -> run(CYCLE + ":max_epochs 2000000000\n:timeout 1"));
    assertEquals("eval::killed", e.code());
  }

  @Test void leavesTheStoreAsItWas() throws Exception {
    final DatalogException e = assertThrows(DatalogException.class,
        () -> run("{?[a] <- [[1], [2]] :put r {a}}\n{" + CYCLE.replace("?[to, p] := reach[to, p]",
            "?[a] := reach[to, p], a = get(p, 0)") + ":max_epochs 30\n:put r {a}}"));
    assertEquals("mnestic::frontier_diverges", e.code());
    assertEquals(List.of(), run("?[a] := *r[a]").rows());
  }

  @Test void maxEpochsIsAPositiveInteger() throws Exception {
    for (String bad : new String[] {"0", "-1", "1.5", "'a'"}) {
      final DatalogException e = assertThrows(DatalogException.class,
          () -> run(CYCLE + ":max_epochs " + bad), bad);
      assertTrue(e.help().contains(":max_epochs takes a positive integer"), e.help());
    }
    // a frontier that settles is not stopped
    assertEquals(2, run("""
        e[a, b, s] <- [['a', 'b', 0.5], ['b', 'c', 0.25]]
        reach[to, pareto_min(p)] := e['a', to, s], p = [1, -s]
        reach[to, pareto_min(p)] := reach[m, q], e[m, to, s], p = [get(q, 0) + 1, get(q, 1) - s]
        ?[to, p] := reach[to, p]
        :max_epochs 3""").rows().size());
  }
}
