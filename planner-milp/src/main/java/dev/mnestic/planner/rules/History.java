package dev.mnestic.planner.rules;

import dev.mnestic.planner.memo.GroupKey;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.WindowLayout;
import dev.mnestic.planner.physical.Timing;
import dev.mnestic.planner.workload.Query;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * How far back results are read. A consumer computing its result for evaluation point t reads
 * its input's results (or rows) as far back as t - lookback; a query with retention ρ must be
 * answerable at every point of the last ρ, so whatever is recomputed on demand passes
 * ρ + lookback down to its producers, and whatever is kept answers from what it kept.
 */
public final class History {
  private History() {
  }

  /** How far back, beyond the evaluation point, candidate {@code c} at {@code timing} reads input i. */
  public static Duration lookback(Memo memo, int c, Timing timing) {
    final LogicalCandidate cand = memo.candidate(c);
    final GroupKey key = memo.key(memo.groupOf(c));
    if (cand.operator() instanceof Operator.Build) {
      return timing == Timing.INGEST ? Duration.ZERO : ((GroupKey.State) key).window().width();
    }
    if (cand.operator() instanceof Operator.SortQuantile) {
      return ((GroupKey.Quantile) key).window().width();
    }
    if (cand.operator() instanceof Operator.Merge) {
      return ((GroupKey.State) key).window().width()
          .minus(((WindowLayout.Merged) cand.properties().windowLayout()).sub());
    }
    return Duration.ZERO;
  }

  /**
   * H_G for every group: the positive histories some plan may ask of it. An answer group asks
   * its query's retention; a consumer at history h asks h + lookback of its inputs when it is
   * recomputed on demand, and only the lookback when it is kept (any timing is considered).
   */
  public static List<SortedSet<Duration>> levels(Memo memo, List<Query> queries) {
    return levels(memo, queries, 0);
  }

  /**
   * H_G for the groups from {@code from} on (the i-th entry is group {@code from} + i's): those
   * of a chunk of {@code queries}, whose groups only its own queries reach.
   */
  public static List<SortedSet<Duration>> levels(Memo memo, List<Query> queries, int from) {
    final List<SortedSet<Duration>> levels = new ArrayList<>();
    for (int g = from; g < memo.groupCount(); g++) {
      levels.add(new TreeSet<>());
    }
    for (Query q : queries) {
      final int g = memo.find(new GroupKey.Answer(q.name()));
      if (q.retention().compareTo(Duration.ZERO) > 0) {
        levels.get(g - from).add(q.retention());
      }
    }
    final List<Integer> order = new ArrayList<>(memo.topologicalOrder(from));
    Collections.reverse(order);
    for (int g : order) {
      final List<Duration> asked = new ArrayList<>(levels.get(g - from));
      asked.add(Duration.ZERO);
      for (int c : memo.candidatesOf(g)) {
        for (Timing timing : Timing.values()) {
          final Duration lookback = lookback(memo, c, timing);
          for (int child : memo.candidate(c).children()) {
            for (Duration h : asked) {
              final Duration need = h.plus(lookback);
              if (need.compareTo(Duration.ZERO) > 0) {
                levels.get(child - from).add(need);
              }
            }
          }
        }
      }
    }
    return levels;
  }
}
