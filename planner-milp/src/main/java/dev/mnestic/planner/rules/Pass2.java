package dev.mnestic.planner.rules;

import dev.mnestic.planner.memo.GroupKey;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.LogicalProperties;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.memo.WindowLayout;
import dev.mnestic.planner.workload.Window;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Pass 2: merge-then-aggregate over raw tumbling windows. To each state group it adds, for
 * every tumbling sub-width g that tiles its windows (the width of another tumbling state group
 * of the same family and metric, or the window's step when it slides), a merge candidate per θ
 * that reads the tumbling state group of width g, creating that group (with its builds) when it
 * is new. A 5m window is then five 1m sketches merged, and every consumer of the 5m group sees
 * the new candidate; nothing is copied. Runs until no group gains a candidate.
 */
public final class Pass2 {
  private Pass2() {
  }

  public static void addMerges(Memo memo, ParameterLists lists) {
    addMerges(memo, lists, 0, true);
  }

  /**
   * Adds the merges of the groups from {@code from} on (a chunk of queries whose metrics no
   * earlier group reads). With {@code others} false, a group's only sub-width is its own step
   * when it slides: no merge over another query's tumbling width, so each query's ways to
   * compute are its own (what the plan space gives the chunks built past its deadline).
   */
  public static void addMerges(Memo memo, ParameterLists lists, int from, boolean others) {
    final TumblingWidths widths = new TumblingWidths(from);
    final Map<Integer, Set<Duration>> merged = new HashMap<>();
    int before;
    do {
      before = memo.candidateCount();
      addMergesOnce(memo, lists, from, others ? widths : null, merged);
    } while (memo.candidateCount() != before);
  }

  /**
   * One pass over the state groups from {@code from} on; {@code merged} holds, by group, the
   * sub-widths whose merges it has already (a later pass would add them again to no effect, a
   * hash lookup per θ each); {@code widths} null: no other group's width is a sub-width.
   */
  private static void addMergesOnce(Memo memo, ParameterLists lists, int from, TumblingWidths widths,
      Map<Integer, Set<Duration>> merged) {
    for (int g = from; g < memo.groupCount(); g++) {
      if (!(memo.key(g) instanceof GroupKey.State state)) {
        continue;
      }
      final TreeSet<Duration> subs = new TreeSet<>();
      if (!state.window().isTumbling()) {
        subs.add(state.window().step());
      }
      for (Duration width : widths == null ? List.<Duration>of() : widths.of(memo, state)) {
        if (state.window().isUnionOf(width)) {
          subs.add(width);
        }
      }
      final Set<Duration> done = merged.computeIfAbsent(g, k -> new HashSet<>());
      for (Duration sub : subs) {
        if (!done.add(sub)) {
          continue;
        }
        // read at each of the merge's reads, its windows kept: keyed as read every step, so
        // that every merge and query over them shares it
        final int child = Pass1.state(memo, state.family(), state.metric(), Window.tumbling(sub),
            sub, lists);
        for (Parameters.Fixed theta : lists.of(state.family())) {
          memo.add(state, new LogicalCandidate(new Operator.Merge(state.family()), List.of(child),
              new LogicalProperties(theta, new WindowLayout.Merged(sub))));
        }
      }
    }
  }

  /**
   * The widths of the memo's tumbling state groups per family and metric, brought up to date
   * with the groups added since the last look (groups are only ever added), so finding a
   * group's sub-widths does not scan every group.
   */
  private static final class TumblingWidths {
    private final Map<List<Object>, List<Duration>> widths = new HashMap<>();
    private int seen;

    /** From group {@code from} on: the groups before it are of other metrics. */
    TumblingWidths(int from) {
      this.seen = from;
    }

    List<Duration> of(Memo memo, GroupKey.State state) {
      for (; seen < memo.groupCount(); seen++) {
        if (memo.key(seen) instanceof GroupKey.State s && s.window().isTumbling()) {
          widths.computeIfAbsent(List.of(s.family(), s.metric()), k -> new ArrayList<>())
              .add(s.window().width());
        }
      }
      return widths.getOrDefault(List.of(state.family(), state.metric()), List.of());
    }
  }
}
