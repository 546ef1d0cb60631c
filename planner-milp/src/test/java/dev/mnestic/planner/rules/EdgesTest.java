package dev.mnestic.planner.rules;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.Workloads;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.physical.Feasibility;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.workload.Dashboards;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Edges#build} and {@link Edges#rejected} against the definition: every physical
 * consumer c, input i and physical candidate u of c's i-th child group (found by scanning all
 * candidates, not the space's index), α^log from r^log_{c,i} and u's p^log, α^phys from c's
 * p^phys, u's and how far back c reads; and {@link PlanSpace#feasibleInputs}, the feasible ones
 * by consumer and input.
 */
class EdgesTest {
  @Test void generatedDashboards() {
    for (int[] nAndSeed : new int[][] {{16, 1}, {16, 2}, {40, 3}, {64, 1}}) {
      check(WorkloadParser.parse(Dashboards.generate(nAndSeed[0], nAndSeed[1])), ParameterLists.DEFAULT);
    }
  }

  @Test void examplesAndSmallLists() throws IOException {
    check(Workloads.specExample(), ParameterLists.DEFAULT);
    check(Workloads.specExample(), new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true));
    try (var files = Files.list(Path.of("../examples/workloads"))) {
      for (Path file : files.toList()) {
        check(WorkloadParser.parse(Files.readString(file)), ParameterLists.DEFAULT);
      }
    }
    check(WorkloadParser.parse("metric m from t(ts, v) rate 100/s raw 10m\n"
        + "A: quantile_over_time(0.9, m[1m]) rank error 0.03 every 1m retain 1h\n"
        + "B: quantile_over_time(0.9, m[15m]) relative error 0.05 every 5m retain 2h\n"
        + "C: quantile_over_time(0.99, m[5m]) / quantile_over_time(0.5, m[5m]) relative error 0.1 every 5m retain 5m\n"
        + "D: quantile_over_time(0.5, m[1h]) exact every 1h retain 1d\n"
        + "budget heap 1MiB\n"), new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true));
  }

  private static void check(Workload workload, ParameterLists lists) {
    final PlanSpace space = Planner.space(workload, lists);
    final List<PhysicalEdge> feasible = new ArrayList<>();
    final List<PhysicalEdge> rejected = new ArrayList<>();
    final List<List<List<PhysicalEdge>>> inputs = new ArrayList<>();
    final Memo memo = space.memo();
    for (PhysicalCandidate c : space.candidates()) {
      final LogicalCandidate consumer = memo.candidate(c.logical());
      final Duration lookback = History.lookback(memo, c.logical(), c.properties().timing());
      inputs.add(new ArrayList<>());
      for (int i = 0; i < consumer.children().size(); i++) {
        inputs.get(c.id()).add(new ArrayList<>());
        for (PhysicalCandidate u : space.candidates()) {
          if (u.group() != consumer.children().get(i)) {
            continue;
          }
          final PhysicalEdge e = new PhysicalEdge(u.id(), c.id(), i,
              Feasibility.of(consumer.requirement(i).rejects(memo.candidate(u.logical()).properties())),
              Feasibility.of(c.properties().rejectsProducer(u.properties(), lookback)));
          (e.feasible() ? feasible : rejected).add(e);
          if (e.feasible()) {
            inputs.get(c.id()).get(i).add(e);
          }
        }
      }
    }
    assertTrue(!feasible.isEmpty() && !rejected.isEmpty());
    assertEquals(feasible, space.edges());
    assertEquals(inputs, space.feasibleInputs());
    assertEquals(rejected, Edges.rejected(space));
  }
}
