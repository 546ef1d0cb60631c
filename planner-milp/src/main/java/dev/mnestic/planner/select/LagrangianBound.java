package dev.mnestic.planner.select;

import dev.mnestic.planner.memo.Guarantee;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.Target;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * A lower bound on a part's optimum by splitting each candidate's weight among the queries that
 * use it (Lagrangian relaxation of the strong, per-client formulation), and the candidates no
 * plan as cheap as a known one can use.
 *
 * <p>Every operator but a ratio's divide reads one input, so in any plan the candidates below
 * a query's answer are one path per branch (a ratio has two: its numerator and denominator)
 * down to the rows. A client k is one branch of one query (the answer and the divide count in
 * branch 0). A facility f is a candidate v, or for a streamed result (lifetime none, which
 * feeds one consumer) v and one consumer c: clients reading v through different consumers
 * read different results. μ_{k,f} ≥ 0 is k's share of w_v, each facility's shares adding up to
 * at most w_v. For any such shares,
 *
 * <pre>
 *   L(μ) = Σ_q min over q's trees T of Σ_{(k,f) ∈ T} μ_{k,f}
 * </pre>
 *
 * is at most the cost of every plan: the plan's own tree of q is one of q's trees (its levels
 * compose to q's target, (K), and each candidate on it keeps at least what that path asks,
 * (R)), and the plan pays w_v ≥ Σ_k μ_{k,f} for each candidate v it uses, where f is v's one
 * facility in the plan (its consumer's, for a streamed v) that every path through v holds. The
 * min over q's trees is the dynamic programme of {@link TreePlans} over (candidate, history
 * asked, level), with μ in place of w (a streamed candidate's nodes per consumer). Dropping the
 * constraints that still tie the queries' trees together (one producer per input, budgets)
 * only lowers L. The shares are improved by projected subgradient steps with momentum
 * (Polyak's step towards the known plan's cost).
 *
 * <p>Fixing: a plan that uses v (an inclusion-minimal one uses v on some client's path) costs
 * at least L(μ) + (w_v - Σ_k μ_{k,f}) + min_k (the cheapest tree of k's query through f - the
 * cheapest tree of it) for one of v's facilities f, so when that exceeds a known plan's cost
 * for every f no optimal plan uses v.
 */
final class LagrangianBound {
  // A node's Constraints.LevelRule, kept by ordinal in nodeKind (an int table, as every table here).
  private static final int FIXED = Constraints.LevelRule.FIXED.ordinal();
  private static final int DIVIDE = Constraints.LevelRule.RATIO.ordinal();
  private static final int ANSWER = Constraints.LevelRule.ANSWER.ordinal();
  /**
   * A bound this close (relatively) to a plan's cost proves the plan optimal; the same slack
   * keeps rounding from leaving out a candidate of a plan as cheap as the known one. 10^-5 is a
   * tenth of HiGHS's default MIP gap, and far below the cost model's own precision; at 10^-6 a
   * 5,000 rows/s part of the 800-query dashboard stayed unproven (its bound 2·10^-6 below the
   * plan, a gap CP-SAT did not close in 48 s).
   */
  static final double TOLERANCE = 1e-5;
  /**
   * How much of its last move each step repeats (heavy-ball momentum): the shares converge in
   * far fewer steps (one part at 50 queries: 2,100 steps instead of 13,700 to the same bound).
   */
  private static final double MOMENTUM = 0.9;
  /** Steps without a better bound before the step size halves. */
  private static final int PATIENCE = 50;
  /** The step size (a fraction of Polyak's) below which the shares are taken as converged. */
  private static final double MIN_STEP = 1e-4;

  private final PlanSpace space;
  private final List<List<List<PhysicalEdge>>> inputs;
  private final boolean[] member;

  // Nodes: (candidate, history asked, branch) of one query, children before parents.
  private final Ints nodeSlot = new Ints();
  private final Ints nodeKind = new Ints();
  private final Ints entryStart = new Ints();
  /** Links of a non-divide node: child entry → entry of the node (CSR by node). */
  private final Ints linkStart = new Ints();
  private final Ints linkChild = new Ints();
  private final Ints linkParent = new Ints();
  // Entries: (node, level) pairs; a fixed θ has one level, an answer one entry (no level).
  private final Ints entryNode = new Ints();
  private final Ints entryLevel = new Ints();
  private final Map<Integer, Divide> divides = new HashMap<>();
  // Slots: (client, facility), each with its share μ. A facility is a candidate, or for a
  // streamed result (lifetime none) the candidate and the one consumer it streams into.
  private final Ints slotCandidate = new Ints();
  private final Ints slotQuery = new Ints();
  private final Ints slotFacility = new Ints();
  private final Ints facilityCandidate = new Ints();
  private final Map<Facility, Integer> facilityIds = new HashMap<>();
  /** The answer node of each query. */
  private final Ints roots = new Ints();
  private final List<Guarantee> levels = new ArrayList<>();
  private final Map<Guarantee, Integer> levelIds = new HashMap<>();
  /** The slots of each candidate, and of each facility. */
  private final int[][] slotsOf;
  private final int[][] facilitySlots;
  /** μ by slot, and the best found with its bound L. */
  private final double[] mu;
  private final double[] bestMu;
  private double best;
  private int iterations;
  /** Whether the last {@link #improve} was ended by its {@code goesOn} before it converged. */
  private boolean stopped;
  // Work arrays of one evaluation: each entry's cheapest tree below it, each candidate's Σ_k μ.
  private final double[] cost;
  private final int[] argA;
  private final int[] argB;
  private final double[] total;
  private final boolean[] onPath;

  /** A divide node: each side's levels, the links of its children's entries to them, the pairs. */
  private static final class Divide {
    final Ints[] childEntry = {new Ints(), new Ints()};
    final Ints[] sideSlot = {new Ints(), new Ints()};
    final int[][] sideLevels = new int[2][];
    /** Entry (global) of the pair (a, b): pair[a * sideLevels[1].length + b]. */
    int[] pair;
    double[][] best;
    int[][] arg;
  }

  private record Key(int candidate, Duration asked, int branch, int consumer) {
    // Written out, as Guarantee's: C1 alone does not inline a record's generated methods.
    @Override public boolean equals(Object o) {
      return o instanceof Key k && candidate == k.candidate && branch == k.branch && consumer == k.consumer
          && Objects.equals(asked, k.asked);
    }

    @Override public int hashCode() {
      return ((candidate * 31 + Objects.hashCode(asked)) * 31 + branch) * 31 + consumer;
    }
  }

  /** Candidate v, streamed into {@code consumer} (-1: a result kept, read by any consumer). */
  private record Facility(int v, int consumer) {
    @Override public boolean equals(Object o) {
      return o instanceof Facility f && v == f.v && consumer == f.consumer;
    }

    @Override public int hashCode() {
      return v * 31 + consumer;
    }
  }

  /**
   * The trees of every query of the part {@code members} (its candidates, the edges among them
   * in {@code inputs}); each facility's weight split evenly among the clients whose trees may
   * hold it.
   *
   * @throws PlanningException when some query has no tree
   */
  LagrangianBound(PlanSpace space, List<PhysicalCandidate> members, List<List<List<PhysicalEdge>>> inputs) {
    this(space, members, inputs, () -> true);
  }

  /**
   * {@link #LagrangianBound(PlanSpace, List, List)} while {@code goesOn}, asked before each
   * query's trees are built (a build takes a while at scale, and over a second on a starved
   * machine); null when it said no first.
   */
  static LagrangianBound of(PlanSpace space, List<PhysicalCandidate> members,
      List<List<List<PhysicalEdge>>> inputs, BooleanSupplier goesOn) {
    try {
      return new LagrangianBound(space, members, inputs, goesOn);
    } catch (BuildStopped e) {
      return null;
    }
  }

  /** Thrown out of a build that {@code goesOn} stopped, to {@link #of}. */
  private static final class BuildStopped extends RuntimeException {
    BuildStopped() {
      super(null, null, false, false);
    }
  }

  private LagrangianBound(PlanSpace space, List<PhysicalCandidate> members,
      List<List<List<PhysicalEdge>>> inputs, BooleanSupplier goesOn) {
    this.space = space;
    this.inputs = inputs;
    final int n = space.candidates().size();
    this.member = new boolean[n];
    members.forEach(v -> member[v.id()] = true);
    linkStart.add(0);
    entryStart.add(0);
    for (Query q : space.workload().queries()) {
      final int a = space.answers().get(q.name());
      if (member[a]) {
        if (!goesOn.getAsBoolean()) {
          throw new BuildStopped();
        }
        final int root = node(new HashMap<>(), new HashMap<>(), roots.size(), a, q.retention(), 0, -1);
        if (root < 0) {
          throw new PlanningException("no plan meets the target and retention of query " + q.name());
        }
        roots.add(root);
      }
    }
    slotsOf = group(slotCandidate, n);
    facilitySlots = group(slotFacility, facilityCandidate.size());
    mu = new double[slotCandidate.size()];
    for (int[] slots : facilitySlots) {
      for (int s : slots) {
        mu[s] = space.weight(slotCandidate.get(s)) / slots.length;
      }
    }
    bestMu = mu.clone();
    cost = new double[entryNode.size()];
    argA = new int[entryNode.size()];
    argB = new int[entryNode.size()];
    total = new double[facilitySlots.length];
    onPath = new boolean[mu.length];
    best = Math.max(0, evaluate(mu));
  }

  /** The indices of {@code owners} grouped by owner (0 to groups - 1). */
  private static int[][] group(Ints owners, int groups) {
    final int[] count = new int[groups];
    for (int s = 0; s < owners.size(); s++) {
      count[owners.get(s)]++;
    }
    final int[][] out = new int[groups][];
    for (int g = 0; g < groups; g++) {
      out[g] = new int[count[g]];
    }
    Arrays.fill(count, 0);
    for (int s = 0; s < owners.size(); s++) {
      final int g = owners.get(s);
      out[g][count[g]++] = s;
    }
    return out;
  }

  /**
   * Subgradient steps from the best shares so far, Polyak's step towards {@code upper} (the cost
   * of a known plan), while {@code goesOn} (the schedule's deadline not reached, the search not
   * stopped), until the bound reaches {@code upper} or the steps become too small.
   *
   * @return the best bound L found so far (at least 0): no plan of the part costs less
   */
  double improve(double upper, BooleanSupplier goesOn) {
    System.arraycopy(bestMu, 0, mu, 0, mu.length);
    final double[] moved = new double[mu.length];
    double lambda = 1;
    int sinceBest = 0;
    while (best < upper - TOLERANCE * upper && lambda >= MIN_STEP && goesOn.getAsBoolean()) {
      final double bound = evaluate(mu);
      iterations++;
      if (bound > best) {
        best = bound;
        System.arraycopy(mu, 0, bestMu, 0, mu.length);
        sinceBest = 0;
      } else if (++sinceBest >= PATIENCE) {
        lambda /= 2;
        sinceBest = 0;
      }
      // Supergradient: [v on k's cheapest tree], plus MOMENTUM times the last move, at least 0;
      // then each facility's back to Σ_k μ_{k,f} <= w_v.
      Arrays.fill(onPath, false);
      for (int r = 0; r < roots.size(); r++) {
        mark(entryStart.get(roots.get(r)));
      }
      int norm = 0;
      for (boolean on : onPath) {
        norm += on ? 1 : 0;
      }
      final double t = lambda * (upper - bound) / norm;
      for (int s = 0; s < mu.length; s++) {
        final double before = mu[s];
        mu[s] = Math.max(0, mu[s] + (onPath[s] ? t : 0) + MOMENTUM * moved[s]);
        moved[s] = before;
      }
      for (int f = 0; f < facilitySlots.length; f++) {
        project(facilitySlots[f], space.weight(facilityCandidate.get(f)));
      }
      for (int s = 0; s < mu.length; s++) {
        moved[s] = mu[s] - moved[s];
      }
    }
    stopped = best < upper - TOLERANCE * upper && lambda >= MIN_STEP;
    return best;
  }

  /**
   * Whether the last {@link #improve} was stopped by its {@code goesOn} (the time limit) before
   * the bound reached its target or its steps became too small: more time may raise it.
   */
  boolean stopped() {
    return stopped;
  }

  /** Moves the shares of one candidate's {@code slots} (each at least 0) back to Σ ≤ w, closest. */
  private void project(int[] slots, double w) {
    double sum = 0;
    for (int s : slots) {
      sum += mu[s];
    }
    if (sum <= w) {
      return;
    }
    final double[] sorted = new double[slots.length];
    for (int i = 0; i < slots.length; i++) {
      sorted[i] = mu[slots[i]];
    }
    Arrays.sort(sorted);
    double tau = 0;
    double acc = 0;
    for (int i = sorted.length - 1; i >= 0; i--) {
      acc += sorted[i];
      final double candidate = (acc - w) / (sorted.length - i);
      if (i == 0 || sorted[i - 1] <= candidate) {
        tau = candidate;
        break;
      }
    }
    for (int s : slots) {
      mu[s] = Math.max(0, mu[s] - tau);
    }
  }

  /** The best bound L found so far (at least 0), without taking a step. */
  double bound() {
    return best;
  }

  /** Subgradient steps taken so far. */
  int iterations() {
    return iterations;
  }

  /** L(μ); the work arrays receive each entry's cheapest tree below it and each Σ_k μ_{k,v}. */
  private double evaluate(double[] m) {
    Arrays.fill(total, 0);
    for (int s = 0; s < m.length; s++) {
      total[slotFacility.get(s)] += m[s];
    }
    double bound = 0;
    for (int node = 0; node < nodeKind.size(); node++) {
      final double own = m[nodeSlot.get(node)];
      final int from = entryStart.get(node);
      final int to = entryStart.get(node + 1);
      if (nodeKind.get(node) == DIVIDE) {
        final Divide d = divides.get(node);
        for (int side = 0; side < 2; side++) {
          Arrays.fill(d.best[side], Double.POSITIVE_INFINITY);
          for (int l = 0; l < d.childEntry[side].size(); l++) {
            final int ce = d.childEntry[side].get(l);
            final int slot = d.sideSlot[side].get(l);
            if (cost[ce] < d.best[side][slot]) {
              d.best[side][slot] = cost[ce];
              d.arg[side][slot] = ce;
            }
          }
        }
        for (int e = from; e < to; e++) {
          cost[e] = Double.POSITIVE_INFINITY;
        }
        final int nb = d.sideLevels[1].length;
        for (int a = 0; a < d.sideLevels[0].length; a++) {
          for (int b = 0; b < nb; b++) {
            final int e = d.pair[a * nb + b];
            final double c = own + d.best[0][a] + d.best[1][b];
            if (c < cost[e]) {
              cost[e] = c;
              argA[e] = d.arg[0][a];
              argB[e] = d.arg[1][b];
            }
          }
        }
        continue;
      }
      for (int e = from; e < to; e++) {
        cost[e] = linkStart.get(node) == linkStart.get(node + 1) ? own : Double.POSITIVE_INFINITY;
        argA[e] = -1;
      }
      for (int l = linkStart.get(node); l < linkStart.get(node + 1); l++) {
        final int ce = linkChild.get(l);
        final int e = linkParent.get(l);
        if (own + cost[ce] < cost[e]) {
          cost[e] = own + cost[ce];
          argA[e] = ce;
        }
      }
    }
    for (int r = 0; r < roots.size(); r++) {
      bound += cost[entryStart.get(roots.get(r))];
    }
    return bound;
  }

  /** Marks the slots on the cheapest tree below entry {@code e}. */
  private void mark(int e) {
    final int node = entryNode.get(e);
    onPath[nodeSlot.get(node)] = true;
    if (argA[e] >= 0) {
      mark(argA[e]);
    }
    if (nodeKind.get(node) == DIVIDE) {
      mark(argB[e]);
    }
  }

  /**
   * Of the candidates {@code plan} uses, those every plan of the part costing at most
   * {@code upper} uses: without v each query's cheapest tree avoids v, and when the bound so
   * found, Σ_q min over q's trees without v at the best shares, exceeds {@code upper}, no plan
   * that cheap does without v. Each candidate tried takes an evaluation of the trees, so it
   * tries the next only while {@code goesOn}: those not tried are not reported needed.
   */
  List<Integer> needed(Collection<Integer> plan, double upper, BooleanSupplier goesOn) {
    final double[] m = bestMu.clone();
    final List<Integer> needed = new ArrayList<>();
    for (int v : plan) {
      if (!goesOn.getAsBoolean()) {
        break;
      }
      if (slotsOf[v].length == 0) {
        continue;
      }
      for (int s : slotsOf[v]) {
        m[s] = Double.POSITIVE_INFINITY;
      }
      if (evaluate(m) > upper + TOLERANCE * upper) {
        needed.add(v);
      }
      for (int s : slotsOf[v]) {
        m[s] = bestMu[s];
      }
    }
    return needed;
  }

  /**
   * What a plan of the part costing at most {@code upper} may use: its candidates, and its
   * edges (u, c, i) by {@link #keeps}.
   */
  record Kept(boolean[] candidates, Map<Long, Double> edgePenalty, double slack, double[] reducedCost) {
    /**
     * Whether such a plan may hold edge {@code e}: its penalty (the cheapest tree through it,
     * less the cheapest, plus its producer's facility's unpaid weight) and the least unpaid
     * weight of its consumer's facilities ({@code reducedCost}) fit in the slack.
     */
    boolean keeps(PhysicalEdge e) {
      final Double penalty = edgePenalty.get(key(e.producer(), e.consumer(), e.input(), reducedCost.length));
      return penalty != null && reducedCost[e.consumer()] + penalty <= slack;
    }
  }

  private static long key(int producer, int consumer, int input, int n) {
    return ((long) producer * n + consumer) * 2 + input;
  }

  /**
   * The candidates and edges a plan of the part costing at most {@code upper} may use, by the
   * cheapest tree through each (the cheapest above it plus the cheapest below) at the best
   * shares.
   */
  Kept alive(double upper) {
    final double[] m = bestMu;
    final double bound = evaluate(m);
    final double[] above = new double[cost.length];
    Arrays.fill(above, Double.POSITIVE_INFINITY);
    for (int r = 0; r < roots.size(); r++) {
      above[entryStart.get(roots.get(r))] = 0;
    }
    for (int node = nodeKind.size() - 1; node >= 0; node--) {
      final double own = m[nodeSlot.get(node)];
      if (nodeKind.get(node) == DIVIDE) {
        final Divide d = divides.get(node);
        final int nb = d.sideLevels[1].length;
        for (int side = 0; side < 2; side++) {
          for (int l = 0; l < d.childEntry[side].size(); l++) {
            final int ce = d.childEntry[side].get(l);
            final int slot = d.sideSlot[side].get(l);
            for (int o = 0; o < d.sideLevels[1 - side].length; o++) {
              final int e = side == 0 ? d.pair[slot * nb + o] : d.pair[o * nb + slot];
              above[ce] = Math.min(above[ce], above[e] + own + d.best[1 - side][o]);
            }
          }
        }
        continue;
      }
      for (int l = linkStart.get(node); l < linkStart.get(node + 1); l++) {
        final int ce = linkChild.get(l);
        above[ce] = Math.min(above[ce], above[linkParent.get(l)] + own);
      }
    }
    final int n = space.candidates().size();
    // The cheapest tree through each edge: above its consumer's entry, the consumer, below its
    // producer's entry; plus the unpaid weight of the producer's facility on it.
    final double[] unpaid = new double[facilitySlots.length];
    for (int f = 0; f < unpaid.length; f++) {
      unpaid[f] = Math.max(0, space.weight(facilityCandidate.get(f)) - total[f]);
    }
    final Map<Long, Double> edgePenalty = new HashMap<>();
    for (int node = 0; node < nodeKind.size(); node++) {
      final double own = m[nodeSlot.get(node)];
      final int c = slotCandidate.get(nodeSlot.get(node));
      final double cheapest = cost[entryStart.get(roots.get(slotQuery.get(nodeSlot.get(node))))];
      if (nodeKind.get(node) == DIVIDE) {
        final Divide d = divides.get(node);
        final int nb = d.sideLevels[1].length;
        for (int side = 0; side < 2; side++) {
          for (int l = 0; l < d.childEntry[side].size(); l++) {
            final int ce = d.childEntry[side].get(l);
            final int slot = d.sideSlot[side].get(l);
            double through = Double.POSITIVE_INFINITY;
            for (int o = 0; o < d.sideLevels[1 - side].length; o++) {
              final int e = side == 0 ? d.pair[slot * nb + o] : d.pair[o * nb + slot];
              through = Math.min(through, above[e] + own + d.best[1 - side][o] + cost[ce]);
            }
            final int u = nodeSlot.get(entryNode.get(ce));
            edgePenalty.merge(key(slotCandidate.get(u), c, side, n),
                unpaid[slotFacility.get(u)] + through - cheapest, Math::min);
          }
        }
        continue;
      }
      for (int l = linkStart.get(node); l < linkStart.get(node + 1); l++) {
        final int ce = linkChild.get(l);
        final int u = nodeSlot.get(entryNode.get(ce));
        edgePenalty.merge(key(slotCandidate.get(u), c, 0, n),
            unpaid[slotFacility.get(u)] + above[linkParent.get(l)] + own + cost[ce] - cheapest, Math::min);
      }
    }
    final double[] through = new double[unpaid.length];
    Arrays.fill(through, Double.POSITIVE_INFINITY);
    for (int e = 0; e < cost.length; e++) {
      final int slot = nodeSlot.get(entryNode.get(e));
      final int f = slotFacility.get(slot);
      through[f] = Math.min(through[f], above[e] + cost[e] - cost[entryStart.get(roots.get(slotQuery.get(slot)))]);
    }
    final boolean[] alive = new boolean[n];
    final double[] reduced = new double[n];
    Arrays.fill(reduced, Double.POSITIVE_INFINITY);
    final double slack = upper + TOLERANCE * upper - bound;
    for (int f = 0; f < unpaid.length; f++) {
      final int v = facilityCandidate.get(f);
      reduced[v] = Math.min(reduced[v], unpaid[f]);
      alive[v] |= unpaid[f] + through[f] <= slack;
    }
    return new Kept(alive, edgePenalty, slack, reduced);
  }

  /**
   * The node of candidate v asked history {@code asked} in branch {@code branch} of query
   * {@code query}, with its sub-tree; -1 when no tree below it is feasible.
   */
  private int node(Map<Key, Integer> nodes, Map<Long, Integer> slots, int query, int v, Duration asked,
      int branch, int consumerOf) {
    final PhysicalCandidate c = space.candidates().get(v);
    // A streamed result feeds one consumer (P), so clients reading it through different
    // consumers read different results: a node, and a facility, per consumer.
    final int consumer = Constraints.streamed(c) ? consumerOf : -1;
    final Key key = new Key(v, asked, branch, consumer);
    final Integer known = nodes.get(key);
    if (known != null) {
      return known;
    }
    nodes.put(key, -1);
    if (!Constraints.keeps(c, asked)) {
      return -1;
    }
    final int kind = Constraints.levelRule(space, v).ordinal();
    final Duration down = Constraints.asksOfInputs(space, c, asked);
    final List<List<Integer>> children = new ArrayList<>();
    for (int i = 0; i < inputs.get(v).size(); i++) {
      final List<Integer> in = new ArrayList<>();
      for (PhysicalEdge e : inputs.get(v).get(i)) {
        if (member[e.producer()]) {
          final int child = node(nodes, slots, query, e.producer(), down, kind == DIVIDE ? i : branch, v);
          if (child >= 0) {
            in.add(child);
          }
        }
      }
      if (in.isEmpty()) {
        return -1;
      }
      children.add(in);
    }
    final int id = nodeKind.size();
    final int firstEntry = entryNode.size();
    final int firstLink = linkChild.size();
    if (kind == DIVIDE) {
      final Divide d = new Divide();
      for (int side = 0; side < 2; side++) {
        final List<Integer> sideLevels = new ArrayList<>();
        for (int child : children.get(side)) {
          for (int ce = entryStart.get(child); ce < entryStart.get(child + 1); ce++) {
            int at = sideLevels.indexOf(entryLevel.get(ce));
            if (at < 0) {
              at = sideLevels.size();
              sideLevels.add(entryLevel.get(ce));
            }
            d.childEntry[side].add(ce);
            d.sideSlot[side].add(at);
          }
        }
        d.sideLevels[side] = sideLevels.stream().mapToInt(l -> l).toArray();
      }
      final int nb = d.sideLevels[1].length;
      d.pair = new int[d.sideLevels[0].length * nb];
      final List<Integer> own = new ArrayList<>();
      for (int a = 0; a < d.sideLevels[0].length; a++) {
        for (int b = 0; b < nb; b++) {
          final int level = levelId(Constraints.ratio(levels.get(d.sideLevels[0][a]), levels.get(d.sideLevels[1][b])));
          int at = own.indexOf(level);
          if (at < 0) {
            at = own.size();
            own.add(level);
            entryNode.add(id);
            entryLevel.add(level);
          }
          d.pair[a * nb + b] = firstEntry + at;
        }
      }
      d.best = new double[][] {new double[d.sideLevels[0].length], new double[nb]};
      d.arg = new int[][] {new int[d.sideLevels[0].length], new int[nb]};
      divides.put(id, d);
    } else if (kind == FIXED) {
      entryNode.add(id);
      entryLevel.add(levelId(Constraints.fixedLevel(space, v)));
      for (List<Integer> in : children) {
        for (int child : in) {
          for (int ce = entryStart.get(child); ce < entryStart.get(child + 1); ce++) {
            linkChild.add(ce);
            linkParent.add(firstEntry);
          }
        }
      }
    } else if (kind == ANSWER) {
      final Target target = Constraints.target(space, v);
      for (int child : children.get(0)) {
        for (int ce = entryStart.get(child); ce < entryStart.get(child + 1); ce++) {
          if (Constraints.meets(levels.get(entryLevel.get(ce)), target)) {
            linkChild.add(ce);
            linkParent.add(firstEntry);
          }
        }
      }
      if (linkChild.size() == firstLink) {
        return -1;
      }
      entryNode.add(id);
      entryLevel.add(-1);
    } else {
      final List<Integer> own = new ArrayList<>();
      for (int child : children.get(0)) {
        for (int ce = entryStart.get(child); ce < entryStart.get(child + 1); ce++) {
          int at = own.indexOf(entryLevel.get(ce));
          if (at < 0) {
            at = own.size();
            own.add(entryLevel.get(ce));
            entryNode.add(id);
            entryLevel.add(entryLevel.get(ce));
          }
          linkChild.add(ce);
          linkParent.add(firstEntry + at);
        }
      }
    }
    nodeKind.add(kind);
    // The answer and the divide are paid in branch 0; below a divide each operand is a client.
    final int facility = facilityIds.computeIfAbsent(new Facility(v, consumer), k -> {
      facilityCandidate.add(v);
      return facilityCandidate.size() - 1;
    });
    nodeSlot.add(slots.computeIfAbsent((long) facility * 2 + branch, k -> {
      slotCandidate.add(v);
      slotQuery.add(query);
      slotFacility.add(facility);
      return slotCandidate.size() - 1;
    }));
    entryStart.add(entryNode.size());
    linkStart.add(linkChild.size());
    nodes.put(key, id);
    return id;
  }

  private int levelId(Guarantee g) {
    return levelIds.computeIfAbsent(g, k -> {
      levels.add(k);
      return levels.size() - 1;
    });
  }
}
