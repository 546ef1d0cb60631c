package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code PageRank(edges[from, to], undirected: false, theta: 0.85, epsilon: 0.0001,
 * iterations: 10)}: rows {@code [node, rank]}, the rank of the {@code graph} crate CozoDB
 * calls, in single precision: from {@code 1 / n} each, every round sets a node's rank to
 * {@code (1 - theta) / n + theta * sum(rank(v) / out-degree(v))} over its in-edges' sources
 * (all at once, from the previous round's ranks), until the ranks moved by less than
 * {@code epsilon} in all (the sum of the changes) or after {@code iterations} rounds. A node
 * without out-edges gives its rank to none, so the ranks then sum to less than 1 (NetworkX
 * spreads it over all nodes instead).
 */
final class PageRank implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 2;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Options options = call.options();
    boolean undirected = options.bool("undirected", false);
    float theta = (float) options.unitInterval("theta", 0.85);
    float epsilon = (float) options.unitInterval("epsilon", 0.0001);
    long iterations = options.positiveInteger("iterations", 10L);
    Graph graph = Graph.of(call.input(0), undirected);
    int n = graph.size();
    if (n == 0) {
      return;
    }
    int[][] sources = sources(graph);
    float init = 1f / n;
    float base = (1f - theta) / n;
    float[] scores = new float[n];
    float[] outScores = new float[n];
    Arrays.fill(scores, init);
    for (int u = 0; u < n; u++) {
      outScores[u] = init / graph.targets[u].length;
    }
    float[] nextScores = new float[n];
    float[] nextOutScores = new float[n];
    for (long iteration = 1; ; iteration++) {
      double error = 0;
      for (int u = 0; u < n; u++) {
        float incoming = 0f;
        for (int v : sources[u]) {
          incoming += outScores[v];
        }
        float score = base + theta * incoming;
        nextScores[u] = score;
        nextOutScores[u] = score / graph.targets[u].length;
        error += Math.abs((double) (score - scores[u]));
      }
      float[] swap = scores;
      scores = nextScores;
      nextScores = swap;
      swap = outScores;
      outScores = nextOutScores;
      nextOutScores = swap;
      call.stop().check();
      if (error < (double) epsilon || iteration == iterations) {
        break;
      }
    }
    for (int u = 0; u < n; u++) {
      out.accept(new Object[] {graph.nodes.get(u), (double) scores[u]});
    }
  }

  /** Each node's in-edges' sources, ascending, once per edge. */
  private static int[][] sources(Graph graph) {
    int n = graph.size();
    int[] count = new int[n];
    for (int[] targets : graph.targets) {
      for (int v : targets) {
        count[v]++;
      }
    }
    int[][] sources = new int[n][];
    for (int v = 0; v < n; v++) {
      sources[v] = new int[count[v]];
      count[v] = 0;
    }
    for (int u = 0; u < n; u++) {
      for (int v : graph.targets[u]) {
        sources[v][count[v]++] = u;
      }
    }
    return sources;
  }
}
