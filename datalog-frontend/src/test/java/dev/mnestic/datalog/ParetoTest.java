package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.value.Values;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code pareto_min} and {@code pareto_max} (issue 4). CozoDB 0.7.6 has no
 * such aggregation, so the oracle is an exact computation here: brute-force
 * dominance over every pair of a group's points.
 */
class ParetoTest extends OneStoreTest {
  /** Every point of {@code points} that no other point dominates, distinct, in value order. */
  static List<List<Object>> frontier(List<List<Object>> points, boolean min) {
    final TreeSet<List<Object>> out = new TreeSet<>(Values.ORDER::compare);
    for (List<Object> p : points) {
      boolean dominated = false;
      for (List<Object> q : points) {
        dominated |= dominates(q, p, min);
      }
      if (!dominated) {
        out.add(p);
      }
    }
    return new ArrayList<>(out);
  }

  /** Dominance by its definition, over doubles (the test's numbers are small). */
  static boolean dominates(List<Object> a, List<Object> b, boolean min) {
    if (a.size() != b.size()) {
      return false;
    }
    boolean strictly = false;
    for (int i = 0; i < a.size(); i++) {
      final double x = ((Number) a.get(i)).doubleValue();
      final double y = ((Number) b.get(i)).doubleValue();
      if (min ? x > y : x < y) {
        return false;
      }
      strictly |= x != y;
    }
    return strictly;
  }

  @Test void keepsTheNonDominatedPointsPerGroup() throws Exception {
    final Engine.Result r = run("""
        p[g, x] <- [['a', [1, 5]], ['a', [2, 2]], ['a', [3, 3]], ['a', [2, 2]], ['a', [5, 1]],
                    ['b', [1, 1]], ['b', [1.0, 1.0]], ['b', [0, 2, 9]]]
        ?[g, pareto_min(x)] := p[g, x]""");
    assertEquals("{\"headers\":[\"g\",\"pareto_min(x)\"],\"rows\":[[\"a\",[1,5]],[\"a\",[2,2]],"
        + "[\"a\",[5,1]],[\"b\",[0,2,9]],[\"b\",[1,1]],[\"b\",[1.0,1.0]]]}", r.toJson());
    // Ints past 2^53 compare exactly: 2^53 + 1 is more than the Float 2^53
    final Engine.Result exact = run("""
        p[g, x] <- [['c', [9007199254740993, 1]], ['c', [9007199254740992.0, 1]],
                    ['d', [9007199254740993, 1]], ['d', [9007199254740994.0, 2]]]
        ?[g, pareto_min(x)] := p[g, x]""");
    assertEquals("[[\"c\",[9007199254740992.0,1]],[\"d\",[9007199254740993,1]]]",
        Values.toJson(exact.rows()));
    final Engine.Result max = run("""
        p[g, x] <- [['a', [1, 5]], ['a', [2, 2]], ['a', [3, 3]], ['a', [5, 1]]]
        ?[g, pareto_max(x)] := p[g, x]""");
    assertEquals("[[\"a\",[1,5]],[\"a\",[3,3]],[\"a\",[5,1]]]",
        max.toJson().substring(max.toJson().indexOf("\"rows\":") + 7, max.toJson().length() - 1));
  }

  /** Random groups of random points, against brute-force dominance, and the same output for any order of input. */
  @Test void matchesBruteForceUnderAnyInputOrder() throws Exception {
    final Random random = new Random(4);
    for (int trial = 0; trial < 12; trial++) {
      final boolean min = random.nextBoolean();
      final List<List<Object>> rows = new ArrayList<>();
      final int n = 1 + random.nextInt(60);
      for (int i = 0; i < n; i++) {
        final List<Object> point = new ArrayList<>();
        final int dims = 1 + random.nextInt(trial % 2 == 0 ? 3 : 4);
        for (int d = 0; d < dims; d++) {
          point.add(random.nextInt(4) == 0 ? (Object) (double) random.nextInt(6)
              : (Object) (long) random.nextInt(6));
        }
        rows.add(List.of((long) random.nextInt(4), point));
      }
      final Map<Long, List<List<Object>>> groups = new TreeMap<>();
      for (List<Object> row : rows) {
        @SuppressWarnings("unchecked") final List<Object> p = (List<Object>) row.get(1);
        groups.computeIfAbsent((Long) row.get(0), k -> new ArrayList<>()).add(p);
      }
      final List<List<Object>> expected = new ArrayList<>();
      groups.forEach((g, points) -> frontier(points, min).forEach(p -> expected.add(List.of(g, p))));
      final String aggregate = min ? "pareto_min" : "pareto_max";
      String first = null;
      for (int shuffle = 0; shuffle < 2; shuffle++) {
        Collections.shuffle(rows, random);
        final Engine.Result r = run("p[g, x] <- " + Values.toJson(rows)
            + "\n?[g, " + aggregate + "(x)] := p[g, x]");
        assertEquals(Values.toJson(expected), Values.toJson(r.rows()), "trial " + trial);
        if (first == null) {
          first = r.toJson();
        }
        assertEquals(first, r.toJson());
      }
    }
  }

  @Test void malformedOperandsAreErrorsNamingAggregateRuleAndValue() {
    for (String[] bad : new String[][] {{"'a'", "\"a\""}, {"[]", "[]"}, {"[1, 'x']", "[1, \"x\"]"},
        {"[1, null]", "[1, null]"}, {"[1, to_float('NAN')]", "[1, to_float(\"NAN\")]"}}) {
      final DatalogException e = assertThrows(DatalogException.class, () -> run(
          "p[g, x] <- [[1, [1, 2]]]\n"
              + "front[g, pareto_max(x)] := p[g, x]\n"
              + "front[g, pareto_max(x)] := g = 2, x = " + bad[0] + "\n"
              + "?[g, x] := front[g, x]"));
      assertEquals("mnestic::aggregate_operand", e.code());
      assertTrue(e.getMessage().contains("'pareto_max'") && e.getMessage().contains("'front'")
          && e.getMessage().contains(bad[1]), e.getMessage());
      assertEquals(2, e.line());
      assertEquals(10, e.column());
    }
  }

  @Test void argumentsAndHeadShapeAreRejected() {
    final DatalogException args = assertThrows(DatalogException.class,
        () -> run("?[g, pareto_min(x, 3)] := g = 1, x = [1]"));
    assertEquals("mnestic::aggregate_arguments", args.code());
    assertEquals(1, args.line());
    assertEquals(20, args.column());
    final DatalogException notLast = assertThrows(DatalogException.class,
        () -> run("?[pareto_min(x), g] := g = 1, x = [1]"));
    assertEquals("mnestic::bounded_meet_head", notLast.code());
    final DatalogException withOther = assertThrows(DatalogException.class,
        () -> run("?[count(g), pareto_min(x)] := g = 1, x = [1]"));
    assertEquals("mnestic::bounded_meet_head", withOther.code());
  }

  /**
   * The aggregate against the hand-rolled skyline (a self-join and a
   * negation, whose answers conformance/queries/pareto.json checks against
   * CozoDB) on random candidates: the same survivors.
   */
  @Test void matchesTheHandRolledForm() throws Exception {
    final Random random = new Random(7);
    for (int trial = 0; trial < 5; trial++) {
      final List<List<Object>> rows = new ArrayList<>();
      for (int m = 0; m < 80; m++) {
        rows.add(List.of((long) random.nextInt(5), "m" + m, (long) random.nextInt(8),
            (long) random.nextInt(8), (long) random.nextInt(8)));
      }
      final String data = "c[g, m, a, b, d] <- " + Values.toJson(rows) + "\n";
      final Engine.Result byHand = run(data
          + "dominated[g, m] := c[g, m, a, b, d], c[g, o, a2, b2, d2], o != m,"
          + " a2 >= a, b2 >= b, d2 >= d, or(a2 > a, b2 > b, d2 > d)\n"
          + "?[g, m, a, b, d] := c[g, m, a, b, d], not dominated[g, m]");
      final Engine.Result aggregate = run(data
          + "f[g, pareto_max(p)] := c[g, _, a, b, d], p = [a, b, d]\n"
          + "?[g, m, a, b, d] := f[g, p], c[g, m, a, b, d], p = [a, b, d]");
      assertEquals(byHand.toJson(), aggregate.toJson());
    }
  }

  /**
   * Recursion through pareto_min over random graphs with cycles, two costs
   * summed along each path: each node's frontier over every walk from node
   * 0. A lap around a cycle adds to both costs, so it is dominated and
   * pruned, and the fixpoint settles; the oracle enumerates the walks that
   * repeat no node but an end at 0 (every other walk is dominated by one of
   * these).
   */
  @Test void prunesInsideRecursion() throws Exception {
    final Random random = new Random(11);
    for (int trial = 0; trial < 8; trial++) {
      final int n = 6 + random.nextInt(3);
      final List<List<Object>> edges = new ArrayList<>();
      for (int from = 0; from < n; from++) {
        for (int to = 0; to < n; to++) {
          if (from != to && random.nextInt(3) == 0) {
            edges.add(List.of((long) from, (long) to, (long) 1 + random.nextInt(5),
                (long) 1 + random.nextInt(5)));
          }
        }
      }
      final Map<Long, List<List<Object>>> costs = new TreeMap<>();
      walk(edges, 0L, 0L, 0L, new TreeSet<>(List.of(0L)), costs);
      final List<List<Object>> expected = new ArrayList<>();
      costs.forEach((to, points) -> frontier(points, true).forEach(p -> expected.add(List.of(to, p))));
      final Engine.Result r = run("e[a, b, x, y] <- " + Values.toJson(edges) + "\n"
          + "r[to, pareto_min(p)] := e[0, to, x, y], p = [x, y]\n"
          + "r[to, pareto_min(p)] := r[m, q], e[m, to, x, y], p = [get(q, 0) + x, get(q, 1) + y]\n"
          + "?[to, p] := r[to, p]");
      assertEquals(Values.toJson(expected), Values.toJson(r.rows()), "trial " + trial);
    }
  }

  private static void walk(List<List<Object>> edges, long at, long x, long y, TreeSet<Long> seen,
      Map<Long, List<List<Object>>> costs) {
    for (List<Object> e : edges) {
      if ((Long) e.get(0) != at) {
        continue;
      }
      final long to = (Long) e.get(1);
      final long x2 = x + (Long) e.get(2);
      final long y2 = y + (Long) e.get(3);
      costs.computeIfAbsent(to, k -> new ArrayList<>()).add(List.of(x2, y2));
      if (seen.add(to)) {
        walk(edges, to, x2, y2, seen, costs);
        seen.remove(to);
      }
    }
  }
}
