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
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * CommunityDetectionLouvain against the modularity of NetworkX's Louvain on graphs with
 * planted communities, and LabelPropagation's labels against their definition.
 */
class CommunitiesTest {
  private static final long[] SEEDS = {31, 32, 33, 34, 35};

  /** Undirected: {@code groups} groups of 6 to 12 nodes, dense inside, sparse between. */
  private static RandomGraph planted(long seed, int groups) {
    RandomGraph g = new RandomGraph(seed, 1, 0, false, 1);
    Random r = new Random(seed);
    List<long[]> ranges = new ArrayList<>();
    long next = 0;
    for (int i = 0; i < groups; i++) {
      long size = 6 + r.nextInt(7);
      ranges.add(new long[] {next, next + size});
      next += size;
    }
    for (long u = 0; u < next; u++) {
      for (long v = u + 1; v < next; v++) {
        boolean same = false;
        for (long[] range : ranges) {
          same |= u >= range[0] && u < range[1] && v >= range[0] && v < range[1];
        }
        if (r.nextDouble() < (same ? 0.6 : 0.03)) {
          g.edges.add(new Object[] {u, v, (double) (1 + r.nextInt(2))});
        }
      }
    }
    return g;
  }

  @Test
  void louvainFindsAboutTheModularityNetworkxsLouvainFinds() {
    List<Map<String, Object>> cases = new ArrayList<>();
    List<RandomGraph> graphs = new ArrayList<>();
    for (long seed : SEEDS) {
      RandomGraph g = planted(seed, 3 + (int) (seed % 4));
      List<Object[]> rows = Fixture.of("CommunityDetectionLouvain")
          .input(g.edges)
          .option("undirected", true)
          .run();
      Map<Object, List<Long>> parts = new TreeMap<>();
      for (Object[] row : rows) {
        List<?> labels = (List<?>) row[0];
        Object top = labels.isEmpty() ? "alone " + row[1] : labels.get(0);
        parts.computeIfAbsent(String.valueOf(top), k -> new ArrayList<>()).add((Long) row[1]);
      }
      assertEquals(g.nodes().size(), rows.size());
      Map<String, Object> c = Networkx.graphCase("modularity", g);
      c.put("partition", new ArrayList<>(parts.values()));
      c.put("seed", seed);
      cases.add(c);
      graphs.add(g);
    }
    List<JsonNode> answers = Networkx.answer(cases);
    for (int c = 0; c < SEEDS.length; c++) {
      double ours = answers.get(c).get(0).asDouble();
      double theirs = answers.get(c).get(1).asDouble();
      assertTrue(ours > 0.3 && ours >= theirs - 0.05,
          "seed " + SEEDS[c] + ": modularity " + ours + ", NetworkX's " + theirs);
    }
  }

  @Test
  void louvainLabelsGoFromCoarsestToFinestAndKeepDepthCutsThem() {
    RandomGraph g = planted(7, 4);
    List<Object[]> all = Fixture.of("CommunityDetectionLouvain").input(g.edges).run();
    List<Object[]> cut = Fixture.of("CommunityDetectionLouvain").input(g.edges)
        .option("keep_depth", 1L).run();
    Map<Object, List<?>> full = new HashMap<>();
    all.forEach(r -> full.put(r[1], (List<?>) r[0]));
    int depth = full.values().iterator().next().size();
    assertTrue(depth >= 1, "at least one level");
    for (Object[] row : cut) {
      List<?> labels = full.get(row[1]);
      assertEquals(depth, labels.size(), "every node has every level");
      assertEquals(labels.subList(0, 1), row[0]);
    }
    // a finer level's community lies within one coarser community
    Map<Object, Object> coarser = new HashMap<>();
    for (List<?> labels : full.values()) {
      for (int i = 1; i < labels.size(); i++) {
        Object was = coarser.put(List.of(i, labels.get(i)), labels.get(i - 1));
        assertTrue(was == null || was.equals(labels.get(i - 1)), "nested: " + labels);
      }
    }
  }

  @Test
  void labelPropagationEndsWithEachNodeOnAMostWeightyNeighbourLabel() {
    for (long seed : SEEDS) {
      RandomGraph g = planted(seed, 3);
      Random r = new Random(seed);
      for (Object[] e : g.edges) {
        e[2] = 0.5 + r.nextDouble(); // no ties: the propagation converges
      }
      List<Object[]> rows = Fixture.of("LabelPropagation")
          .input(g.edges)
          .option("undirected", true)
          .option("max_iter", 1000L)
          .run(new LabelPropagation(() -> new SplittableRandom(seed)));
      Map<Object, Object> label = new HashMap<>();
      rows.forEach(row -> label.put(row[1], row[0]));
      assertEquals(g.nodes().size(), label.size());
      Map<Object, Map<Object, Float>> scores = new HashMap<>();
      for (Object[] e : g.edges) {
        float w = (float) (double) (Double) e[2];
        scores.computeIfAbsent(e[0], k -> new HashMap<>()).merge(label.get(e[1]), w, Float::sum);
        scores.computeIfAbsent(e[1], k -> new HashMap<>()).merge(label.get(e[0]), w, Float::sum);
      }
      for (Map.Entry<Object, Map<Object, Float>> node : scores.entrySet()) {
        float best = node.getValue().values().stream().max(Float::compare).orElseThrow();
        Float own = node.getValue().get(label.get(node.getKey()));
        assertTrue(own != null && Math.abs(own - best) < 1e-4,
            "seed " + seed + ": node " + node.getKey() + " has label " + label.get(node.getKey())
                + " scoring " + own + ", best " + best);
      }
      assertTrue(new HashSet<>(label.values()).size() < g.nodes().size() / 2, "labels spread");
    }
  }
}
