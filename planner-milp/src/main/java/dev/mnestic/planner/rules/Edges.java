package dev.mnestic.planner.rules;

import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.physical.Feasibility;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the edge set E once, after the last rule: for every physical consumer c, input i and
 * physical candidate u of c's i-th child group, the edge (u, c, i) with α^log (u's θ and metric
 * against r^log_{c,i}) and α^phys (u's timing and history against r^phys of c's p^phys). The
 * plan space keeps the feasible edges, the domain of y; {@link #rejected} lists the others with
 * their reasons, on demand (the viewer's), as most edges are rejected and nothing else reads them.
 */
public final class Edges {
  private Edges() {
  }

  /** The feasible edges. */
  public static List<PhysicalEdge> build(Memo memo, List<PhysicalCandidate> candidates,
      List<List<Integer>> byGroup) {
    return edges(memo, candidates, byGroup, true);
  }

  /** The edges of {@code space} that α^log or α^phys rejects, each with its reason. */
  public static List<PhysicalEdge> rejected(PlanSpace space) {
    return edges(space.memo(), space.candidates(), space.byGroup(), false);
  }

  private static List<PhysicalEdge> edges(Memo memo, List<PhysicalCandidate> candidates,
      List<List<Integer>> byGroup, boolean feasible) {
    final List<PhysicalEdge> edges = new ArrayList<>();
    for (PhysicalCandidate c : candidates) {
      final LogicalCandidate consumer = memo.candidate(c.logical());
      final Duration lookback = History.lookback(memo, c.logical(), c.properties().timing());
      for (int i = 0; i < consumer.children().size(); i++) {
        // α^log depends on the logical candidates alone: once per producer's.
        final Map<Integer, Feasibility> alphaLog = new HashMap<>();
        for (int u : byGroup.get(consumer.children().get(i))) {
          final PhysicalCandidate producer = candidates.get(u);
          final int input = i;
          final Feasibility log = alphaLog.computeIfAbsent(producer.logical(), p -> Feasibility.of(
              consumer.requirement(input).rejects(memo.candidate(p).properties())));
          final PhysicalEdge e = new PhysicalEdge(u, c.id(), i, log,
              Feasibility.of(c.properties().rejectsProducer(producer.properties(), lookback)));
          if (e.feasible() == feasible) {
            edges.add(e);
          }
        }
      }
    }
    return edges;
  }
}
