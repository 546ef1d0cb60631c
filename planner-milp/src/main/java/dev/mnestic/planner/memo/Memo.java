package dev.mnestic.planner.memo;

import dev.mnestic.planner.workload.ErrorMetric;
import dev.mnestic.planner.workload.Window;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The memo: hash-consed groups, each holding its candidates. It stores the set of possible
 * plans compactly: a plan is one producer choice per (consumer, input), starting from each
 * query's answer group.
 *
 * <p>Everything enters through {@link #add}, which hash-conses both levels: a group key already
 * present names its existing group, and a candidate already in its group is not added twice.
 * {@link #checkMemo} re-verifies every invariant; tests call it after every pass.
 *
 * <p>Cycles are excluded at insertion: {@code add} refuses a candidate that reads a group whose
 * key does not come before its own group's key in {@link GroupKey#precedes}'s well-founded
 * order. So every edge goes down that order, the group graph is a DAG, every plan drawn from it
 * is acyclic, and Stage 3 needs no ordering variables.
 */
public final class Memo {
  /** memo: GroupKey → group id, the hash-consing table of groups. */
  private final Map<GroupKey, Integer> memo = new HashMap<>();
  /** The key of each group, by id. */
  private final List<GroupKey> keys = new ArrayList<>();
  /** The candidate ids of each group, by group id, in insertion order. */
  private final List<List<Integer>> groupCandidates = new ArrayList<>();
  /** Every candidate, by candidate id. */
  private final List<LogicalCandidate> candidates = new ArrayList<>();
  /** The group of each candidate, by candidate id. */
  private final List<Integer> groupOf = new ArrayList<>();
  /** (group id, candidate) → candidate id, the hash-consing table of candidates. */
  private final Map<Map.Entry<Integer, LogicalCandidate>, Integer> candidateIds = new HashMap<>();

  /**
   * Adds {@code candidate} to the group of {@code key}, creating the group if it is new, and
   * returns the group id. Adding a candidate the group already has changes nothing.
   *
   * @throws IllegalArgumentException if the candidate does not fit the group, or would close
   *     a cycle
   */
  public int add(GroupKey key, LogicalCandidate candidate) {
    for (int child : candidate.children()) {
      if (child < 0 || child >= keys.size()) {
        throw new IllegalArgumentException("no group G" + child);
      }
      if (!keys.get(child).precedes(key)) {
        throw new IllegalArgumentException(candidate + " in " + key + " could close a cycle: G"
            + child + " " + keys.get(child) + " does not come before it");
      }
    }
    final String misfit = misfit(key, candidate);
    if (misfit != null) {
      throw new IllegalArgumentException(candidate + " cannot be a candidate of " + key + ": " + misfit);
    }
    Integer g = memo.get(key);
    if (g == null) {
      g = keys.size();
      memo.put(key, g);
      keys.add(key);
      groupCandidates.add(new ArrayList<>());
    } else if (candidateIds.containsKey(Map.entry(g, candidate))) {
      return g;
    }
    final int id = candidates.size();
    candidates.add(candidate);
    groupOf.add(g);
    groupCandidates.get(g).add(id);
    candidateIds.put(Map.entry(g, candidate), id);
    return g;
  }

  /** The group of {@code key}, or -1 when there is none. */
  public int find(GroupKey key) {
    return memo.getOrDefault(key, -1);
  }

  public int groupCount() {
    return keys.size();
  }

  public GroupKey key(int group) {
    return keys.get(group);
  }

  /** The candidate ids of {@code group}, in insertion order. */
  public List<Integer> candidatesOf(int group) {
    return Collections.unmodifiableList(groupCandidates.get(group));
  }

  public int candidateCount() {
    return candidates.size();
  }

  public LogicalCandidate candidate(int id) {
    return candidates.get(id);
  }

  public int groupOf(int candidate) {
    return groupOf.get(candidate);
  }

  /** Group ids, children before their consumers. */
  public List<Integer> topologicalOrder() {
    return topologicalOrder(0);
  }

  /**
   * The ids of the groups from {@code from} on, children before their consumers (a child before
   * {@code from} is taken as done): the plan space is built a chunk of queries at a time, and a
   * chunk's groups come after the earlier chunks'.
   */
  public List<Integer> topologicalOrder(int from) {
    final int n = keys.size() - from;
    final int[] pending = new int[n];
    final List<List<Integer>> consumers = new ArrayList<>();
    for (int g = 0; g < n; g++) {
      consumers.add(new ArrayList<>());
    }
    for (int g = 0; g < n; g++) {
      for (int c : groupCandidates.get(from + g)) {
        for (int child : candidates.get(c).children()) {
          if (child >= from) {
            pending[g]++;
            consumers.get(child - from).add(g);
          }
        }
      }
    }
    final Deque<Integer> ready = new ArrayDeque<>();
    for (int g = 0; g < n; g++) {
      if (pending[g] == 0) {
        ready.add(g);
      }
    }
    final List<Integer> order = new ArrayList<>();
    while (!ready.isEmpty()) {
      final int g = ready.poll();
      order.add(from + g);
      for (int consumer : consumers.get(g)) {
        if (--pending[consumer] == 0) {
          ready.add(consumer);
        }
      }
    }
    if (order.size() != n) {
      throw new IllegalStateException("the memo's group graph has a cycle");
    }
    return order;
  }

  /**
   * Checks every invariant of the memo, throwing {@link IllegalStateException} naming the first
   * broken one: the two hash-consing tables agree with the groups and candidates they index; no
   * group holds a candidate twice; every candidate fits its group and reads existing groups; the
   * group graph is acyclic.
   */
  public void checkMemo() {
    if (memo.size() != keys.size()) {
      throw new IllegalStateException(memo.size() + " keys hash-consed for " + keys.size() + " groups");
    }
    for (int g = 0; g < keys.size(); g++) {
      if (memo.get(keys.get(g)) != g) {
        throw new IllegalStateException("key " + keys.get(g) + " of G" + g + " maps to G"
            + memo.get(keys.get(g)));
      }
      if (groupCandidates.get(g).isEmpty()) {
        throw new IllegalStateException("G" + g + " has no candidate");
      }
    }
    if (candidateIds.size() != candidates.size()) {
      throw new IllegalStateException("a group holds a candidate twice");
    }
    for (int c = 0; c < candidates.size(); c++) {
      final int g = groupOf.get(c);
      if (!groupCandidates.get(g).contains(c)
          || candidateIds.get(Map.entry(g, candidates.get(c))) != c) {
        throw new IllegalStateException("candidate " + c + " is not indexed in G" + g);
      }
      for (int child : candidates.get(c).children()) {
        if (child < 0 || child >= keys.size() || !keys.get(child).precedes(keys.get(g))) {
          throw new IllegalStateException("candidate " + c + " in G" + g + " reads G" + child
              + ", which is no group before it");
        }
      }
      final String misfit = misfit(keys.get(g), candidates.get(c));
      if (misfit != null) {
        throw new IllegalStateException("candidate " + c + " in G" + g + ": " + misfit);
      }
    }
    topologicalOrder();
  }

  /** Why {@code c} is no candidate of the group {@code key}, or null when it fits. */
  private String misfit(GroupKey key, LogicalCandidate c) {
    final Operator op = c.operator();
    final Parameters theta = c.properties().parameters();
    final WindowLayout layout = c.properties().windowLayout();
    if (key instanceof GroupKey.Rows r) {
      return op instanceof Operator.Scan s && s.metric().equals(r.metric())
          && theta instanceof Parameters.Exact && layout instanceof WindowLayout.Rows
          ? null : "rows are a scan of their metric";
    }
    if (key instanceof GroupKey.State s) {
      if (op instanceof Operator.Build b) {
        return b.family() != s.family() ? "builds another family"
            : !isKey(c.children().get(0), new GroupKey.Rows(s.metric())) ? "builds from other rows"
            : !fitsFamily(theta, s.family()) ? "θ " + theta + " is not a " + s.family()
            : layout instanceof WindowLayout.Direct ? null : "a build is laid out directly";
      }
      if (op instanceof Operator.Merge m) {
        if (m.family() != s.family() || !fitsFamily(theta, s.family())) {
          return "merges another family";
        }
        if (!(layout instanceof WindowLayout.Merged merged)) {
          return "a merge is laid out merged";
        }
        if (!s.window().isUnionOf(merged.sub())) {
          return s.window() + " is no union of tumbling " + merged.sub();
        }
        return isKey(c.children().get(0), new GroupKey.State(s.family(), s.metric(),
            Window.tumbling(merged.sub()))) ? null : "merges another state";
      }
      return "a state is built or merged";
    }
    if (key instanceof GroupKey.Quantile q) {
      if (op instanceof Operator.SortQuantile sort) {
        return sort.phi() == q.phi() && isKey(c.children().get(0), new GroupKey.Rows(q.metric()))
            && theta instanceof Parameters.Exact && layout instanceof WindowLayout.Direct
            ? null : "sorts another quantile or other rows";
      }
      if (op instanceof Operator.Readout r) {
        return r.phi() == q.phi() && keys.get(c.children().get(0)) instanceof GroupKey.State s
            && s.metric().equals(q.metric()) && s.window().equals(q.window())
            && theta.equals(new Parameters.Inherited(s.family().metric))
            && layout instanceof WindowLayout.Pointwise
            ? null : "reads another quantile or state";
      }
      return "a quantile is sorted or read out";
    }
    if (key instanceof GroupKey.Ratio r) {
      return op instanceof Operator.Divide
          && c.children().equals(List.of(r.numerator(), r.denominator()))
          && theta.equals(new Parameters.Inherited(ErrorMetric.RELATIVE_VALUE))
          && layout instanceof WindowLayout.Pointwise
          ? null : "a ratio divides its numerator by its denominator";
    }
    final GroupKey.Answer a = (GroupKey.Answer) key;
    return op instanceof Operator.Answer answer && answer.query().equals(a.query())
        && theta.equals(new Parameters.Inherited(answer.target().metric()))
        && layout instanceof WindowLayout.Pointwise
        ? null : "an answer hands its own query its root";
  }

  private boolean isKey(int group, GroupKey expected) {
    return keys.get(group).equals(expected);
  }

  private static boolean fitsFamily(Parameters theta, Family family) {
    switch (family) {
      case KLL:
        return theta instanceof Parameters.Kll;
      case DDSKETCH:
        return theta instanceof Parameters.DdSketch;
      default:
        return theta instanceof Parameters.Exact;
    }
  }
}
