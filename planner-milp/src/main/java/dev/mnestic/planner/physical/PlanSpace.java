package dev.mnestic.planner.physical;

import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.workload.Workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.function.Supplier;

/**
 * What Stage 3 chooses from, built once after the last rule: the memo, its physical candidates
 * v with w_v, and the explicit feasible edges (u, c, i), the domain of y (the rejected ones, with
 * α^log and α^phys's reasons, are listed on demand by {@code rules.Edges.rejected}).
 *
 * @param candidates every physical candidate, by id
 * @param byGroup the physical candidate ids of each group
 * @param edges every feasible (u, c, i), by consumer, then input
 * @param costs the cost of each physical candidate; w_v is {@code costs.get(v).weight()}
 * @param history H_G: for each group, the histories (how far back results are read) that
 *     some plan may ask of it, from the queries' retentions and the consumers' lookbacks
 * @param answers the answer candidate of each query, by query name
 * @param pruned what each stage set aside, with why
 * @param narrowed the queries whose ways to compute were built without merges over other
 *     queries' windows, their chunk started past the plan space's deadline ({@code Planner.space})
 * @param execution what its plans may ask of an executor: the alternatives Stage 2 kept, and
 *     what a kept merge asks of its input ({@code select.Constraints.asksOfInputs})
 */
public record PlanSpace(Workload workload, Memo memo, List<PhysicalCandidate> candidates,
    List<List<Integer>> byGroup, List<PhysicalEdge> edges, List<Cost> costs,
    List<SortedSet<Duration>> history, Map<String, Integer> answers, List<Pruned> pruned, Set<String> narrowed,
    Execution execution) {

  /**
   * Something a stage set aside, and why. Stage 2 sets aside about two alternatives for each it
   * keeps (174k at 1,664 queries) and only the viewer reads why, so the texts are rendered when
   * read.
   */
  public static final class Pruned {
    private final String stage;
    private final Supplier<String> what;
    private final Supplier<String> reason;

    public Pruned(String stage, Supplier<String> what, Supplier<String> reason) {
      this.stage = stage;
      this.what = what;
      this.reason = reason;
    }

    public String stage() {
      return stage;
    }

    public String what() {
      return what.get();
    }

    public String reason() {
      return reason.get();
    }

    @Override public String toString() {
      return stage + ": " + what() + ": " + reason();
    }
  }

  public double weight(int v) {
    return costs.get(v).weight();
  }

  /**
   * The feasible edges into input {@code input} of each consumer: the domain of y. Each list is
   * an unmodifiable view of a run of {@link #edges}, which lists them by consumer and input
   * ({@code rules.Edges.build}): no edge is copied.
   */
  public List<List<List<PhysicalEdge>>> feasibleInputs() {
    final List<PhysicalEdge> all = Collections.unmodifiableList(edges);
    final List<List<List<PhysicalEdge>>> in = new ArrayList<>(candidates.size());
    int e = 0;
    for (PhysicalCandidate c : candidates) {
      final int arity = memo.candidate(c.logical()).children().size();
      final List<List<PhysicalEdge>> inputs = new ArrayList<>(arity);
      for (int i = 0; i < arity; i++) {
        final int start = e;
        while (e < edges.size() && edges.get(e).consumer() == c.id() && edges.get(e).input() == i) {
          e++;
        }
        inputs.add(all.subList(start, e));
      }
      in.add(inputs);
    }
    if (e != edges.size()) {
      throw new IllegalStateException("the edges are not listed by consumer and input: " + edges.get(e));
    }
    return in;
  }
}
