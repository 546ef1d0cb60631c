package dev.mnestic.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * BreadthFirstSearch and DepthFirstSearch (found nodes satisfy the condition and are reached
 * along edges; BFS's paths are NetworkX's fewest edges) and RandomWalk (each step an edge).
 */
class SearchTest {
  private static final long[] SEEDS = {41, 42, 43, 44};

  private static RandomGraph graph(long seed) {
    int n = 10 + (int) (seed * 7 % 30);
    return new RandomGraph(seed, n, 2 * n, true, 1);
  }

  /** Nodes with a "score": rows [node, node * 7 % 10]. */
  private static List<Object[]> scored(RandomGraph g) {
    List<Object[]> rows = new ArrayList<>();
    for (Object n : g.nodes()) {
      rows.add(new Object[] {n, (Long) n * 7 % 10});
    }
    return rows;
  }

  private static Set<List<Object>> edgeSet(RandomGraph g) {
    Set<List<Object>> edges = new HashSet<>();
    g.edges.forEach(e -> edges.add(List.of(e[0], e[1])));
    return edges;
  }

  @Test
  void searchesFindNodesMeetingTheConditionAlongEdges() {
    List<Map<String, Object>> cases = new ArrayList<>();
    for (long seed : SEEDS) {
      cases.add(Networkx.graphCase("hops", graph(seed)));
    }
    List<JsonNode> answers = Networkx.answer(cases);
    for (int c = 0; c < SEEDS.length; c++) {
      RandomGraph g = graph(SEEDS[c]);
      Map<Long, JsonNode> hops = Networkx.pairs(answers.get(c));
      Set<List<Object>> edges = edgeSet(g);
      for (String rule : List.of("BFS", "DFS", "BreadthFirstSearch", "DepthFirstSearch")) {
        List<Object[]> rows = Fixture.of(rule)
            .input(g.unweighted())
            .input(List.of("n", "score"), 2, scored(g))
            .nodes(g.nodes().subList(0, 3))
            .option("condition",
                new Fixture.Expr(Set.of("score"), v -> (Long) v.get("score") == 9))
            .option("limit", 3L)
            .run();
        assertTrue(rows.size() <= 3, rule + " stops at the limit");
        Set<Object> found = new HashSet<>();
        for (Object[] row : rows) {
          assertTrue(found.add(row[1]), "found once: " + row[1]);
          assertEquals(9L, (Long) row[1] * 7 % 10, rule + " found " + row[1]);
          List<?> path = (List<?>) row[2];
          assertEquals(row[0], path.get(0));
          assertEquals(row[1], path.get(path.size() - 1));
          for (int i = 0; i + 1 < path.size(); i++) {
            assertTrue(edges.contains(List.of(path.get(i), path.get(i + 1))), "edge in " + path);
          }
          if (rule.startsWith("B") && row[0].equals(g.nodes().get(0))) {
            JsonNode d = Networkx.pairs(hops.get((Long) row[0])).get((Long) row[1]);
            assertEquals(d.asInt() + 1, path.size(), "fewest edges: " + path);
          }
        }
        // none missed: from the first start, a node meeting the condition is found if reachable
        Set<Long> reachable = Networkx.pairs(hops.get((Long) g.nodes().get(0))).keySet();
        boolean any = reachable.stream()
            .anyMatch(n -> n * 7 % 10 == 9
                && (rule.startsWith("D") || !n.equals(g.nodes().get(0))));
        assertEquals(any, !rows.isEmpty(), rule + " seed " + SEEDS[c]);
      }
    }
  }

  @Test
  void aConditionOnTheNodeAloneNeedsNoRowOfIt() {
    List<Object[]> edges = new ArrayList<>();
    edges.add(new Object[] {"a", "b"});
    edges.add(new Object[] {"b", "c"});
    List<Object[]> rows = Fixture.of("BFS")
        .input(edges)
        .input(List.of("n"), 1, List.<Object[]>of(new Object[] {"a"}))
        .option("condition", new Fixture.Expr(Set.of("n"), v -> v.get("n").equals("c")))
        .run();
    assertEquals(1, rows.size());
    assertEquals(List.of("a", "b", "c"), rows.get(0)[2]);
  }

  @Test
  void randomWalksStepAlongEdgesByTheirWeight() {
    for (long seed : SEEDS) {
      RandomGraph g = graph(seed);
      // a way out of weight above 0 from every node but the last (to 1, and 1 to 2)
      Set<List<Object>> present = edgeSet(g);
      List<Object> nodes = g.nodes();
      for (Object u : nodes.subList(0, nodes.size() - 1)) {
        Object to = u.equals(1L) ? 2L : 1L;
        if (!present.contains(List.of(u, to))) {
          g.edges.add(new Object[] {u, to, 1.0});
        }
      }
      Set<List<Object>> edges = edgeSet(g);
      List<Object[]> rows = Fixture.of("RandomWalk")
          .input(List.of("a", "b"), 2, g.unweighted())
          .input(List.of("n", "score"), 2, scored(g))
          .nodes(g.nodes().subList(0, 4))
          .option("steps", 12L)
          .option("iterations", 5L)
          .option("weight",
              new Fixture.Expr(Set.of("b"), v -> (Long) v.get("b") % 3 == 0 ? 0L : 1.5))
          .run(new RandomWalk(() -> new SplittableRandom(seed)));
      assertEquals(20, rows.size());
      Set<Long> numbers = new HashSet<>();
      for (Object[] row : rows) {
        numbers.add((Long) row[0]);
        List<?> path = (List<?>) row[2];
        assertEquals(row[1], path.get(0));
        assertTrue(path.size() <= 13, "at most 12 steps");
        for (int i = 0; i + 1 < path.size(); i++) {
          assertTrue(edges.contains(List.of(path.get(i), path.get(i + 1))), "edge in " + path);
          assertTrue((Long) path.get(i + 1) % 3 != 0, "a step of weight 0 in " + path);
        }
        if (path.size() < 13) { // ended early: no edge leaves the last node
          Object last = path.get(path.size() - 1);
          assertTrue(g.edges.stream().noneMatch(e -> e[0].equals(last)),
              "stopped at " + last + " with edges left");
        }
      }
      assertEquals(Set.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L,
          17L, 18L, 19L, 20L), numbers);
    }
  }
}
