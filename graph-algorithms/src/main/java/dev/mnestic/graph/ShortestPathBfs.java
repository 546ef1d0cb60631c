package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
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

/**
 * {@code ShortestPathBFS(edges[from, to], starting[n], goals[n])}: a path of fewest edges from
 * each start to each goal, rows {@code [start, goal, path]}, the path null when there is none,
 * and, as in CozoDB, null from a start to itself.
 */
final class ShortestPathBfs implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 3;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Rows edges = new Rows(Errors.atLeast(call.input(0), 2));
    Input starting = Errors.atLeast(call.input(1), 1);
    Set<Object> goals = new TreeSet<>(Values.ORDER);
    for (Object[] row : Errors.atLeast(call.input(2), 1).rows()) {
      goals.add(row[0]);
    }
    Steps steps = new Steps(call.stop());
    for (Object[] startRow : starting.rows()) {
      Object start = startRow[0];
      Set<Object> pending = new TreeSet<>(Values.ORDER);
      pending.addAll(goals);
      Set<Object> visited = new TreeSet<>(Values.ORDER);
      Map<Object, Object> backTrace = new TreeMap<>(Values.ORDER);
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
          pending.remove(to);
          if (pending.isEmpty()) {
            break;
          }
          queue.add(to);
          steps.tick();
        }
      }
      for (Object goal : goals) {
        if (!backTrace.containsKey(goal)) {
          out.accept(new Object[] {start, goal, null});
          continue;
        }
        List<Object> route = new ArrayList<>();
        for (Object current = goal; !Values.equal(current, start);
            current = backTrace.get(current)) {
          route.add(current);
        }
        route.add(start);
        Collections.reverse(route);
        out.accept(new Object[] {start, goal, Values.listOf(route)});
      }
    }
  }
}
