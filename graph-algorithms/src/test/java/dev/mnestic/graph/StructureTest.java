package dev.mnestic.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * StronglyConnectedComponents, ConnectedComponents, TopSort, MinimumSpanningForestKruskal and
 * MinimumSpanningTreePrim against NetworkX on random graphs: the same partitions, spanning
 * forests of NetworkX's weight (trees may differ among equal weights), valid orders.
 */
class StructureTest {
  private static final long[] SEEDS = {11, 12, 13, 14, 15, 16, 17};

  private static RandomGraph graph(long seed, boolean directed) {
    int n = 6 + (int) (seed * 5 % 40);
    return new RandomGraph(seed, n, n + (int) (seed % 3) * n / 3, directed, 3);
  }

  /** The partition rows [node, component] make, as sets of nodes. */
  private static Set<Set<Long>> partition(List<Object[]> rows) {
    Map<Object, Set<Long>> parts = new TreeMap<>((a, b) -> Long.compare((Long) a, (Long) b));
    for (Object[] row : rows) {
      parts.computeIfAbsent(row[1], k -> new HashSet<>()).add((Long) row[0]);
    }
    return new HashSet<>(parts.values());
  }

  private static Set<Set<Long>> partition(JsonNode parts) {
    Set<Set<Long>> partition = new HashSet<>();
    for (JsonNode p : parts) {
      Set<Long> part = new HashSet<>();
      p.forEach(x -> part.add(x.asLong()));
      partition.add(part);
    }
    return partition;
  }

  @Test
  void componentsAreNetworkxs() {
    List<Map<String, Object>> cases = new ArrayList<>();
    for (long seed : SEEDS) {
      cases.add(Networkx.graphCase("components", graph(seed, true)));
      cases.add(Networkx.graphCase("components", graph(seed, false)));
    }
    List<JsonNode> answers = Networkx.answer(cases);
    int c = 0;
    for (long seed : SEEDS) {
      for (boolean directed : new boolean[] {true, false}) {
        RandomGraph g = graph(seed, directed);
        List<Object[]> rows = Fixture.of(directed ? "SCC" : "ConnectedComponents")
            .input(g.unweighted())
            .run();
        assertEquals(partition(answers.get(c++)), partition(rows), "seed " + seed);
        if (directed) {
          continue; // numbered by their roots' discovery, which depends on the search
        }
        // connected components: numbered from 0 in the order of their first node
        Map<Long, Long> first = new TreeMap<>();
        for (Object[] row : rows) {
          first.merge((Long) row[1], (long) g.nodes().indexOf(row[0]), Math::min);
        }
        List<Long> firsts = new ArrayList<>(first.values());
        for (int i = 1; i < firsts.size(); i++) {
          assertTrue(firsts.get(i - 1) < firsts.get(i), "component order " + firsts);
        }
      }
    }
  }

  @Test
  void nodesWithoutEdgesAreComponentsOfTheirOwn() {
    List<Object[]> rows = Fixture.of("StronglyConnectedComponents")
        .input(List.of(new Object[] {"a", "b"}, new Object[] {"b", "a"}, new Object[] {"b", "c"}))
        .nodes(List.of("d", "a", "e", "d"))
        .run();
    Map<Object, Object> component = new HashMap<>();
    for (Object[] row : rows) {
      assertEquals(null, component.put(row[0], row[1]), "once: " + row[0]);
    }
    assertEquals(component.get("a"), component.get("b"));
    assertEquals(Set.of(0L, 1L, 2L, 3L), Set.copyOf(component.values()));
    assertEquals(2L, component.get("d")); // numbered on, in the nodes' order
    assertEquals(3L, component.get("e"));
  }

  @Test
  void topSortOrdersEveryNodeOfADagAndNoneOnACycle() {
    for (long seed : SEEDS) {
      RandomGraph g = graph(seed, true);
      List<Object[]> dag = new ArrayList<>();
      for (Object[] e : g.unweighted()) {
        dag.add((Long) e[0] < (Long) e[1] ? e : new Object[] {e[1], e[0]});
      }
      Set<List<Object>> unique = new HashSet<>();
      dag.removeIf(e -> !unique.add(List.of(e)));
      List<Object[]> rows = Fixture.of("TopSort").input(dag).run();
      Map<Object, Long> position = new HashMap<>();
      for (Object[] row : rows) {
        assertEquals(null, position.put(row[1], (Long) row[0]));
      }
      assertEquals(Set.copyOf(g.nodes()), position.keySet());
      assertEquals(Set.copyOf(position.values()).size(), rows.size());
      for (Object[] e : dag) {
        assertTrue(position.get(e[0]) < position.get(e[1]), e[0] + " before " + e[1]);
      }
      // close a cycle through the first two nodes of the order: they and all after are gone
      Object[] first = rows.stream().filter(r -> (Long) r[0] == 0L).findFirst().orElseThrow();
      List<Object[]> cyclic = new ArrayList<>(dag);
      Object to = first[1];
      Object from = dag.stream().filter(e -> e[0].equals(to)).map(e -> e[1]).findFirst()
          .orElse(null);
      if (from != null) {
        cyclic.add(new Object[] {from, to});
        Set<Object> sorted = new HashSet<>();
        Fixture.of("TopSort").input(cyclic).run().forEach(r -> sorted.add(r[1]));
        assertTrue(!sorted.contains(to) && !sorted.contains(from), "cycle left out");
      }
    }
  }

  @Test
  void spanningForestsWeighWhatNetworkxsDo() {
    List<Map<String, Object>> cases = new ArrayList<>();
    List<RandomGraph> graphs = new ArrayList<>();
    for (long seed : SEEDS) {
      RandomGraph g = graph(seed, false);
      // negative and tied weights are allowed
      Random r = new Random(seed);
      for (Object[] e : g.edges) {
        e[2] = (double) (r.nextInt(7) - 2);
      }
      graphs.add(g);
      cases.add(Networkx.graphCase("forest_weight", g));
      Map<String, Object> tree = Networkx.graphCase("tree_weight", g);
      tree.put("start", g.nodes().get(1));
      cases.add(tree);
    }
    List<JsonNode> answers = Networkx.answer(cases);
    for (int c = 0; c < graphs.size(); c++) {
      RandomGraph g = graphs.get(c);
      List<Object[]> kruskal = Fixture.of("MinimumSpanningForestKruskal").input(g.edges).run();
      assertEquals(answers.get(2 * c).asDouble(), weight(g, kruskal), "Kruskal " + c);
      assertEquals(Set.of(), cycles(kruskal), "a forest");
      List<Object[]> prim = Fixture.of("MinimumSpanningTreePrim")
          .input(g.edges)
          .nodes(List.of(g.nodes().get(1)))
          .run();
      assertEquals(answers.get(2 * c + 1).asDouble(), weight(g, prim), "Prim " + c);
      assertEquals(Set.of(), cycles(prim), "a tree");
    }
  }

  /** The rows' total weight, checking each is an edge of that weight. */
  private static double weight(RandomGraph g, List<Object[]> rows) {
    Map<Set<Object>, Set<Object>> weights = new HashMap<>();
    for (Object[] e : g.edges) {
      weights.computeIfAbsent(Set.of(e[0], e[1]), k -> new HashSet<>()).add(e[2]);
    }
    double total = 0;
    for (Object[] row : rows) {
      assertTrue(weights.getOrDefault(Set.of(row[0], row[1]), Set.of()).contains(row[2]),
          "no edge " + List.of(row));
      total += (Double) row[2];
    }
    return total;
  }

  /** The edges among rows that close a cycle; empty for a forest. */
  private static Set<List<Object>> cycles(List<Object[]> rows) {
    Map<Object, Object> parent = new HashMap<>();
    Set<List<Object>> closing = new HashSet<>();
    for (Object[] row : rows) {
      Object a = root(parent, row[0]);
      Object b = root(parent, row[1]);
      if (a.equals(b)) {
        closing.add(List.of(row));
      }
      parent.put(a, b);
    }
    return closing;
  }

  private static Object root(Map<Object, Object> parent, Object x) {
    while (parent.containsKey(x) && !parent.get(x).equals(x)) {
      x = parent.get(x);
    }
    return x;
  }
}
