package dev.mnestic.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * DegreeCentrality, ClusteringCoefficients, ClosenessCentrality, BetweennessCentrality and
 * PageRank against NetworkX on random graphs, within single precision where CozoDB computes
 * in it.
 */
class CentralityTest {
  private static final long[] SEEDS = {21, 22, 23, 24, 25, 26};

  private static RandomGraph graph(long seed, boolean directed) {
    int n = 5 + (int) (seed * 3 % 25);
    return new RandomGraph(seed, n, 2 * n, directed, 3);
  }

  private static Map<Object, Object[]> byNode(List<Object[]> rows, int keyColumn) {
    Map<Object, Object[]> map = new HashMap<>();
    for (Object[] row : rows) {
      assertEquals(null, map.put(row[keyColumn], row), "once: " + row[keyColumn]);
    }
    return map;
  }

  /** Equal within single precision, relative to the larger. */
  private static void close(double expected, double actual, String what) {
    double tolerance = 2e-6 * Math.max(1, Math.max(Math.abs(expected), Math.abs(actual)));
    assertTrue(Math.abs(expected - actual) <= tolerance,
        what + ": expected " + expected + " but was " + actual);
  }

  @Test
  void degreesCountEveryRow() {
    List<Map<String, Object>> cases = new ArrayList<>();
    for (long seed : SEEDS) {
      cases.add(Networkx.graphCase("degrees", graph(seed, true)));
    }
    List<JsonNode> answers = Networkx.answer(cases);
    for (int c = 0; c < SEEDS.length; c++) {
      RandomGraph g = graph(SEEDS[c], true);
      Map<Object, Object[]> rows = byNode(Fixture.of("DegreeCentrality")
          .input(g.unweighted())
          .nodes(List.of(1000L))
          .run(), 0);
      assertEquals(answers.get(c).size() + 1, rows.size());
      for (JsonNode d : answers.get(c)) {
        Object[] row = rows.get(d.get(0).asLong());
        assertEquals(List.of(d.get(1).asLong(), d.get(2).asLong(), d.get(3).asLong()),
            List.of(row[1], row[2], row[3]));
      }
      Object[] isolated = rows.get(1000L);
      assertEquals(List.of(0L, 0L, 0L), List.of(isolated[1], isolated[2], isolated[3]));
    }
  }

  @Test
  void clusteringCoefficientsAreNetworkxs() {
    List<Map<String, Object>> cases = new ArrayList<>();
    for (long seed : SEEDS) {
      cases.add(Networkx.graphCase("clustering", graph(seed, false)));
    }
    List<JsonNode> answers = Networkx.answer(cases);
    for (int c = 0; c < SEEDS.length; c++) {
      RandomGraph g = graph(SEEDS[c], false);
      Map<Object, Object[]> rows =
          byNode(Fixture.of("ClusteringCoefficients").input(g.unweighted()).run(), 0);
      assertEquals(answers.get(c).size(), rows.size());
      for (JsonNode d : answers.get(c)) {
        Object[] row = rows.get(d.get(0).asLong());
        close(d.get(1).asDouble(), (Double) row[1], "coefficient of " + row[0]);
        assertEquals(d.get(2).asLong(), row[2]);
        assertEquals(d.get(3).asLong(), row[3]);
      }
    }
  }

  @Test
  void closenessIsCozoDbsFormulaOverNetworkxsDistances() {
    List<Map<String, Object>> cases = new ArrayList<>();
    for (long seed : SEEDS) {
      cases.add(Networkx.graphCase("closeness", graph(seed, seed % 2 == 0)));
    }
    List<JsonNode> answers = Networkx.answer(cases);
    for (int c = 0; c < SEEDS.length; c++) {
      RandomGraph g = graph(SEEDS[c], SEEDS[c] % 2 == 0);
      Map<Object, Object[]> rows = byNode(Fixture.of("ClosenessCentrality")
          .input(g.edges)
          .option("undirected", !g.directed)
          .run(), 0);
      assertEquals(answers.get(c).size(), rows.size());
      for (JsonNode d : answers.get(c)) {
        Object[] row = rows.get(d.get(0).asLong());
        if (d.get(1).isNull()) {
          assertEquals(Double.POSITIVE_INFINITY, row[1], "reaches none: " + row[0]);
        } else {
          close(d.get(1).asDouble(), (Double) row[1], "closeness of " + row[0]);
        }
      }
    }
  }

  @Test
  void betweennessIsNetworkxsUnnormalisedCountingBothOrdersWhenUndirected() {
    List<Map<String, Object>> cases = new ArrayList<>();
    for (long seed : SEEDS) {
      cases.add(Networkx.graphCase("betweenness", graph(seed, seed % 2 == 0)));
    }
    List<JsonNode> answers = Networkx.answer(cases);
    for (int c = 0; c < SEEDS.length; c++) {
      RandomGraph g = graph(SEEDS[c], SEEDS[c] % 2 == 0);
      Map<Object, Object[]> rows = byNode(Fixture.of("BetweennessCentrality")
          .input(g.edges)
          .option("undirected", !g.directed)
          .run(), 0);
      assertEquals(answers.get(c).size(), rows.size());
      for (JsonNode d : answers.get(c)) {
        Object[] row = rows.get(d.get(0).asLong());
        close((g.directed ? 1 : 2) * d.get(1).asDouble(), (Double) row[1],
            "betweenness of " + row[0]);
      }
    }
  }

  @Test
  void pageRankConvergesToNetworkxsWithoutDanglingNodes() {
    List<Map<String, Object>> cases = new ArrayList<>();
    List<RandomGraph> graphs = new ArrayList<>();
    for (long seed : SEEDS) {
      RandomGraph g = graph(seed, seed % 2 == 0);
      // a cycle through every node: no node without out-edges
      List<Object> nodes = g.nodes();
      for (int i = 0; i < nodes.size(); i++) {
        Object[] e = {nodes.get(i), nodes.get((i + 1) % nodes.size()), 1.0};
        boolean present = g.edges.stream().anyMatch(x -> x[0].equals(e[0]) && x[1].equals(e[1])
            || !g.directed && x[0].equals(e[1]) && x[1].equals(e[0]));
        if (!present) {
          g.edges.add(e);
        }
      }
      graphs.add(g);
      Map<String, Object> pr = Networkx.graphCase("pagerank", g);
      pr.put("theta", 0.8);
      cases.add(pr);
    }
    List<JsonNode> answers = Networkx.answer(cases);
    for (int c = 0; c < graphs.size(); c++) {
      RandomGraph g = graphs.get(c);
      Map<Object, Object[]> rows = byNode(Fixture.of("PageRank")
          .input(g.unweighted())
          .option("undirected", !g.directed)
          .option("theta", 0.8)
          .option("epsilon", 1e-7)
          .option("iterations", 1000L)
          .run(), 0);
      assertEquals(answers.get(c).size(), rows.size());
      for (JsonNode d : answers.get(c)) {
        Object[] row = rows.get(d.get(0).asLong());
        double expected = d.get(1).asDouble();
        assertTrue(Math.abs(expected - (Double) row[1]) < 1e-5,
            "rank of " + row[0] + ": expected " + expected + " but was " + row[1]);
      }
    }
  }

  @Test
  void pageRankLosesTheRankOfDanglingNodesAndStopsAfterItsIterations() {
    // a -> b: b keeps what it gets, as the graph crate's PageRank does
    List<Object[]> edges = new ArrayList<>();
    edges.add(new Object[] {"a", "b"});
    Map<Object, Object[]> one = byNode(Fixture.of("PageRank").input(edges)
        .option("iterations", 1L).run(), 0);
    float base = (1f - 0.85f) / 2;
    assertEquals((double) base, one.get("a")[1]);
    assertEquals((double) (base + 0.85f * (0.5f / 1)), one.get("b")[1]);
    Map<Object, Object[]> many = byNode(Fixture.of("PageRank").input(edges)
        .option("iterations", 100L).run(), 0);
    assertEquals((double) base, many.get("a")[1]);
    assertEquals((double) (base + 0.85f * base), many.get("b")[1]);
  }
}
