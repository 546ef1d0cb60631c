package dev.mnestic.planner.rules;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.Workloads;
import dev.mnestic.planner.memo.Family;
import dev.mnestic.planner.memo.GroupKey;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.physical.Lifetime;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PhysicalProperties;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.physical.StorageMedium;
import dev.mnestic.planner.physical.Timing;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stage 2's physical alternatives and the edges (u, c, i) with α^log and α^phys. */
class PlanSpaceTest {
  @Test void physicalPropertiesRejectWhatCannotBe() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new PhysicalProperties(Timing.INGEST, new Lifetime.None()));
    assertTrue(e.getMessage().contains("must be kept"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> new Lifetime.AcrossEvaluations(StorageMedium.HEAP, Duration.ZERO));
    assertEquals(Duration.ZERO, new PhysicalProperties(Timing.INGEST,
        new Lifetime.OneEvaluation(StorageMedium.HEAP)).history());
    assertEquals(null, new PhysicalProperties(Timing.EVALUATION, new Lifetime.None()).history());
  }

  @Test void metricRuleLeavesNoKllEdgeIntoTheRatio() {
    final PlanSpace space = Planner.space(Workloads.specExample(), ParameterLists.DEFAULT);
    final Memo memo = space.memo();
    final List<PhysicalEdge> intoDivide = every(space).stream()
        .filter(e -> op(space, e.consumer()) instanceof Operator.Divide).toList();
    assertFalse(intoDivide.isEmpty());
    for (PhysicalEdge e : intoDivide) {
      final Family family = readoutFamily(space, e.producer());
      if (family == Family.KLL) {
        assertEquals("rank error does not bound relative error (metric rule)", e.alphaLog().rejection());
      } else {
        assertTrue(e.alphaLog().ok(), e + " from " + family);
      }
    }
    // A's answer reads KLL and exact readouts, not the DDSketch ones.
    final int answerA = space.answers().get("A");
    for (PhysicalEdge e : every(space)) {
      if (e.consumer() == answerA && op(space, e.producer()) instanceof Operator.Readout) {
        assertEquals(readoutFamily(space, e.producer()) != Family.DDSKETCH, e.alphaLog().ok(), e.toString());
      }
    }
    // Stage 2 recorded the combination its checked constructor refuses.
    assertTrue(space.pruned().stream().anyMatch(p -> p.reason().contains("must be kept")));
    assertTrue(memo.groupCount() > 0);
  }

  @Test void mergeEdgesCheckParameterFloorsAndHistory() {
    final PlanSpace space = Planner.space(WorkloadParser.parse("metric m from t(ts, v) rate 100/s\n"
        + "A: quantile_over_time(0.9, m[1m]) rank error 0.03 every 1m retain 1h\n"
        + "B: quantile_over_time(0.9, m[5m]) relative error 0.05 every 5m retain 1h\n"
        + "C: quantile_over_time(0.9, m[5m]) rank error 0.03 every 5m retain 1h\n"),
        new ParameterLists(List.of(100, 400), List.of(0.01, 0.02), false));
    final List<PhysicalEdge> intoMerges = every(space).stream()
        .filter(e -> op(space, e.consumer()) instanceof Operator.Merge).toList();
    assertFalse(intoMerges.isEmpty());
    int kllRejected = 0;
    int ddRejected = 0;
    for (PhysicalEdge e : intoMerges) {
      final Parameters into = theta(space, e.consumer());
      final Parameters from = theta(space, e.producer());
      if (into instanceof Parameters.Kll k && from instanceof Parameters.Kll f) {
        assertEquals(f.k() >= k.k(), e.alphaLog().ok(), e.toString());
        if (f.k() < k.k()) {
          kllRejected++;
          assertEquals("KLL k=100 < k=400: the merge would lose accuracy", e.alphaLog().rejection());
        }
      } else if (into instanceof Parameters.DdSketch d && from instanceof Parameters.DdSketch f) {
        assertEquals(f.alpha() == d.alpha(), e.alphaLog().ok(), e.toString());
        if (f.alpha() != d.alpha()) {
          ddRejected++;
          assertTrue(e.alphaLog().rejection().startsWith("DDSketch merge needs one index mapping"));
        }
      }
      // A 5m merge reads sub-windows 4m back: a 1m state kept for its own evaluation only cannot feed it.
      final PhysicalProperties p = space.candidates().get(e.producer()).properties();
      if (p.timing() == Timing.INGEST && p.lifetime() instanceof Lifetime.OneEvaluation) {
        assertEquals("the consumer reads 4m back; the producer keeps only the current window",
            e.alphaPhys().rejection());
      }
    }
    assertTrue(kllRejected > 0 && ddRejected > 0);
    // Builds at ingest read the store's rows as they arrive.
    final Predicate<PhysicalEdge> intoIngestBuild = e -> op(space, e.consumer()) instanceof Operator.Build
        && space.candidates().get(e.consumer()).properties().timing() == Timing.INGEST;
    assertTrue(every(space).stream().filter(intoIngestBuild).allMatch(PhysicalEdge::feasible));
    // History levels reach the 1m state: 1h retention and 4m of merge lookback.
    final int oneMinute = space.memo().find(new GroupKey.State(Family.KLL, "m",
        dev.mnestic.planner.workload.Window.tumbling(Duration.ofMinutes(1))));
    assertTrue(space.history().get(oneMinute).containsAll(List.of(Duration.ofHours(1),
        Duration.ofMinutes(4), Duration.ofMinutes(64))), space.history().get(oneMinute).toString());
  }

  @Test void stage2PrunesStatesTooCoarseForEveryReader() {
    final PlanSpace space = Planner.space(Workloads.specExample(), ParameterLists.DEFAULT);
    // The loosest target is B's 0.05: no state with a larger ε of its own is left.
    for (PhysicalCandidate v : space.candidates()) {
      final LogicalCandidate c = space.memo().candidate(v.logical());
      if (c.properties().parameters() instanceof Parameters.Fixed f) {
        assertTrue(f.guarantee().epsilon() <= 0.05, c.toString());
      }
    }
    final PlanSpace tight = Planner.space(WorkloadParser.parse("metric m from t(ts, v) rate 10/s\n"
        + "A: quantile_over_time(0.9, m[1m]) rank error 0.01 every 1m retain 1h\n"),
        ParameterLists.DEFAULT);
    assertTrue(tight.pruned().stream().anyMatch(p -> p.what().contains("k=100")
        && p.reason().startsWith("ε=0.026")), tight.pruned().toString());
  }

  @Test void stage2KeepsNoDominatedAlternative() {
    final PlanSpace space = Planner.space(Workloads.specExample(), ParameterLists.DEFAULT);
    assertTrue(space.pruned().stream().anyMatch(p -> p.reason().startsWith("dominated by")));
    for (PhysicalCandidate p : space.candidates()) {
      for (PhysicalCandidate q : space.candidates()) {
        final PhysicalProperties a = q.properties();
        final PhysicalProperties b = p.properties();
        if (q != p && q.logical() == p.logical() && a.timing() == b.timing()
            && a.recomputedOnDemand() == b.recomputedOnDemand()
            && java.util.Objects.equals(a.history(), b.history())
            && (b.lifetime() instanceof Lifetime.None || !(a.lifetime() instanceof Lifetime.None))) {
          // Of two interchangeable alternatives only a dearer, or a less free, one may stay.
          assertTrue(space.weight(q.id()) > space.weight(p.id()), q + " dominates " + p);
        }
        if (q.logical() == p.logical() && a.timing() == Timing.INGEST && b.timing() == Timing.EVALUATION
            && a.lifetime() instanceof Lifetime.AcrossEvaluations
            && b.lifetime() instanceof Lifetime.AcrossEvaluations
            && a.history().equals(b.history())) {
          // A build kept across evaluations: the one at ingest serves every consumer the one at
          // evaluation does and reads no rows back, so the latter stays only when cheaper.
          assertTrue(space.weight(q.id()) > space.weight(p.id()), q + " dominates " + p);
        }
      }
    }
    assertTrue(space.pruned().stream().anyMatch(p -> p.what().contains("EVALUATION, kept")
        && p.reason().startsWith("dominated by INGEST, kept")), space.pruned().toString());
  }

  /**
   * The plan space's edges and the rejected ones the viewer lists: each (u, c, i) once, the
   * first all feasible, the others all rejected.
   */
  private static List<PhysicalEdge> every(PlanSpace space) {
    final List<PhysicalEdge> rejected = Edges.rejected(space);
    assertTrue(space.edges().stream().allMatch(PhysicalEdge::feasible));
    assertTrue(rejected.stream().noneMatch(PhysicalEdge::feasible));
    final List<PhysicalEdge> all = new java.util.ArrayList<>(space.edges());
    all.addAll(rejected);
    int considered = 0;
    for (PhysicalCandidate c : space.candidates()) {
      for (int child : space.memo().candidate(c.logical()).children()) {
        considered += space.byGroup().get(child).size();
      }
    }
    assertEquals(considered, all.size());
    return all;
  }

  private static Operator op(PlanSpace space, int v) {
    return space.memo().candidate(space.candidates().get(v).logical()).operator();
  }

  private static Parameters theta(PlanSpace space, int v) {
    return space.memo().candidate(space.candidates().get(v).logical()).properties().parameters();
  }

  private static Family readoutFamily(PlanSpace space, int v) {
    final LogicalCandidate c = space.memo().candidate(space.candidates().get(v).logical());
    if (!(c.operator() instanceof Operator.Readout)) {
      return Family.EXACT_VALUES;
    }
    return ((GroupKey.State) space.memo().key(c.children().get(0))).family();
  }
}
