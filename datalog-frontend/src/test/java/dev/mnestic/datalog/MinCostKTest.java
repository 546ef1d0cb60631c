package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.value.Values;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code min_cost_k([payload, cost], k)} (issue 4): the k cheapest distinct
 * derivations per group, also in recursion (k shortest walks). CozoDB 0.7.6
 * has no such aggregation; the oracle is an exact computation here.
 */
class MinCostKTest extends OneStoreTest {

  /**
   * Each group's survivors come in cost order (ties in value order), as CozoDB-fork's
   * {@code bounded_meet_top_k_basics} pins it: test case for issue 17.
   */
  @Test void keepsTheKCheapestDistinctDerivations() throws Exception {
    final Engine.Result r = run("""
        d[g, x] <- [['a', ['p', 3]], ['a', ['q', 1]], ['a', ['q', 1]], ['a', ['r', 2.5]],
                    ['a', ['s', 1.0]], ['b', ['t', 9]], ['b', ['a', 10]]]
        ?[g, min_cost_k(x, 3)] := d[g, x]""");
    assertEquals("{\"headers\":[\"g\",\"min_cost_k(x)\"],\"rows\":[[\"a\",[\"q\",1]],"
        + "[\"a\",[\"s\",1.0]],[\"a\",[\"r\",2.5]],[\"b\",[\"t\",9]],[\"b\",[\"a\",10]]]}",
        r.toJson());
  }

  @Test void argumentsAndOperandsAreChecked() {
    for (String bad : new String[] {"min_cost_k(x)", "min_cost_k(x, 0)", "min_cost_k(x, 1.5)",
        "min_cost_k(x, 2, 3)"}) {
      assertThrows(DatalogException.class, () -> run("?[" + bad + "] := x = ['a', 1]"), bad);
    }
    for (String[] operand : new String[][] {{"'a'", "\"a\""}, {"['a']", "[\"a\"]"},
        {"['a', 'b']", "[\"a\", \"b\"]"}, {"['a', 1, 2]", "[\"a\", 1, 2]"}}) {
      final DatalogException e = assertThrows(DatalogException.class,
          () -> run("best[min_cost_k(x, 2)] := x = " + operand[0] + "\n?[x] := best[x]"));
      assertEquals("mnestic::aggregate_operand", e.code());
      assertTrue(e.getMessage().contains("'min_cost_k'") && e.getMessage().contains("'best'")
          && e.getMessage().contains(operand[1]), e.getMessage());
    }
  }

  /**
   * k shortest walks from node 0 over random graphs with cycles and positive
   * weights, against a best-first enumeration that accepts each node's
   * first k walks in cost order.
   */
  @Test void kShortestWalksInRecursion() throws Exception {
    final Random random = new Random(3);
    int walks = 0;
    for (int trial = 0; trial < 6; trial++) {
      final int n = 5 + random.nextInt(4);
      final int k = 1 + random.nextInt(4);
      final List<List<Object>> edges = new ArrayList<>();
      for (int from = 0; from < n; from++) {
        for (int to = 0; to < n; to++) {
          if (from != to && random.nextInt(3) == 0) {
            edges.add(List.of((long) from, (long) to, (long) 1 + random.nextInt(1_000_000)));
          }
        }
      }
      final Engine.Result r = run("e[a, b, w] <- " + Values.toJson(edges) + "\n"
          + "p[to, min_cost_k(pc, " + k + ")] := e[0, to, w], pc = [[0, to], w]\n"
          + "p[to, min_cost_k(pc, " + k + ")] := p[m, q], e[m, to, w],"
          + " pc = [append(get(q, 0), to), get(q, 1) + w]\n"
          + "?[to, pc] := p[to, pc]");
      assertEquals(Values.toJson(kShortest(edges, k)), Values.toJson(r.rows()), "trial " + trial);
      walks += r.rows().size();
    }
    assertTrue(walks > 30, "walks: " + walks);
  }

  /** Per node, its k cheapest walks from 0 as {@code [node, [path, cost]]}, in value order. */
  private static List<List<Object>> kShortest(List<List<Object>> edges, int k) {
    final Comparator<List<Object>> order = Comparator
        .<List<Object>>comparingLong(w -> (Long) w.get(1)).thenComparing(Values.ORDER::compare);
    final PriorityQueue<List<Object>> queue = new PriorityQueue<>(order);
    final Map<Long, List<List<Object>>> accepted = new TreeMap<>();
    extend(edges, List.of(0L), 0L, queue);
    while (!queue.isEmpty()) {
      final List<Object> walk = queue.poll();
      @SuppressWarnings("unchecked") final List<Object> path = (List<Object>) walk.get(0);
      final long at = (Long) path.get(path.size() - 1);
      final List<List<Object>> kept = accepted.computeIfAbsent(at, x -> new ArrayList<>());
      if (kept.size() < k) {
        kept.add(walk);
        extend(edges, path, (Long) walk.get(1), queue);
      }
    }
    final List<List<Object>> rows = new ArrayList<>();
    accepted.forEach((node, walks) -> {
      walks.sort(Values.ORDER::compare);
      walks.forEach(w -> rows.add(List.of(node, w)));
    });
    return rows;
  }

  private static void extend(List<List<Object>> edges, List<Object> path, long cost,
      PriorityQueue<List<Object>> queue) {
    for (List<Object> e : edges) {
      if (e.get(0).equals(path.get(path.size() - 1))) {
        final List<Object> longer = new ArrayList<>(path);
        longer.add(e.get(1));
        queue.add(List.of(List.copyOf(longer), cost + (Long) e.get(2)));
      }
    }
  }
}
