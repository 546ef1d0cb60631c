package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * {@code LabelPropagation(edges[from, to, weight?], undirected: false, max_iter: 10)}: rows
 * {@code [label, node]}. Each node starts with its own number as label; each pass visits the
 * nodes in a random order and gives each the label of greatest total weight among its
 * out-edges' targets (a random one of those tied; weights of any sign), until a pass changes
 * nothing or after {@code max_iter} passes. CozoDB draws from an unseeded generator, so its
 * labels cannot be reproduced; these are labels of the same definition.
 */
final class LabelPropagation implements FixedRule {
  private final Supplier<RandomGenerator> random;

  LabelPropagation(Supplier<RandomGenerator> random) {
    this.random = random;
  }

  @Override
  public int arity(Options options, List<String> head) {
    return 2;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    boolean undirected = call.options().bool("undirected", false);
    long maxIter = call.options().positiveInteger("max_iter", 10L);
    Graph graph = Graph.weighted(call.input(0), undirected, true);
    int n = graph.size();
    RandomGenerator rng = random.get();
    int[] labels = new int[n];
    int[] order = new int[n];
    for (int u = 0; u < n; u++) {
      labels[u] = u;
      order[u] = u;
    }
    Steps steps = new Steps(call.stop());
    for (long iter = 0; iter < maxIter; iter++) {
      shuffle(order, rng);
      boolean changed = false;
      for (int node : order) {
        TreeMap<Integer, Float> scores = new TreeMap<>();
        for (int i = 0; i < graph.targets[node].length; i++) {
          scores.merge(labels[graph.targets[node][i]], graph.weights[node][i], Float::sum);
        }
        if (scores.isEmpty()) {
          continue;
        }
        float max = Float.NEGATIVE_INFINITY;
        for (float s : scores.values()) {
          if (Float.compare(s, max) > 0) {
            max = s;
          }
        }
        List<Integer> candidates = new ArrayList<>();
        for (var e : scores.entrySet()) {
          if (e.getValue() == max) {
            candidates.add(e.getKey());
          }
        }
        int label = candidates.get(rng.nextInt(candidates.size()));
        if (label != labels[node]) {
          changed = true;
          labels[node] = label;
        }
        steps.tick();
      }
      if (!changed) {
        break;
      }
    }
    for (int u = 0; u < n; u++) {
      out.accept(new Object[] {(long) labels[u], graph.nodes.get(u)});
    }
  }

  private static void shuffle(int[] a, RandomGenerator rng) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
