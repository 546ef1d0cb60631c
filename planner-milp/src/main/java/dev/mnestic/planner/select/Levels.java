package dev.mnestic.planner.select;

import dev.mnestic.planner.memo.Guarantee;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Λ_v: the guarantees candidate v can have in some plan. A fixed θ has its own; a readout or an
 * answer has one of its feasible producers'; a ratio has (a + b) / (1 - b) of one of each
 * operand's. Computed over feasible edges, children first.
 */
final class Levels {
  private Levels() {
  }

  static List<Set<Guarantee>> of(PlanSpace space) {
    final List<Set<Guarantee>> levels = new ArrayList<>();
    for (int v = 0; v < space.candidates().size(); v++) {
      levels.add(new LinkedHashSet<>());
    }
    final List<List<List<PhysicalEdge>>> inputs = space.feasibleInputs();
    for (int g : space.memo().topologicalOrder()) {
      for (int v : space.byGroup().get(g)) {
        final PhysicalCandidate c = space.candidates().get(v);
        final LogicalCandidate logical = space.memo().candidate(c.logical());
        if (logical.properties().parameters() instanceof Parameters.Fixed fixed) {
          levels.get(v).add(fixed.guarantee());
        } else if (logical.operator() instanceof Operator.Divide) {
          for (PhysicalEdge n : inputs.get(v).get(0)) {
            for (PhysicalEdge d : inputs.get(v).get(1)) {
              for (Guarantee a : levels.get(n.producer())) {
                for (Guarantee b : levels.get(d.producer())) {
                  levels.get(v).add(Guarantee.ratio(a, b));
                }
              }
            }
          }
        } else {
          for (PhysicalEdge e : inputs.get(v).get(0)) {
            levels.get(v).addAll(levels.get(e.producer()));
          }
        }
      }
    }
    return levels;
  }
}
