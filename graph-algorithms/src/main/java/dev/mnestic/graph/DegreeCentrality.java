package dev.mnestic.graph;

import dev.mnestic.value.FixedRule;
import dev.mnestic.value.Values;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * {@code DegreeCentrality(edges[from, to], nodes[n]?)}: rows {@code [node, degree, out-degree,
 * in-degree]}, counting each row of {@code edges} (so parallel edges and loops count each
 * time), and 0s for the nodes of {@code nodes} no edge names.
 */
final class DegreeCentrality implements FixedRule {
  @Override
  public int arity(Options options, List<String> head) {
    return 4;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Map<Object, long[]> counts = new TreeMap<>(Values.ORDER);
    Steps steps = new Steps(call.stop());
    for (Object[] row : Errors.atLeast(call.input(0), 2).rows()) {
      long[] from = counts.computeIfAbsent(row[0], k -> new long[3]);
      from[0]++;
      from[1]++;
      long[] to = counts.computeIfAbsent(row[1], k -> new long[3]);
      to[0]++;
      to[2]++;
      steps.tick();
    }
    if (call.inputs().size() > 1) {
      for (Object[] row : call.input(1).rows()) {
        counts.computeIfAbsent(row[0], k -> new long[3]);
      }
    }
    counts.forEach((node, c) -> out.accept(new Object[] {node, c[0], c[1], c[2]}));
  }
}
