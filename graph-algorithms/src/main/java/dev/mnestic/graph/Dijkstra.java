package dev.mnestic.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * CozoDB's Dijkstra ({@code shortest_path_dijkstra.rs}) over a {@link Graph}: costs are sums of
 * single-precision weights, nodes of equal cost leave its queue ({@link HeapQueue}) in CozoDB's
 * order, a search stops once every goal was taken from the queue, and forbidden edges and
 * nodes (Yen's) are skipped.
 */
final class Dijkstra {
  /** A path found: its target, its cost (infinite when unreachable) and its nodes (then empty). */
  record Path(int target, float cost, int[] nodes) {}

  private static final int[] NO_PATH = new int[0];

  private final Graph graph;
  private final Steps steps;
  /** Edges {@code u * size + v} not to follow; null when none. */
  private Set<Long> forbiddenEdges;
  /** Nodes not to enter; null when none. */
  private boolean[] forbiddenNodes;

  Dijkstra(Graph graph, Steps steps) {
    this.graph = graph;
    this.steps = steps;
  }

  Dijkstra forbidding(Set<Long> edges, boolean[] nodes) {
    forbiddenEdges = edges;
    forbiddenNodes = nodes;
    return this;
  }

  static long edge(int from, int to) {
    return ((long) from << 32) | to;
  }

  private boolean allowed(int from, int to) {
    return (forbiddenNodes == null || !forbiddenNodes[to])
        && (forbiddenEdges == null || !forbiddenEdges.contains(edge(from, to)));
  }

  /** The costs from {@code start} to every node (infinite where unreachable). */
  float[] costs(int start) {
    float[] distance = new float[graph.size()];
    Arrays.fill(distance, Float.POSITIVE_INFINITY);
    distance[start] = 0f;
    HeapQueue<Integer, Float> queue = new HeapQueue<>(HeapQueue.LOWEST_COST);
    queue.push(start, 0f);
    while (queue.pop()) {
      int node = queue.item;
      float cost = queue.priority;
      if (cost > distance[node]) {
        continue;
      }
      int[] targets = graph.targets[node];
      for (int i = 0; i < targets.length; i++) {
        float next = cost + graph.weights[node][i];
        if (next < distance[targets[i]]) {
          queue.pushIncrease(targets[i], next);
          distance[targets[i]] = next;
        }
      }
      steps.tick();
    }
    return distance;
  }

  /**
   * One shortest path from {@code start} to each goal ({@code goals} ascending; null for every
   * node), in goal order.
   */
  List<Path> paths(int start, int[] goals) {
    int n = graph.size();
    float[] distance = new float[n];
    Arrays.fill(distance, Float.POSITIVE_INFINITY);
    int[] back = new int[n];
    distance[start] = 0f;
    search(start, goals, distance, back, null);
    List<Path> found = new ArrayList<>();
    for (int target : goals == null ? all(n) : goals) {
      float cost = distance[target];
      if (!Float.isFinite(cost)) {
        found.add(new Path(target, cost, NO_PATH));
        continue;
      }
      List<Integer> path = new ArrayList<>();
      for (int current = target; current != start; current = back[current]) {
        path.add(current);
      }
      path.add(start);
      found.add(new Path(target, cost, reversed(path)));
    }
    return found;
  }

  /**
   * Every shortest path from {@code start} to each goal ({@code goals} ascending; null for
   * every node), grouped by goal in goal order; an unreachable goal gets one path, empty, of
   * infinite cost, and {@code start} itself none.
   */
  List<Path> pathsKeepingTies(int start, int[] goals) {
    int n = graph.size();
    float[] distance = new float[n];
    Arrays.fill(distance, Float.POSITIVE_INFINITY);
    List<List<Integer>> back = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      back.add(new ArrayList<>(1));
    }
    distance[start] = 0f;
    search(start, goals, distance, null, back);
    List<Path> found = new ArrayList<>();
    int[] chain = new int[n + 1];
    int[] next = new int[n + 1];
    for (int target : goals == null ? all(n) : goals) {
      float cost = distance[target];
      if (!Float.isFinite(cost)) {
        found.add(new Path(target, cost, NO_PATH));
        continue;
      }
      // CollectPath: depth first through the back pointers, in their order; `chain` holds
      // target, ..., and `next[d]` which back pointer of chain[d] is followed next
      chain[0] = target;
      next[0] = 0;
      int depth = 0;
      while (depth >= 0) {
        List<Integer> prevs = back.get(chain[depth]);
        if (next[depth] == prevs.size()) {
          depth--;
          continue;
        }
        int prev = prevs.get(next[depth]++);
        steps.tick();
        if (prev == start) {
          int[] path = new int[depth + 2];
          path[0] = start;
          for (int i = 0; i <= depth; i++) {
            path[depth + 1 - i] = chain[i];
          }
          found.add(new Path(target, cost, path));
        } else {
          if (++depth == chain.length) { // only through a cycle of weight 0
            chain = Arrays.copyOf(chain, 2 * depth);
            next = Arrays.copyOf(next, 2 * depth);
          }
          chain[depth] = prev;
          next[depth] = 0;
        }
      }
    }
    return found;
  }

  /**
   * The search itself: one back pointer per node into {@code back}, or with
   * {@code backTies} every predecessor on a shortest path (a node is queued again when a tie
   * reaches it after it left the queue, as CozoDB's {@code push_increase} does).
   */
  private void search(int start, int[] goals, float[] distance, int[] back,
      List<List<Integer>> backTies) {
    int n = graph.size();
    boolean[] goal = null;
    int remaining = 0;
    if (goals != null) {
      goal = new boolean[n];
      for (int g : goals) {
        goal[g] = true;
      }
      remaining = goals.length;
    }
    HeapQueue<Integer, Float> queue = new HeapQueue<>(HeapQueue.LOWEST_COST);
    queue.push(start, 0f);
    while (queue.pop()) {
      int node = queue.item;
      float cost = queue.priority;
      if (cost > distance[node]) {
        continue;
      }
      int[] targets = graph.targets[node];
      for (int i = 0; i < targets.length; i++) {
        int next = targets[i];
        if (!allowed(node, next)) {
          continue;
        }
        float nextCost = cost + graph.weights[node][i];
        if (nextCost < distance[next]) {
          queue.pushIncrease(next, nextCost);
          distance[next] = nextCost;
          if (backTies != null) {
            backTies.get(next).clear();
            backTies.get(next).add(node);
          } else {
            back[next] = node;
          }
        } else if (backTies != null && nextCost == distance[next]) {
          queue.pushIncrease(next, nextCost);
          backTies.get(next).add(node);
        }
        steps.tick();
      }
      if (goal != null) {
        if (goal[node]) {
          goal[node] = false;
          remaining--;
        }
        if (remaining == 0) {
          break;
        }
      }
    }
  }

  private static int[] all(int n) {
    int[] all = new int[n];
    for (int i = 0; i < n; i++) {
      all[i] = i;
    }
    return all;
  }

  private static int[] reversed(List<Integer> path) {
    int[] nodes = new int[path.size()];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = path.get(path.size() - 1 - i);
    }
    return nodes;
  }
}
