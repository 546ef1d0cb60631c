package dev.mnestic.graph;

import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code BreadthFirstSearch} / {@code BFS} and {@code DepthFirstSearch} / {@code DFS}
 * {@code (edges[from, to], nodes[n, ...], starting[n]?, condition: expr, limit: 1)}: from each
 * start (every node of {@code nodes} when no starting relation is given) in order, search
 * along {@code edges} for nodes whose {@code nodes} row satisfies {@code condition}, until
 * {@code limit} are found; rows {@code [start, found, path]}. As in CozoDB, nodes visited from one
 * start are not visited again from a later one; BFS tests the nodes it reaches, never the start
 * itself, and DFS tests the start too; when the condition uses no variable of {@code nodes} but
 * the first, nodes need no row in {@code nodes}.
 */
final class Search implements FixedRule {
  private final boolean breadthFirst;

  Search(boolean breadthFirst) {
    this.breadthFirst = breadthFirst;
  }

  @Override
  public int arity(Options options, List<String> head) {
    return 3;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Rows edges = new Rows(Errors.atLeast(call.input(0), 2));
    Input nodesInput = call.input(1);
    Rows nodes = new Rows(nodesInput);
    Input starting = call.inputs().size() > 2 ? call.input(2) : nodesInput;
    long limit = call.options().positiveInteger("limit", 1L);
    Condition condition = new Condition(call.options().expression("condition"), nodesInput,
        nodes);
    Steps steps = new Steps(call.stop());
    Set<Object> visited = new TreeSet<>(Values.ORDER);
    Map<Object, Object> backTrace = new TreeMap<>(Values.ORDER);
    List<Object[]> found = new ArrayList<>();
    for (Object[] startRow : starting.rows()) {
      Object start = startRow[0];
      if (visited.contains(start)) {
        continue;
      }
      if (breadthFirst
          ? breadthFirst(start, edges, condition, limit, visited, backTrace, found, steps)
          : depthFirst(start, edges, condition, limit, visited, backTrace, found, steps)) {
        break;
      }
    }
    for (Object[] pair : found) {
      List<Object> route = new ArrayList<>();
      for (Object current = pair[1]; !Values.equal(current, pair[0]);
          current = backTrace.get(current)) {
        route.add(current);
      }
      route.add(pair[0]);
      Collections.reverse(route);
      out.accept(new Object[] {pair[0], pair[1], Values.listOf(route)});
    }
  }

  /** Searches from {@code start}; true when the limit was reached. */
  private static boolean breadthFirst(Object start, Rows edges, Condition condition, long limit,
      Set<Object> visited, Map<Object, Object> backTrace, List<Object[]> found, Steps steps) {
    visited.add(start);
    Deque<Object> queue = new ArrayDeque<>();
    queue.add(start);
    Object candidate;
    while ((candidate = queue.poll()) != null) {
      for (Object[] edge : edges.startingWith(candidate)) {
        Object to = edge[1];
        if (!visited.add(to)) {
          continue;
        }
        backTrace.put(to, candidate);
        if (condition.holds(to, candidate)) {
          found.add(new Object[] {start, to});
          if (found.size() >= limit) {
            return true;
          }
        }
        queue.add(to);
        steps.tick();
      }
    }
    return false;
  }

  /** Searches from {@code start}; true when the limit was reached. */
  private static boolean depthFirst(Object start, Rows edges, Condition condition, long limit,
      Set<Object> visited, Map<Object, Object> backTrace, List<Object[]> found, Steps steps) {
    Deque<Object> stack = new ArrayDeque<>();
    stack.push(start);
    Object candidate;
    while ((candidate = stack.poll()) != null) {
      if (visited.contains(candidate)) {
        continue;
      }
      if (condition.holds(candidate, candidate)) {
        found.add(new Object[] {start, candidate});
        if (found.size() >= limit) {
          return true;
        }
      }
      visited.add(candidate);
      for (Object[] edge : edges.startingWith(candidate)) {
        Object to = edge[1];
        if (visited.contains(to)) {
          continue;
        }
        backTrace.put(to, candidate);
        stack.push(to);
        steps.tick();
      }
    }
    return false;
  }

  /** The {@code condition} option over a node's row of {@code nodes}. */
  private static final class Condition {
    private final Function<Object[], Object> onKey;
    private final Function<Object[], Object> onRow;
    private final Rows nodes;

    Condition(Expression condition, Input nodesInput, Rows nodes) {
      this.nodes = nodes;
      List<String> bindings = nodesInput.bindings();
      Function<Object[], Object> keyOnly;
      try {
        keyOnly = condition.bind(bindings.isEmpty() ? List.of() : bindings.subList(0, 1));
      } catch (ValueException e) {
        if (e.errorCode() != ErrorCode.EVAL_UNBOUND_VARIABLE) {
          throw e;
        }
        keyOnly = null;
      }
      this.onKey = keyOnly;
      this.onRow = keyOnly == null ? condition.bind(bindings) : null;
    }

    /**
     * Whether {@code node} satisfies it; {@code reachedFrom} is the node CozoDB names when
     * {@code node} has no row (BFS names the node it came from).
     */
    boolean holds(Object node, Object reachedFrom) {
      Object v;
      if (onKey != null) {
        v = onKey.apply(new Object[] {node});
      } else {
        Object[] row = nodes.first(node);
        if (row == null) {
          throw Errors.nodeNotFound(reachedFrom);
        }
        v = onRow.apply(row);
      }
      if (v instanceof Boolean) {
        return (Boolean) v;
      }
      throw new ValueException(ErrorCode.EVAL_PREDICATE_NOT_BOOL,
          "Predicate must have boolean return type", "got " + Values.display(v));
    }
  }
}
