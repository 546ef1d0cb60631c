package dev.mnestic.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * ShortestPathDijkstra, ShortestPathAStar, KShortestPathYen and ShortestPathBFS against
 * NetworkX's shortest paths on random graphs, directed and undirected, with tied weights and
 * unreachable parts.
 */
class ShortestPathsTest {
  private static final long[] SEEDS = {1, 2, 3, 4, 5, 6};

  private static RandomGraph graph(long seed) {
    int n = 5 + (int) (seed * 7 % 30);
    return new RandomGraph(seed, n, n + (int) (seed * 13 % (2 * n)), seed % 2 == 0, 4);
  }

  /** The cheapest weight of an edge from u to v, in either direction when undirected. */
  private static Map<List<Object>, Double> weights(RandomGraph g) {
    Map<List<Object>, Double> w = new HashMap<>();
    for (Object[] e : g.edges) {
      w.merge(List.of(e[0], e[1]), (Double) e[2], Math::min);
      if (!g.directed) {
        w.merge(List.of(e[1], e[0]), (Double) e[2], Math::min);
      }
    }
    return w;
  }

  /** A path's cost along its edges, failing when a step is no edge. */
  private static double cost(Map<List<Object>, Double> weights, List<?> path) {
    double c = 0;
    for (int i = 0; i + 1 < path.size(); i++) {
      Double w = weights.get(List.of(path.get(i), path.get(i + 1)));
      assertTrue(w != null, "no edge " + path.get(i) + " -> " + path.get(i + 1) + " in " + path);
      c += w;
    }
    return c;
  }

  @Test
  void dijkstraGivesNetworkxDistancesAndRealPaths() {
    List<Map<String, Object>> cases = new ArrayList<>();
    for (long seed : SEEDS) {
      cases.add(Networkx.graphCase("distances", graph(seed)));
    }
    List<JsonNode> answers = Networkx.answer(cases);
    for (int c = 0; c < SEEDS.length; c++) {
      RandomGraph g = graph(SEEDS[c]);
      List<Object[]> rows = Fixture.of("ShortestPathDijkstra")
          .input(g.edges)
          .nodes(g.nodes())
          .option("undirected", !g.directed)
          .run();
      Map<List<Object>, Double> weights = weights(g);
      Map<Long, JsonNode> expected = Networkx.pairs(answers.get(c));
      int n = g.nodes().size();
      assertEquals(n * n, rows.size(), "a row per start and node");
      for (Object[] row : rows) {
        Map<Long, JsonNode> reached = Networkx.pairs(expected.get((Long) row[0]));
        JsonNode d = reached.get((Long) row[1]);
        List<?> path = (List<?>) row[3];
        if (d == null) {
          assertEquals(Double.POSITIVE_INFINITY, row[2]);
          assertEquals(List.of(), path);
        } else {
          assertEquals(d.asDouble(), (Double) row[2], "cost " + row[0] + " -> " + row[1]);
          assertEquals(row[0], path.get(0));
          assertEquals(row[1], path.get(path.size() - 1));
          assertEquals(d.asDouble(), cost(weights, path), "path " + path);
        }
      }
    }
  }

  @Test
  void dijkstraKeepingTiesGivesEveryShortestPath() {
    List<Map<String, Object>> cases = new ArrayList<>();
    List<List<Long>> goals = new ArrayList<>();
    for (long seed : SEEDS) {
      RandomGraph g = graph(seed);
      Map<String, Object> c = Networkx.graphCase("shortest_path_counts", g);
      List<Long> some = LongStream.range(0, g.n).filter(i -> i % 3 == 0).boxed()
          .collect(Collectors.toList());
      c.put("starts", List.of(0L, 1L));
      c.put("goals", some);
      goals.add(some);
      cases.add(c);
    }
    List<JsonNode> answers = Networkx.answer(cases);
    for (int c = 0; c < SEEDS.length; c++) {
      RandomGraph g = graph(SEEDS[c]);
      Set<Object> known = Set.copyOf(g.nodes());
      List<Object[]> rows = Fixture.of("ShortestPathDijkstra")
          .input(g.edges)
          .nodes(List.of(0L, 1L))
          .nodes(goals.get(c))
          .option("undirected", !g.directed)
          .option("keep_ties", true)
          .run();
      Map<List<Object>, Integer> counts = new HashMap<>();
      Map<List<Object>, Double> weights = weights(g);
      for (Object[] row : rows) {
        List<?> path = (List<?>) row[3];
        if (!path.isEmpty() && !row[0].equals(row[1])) {
          counts.merge(List.of(row[0], row[1]), 1, Integer::sum);
          assertEquals((Double) row[2], cost(weights, path));
        }
      }
      Map<List<Object>, Integer> expected = new HashMap<>();
      for (JsonNode t : answers.get(c)) {
        if (known.contains(t.get(0).asLong()) && known.contains(t.get(1).asLong())) {
          expected.put(List.of(t.get(0).asLong(), t.get(1).asLong()), t.get(2).asInt());
        }
      }
      assertEquals(expected, counts, "seed " + SEEDS[c]);
    }
  }

  @Test
  void aStarWithAZeroHeuristicCostsWhatDijkstraDoes() {
    for (long seed : SEEDS) {
      RandomGraph g = graph(seed);
      if (!g.directed) {
        continue; // A* reads the edges as given, one way
      }
      List<Object> nodes = g.nodes();
      List<Object[]> dijkstra = Fixture.of("ShortestPathDijkstra")
          .input(g.edges)
          .nodes(nodes.subList(0, 3))
          .nodes(nodes)
          .run();
      Map<List<Object>, Object> costs = new HashMap<>();
      for (Object[] row : dijkstra) {
        costs.put(List.of(row[0], row[1]), row[2]);
      }
      List<Object[]> rows = Fixture.of("ShortestPathAStar")
          .input(List.of("a", "b", "w"), 3, g.edges)
          .input(List.of("n"), 1, nodes.stream().map(x -> new Object[] {x})
              .collect(Collectors.toList()))
          .nodes(nodes.subList(0, 3))
          .input(List.of("g"), 1, nodes.stream().map(x -> new Object[] {x})
              .collect(Collectors.toList()))
          .option("heuristic", new Fixture.Expr(Set.of("n", "g"), v -> 0L))
          .run();
      assertEquals(3 * nodes.size(), rows.size());
      Map<List<Object>, Double> weights = weights(g);
      for (Object[] row : rows) {
        assertEquals(costs.get(List.of(row[0], row[1])), row[2], row[0] + " -> " + row[1]);
        List<?> path = (List<?>) row[3];
        if (!path.isEmpty()) {
          assertEquals((Double) row[2], cost(weights, path));
        }
      }
    }
  }

  @Test
  void yenGivesTheCostsOfNetworkxsKShortestSimplePaths() {
    int k = 4;
    List<Map<String, Object>> cases = new ArrayList<>();
    for (long seed : SEEDS) {
      Map<String, Object> c = Networkx.graphCase("k_shortest", graph(seed));
      c.put("pairs", List.of(List.of(0L, 1L), List.of(2L, 0L), List.of(1L, 3L)));
      c.put("k", k);
      cases.add(c);
    }
    List<JsonNode> answers = Networkx.answer(cases);
    for (int c = 0; c < SEEDS.length; c++) {
      RandomGraph g = graph(SEEDS[c]);
      Map<List<Object>, Double> weights = weights(g);
      for (JsonNode pair : answers.get(c)) {
        long s = pair.get(0).asLong();
        long t = pair.get(1).asLong();
        List<Object[]> rows = Fixture.of("KShortestPathYen")
            .input(g.edges)
            .nodes(List.of(s))
            .nodes(List.of(t))
            .option("undirected", !g.directed)
            .option("k", (long) k)
            .run();
        List<Double> expected = new ArrayList<>();
        pair.get(2).forEach(x -> expected.add(x.asDouble()));
        List<Double> costs = new ArrayList<>();
        for (Object[] row : rows) {
          List<?> path = (List<?>) row[3];
          assertEquals(Set.copyOf(path).size(), path.size(), "a simple path: " + path);
          assertEquals((Double) row[2], cost(weights, path));
          costs.add((Double) row[2]);
        }
        if (!g.nodes().contains(s) || !g.nodes().contains(t)) {
          expected.clear();
        }
        assertEquals(expected, costs, "seed " + SEEDS[c] + ": " + s + " -> " + t);
      }
    }
  }

  @Test
  void bfsPathsHaveNetworkxsFewestEdges() {
    List<Map<String, Object>> cases = new ArrayList<>();
    for (long seed : SEEDS) {
      RandomGraph g = graph(seed);
      if (g.directed) {
        cases.add(Networkx.graphCase("hops", g));
      }
    }
    List<JsonNode> answers = Networkx.answer(cases);
    int c = 0;
    for (long seed : SEEDS) {
      RandomGraph g = graph(seed);
      if (!g.directed) {
        continue;
      }
      Map<Long, JsonNode> hops = Networkx.pairs(answers.get(c++));
      List<Object> nodes = g.nodes();
      List<Object[]> rows = Fixture.of("ShortestPathBFS")
          .input(g.unweighted())
          .nodes(nodes)
          .nodes(nodes)
          .run();
      assertEquals(nodes.size() * nodes.size(), rows.size());
      Map<List<Object>, Double> weights = weights(g);
      for (Object[] row : rows) {
        JsonNode d = Networkx.pairs(hops.get((Long) row[0])).get((Long) row[1]);
        if (d == null || row[0].equals(row[1])) {
          assertNull(row[2], row[0] + " -> " + row[1]); // CozoDB: null from a node to itself
        } else {
          List<?> path = (List<?>) row[2];
          assertEquals(d.asInt() + 1, path.size(), "path " + path);
          cost(weights, path);
        }
      }
    }
  }

  /** CozoDB's own case (shortest_path_bfs.rs, test_bfs_path). */
  @Test
  void bfsPathOfCozoDbsTest() {
    List<Object[]> love = new ArrayList<>();
    for (String[] e : new String[][] {{"alice", "eve"}, {"bob", "alice"}, {"eve", "alice"},
        {"eve", "bob"}, {"eve", "charlie"}, {"charlie", "eve"}, {"david", "george"},
        {"george", "george"}}) {
      love.add(new Object[] {e[0], e[1]});
    }
    List<Object[]> toBob = Fixture.of("ShortestPathBFS").input(love)
        .nodes(List.of("alice")).nodes(List.of("bob")).run();
    assertEquals(List.of("alice", "eve", "bob"), toBob.get(0)[2]);
    List<Object[]> toGeorge = Fixture.of("ShortestPathBFS").input(love)
        .nodes(List.of("alice")).nodes(List.of("george")).run();
    assertNull(toGeorge.get(0)[2]);
  }
}
