package dev.mnestic.graph;

import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * The priority queue of CozoDB's Dijkstra ({@code priority_queue::PriorityQueue} keyed by node,
 * lowest cost first): a node is in it at most once, {@link #pushIncrease} lowers its cost or
 * puts it back, and {@link #pop} takes the cheapest. Nodes of equal cost leave in ascending
 * number (CozoDB's order among them is its heap's, which this does not reproduce).
 */
final class NodeQueue {
  private record Entry(float cost, int node) {}

  private final PriorityQueue<Entry> heap =
      new PriorityQueue<>((a, b) -> a.cost != b.cost ? Float.compare(a.cost, b.cost)
          : Integer.compare(a.node, b.node));
  /** The cost each node is queued at; NaN when it is not queued. */
  private final float[] queued;
  /** The node the last {@link #pop} took. */
  int node;
  /** Its cost. */
  float cost;

  NodeQueue(int size) {
    queued = new float[size];
    Arrays.fill(queued, Float.NaN);
  }

  /** Queues {@code node} at {@code cost} unless it is queued at that cost or lower. */
  void pushIncrease(int node, float cost) {
    float q = queued[node];
    if (Float.isNaN(q) || cost < q) {
      queued[node] = cost;
      heap.add(new Entry(cost, node));
    }
  }

  /** Takes the cheapest node into {@link #node} and {@link #cost}; false when empty. */
  boolean pop() {
    Entry e;
    while ((e = heap.poll()) != null) {
      if (queued[e.node] == e.cost) {
        queued[e.node] = Float.NaN;
        node = e.node;
        cost = e.cost;
        return true;
      }
    }
    return false;
  }
}
