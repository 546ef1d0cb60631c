package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.value.Aggregators;
import dev.mnestic.value.Values;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Aggregations a host registers on an {@link Engine} (issue 4): by a
 * dominance (bounded-meet) or by a combine (normal or meet), visible to that
 * engine's scripts only.
 */
class HostAggregationsTest {
  private QueryConformanceTest.Store store;
  private Engine engine;

  @BeforeEach void open() throws Exception {
    store = new QueryConformanceTest.Store();
    engine = store.engine();
  }

  @AfterEach void close() throws Exception {
    store.close();
  }

  private Engine.Result run(String script) throws Exception {
    return engine.run(script, Map.of());
  }

  private static double num(Object list, int i) {
    return ((Number) ((List<?>) list).get(i)).doubleValue();
  }

  /** Epsilon-dominance on [cost, quality]: cheaper by more than 1 and no worse. */
  private static boolean epsilon(Object a, Object b) {
    return num(a, 0) < num(b, 0) - 1 && num(a, 1) >= num(b, 1);
  }

  @Test void epsilonDominanceMatchesItsDefinition() throws Exception {
    engine = engine.withBoundedMeetAggregate("eps_frontier", HostAggregationsTest::epsilon, 1000);
    final Random random = new Random(5);
    final List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      rows.add(List.of((long) random.nextInt(3),
          List.of((long) random.nextInt(20), (long) random.nextInt(20))));
    }
    final List<List<Object>> expected = new ArrayList<>();
    for (long g = 0; g < 3; g++) {
      final TreeSet<Object> survivors = new TreeSet<>(Values.ORDER);
      for (List<Object> r : rows) {
        if ((Long) r.get(0) != g) {
          continue;
        }
        boolean dominated = false;
        for (List<Object> o : rows) {
          dominated |= (Long) o.get(0) == g && epsilon(o.get(1), r.get(1));
        }
        if (!dominated) {
          survivors.add(r.get(1));
        }
      }
      for (Object s : survivors) {
        expected.add(List.of(g, s));
      }
    }
    final Engine.Result r = run("p[g, x] <- " + Values.toJson(rows)
        + "\n?[g, eps_frontier(x)] := p[g, x]");
    assertEquals(Values.toJson(expected), Values.toJson(r.rows()));
  }

  @Test void boundedMeetRunsInRecursionAndOverflowIsAnError() throws Exception {
    // a registered 1-D minimum is the shortest distance, as min is
    engine = engine.withBoundedMeetAggregate("shorter",
        (a, b) -> ((Number) a).doubleValue() < ((Number) b).doubleValue(), 1);
    final String edges = "e[a, b, w] <- [[1, 2, 4], [1, 3, 1], [3, 2, 1], [2, 4, 1], [4, 1, 1]]\n";
    final Engine.Result registered = run(edges
        + "d[to, shorter(c)] := e[1, to, c]\n"
        + "d[to, shorter(c)] := d[m, c0], e[m, to, w], c = c0 + w\n?[to, c] := d[to, c]");
    final Engine.Result builtIn = run(edges
        + "d[to, min(c)] := e[1, to, c]\n"
        + "d[to, min(c)] := d[m, c0], e[m, to, w], c = c0 + w\n?[to, c] := d[to, c]");
    assertEquals(builtIn.toJson(), registered.toJson());
    assertEquals("[[1,4],[2,2],[3,1],[4,3]]", Values.toJson(registered.rows()));

    engine = engine.withBoundedMeetAggregate("two_at_most", (a, b) -> false, 2);
    final DatalogException overflow = assertThrows(DatalogException.class,
        () -> run("front[two_at_most(x)] := x in [1, 2, 3]\n?[x] := front[x]"));
    assertEquals("mnestic::aggregate_overflow", overflow.code());
    assertTrue(overflow.getMessage().contains("'two_at_most'")
        && overflow.getMessage().contains("'front'"), overflow.getMessage());
  }

  /** Tests run with assertions enabled, so the engine probes the order. */
  @Test void anOrderThatLiesFailsLoudly() throws Exception {
    assertTrue(dev.mnestic.value.Antichain.class.desiredAssertionStatus(), "run with -ea");
    engine = engine.withBoundedMeetAggregate("reflexive", (a, b) -> true, 10);
    final DatalogException reflexive = assertThrows(DatalogException.class,
        () -> run("?[reflexive(x)] := x in [1, 2]"));
    assertEquals("mnestic::aggregate_order", reflexive.code());
    assertTrue(reflexive.getMessage().contains("dominates itself"), reflexive.getMessage());
    engine = engine.withBoundedMeetAggregate("symmetric", (a, b) -> !a.equals(b), 10);
    final DatalogException symmetric = assertThrows(DatalogException.class,
        () -> run("?[symmetric(x)] := x in [1, 2]"));
    assertEquals("mnestic::aggregate_order", symmetric.code());
    assertTrue(symmetric.getMessage().contains("dominate each other"), symmetric.getMessage());
  }

  /** Viterbi: the most reliable path's probability, max of products, as a registered meet. */
  static final class MaxProbability implements Aggregators.Aggregator {
    private double best;

    @Override public void add(Object value) {
      best = Math.max(best, ((Number) value).doubleValue());
    }

    @Override public Object result() {
      return best;
    }
  }

  /** Noisy-or, 1 - (1 - p1)(1 - p2)...: a normal (not meet) aggregation. */
  static final class NoisyOr implements Aggregators.Aggregator {
    private double none = 1;

    @Override public void add(Object value) {
      none *= 1 - ((Number) value).doubleValue();
    }

    @Override public Object result() {
      return 1 - none;
    }
  }

  @Test void registeredCombinesRunAsMeetOrNormal() throws Exception {
    engine = engine.withAggregate("viterbi", true, MaxProbability::new);
    engine = engine.withAggregate("noisy_or", false, NoisyOr::new);
    final String edges = "e[a, b, p] <- [[1, 2, 0.5], [1, 3, 0.9], [3, 2, 0.8], [2, 4, 0.5]]\n";
    final Engine.Result viterbi = run(edges
        + "r[to, viterbi(p)] := e[1, to, p]\n"
        + "r[to, viterbi(p)] := r[m, q], e[m, to, w], p = q * w\n?[to, p] := r[to, p]");
    assertEquals("[[2,0.7200000000000001],[3,0.9],[4,0.36000000000000004]]",
        Values.toJson(viterbi.rows()));
    assertEquals("[[2,0.9]]", Values.toJson(run(edges
        + "?[b, noisy_or(p)] := e[a, b, p], b == 2").rows()));
    final DatalogException recursiveNormal = assertThrows(DatalogException.class, () -> run(edges
        + "r[to, noisy_or(p)] := e[1, to, p]\n"
        + "r[to, noisy_or(p)] := r[m, q], e[m, to, w], p = q * w\n?[to, p] := r[to, p]"));
    assertEquals("eval::unstratifiable", recursiveNormal.code());
  }

  @Test void registrationsBelongToTheirEngine() throws Exception {
    engine = engine.withAggregate("noisy_or", false, NoisyOr::new);
    final Engine other = new Engine(store.connection());
    final DatalogException notThere = assertThrows(DatalogException.class,
        () -> other.run("?[noisy_or(p)] := p in [0.5]", Map.of()));
    assertEquals("parser::aggr_not_found", notThere.code());
    assertEquals("[[0.5]]", Values.toJson(engine.stoppedBy(0, null)
        .run("?[noisy_or(p)] := p in [0.5]", Map.of()).rows()));
    assertThrows(IllegalArgumentException.class,
        () -> engine.withAggregate("noisy_or", false, NoisyOr::new));
    assertThrows(IllegalArgumentException.class,
        () -> engine.withBoundedMeetAggregate("pareto_min", (a, b) -> false, 1));
    assertThrows(IllegalArgumentException.class,
        () -> engine.withAggregate("count", true, NoisyOr::new));
    assertThrows(IllegalArgumentException.class,
        () -> engine.withBoundedMeetAggregate("bad name", (a, b) -> false, 1));
    assertThrows(IllegalArgumentException.class,
        () -> engine.withBoundedMeetAggregate("none_kept", (a, b) -> false, 0));
    final DatalogException args = assertThrows(DatalogException.class,
        () -> run("?[noisy_or(p, 2)] := p in [0.5]"));
    assertEquals("mnestic::aggregate_arguments", args.code());
  }

  /**
   * Test case for issue 15: registrations are sealed per engine. Registering
   * makes a new engine; the engine it came from, the engines derived from
   * that one before, and engines that register the same name stay as they were.
   */
  @Test void registeringOnOneEngineLeavesEveryOtherAsItWas() throws Exception {
    final Engine stopped = engine.stoppedBy(0, null);
    final Engine noisyOr = engine.withAggregate("noisy_or", false, NoisyOr::new);
    final String script = "?[noisy_or(p)] := p in [0.5, 0.75]";
    for (Engine unchanged : List.of(engine, stopped)) {
      final DatalogException notThere = assertThrows(DatalogException.class,
          () -> unchanged.run(script, Map.of()));
      assertEquals("parser::aggr_not_found", notThere.code());
    }
    assertEquals("[[0.875]]", Values.toJson(noisyOr.run(script, Map.of()).rows()));
    assertEquals("[[0.875]]",
        Values.toJson(noisyOr.stoppedBy(0, null).run(script, Map.of()).rows()));
    final Engine maximum = engine.withAggregate("noisy_or", true, MaxProbability::new);
    assertEquals("[[0.75]]", Values.toJson(maximum.run(script, Map.of()).rows()));
    assertEquals("[[0.875]]", Values.toJson(noisyOr.run(script, Map.of()).rows()));
  }
}
