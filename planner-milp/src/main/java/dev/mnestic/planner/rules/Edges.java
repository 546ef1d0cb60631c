package dev.mnestic.planner.rules;

import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.LogicalRequirements;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.Feasibility;
import dev.mnestic.planner.physical.Lifetime;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.physical.Timing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

/**
 * Builds the edge set E once, after the last rule: for every physical consumer c, input i and
 * physical candidate u of c's i-th child group, the edge (u, c, i) with α^log (u's θ and metric
 * against r^log_{c,i}) and α^phys (u's timing and history against r^phys of c's p^phys). The
 * plan space keeps the feasible edges, the domain of y; {@link #rejected} lists the others with
 * their reasons, on demand (the viewer's), as most edges are rejected and nothing else reads them.
 *
 * <p>Both depend on the consumer only through its logical candidate and its timing: α^log on
 * the logical candidates alone, α^phys on the consumer's timing and on how far back it reads,
 * itself a function of its logical candidate and timing ({@link History#lookback}). So the
 * feasible producers of each input are found once per (logical consumer, timing), α^log once per
 * pair of logical candidates, and every physical alternative of that consumer reads the same
 * list (at 1,664 queries: 81k consumers, 16k logical ones).
 */
public final class Edges {
  private Edges() {
  }

  /**
   * The feasible edges into the consumers from {@code firstId} on, those of a chunk of queries
   * whose groups and logical candidates are those from {@code fromGroup} and
   * {@code fromCandidate} on (they read no earlier group), by consumer, input and producer id,
   * for a plan space of {@code execution}. Built on every core (a parallel stream), as it is the
   * largest step of the plan space (1.93M edges at 1,664 queries): first each (logical
   * consumer, timing)'s producers, then each consumer's edges into its own run of one array.
   */
  public static List<PhysicalEdge> build(Memo memo, List<PhysicalCandidate> candidates,
      List<List<Integer>> byGroup, int fromGroup, int fromCandidate, int firstId, Execution execution) {
    final int[][] groups = new int[byGroup.size() - fromGroup][];
    for (int g = 0; g < groups.length; g++) {
      groups[g] = byGroup.get(fromGroup + g).stream().mapToInt(Integer::intValue).toArray();
    }
    final int logicals = memo.candidateCount() - fromCandidate;
    final int[] place = new int[logicals];
    for (int g = fromGroup; g < memo.groupCount(); g++) {
      final List<Integer> members = memo.candidatesOf(g);
      for (int j = 0; j < members.size(); j++) {
        place[members.get(j) - fromCandidate] = j;
      }
    }
    // 1. The (logical consumer, timing) pairs, each with a consumer of that shape.
    final int timings = Timing.values().length;
    final int consumers = candidates.size() - firstId;
    final int[][][] producers = new int[logicals * timings][][];
    final int[] shapes = new int[consumers];
    for (int v = 0; v < consumers; v++) {
      final PhysicalCandidate c = candidates.get(firstId + v);
      shapes[v] = (c.logical() - fromCandidate) * timings + c.properties().timing().ordinal();
    }
    final int[] first = new int[producers.length];
    Arrays.fill(first, -1);
    for (int v = 0; v < shapes.length; v++) {
      if (first[shapes[v]] < 0) {
        first[shapes[v]] = firstId + v;
      }
    }
    // 2. Their feasible producers: α^log per logical consumer (per input, per logical candidate
    // of the child group by its place in the group), α^phys per pair.
    final boolean[][][] logical = new boolean[logicals][][];
    IntStream.range(0, logicals).parallel().filter(l -> {
      for (int t = 0; t < timings; t++) {
        if (first[l * timings + t] >= 0) {
          return true;
        }
      }
      return false;
    }).forEach(l -> {
      logical[l] = alphaLog(memo, fromCandidate + l);
      for (int t = 0; t < timings; t++) {
        final int v = first[l * timings + t];
        if (v >= 0) {
          producers[l * timings + t] = feasibleProducers(memo, candidates, groups, fromGroup, candidates.get(v),
              logical[l], place, fromCandidate, execution);
        }
      }
    });
    // 3. Each consumer's edges, at the offset of its run.
    final int[] offset = new int[consumers + 1];
    for (int v = 0; v < consumers; v++) {
      int count = 0;
      for (int[] in : producers[shapes[v]]) {
        count += in.length;
      }
      offset[v + 1] = Math.addExact(offset[v], count);
    }
    final PhysicalEdge[] edges = new PhysicalEdge[offset[consumers]];
    IntStream.range(0, consumers).parallel().forEach(c -> {
      final int[][] in = producers[shapes[c]];
      int e = offset[c];
      for (int i = 0; i < in.length; i++) {
        for (int u : in[i]) {
          edges[e++] = new PhysicalEdge(u, firstId + c, i, Feasibility.OK, Feasibility.OK);
        }
      }
    });
    return Collections.unmodifiableList(Arrays.asList(edges));
  }

  /** Whether each logical candidate of each child group of {@code consumer} meets r^log. */
  private static boolean[][] alphaLog(Memo memo, int consumer) {
    final LogicalCandidate c = memo.candidate(consumer);
    final boolean[][] ok = new boolean[c.children().size()][];
    for (int i = 0; i < ok.length; i++) {
      final LogicalRequirements requirement = c.requirement(i);
      final List<Integer> members = memo.candidatesOf(c.children().get(i));
      ok[i] = new boolean[members.size()];
      for (int j = 0; j < members.size(); j++) {
        ok[i][j] = requirement.rejects(memo.candidate(members.get(j)).properties()) == null;
      }
    }
    return ok;
  }

  /** The producers {@code c} can read on each input, in id order, α^log and α^phys holding. */
  private static int[][] feasibleProducers(Memo memo, List<PhysicalCandidate> candidates,
      int[][] groups, int fromGroup, PhysicalCandidate c, boolean[][] alphaLog, int[] place, int fromCandidate,
      Execution execution) {
    final LogicalCandidate consumer = memo.candidate(c.logical());
    final Duration lookback = History.lookback(memo, c.logical(), c.properties().timing());
    final int[][] in = new int[consumer.children().size()][];
    for (int i = 0; i < in.length; i++) {
      final int[] group = groups[consumer.children().get(i) - fromGroup];
      final int[] kept = new int[group.length];
      int n = 0;
      for (int u : group) {
        final PhysicalCandidate producer = candidates.get(u);
        if (alphaLog[i][place[producer.logical() - fromCandidate]]
            && c.properties().reads(producer.properties(), lookback)
            && rejectsMergedInput(memo, execution, c.logical(), producer) == null) {
          kept[n++] = u;
        }
      }
      in[i] = Arrays.copyOf(kept, n);
    }
    return in;
  }

  /**
   * α^phys for a merge reading merged windows, under {@link Execution#STANDING}: the standing
   * executor keeps the windows of a merge that another merges, each window's summary, for as
   * long as its reader's windows reach back ({@code Sketches.State}), so such a merge reads only
   * a producer kept across evaluations, whose cost charges the windows kept. Why consumer
   * {@code consumer} (a logical candidate) cannot read {@code producer}, or null when it can.
   */
  static String rejectsMergedInput(Memo memo, Execution execution, int consumer, PhysicalCandidate producer) {
    if (execution == Execution.STANDING
        && memo.candidate(consumer).operator() instanceof Operator.Merge
        && memo.candidate(producer.logical()).operator() instanceof Operator.Merge
        && !(producer.properties().lifetime() instanceof Lifetime.AcrossEvaluations)) {
      return "the standing executor keeps the windows of a merge that another merges: it reads"
          + " merged windows kept across evaluations";
    }
    return null;
  }

  /** The edges of {@code space} that α^log or α^phys rejects, each with its reason. */
  public static List<PhysicalEdge> rejected(PlanSpace space) {
    return rejected(space, () -> false);
  }

  /**
   * {@link #rejected(PlanSpace)}, or null when {@code late} says so before some consumer
   * ({@code mnestic plan --total}: the view then counts the feasible edges only).
   */
  public static List<PhysicalEdge> rejected(PlanSpace space, BooleanSupplier late) {
    final Memo memo = space.memo();
    final List<PhysicalEdge> edges = new ArrayList<>();
    for (PhysicalCandidate c : space.candidates()) {
      if (late.getAsBoolean()) {
        return null;
      }
      final LogicalCandidate consumer = memo.candidate(c.logical());
      final Duration lookback = History.lookback(memo, c.logical(), c.properties().timing());
      for (int i = 0; i < consumer.children().size(); i++) {
        for (int u : space.byGroup().get(consumer.children().get(i))) {
          final PhysicalCandidate producer = space.candidates().get(u);
          final String phys = c.properties().rejectsProducer(producer.properties(), lookback);
          final PhysicalEdge e = new PhysicalEdge(u, c.id(), i,
              Feasibility.of(consumer.requirement(i).rejects(memo.candidate(producer.logical()).properties())),
              Feasibility.of(phys != null ? phys
                  : rejectsMergedInput(memo, space.execution(), c.logical(), producer)));
          if (!e.feasible()) {
            edges.add(e);
          }
        }
      }
    }
    return edges;
  }
}
