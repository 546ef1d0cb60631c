package dev.mnestic.planner.rules;

import dev.mnestic.planner.memo.GroupKey;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.physical.Cost;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.Lifetime;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalProperties;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.physical.StorageMedium;
import dev.mnestic.planner.physical.Timing;
import dev.mnestic.planner.workload.Budget;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.Workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * Stage 2: expands each logical candidate into its valid (timing, lifetime) alternatives.
 * Every timing is tried with every lifetime (none; one evaluation in the heap; kept, in the
 * heap or the store, for each history H_G the group may be asked); {@link PhysicalProperties}'s
 * checked constructor and the operator's own limits reject the rest, recorded as pruned. A
 * state whose own ε exceeds every target that reaches its group is pruned too: errors only grow
 * along the edges (a readout passes its state's error on; a ratio's exceeds each operand's).
 * With {@link Execution#STANDING} only what the standing-query executor runs is kept: builds at
 * ingest kept across evaluations in the heap, merges, readouts and ratios at evaluation kept for
 * none, or, for a merge that another merges, kept across evaluations in the heap; no exact sort.
 */
public final class Stage2 {
  private Stage2() {
  }

  /**
   * The physical candidates of the alternatives {@code execution} runs; {@code pruned} receives
   * what was set aside.
   */
  public static List<PhysicalCandidate> expand(Memo memo, Workload workload,
      List<SortedSet<Duration>> history, List<PlanSpace.Pruned> pruned, Execution execution) {
    return expand(memo, workload, workload.queries(), 0, 0, history, pruned, execution);
  }

  /**
   * {@link #expand(Memo, Workload, List, List, Execution)} for a chunk of queries, {@code queries},
   * whose groups and logical candidates are those from {@code fromGroup} and
   * {@code fromCandidate} on (nothing else reaches them); {@code history} is H_G of every group.
   * The candidates are numbered from 0 ({@link #dropDominated} numbers the kept ones in the space).
   */
  public static List<PhysicalCandidate> expand(Memo memo, Workload workload, List<Query> queries, int fromGroup,
      int fromCandidate, List<SortedSet<Duration>> history, List<PlanSpace.Pruned> pruned, Execution execution) {
    final double[] loosest = loosestTargets(memo, queries, fromGroup);
    // Groups asked the same histories share their alternatives.
    final Map<SortedSet<Duration>, List<Alternative>> alternatives = new HashMap<>();
    final List<PhysicalCandidate> out = new ArrayList<>();
    for (int c = fromCandidate; c < memo.candidateCount(); c++) {
      final LogicalCandidate cand = memo.candidate(c);
      final int g = memo.groupOf(c);
      if (cand.properties().parameters() instanceof Parameters.Fixed fixed
          && fixed.guarantee().epsilon() > loosest[g - fromGroup]) {
        final double bound = loosest[g - fromGroup];
        pruned.add(new PlanSpace.Pruned("stage 2", () -> "G" + g + " " + cand,
            () -> "ε=" + fixed.guarantee().epsilon() + " exceeds every target that reads "
            + memo.key(g) + " (at most " + bound + ")"));
        continue;
      }
      if (cand.operator() instanceof Operator.Scan s) {
        out.add(new PhysicalCandidate(out.size(), c, g, new PhysicalProperties(Timing.INGEST,
            new Lifetime.AcrossEvaluations(StorageMedium.STORE, workload.metric(s.metric()).rawRetention()))));
        continue;
      }
      for (Alternative a : alternatives.computeIfAbsent(history.get(g), Stage2::alternatives)) {
        if (a.properties == null) {
          pruned.add(new PlanSpace.Pruned("stage 2", () -> "G" + g + " " + cand + " @ " + a.timing
              + ", " + a.lifetime, () -> a.rejection));
          continue;
        }
        final Supplier<String> limit = limit(cand.operator(), a.properties, execution);
        if (limit != null) {
          pruned.add(new PlanSpace.Pruned("stage 2", () -> "G" + g + " " + cand + " @ " + a.properties,
              limit));
          continue;
        }
        out.add(new PhysicalCandidate(out.size(), c, g, a.properties));
      }
    }
    return out;
  }

  /** A (timing, lifetime) pair: its properties, or why the checked constructor refused it. */
  private record Alternative(Timing timing, Lifetime lifetime, PhysicalProperties properties,
      String rejection) {
  }

  /** Every timing with every lifetime of {@code history}, in that order. */
  private static List<Alternative> alternatives(SortedSet<Duration> history) {
    final List<Alternative> out = new ArrayList<>();
    for (Timing timing : Timing.values()) {
      for (Lifetime lifetime : lifetimes(history)) {
        try {
          out.add(new Alternative(timing, lifetime, new PhysicalProperties(timing, lifetime), null));
        } catch (IllegalArgumentException e) {
          out.add(new Alternative(timing, lifetime, null, e.getMessage()));
        }
      }
    }
    return out;
  }

  /**
   * Drops each alternative another alternative of the same logical candidate dominates: one
   * with the same timing (or computed at ingest where the other is at evaluation, both kept
   * across evaluations: {@link #earlierAndKept}), history and recomputation, at least as free to
   * feed several consumers (not none where the other is), and no dearer in w_v nor in any
   * budgeted resource. Whatever a
   * plan does with the dominated one it can do with the other, so the optimum stays. Returns
   * the kept candidates, numbered anew, and their costs.
   */
  public static List<PhysicalCandidate> dropDominated(Memo memo, List<PhysicalCandidate> candidates,
      List<Cost> costs, List<Budget> budgets, List<PlanSpace.Pruned> pruned, List<Cost> keptCosts) {
    return dropDominated(memo, 0, 0, candidates, costs, budgets, pruned, keptCosts);
  }

  /**
   * {@link #dropDominated(Memo, List, List, List, List, List)} for the alternatives of the logical
   * candidates from {@code fromCandidate} on (a chunk's, {@link #expand(Memo, Workload, List, int,
   * int, List, List, Execution)}), the kept ones numbered from {@code firstId}.
   */
  public static List<PhysicalCandidate> dropDominated(Memo memo, int fromCandidate, int firstId,
      List<PhysicalCandidate> candidates, List<Cost> costs, List<Budget> budgets, List<PlanSpace.Pruned> pruned,
      List<Cost> keptCosts) {
    final int n = candidates.size();
    final int logicals = memo.candidateCount() - fromCandidate;
    final Facts[] facts = new Facts[n];
    final int[] count = new int[logicals];
    for (PhysicalCandidate p : candidates) {
      facts[p.id()] = new Facts(p.properties(), costs.get(p.id()));
      count[p.logical() - fromCandidate]++;
    }
    // The alternatives of each logical candidate, in the order given.
    final int[][] alternatives = new int[logicals][];
    for (int c = 0; c < alternatives.length; c++) {
      alternatives[c] = new int[count[c]];
      count[c] = 0;
    }
    for (PhysicalCandidate p : candidates) {
      alternatives[p.logical() - fromCandidate][count[p.logical() - fromCandidate]++] = p.id();
    }
    // The first alternative that dominates each (-1: none), on every core: a task compares the
    // alternatives of one logical candidate, and writes only their entries and its own.
    final Boolean[] ingestReadsNoFurther = new Boolean[logicals];
    final int[] dominator = new int[n];
    IntStream.range(0, alternatives.length).parallel().forEach(c -> {
      for (int p : alternatives[c]) {
        dominator[p] = -1;
        for (int q : alternatives[c]) {
          if (q != p && dominates(memo, facts[q], facts[p], fromCandidate + c, ingestReadsNoFurther, budgets,
              fromCandidate, q < p)) {
            dominator[p] = q;
            break;
          }
        }
      }
    });
    final List<PhysicalCandidate> kept = new ArrayList<>();
    for (PhysicalCandidate p : candidates) {
      if (dominator[p.id()] >= 0) {
        final PhysicalProperties dominating = candidates.get(dominator[p.id()]).properties();
        pruned.add(new PlanSpace.Pruned("stage 2", () -> "G" + p.group() + " "
            + memo.candidate(p.logical()) + " @ " + p.properties(), () -> "dominated by " + dominating));
      } else {
        kept.add(new PhysicalCandidate(firstId + kept.size(), p.logical(), p.group(), p.properties()));
        keptCosts.add(costs.get(p.id()));
      }
    }
    return kept;
  }

  /** What {@link #dominates} compares of an alternative, worked out once. */
  private static final class Facts {
    final Timing timing;
    final boolean recomputed;
    final Duration history;
    final boolean none;
    final boolean across;
    final Cost cost;
    final double weight;

    Facts(PhysicalProperties p, Cost cost) {
      timing = p.timing();
      recomputed = p.recomputedOnDemand();
      history = p.history();
      none = p.lifetime() instanceof Lifetime.None;
      across = p.lifetime() instanceof Lifetime.AcrossEvaluations;
      this.cost = cost;
      weight = cost.weight();
    }
  }

  /** Whether q dominates p, two alternatives of logical candidate {@code logical}. */
  private static boolean dominates(Memo memo, Facts q, Facts p, int logical,
      Boolean[] ingestReadsNoFurther, List<Budget> budgets, int fromCandidate, boolean qFirst) {
    if (!(q.timing == p.timing || earlierAndKept(memo, q, p, logical, ingestReadsNoFurther, fromCandidate))
        || q.recomputed != p.recomputed
        || !Objects.equals(q.history, p.history)
        || q.none && !p.none) {
      return false;
    }
    for (Budget budget : budgets) {
      if (q.cost.of(budget.resource()) > p.cost.of(budget.resource())) {
        return false;
      }
    }
    // Ties go to the earlier alternative, so of two equal ones exactly one stays.
    return q.weight < p.weight || q.weight == p.weight && qFirst;
  }

  /**
   * Whether q is computed at ingest and p at evaluation, both kept across evaluations, and q
   * reads its input no further back than p: every consumer that can read p can read q (an
   * ingest-time consumer reads only ingest-time producers; both keep the same history and
   * neither is recomputed on demand), and q asks no more of its input.
   */
  private static boolean earlierAndKept(Memo memo, Facts q, Facts p, int logical,
      Boolean[] ingestReadsNoFurther, int fromCandidate) {
    if (!(q.timing == Timing.INGEST && p.timing == Timing.EVALUATION && q.across && p.across)) {
      return false;
    }
    final int at = logical - fromCandidate;
    if (ingestReadsNoFurther[at] == null) {
      ingestReadsNoFurther[at] = History.lookback(memo, logical, Timing.INGEST)
          .compareTo(History.lookback(memo, logical, Timing.EVALUATION)) <= 0;
    }
    return ingestReadsNoFurther[at];
  }

  private static List<Lifetime> lifetimes(SortedSet<Duration> history) {
    final List<Lifetime> out = new ArrayList<>();
    out.add(new Lifetime.None());
    out.add(new Lifetime.OneEvaluation(StorageMedium.HEAP));
    for (Duration keep : history) {
      for (StorageMedium medium : StorageMedium.values()) {
        out.add(new Lifetime.AcrossEvaluations(medium, keep));
      }
    }
    return out;
  }

  /** Why {@code op} cannot run with {@code p} under {@code execution}, or null. */
  private static Supplier<String> limit(Operator op, PhysicalProperties p, Execution execution) {
    if (op instanceof Operator.Answer) {
      return p.timing() == Timing.EVALUATION && p.lifetime() instanceof Lifetime.None ? null
          : () -> "an answer is handed to its query when evaluated, not kept";
    }
    if (p.timing() == Timing.INGEST && !(op instanceof Operator.Build)) {
      return () -> "only a build is fed row by row; " + op + " runs at evaluation";
    }
    if (execution == Execution.STANDING) {
      if (op instanceof Operator.SortQuantile) {
        return () -> "the standing executor runs an exact sort as the exact build, kept and read"
            + " out";
      }
      if (op instanceof Operator.Build) {
        return p.timing() == Timing.INGEST
            && p.lifetime() instanceof Lifetime.AcrossEvaluations a
            && a.medium() == StorageMedium.HEAP ? null
            : () -> "the standing executor feeds a build each row once and keeps its windows"
                + " across evaluations in the heap";
      }
      if (op instanceof Operator.Merge && p.timing() == Timing.EVALUATION
          && p.lifetime() instanceof Lifetime.AcrossEvaluations a && a.medium() == StorageMedium.HEAP) {
        // what another merge reads (Edges.rejectsMergedInput)
        return null;
      }
      return p.recomputedOnDemand() ? null
          : () -> "the standing executor makes " + op + " when read, kept for no later evaluation"
              + " (a merge that another merges: in the heap)";
    }
    return null;
  }

  /**
   * For each group from {@code from} on, the largest target bound among the queries whose
   * answer reaches it (-1 when none does).
   */
  private static double[] loosestTargets(Memo memo, List<Query> queries, int from) {
    final double[] loosest = new double[memo.groupCount() - from];
    Arrays.fill(loosest, -1);
    for (Query q : queries) {
      final int answer = memo.find(new GroupKey.Answer(q.name())) - from;
      loosest[answer] = Math.max(loosest[answer], q.target().bound());
    }
    final List<Integer> order = new ArrayList<>(memo.topologicalOrder(from));
    Collections.reverse(order);
    for (int g : order) {
      for (int c : memo.candidatesOf(g)) {
        for (int child : memo.candidate(c).children()) {
          loosest[child - from] = Math.max(loosest[child - from], loosest[g - from]);
        }
      }
    }
    return loosest;
  }
}
