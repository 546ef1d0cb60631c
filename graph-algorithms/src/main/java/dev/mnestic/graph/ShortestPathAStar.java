package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import dev.mnestic.value.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code ShortestPathAStar(edges[from, to, weight?], nodes[n, ...], starting[n], goals[n, ...],
 * heuristic: expr)}: A* from each start to each goal, rows {@code [start, goal, cost, path]} (an
 * infinite cost and an empty path when unreachable). The heuristic is evaluated over a node's
 * row of {@code nodes} followed by the goal's row, its variables those the two applications
 * bind; costs are double-precision, weights any number but NaN (negative ones too), as in
 * CozoDB. Of queued nodes of equal estimate the last queued is taken first, CozoDB's order.
 */
final class ShortestPathAStar implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 4;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Rows edges = new Rows(Errors.atLeast(call.input(0), 2));
    Input nodesInput = call.input(1);
    Rows nodes = new Rows(nodesInput);
    Input starting = call.input(2);
    Input goals = call.input(3);
    // the nodes' variables, then the goals' (which win a name both bind), "" where unbound
    List<String> names = new ArrayList<>(Collections.nCopies(nodesInput.arity(), ""));
    for (int i = 0; i < nodesInput.bindings().size(); i++) {
      String name = nodesInput.bindings().get(i);
      names.set(i, goals.bindings().contains(name) ? "" : name);
    }
    names.addAll(goals.bindings());
    Function<Object[], Object> heuristic = call.options().expression("heuristic").bind(names);
    Steps steps = new Steps(call.stop());
    for (Object[] start : starting.rows()) {
      for (Object[] goal : goals.rows()) {
        search(start[0], goal, edges, nodes, heuristic, steps, out);
      }
    }
  }

  private record Queued(double estimate, long order, Object node) {}

  private static void search(Object start, Object[] goal, Rows edges, Rows nodes,
      Function<Object[], Object> heuristic, Steps steps, Consumer<Object[]> out) {
    Object goalNode = goal[0];
    Map<Object, Object> backTrace = new TreeMap<>(Values.ORDER);
    Map<Object, Double> gScore = new TreeMap<>(Values.ORDER);
    gScore.put(start, 0.0);
    // highest priority first: lowest estimate, then the latest queued
    PriorityQueue<Queued> open = new PriorityQueue<>((a, b) -> a.estimate != b.estimate
        ? Double.compare(a.estimate, b.estimate) : Long.compare(b.order, a.order));
    Map<Object, Long> queued = new TreeMap<>(Values.ORDER);
    long order = 0;
    open.add(new Queued(0.0, 0, start));
    queued.put(start, 0L);
    Queued top;
    while ((top = open.poll()) != null) {
      if (!Long.valueOf(top.order).equals(queued.get(top.node))) {
        continue; // replaced by a later push of the same node
      }
      queued.remove(top.node);
      Object node = top.node;
      if (Values.equal(node, goalNode)) {
        List<Object> path = new ArrayList<>();
        for (Object current = node; !Values.equal(current, start);
            current = backTrace.get(current)) {
          path.add(current);
        }
        path.add(start);
        Collections.reverse(path);
        out.accept(new Object[] {start, goalNode, top.estimate, Values.listOf(path)});
        return;
      }
      for (Object[] edge : edges.startingWith(node)) {
        Object to = edge[1];
        double edgeCost = 1.0;
        if (edge.length > 2) {
          if (!(edge[2] instanceof Long || edge[2] instanceof Double)
              || Double.isNaN(((Number) edge[2]).doubleValue())) {
            throw Errors.unacceptableValue(to, "edge cost must be a number");
          }
          edgeCost = ((Number) edge[2]).doubleValue();
        }
        double tentative = gScore.getOrDefault(node, Double.POSITIVE_INFINITY) + edgeCost;
        if (tentative < gScore.getOrDefault(to, Double.POSITIVE_INFINITY)) {
          backTrace.put(to, node);
          gScore.put(to, tentative);
          Object[] row = nodes.first(to);
          if (row == null) {
            throw Errors.nodeNotFound(to);
          }
          double estimate = tentative + estimate(heuristic, row, goal);
          order++;
          queued.put(to, order);
          open.add(new Queued(estimate, order, to));
        }
        steps.tick();
      }
    }
    out.accept(new Object[] {start, goalNode, Double.POSITIVE_INFINITY, List.of()});
  }

  private static double estimate(Function<Object[], Object> heuristic, Object[] node,
      Object[] goal) {
    Object[] row = new Object[node.length + goal.length];
    System.arraycopy(node, 0, row, 0, node.length);
    System.arraycopy(goal, 0, row, node.length, goal.length);
    Object v = heuristic.apply(row);
    if (!(v instanceof Long || v instanceof Double)) {
      throw Errors.unacceptableValue(v, "a number is required");
    }
    double h = ((Number) v).doubleValue();
    if (Double.isNaN(h)) {
      throw Errors.unacceptableValue(h, "a number is required");
    }
    return h;
  }
}
