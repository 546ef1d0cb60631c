package dev.mnestic.graph;

import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * {@code RandomWalk(edges[from, to, ...], nodes[n, ...], starting[n], steps: S, iterations: 1,
 * weight?: expr)}: {@code iterations} walks of up to {@code steps} steps from each start, rows
 * {@code [walk number (from 1), start, path]}; a walk ends early at a node without out-edges.
 * Each step takes one of the current node's edges (rows of {@code edges} starting with it) at
 * random, uniformly, or in proportion to {@code weight} evaluated over the current node's row
 * of {@code nodes} followed by the edge's row. CozoDB draws from an unseeded generator, so its
 * walks cannot be reproduced; these are walks of the same definition. Where every weight of a
 * node's edges is 0 CozoDB panics; this fails with {@code algo::unacceptable_value}.
 */
final class RandomWalk implements FixedRule {
  private static final String WEIGHT_HELP = "'weight' must evaluate to a non-negative number";

  private final Supplier<RandomGenerator> random;

  RandomWalk(Supplier<RandomGenerator> random) {
    this.random = random;
  }

  @Override
  public int arity(Options options, List<String> head) {
    return 3;
  }

  @Override
  public void run(Call call, Consumer<Object[]> out) {
    Input edgesInput = Errors.atLeast(call.input(0), 2);
    Rows edges = new Rows(edgesInput);
    Input nodesInput = call.input(1);
    Rows nodes = new Rows(nodesInput);
    Input starting = call.input(2);
    long iterations = call.options().positiveInteger("iterations", 1L);
    long steps = call.options().positiveInteger("steps", null);
    Function<Object[], Object> weight = null;
    if (call.options().has("weight")) {
      // the nodes' variables, then the edges' (which win a name both bind), "" where unbound
      List<String> names =
          new ArrayList<>(Collections.nCopies(nodesInput.arity(), ""));
      for (int i = 0; i < nodesInput.bindings().size(); i++) {
        String name = nodesInput.bindings().get(i);
        names.set(i, edgesInput.bindings().contains(name) ? "" : name);
      }
      names.addAll(edgesInput.bindings());
      weight = call.options().expression("weight").bind(names);
    }
    RandomGenerator rng = random.get();
    Steps ticks = new Steps(call.stop());
    long counter = 0;
    for (Object[] startRow : starting.rows()) {
      Object start = startRow[0];
      Object[] startTuple = nodes.first(start);
      if (startTuple == null) {
        throw Errors.nodeNotFound(start);
      }
      for (long it = 0; it < iterations; it++) {
        counter++;
        Object[] current = startTuple;
        List<Object> path = new ArrayList<>();
        path.add(start);
        for (long s = 0; s < steps; s++) {
          List<Object[]> candidates = edges.startingWith(current[0]);
          if (candidates.isEmpty()) {
            break;
          }
          Object[] step = weight == null
              ? candidates.get(rng.nextInt(candidates.size()))
              : weighted(candidates, current, weight, rng);
          Object next = step[1];
          path.add(next);
          current = nodes.first(next);
          if (current == null) {
            throw Errors.nodeNotFound(next);
          }
          ticks.tick();
        }
        out.accept(new Object[] {counter, start, Values.listOf(path)});
      }
    }
  }

  private static Object[] weighted(List<Object[]> candidates, Object[] current,
      Function<Object[], Object> weight, RandomGenerator rng) {
    double[] cumulative = new double[candidates.size()];
    double total = 0;
    for (int i = 0; i < candidates.size(); i++) {
      Object[] edge = candidates.get(i);
      Object[] row = new Object[current.length + edge.length];
      System.arraycopy(current, 0, row, 0, current.length);
      System.arraycopy(edge, 0, row, current.length, edge.length);
      Object v = weight.apply(row);
      if (!(v instanceof Long || v instanceof Double)) {
        throw Errors.unacceptableValue(v, WEIGHT_HELP);
      }
      double w = ((Number) v).doubleValue();
      if (!(w >= 0)) {
        throw Errors.unacceptableValue(w, WEIGHT_HELP);
      }
      total += w;
      cumulative[i] = total;
    }
    if (!(total > 0) || Double.isInfinite(total)) {
      throw new ValueException(ErrorCode.ALGO_UNACCEPTABLE_VALUE,
          "Unacceptable value " + Values.display(total) + " encountered",
          "the weights of a node's edges must sum to a positive finite number");
    }
    double pick = rng.nextDouble(total);
    for (int i = 0; i < cumulative.length; i++) {
      if (pick < cumulative[i]) {
        return candidates.get(i);
      }
    }
    return candidates.get(candidates.size() - 1);
  }
}
