package dev.mnestic.planner.rules;

import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.physical.Feasibility;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the edge set E once, after the last rule: for every physical consumer c, input i and
 * physical candidate u of c's i-th child group, the edge (u, c, i) with α^log (u's θ and metric
 * against r^log_{c,i}) and α^phys (u's timing and history against r^phys of c's p^phys).
 */
public final class Edges {
  private Edges() {
  }

  public static List<PhysicalEdge> build(Memo memo, List<PhysicalCandidate> candidates,
      List<List<Integer>> byGroup) {
    final List<PhysicalEdge> edges = new ArrayList<>();
    for (PhysicalCandidate c : candidates) {
      final LogicalCandidate consumer = memo.candidate(c.logical());
      final Duration lookback = History.lookback(memo, c.logical(), c.properties().timing());
      for (int i = 0; i < consumer.children().size(); i++) {
        for (int u : byGroup.get(consumer.children().get(i))) {
          final PhysicalCandidate producer = candidates.get(u);
          edges.add(new PhysicalEdge(u, c.id(), i,
              Feasibility.of(consumer.requirement(i).rejects(memo.candidate(producer.logical()).properties())),
              Feasibility.of(c.properties().rejectsProducer(producer.properties(), lookback))));
        }
      }
    }
    return edges;
  }
}
