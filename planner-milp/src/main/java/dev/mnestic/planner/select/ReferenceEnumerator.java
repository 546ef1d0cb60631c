package dev.mnestic.planner.select;

import dev.mnestic.planner.memo.Guarantee;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.workload.Budget;
import dev.mnestic.planner.workload.Query;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reference: enumerates every plan (one producer per used consumer input, starting from
 * each query's answer), evaluates each directly (errors composed by walking the plan, histories
 * pushed down from the retentions, pipelined fan-out, budgets) and keeps the cheapest. It
 * shares no code with {@link MilpSelector} beyond the plan space and {@link Constraints}, the one
 * definition of (K), (R) and sharing that each selector compiles into its own structures, and is
 * exponential: for checking the MILP on small workloads. A branch is cut when its partial cost
 * already reaches the best plan's (costs are not negative), when it would stream a pipelined
 * result into a second consumer, and when a query's finished sub-plan misses its target or
 * some history asked so far exceeds what a candidate keeps.
 */
public final class ReferenceEnumerator implements Selector {
  private final PlanSpace space;
  private final List<List<List<PhysicalEdge>>> inputs;
  /** The memo's groups, consumers before the groups they read. */
  private final List<Integer> consumersFirst;
  /** The producer chosen for each (consumer, input), as "c/i" → edge. */
  private final Map<String, PhysicalEdge> chosen = new HashMap<>();
  private final Map<Integer, Integer> used = new HashMap<>();
  private double best = Double.POSITIVE_INFINITY;
  private Plan bestPlan;
  private int evaluated;

  public ReferenceEnumerator(PlanSpace space) {
    this.space = space;
    // Each input's edges, the cheapest producer first.
    this.inputs = space.feasibleInputs().stream().map(in -> in.stream().map(edges -> edges.stream()
        .sorted(Comparator.comparingDouble(e -> space.weight(e.producer()))).toList()).toList()).toList();
    this.consumersFirst = new ArrayList<>(space.memo().topologicalOrder());
    Collections.reverse(consumersFirst);
  }

  @Override public Plan solve() {
    final long start = System.nanoTime();
    final List<int[]> tasks = new ArrayList<>();
    double cost = 0;
    for (int a : space.answers().values()) {
      used.put(a, 1);
      cost += space.weight(a);
      tasks.add(new int[] {CHECK, a});
      tasks.add(new int[] {CHOOSE, a, 0});
    }
    search(tasks, cost);
    if (bestPlan == null) {
      throw new PlanningException("no plan meets every query's target, retention and budget");
    }
    final long millis = (System.nanoTime() - start) / 1_000_000;
    return new Plan(bestPlan.candidates(), bestPlan.edges(), bestPlan.cost(), bestPlan.cost(),
        Plan.Status.ENUMERATED, 0, evaluated, millis);
  }

  /**
   * Why {@code plan} is not a plan of {@code space}, or null when it is one: its edges feasible
   * edges between its candidates, one into each input of each, every answer among them, a
   * streamed result read once, each query's target met (K), every history asked kept (R), the
   * budgets met (B), and its cost Σ w_v of its candidates. Checked as the enumerator checks the
   * plans it enumerates, so a plan found another way is checked independently of how.
   */
  public static String violation(PlanSpace space, Plan plan) {
    final ReferenceEnumerator check = new ReferenceEnumerator(space);
    double cost = 0;
    for (int v : plan.candidates()) {
      if (check.used.put(v, 1) != null) {
        return "candidate " + v + " listed twice";
      }
      cost += space.weight(v);
    }
    for (PhysicalEdge e : plan.edges()) {
      if (!check.inputs.get(e.consumer()).get(e.input()).contains(e)) {
        return "edge " + e + " is not a feasible edge";
      }
      if (!check.used.containsKey(e.producer()) || !check.used.containsKey(e.consumer())) {
        return "edge " + e + " joins a candidate not in the plan";
      }
      if (check.chosen.put(e.consumer() + "/" + e.input(), e) != null) {
        return "input " + e.input() + " of candidate " + e.consumer() + " has two producers";
      }
    }
    for (int v : plan.candidates()) {
      for (int i = 0; i < check.arity(v); i++) {
        if (!check.chosen.containsKey(v + "/" + i)) {
          return "input " + i + " of candidate " + v + " has no producer";
        }
      }
    }
    for (Map.Entry<String, Integer> a : space.answers().entrySet()) {
      if (!check.used.containsKey(a.getValue())) {
        return "query " + a.getKey() + " is not answered";
      }
    }
    final Map<Integer, Integer> readers = new HashMap<>();
    for (PhysicalEdge e : plan.edges()) {
      if (readers.merge(e.producer(), 1, Integer::sum) > 1
          && Constraints.streamed(space.candidates().get(e.producer()))) {
        return "the streamed result of candidate " + e.producer() + " is read twice";
      }
    }
    if (Math.abs(cost - plan.cost()) > 1e-9 * Math.max(1, cost)) {
      return "the plan costs " + cost + ", not " + plan.cost();
    }
    return check.feasible() ? null : "a target, a history or a budget is not met";
  }

  /** A task: choose the producer of input i of consumer c. */
  private static final int CHOOSE = 0;
  /** A task: c's inputs are all chosen; check what can be checked already. */
  private static final int CHECK = 1;

  /**
   * Works through {@code tasks} as a stack: choosing a fresh producer pushes a check of it and
   * then its inputs, so a candidate's whole sub-plan is chosen before its check runs. A check of
   * an answer tests its query's target and the histories asked so far (they only grow), cutting
   * the branch early.
   */
  private void search(List<int[]> tasks, double cost) {
    if (cost + stillToPay(tasks) >= best) {
      return;
    }
    if (tasks.isEmpty()) {
      evaluated++;
      if (feasible()) {
        best = cost;
        bestPlan = new Plan(new ArrayList<>(used.keySet()), new ArrayList<>(chosen.values()), cost,
            cost, Plan.Status.ENUMERATED, 0, 0, 0);
      }
      return;
    }
    final int[] task = tasks.remove(tasks.size() - 1);
    if (task[0] == CHECK) {
      if (!(space.memo().candidate(space.candidates().get(task[1]).logical()).operator()
          instanceof Operator.Answer a) || (meetsTarget(a.query()) && historiesFit())) {
        search(tasks, cost);
      }
      tasks.add(task);
      return;
    }
    final int c = task[1];
    final int i = task[2];
    for (PhysicalEdge e : inputs.get(c).get(i)) {
      final int u = e.producer();
      final boolean fresh = !used.containsKey(u);
      if (!fresh && Constraints.streamed(space.candidates().get(u))) {
        continue;  // a result that is not kept streams into one consumer
      }
      chosen.put(c + "/" + i, e);
      used.merge(u, 1, Integer::sum);
      final List<int[]> more = new ArrayList<>(tasks);
      if (fresh) {
        more.add(new int[] {CHECK, u});
        for (int j = arity(u) - 1; j >= 0; j--) {
          more.add(new int[] {CHOOSE, u, j});
        }
      }
      search(more, fresh ? cost + space.weight(u) : cost);
      if (used.merge(u, -1, Integer::sum) == 0) {
        used.remove(u);
      }
      chosen.remove(c + "/" + i);
    }
    tasks.add(task);
  }

  /**
   * A lower bound on what the open inputs still cost: each group they read needs some producer,
   * at least its cheapest feasible one (nothing when one is already used); producers of different
   * groups are different candidates, so the bounds add.
   */
  private double stillToPay(List<int[]> tasks) {
    final Map<Integer, Double> cheapest = new HashMap<>();
    for (int[] task : tasks) {
      if (task[0] != CHOOSE) {
        continue;
      }
      for (PhysicalEdge e : inputs.get(task[1]).get(task[2])) {
        final double w = used.containsKey(e.producer()) ? 0 : space.weight(e.producer());
        cheapest.merge(space.candidates().get(e.producer()).group(), w, Math::min);
      }
    }
    double sum = 0;
    for (double w : cheapest.values()) {
      sum += w;
    }
    return sum;
  }

  private boolean meetsTarget(String query) {
    final Query q = space.workload().queries().stream().filter(x -> x.name().equals(query))
        .findFirst().orElseThrow();
    final int a = space.answers().get(query);
    return Constraints.meets(guarantee(chosen.get(a + "/0").producer()), q.target());
  }

  private int arity(int v) {
    return space.memo().candidate(space.candidates().get(v).logical()).children().size();
  }

  /** Whether the complete assignment meets pipelining, (K), (R) and (B). */
  private boolean feasible() {
    final Map<Integer, Integer> readers = new HashMap<>();
    for (PhysicalEdge e : chosen.values()) {
      readers.merge(e.producer(), 1, Integer::sum);
    }
    for (Map.Entry<Integer, Integer> r : readers.entrySet()) {
      if (Constraints.streamed(space.candidates().get(r.getKey())) && r.getValue() > 1) {
        throw new IllegalStateException("a pipelined result was chosen twice");
      }
    }
    for (Query q : space.workload().queries()) {
      if (!meetsTarget(q.name())) {
        return false;
      }
    }
    if (!historiesFit()) {
      return false;
    }
    for (Budget b : space.workload().budgets()) {
      double total = 0;
      for (int v : used.keySet()) {
        total += space.costs().get(v).of(b.resource());
      }
      if (total > b.limit()) {
        return false;
      }
    }
    return true;
  }

  /** The error of v's result in this plan. */
  private Guarantee guarantee(int v) {
    return switch (Constraints.levelRule(space, v)) {
      case FIXED -> Constraints.fixedLevel(space, v);
      case RATIO -> Constraints.ratio(guarantee(chosen.get(v + "/0").producer()),
          guarantee(chosen.get(v + "/1").producer()));
      case ANSWER, PASS -> guarantee(chosen.get(v + "/0").producer());
    };
  }

  /**
   * Pushes each answer's retention down the plan (a candidate recomputed on demand passes
   * "serve h" on as h + lookback, a kept one asks only the lookback) and checks that every
   * candidate keeps what it is asked.
   */
  private boolean historiesFit() {
    final Map<Integer, Set<Duration>> asked = new HashMap<>();
    for (Query q : space.workload().queries()) {
      asked.computeIfAbsent(space.answers().get(q.name()), k -> new LinkedHashSet<>()).add(q.retention());
    }
    for (int g : consumersFirst) {
      for (int v : space.byGroup().get(g)) {
        if (!used.containsKey(v)) {
          continue;
        }
        final PhysicalCandidate c = space.candidates().get(v);
        final Set<Duration> mine = asked.getOrDefault(v, Set.of());
        for (Duration h : mine) {
          if (!Constraints.keeps(c, h)) {
            return false;
          }
        }
        for (int i = 0; i < arity(v); i++) {
          final PhysicalEdge e = chosen.get(v + "/" + i);
          if (e == null) {
            continue;  // not chosen yet: what it will ask comes later
          }
          final Set<Duration> theirs = asked.computeIfAbsent(e.producer(), k -> new LinkedHashSet<>());
          theirs.add(Constraints.asksOfInputs(space, c, Duration.ZERO));
          for (Duration h : mine) {
            theirs.add(Constraints.asksOfInputs(space, c, h));
          }
        }
      }
    }
    return true;
  }
}
