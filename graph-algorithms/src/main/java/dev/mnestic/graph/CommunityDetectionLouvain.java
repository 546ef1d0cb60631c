package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * {@code CommunityDetectionLouvain(edges[from, to, weight?], undirected: false, max_iter: 10,
 * delta: 0.0001, keep_depth?)}: rows {@code [labels, node]}, {@code labels} the node's
 * community at each level of the hierarchy, coarsest first (cut to {@code keep_depth} levels),
 * each level's communities numbered from 0. A replica of CozoDB's Louvain, in single
 * precision: each level moves nodes, in node order, to the neighbouring community of greatest
 * gain over their own (for at most {@code max_iter} passes, while the graph's directed
 * modularity grows by more than {@code delta}), then folds each community into a node; levels
 * are added while the graph has more than 2 nodes and folding shrinks it.
 */
final class CommunityDetectionLouvain implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 2;
  }

  /** A graph of one level: out-edges sorted by target, with their weights. */
  private record Level(int[][] targets, float[][] weights) {
    int size() {
      return targets.length;
    }
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Options options = call.options();
    boolean undirected = options.bool("undirected", false);
    long maxIter = options.positiveInteger("max_iter", 10L);
    float delta = (float) options.unitInterval("delta", 0.0001);
    Long keepDepth = null;
    if (options.has("keep_depth")) {
      try { // CozoDB ignores a keep_depth it cannot read
        keepDepth = options.nonNegativeInteger("keep_depth", null);
      } catch (ValueException e) {
        keepDepth = null;
      }
    }
    Graph graph = Graph.weighted(call.input(0), undirected, false);
    Steps steps = new Steps(call.stop());
    List<int[]> hierarchy = new ArrayList<>();
    Level current = new Level(graph.targets, graph.weights);
    while (current.size() > 2) {
      int[] node2comm = new int[current.size()];
      Level folded = step(current, delta, maxIter, node2comm, steps);
      if (folded.size() == current.size()) {
        break;
      }
      hierarchy.add(node2comm);
      current = folded;
    }
    for (int u = 0; u < graph.size(); u++) {
      List<Object> labels = new ArrayList<>();
      int at = u;
      for (int[] level : hierarchy) {
        at = level[at];
        labels.add((long) at);
      }
      Collections.reverse(labels);
      if (keepDepth != null && keepDepth < labels.size()) {
        labels = labels.subList(0, keepDepth.intValue());
      }
      out.accept(new Object[] {Values.listOf(labels), graph.nodes.get(u)});
    }
  }

  /** One level: fills {@code node2comm} and returns the folded graph. */
  private static Level step(Level graph, float delta, long maxIter, int[] node2comm,
      Steps steps) {
    int n = graph.size();
    float total = 0f;
    float[] outWeights = new float[n];
    float[] inWeights = new float[n];
    for (int from = 0; from < n; from++) {
      for (int i = 0; i < graph.targets[from].length; i++) {
        float w = graph.weights[from][i];
        total += w;
        outWeights[from] += w;
        inWeights[graph.targets[from][i]] += w;
      }
    }
    List<TreeSet<Integer>> comm2nodes = new ArrayList<>();
    for (int u = 0; u < n; u++) {
      node2comm[u] = u;
      TreeSet<Integer> members = new TreeSet<>();
      members.add(u);
      comm2nodes.add(members);
    }
    float lastModularity = Float.NEGATIVE_INFINITY;
    for (long iter = 0; iter < maxIter; iter++) {
      float modularity = 0f;
      for (int from = 0; from < n; from++) {
        for (int to : comm2nodes.get(node2comm[from])) {
          for (int i = 0; i < graph.targets[from].length; i++) {
            if (graph.targets[from][i] == to) {
              modularity += graph.weights[from][i];
            }
          }
          modularity -= inWeights[from] * outWeights[to] / total;
          steps.tick();
        }
      }
      modularity /= total;
      if (modularity <= lastModularity + delta) {
        break;
      }
      lastModularity = modularity;
      boolean moved = false;
      for (int node = 0; node < n; node++) {
        int own = node2comm[node];
        float original = gain(node, own, graph, comm2nodes, outWeights, inWeights, total);
        int candidate = own;
        float bestImprovement = 0f;
        TreeSet<Integer> considered = new TreeSet<>();
        considered.add(own);
        for (int to : graph.targets[node]) {
          int community = node2comm[to];
          if (!considered.add(community)) {
            continue;
          }
          float improvement =
              gain(node, community, graph, comm2nodes, outWeights, inWeights, total) - original;
          if (improvement > bestImprovement) {
            bestImprovement = improvement;
            candidate = community;
          }
        }
        if (bestImprovement > 0f) {
          moved = true;
          node2comm[node] = candidate;
          comm2nodes.get(own).remove(node);
          comm2nodes.get(candidate).add(node);
        }
        steps.tick();
      }
      if (!moved) {
        break;
      }
    }
    // renumber the communities in the order their first node comes
    Map<Integer, Integer> renumbered = new TreeMap<>();
    for (int u = 0; u < n; u++) {
      Integer c = renumbered.get(node2comm[u]);
      if (c == null) {
        c = renumbered.size();
        renumbered.put(node2comm[u], c);
      }
      node2comm[u] = c;
    }
    int communities = renumbered.size();
    List<TreeMap<Integer, Float>> folded = new ArrayList<>();
    for (int c = 0; c < communities; c++) {
      folded.add(new TreeMap<>());
    }
    for (int u = 0; u < n; u++) {
      TreeMap<Integer, Float> row = folded.get(node2comm[u]);
      for (int i = 0; i < graph.targets[u].length; i++) {
        row.merge(node2comm[graph.targets[u][i]], graph.weights[u][i], Float::sum);
      }
    }
    // the folded graph has as many nodes as its highest-numbered node with an edge, plus 1
    int size = 0;
    for (int c = 0; c < communities; c++) {
      if (!folded.get(c).isEmpty()) {
        size = Math.max(size, Math.max(c, folded.get(c).lastKey()) + 1);
      }
    }
    int[][] targets = new int[size][];
    float[][] weights = new float[size][];
    for (int c = 0; c < size; c++) {
      TreeMap<Integer, Float> row = c < communities ? folded.get(c) : new TreeMap<>();
      targets[c] = row.keySet().stream().mapToInt(Integer::intValue).toArray();
      weights[c] = new float[row.size()];
      int i = 0;
      for (float w : row.values()) {
        weights[c][i++] = w;
      }
    }
    return new Level(targets, weights);
  }

  /** CozoDB's {@code calculate_delta}: the gain of {@code node} joining {@code community}. */
  private static float gain(int node, int community, Level graph,
      List<TreeSet<Integer>> comm2nodes, float[] outWeights, float[] inWeights, float total) {
    float sigmaOut = 0f;
    float sigmaIn = 0f;
    float toCommunity = 0f;
    for (int member : comm2nodes.get(community)) {
      if (member == node) {
        continue;
      }
      sigmaOut += outWeights[member];
      sigmaIn += inWeights[member];
      toCommunity += firstWeight(graph, node, member);
      toCommunity += firstWeight(graph, member, node);
    }
    return toCommunity
        - (sigmaOut * inWeights[node] + sigmaIn * outWeights[node]) / total;
  }

  /** The weight of the first edge from {@code from} to {@code to}; 0 when there is none. */
  private static float firstWeight(Level graph, int from, int to) {
    int[] targets = graph.targets[from];
    for (int i = 0; i < targets.length; i++) {
      if (targets[i] == to) {
        return graph.weights[from][i];
      }
    }
    return 0f;
  }
}
