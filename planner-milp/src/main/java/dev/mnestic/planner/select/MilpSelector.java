package dev.mnestic.planner.select;

import dev.mnestic.planner.memo.Guarantee;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.physical.Lifetime;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.rules.History;
import dev.mnestic.planner.workload.Budget;
import dev.mnestic.planner.workload.Query;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPSolverParameters;
import com.google.ortools.linearsolver.MPVariable;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Stage 3 as a MILP in OR-Tools: {@code buildModel} → {@code addConstraints} →
 * {@code extractSolution}. Variables: x_v (candidate used) and y_{u,c,i} (edge used) over the
 * feasible edges; z_{c,ℓ} (ratio c's error is ℓ ∈ Λ_c) and w_{c,i,ℓ} (its operand i has error
 * ℓ); and g_{v,h} (v must serve results h back, h ∈ H_G). A readout's error needs no variable:
 * it reads a state of fixed θ, so it has level ℓ exactly when Σ_{u : ℓ(u) = ℓ} y_{u,c,0} = 1. Objective: minimize Σ w_v x_v, so a shared producer is paid once.
 *
 * <p>Acyclicity needs no variables: {@link dev.mnestic.planner.memo.Memo#add} refuses any
 * candidate that would close a cycle of groups, so every choice of y is a DAG;
 * {@code extractSolution} asserts it.
 *
 * <p>Every constraint is between binaries and integer constants, with error and history
 * levels compared in Java ({@link Guarantee#meets}), so no solver tolerance decides accuracy.
 */
public final class MilpSelector implements Selector {
  private static final System.Logger LOG = System.getLogger(MilpSelector.class.getName());

  static {
    Loader.loadNativeLibraries();
  }

  private final PlanSpace space;
  private final String solverId;
  private final Duration timeLimit;

  /** The variables of candidate v: x_v, z_{v,ℓ} when it is a ratio, g_{v,h}. */
  private record CandidateVars(MPVariable x, Map<Guarantee, MPVariable> level,
      Map<Duration, MPVariable> history) {
  }

  /**
   * The variables of one model over {@code members}: their {@link CandidateVars} (by candidate
   * id, null for others), y per feasible edge between them, and the feasible edges into each
   * input that the model keeps.
   */
  private record Model(MPSolver solver, List<PhysicalCandidate> members,
      List<CandidateVars> candidates, Map<PhysicalEdge, MPVariable> edges,
      List<List<List<PhysicalEdge>>> inputs) {
  }

  /**
   * @param solverId an MPSolver backend: "SCIP", "CBC" or "CP_SAT"
   * @param timeLimit how long the solver may search; past it the best plan found is returned
   *     with status FEASIBLE
   */
  public MilpSelector(PlanSpace space, String solverId, Duration timeLimit) {
    this.space = space;
    this.solverId = solverId;
    this.timeLimit = timeLimit;
  }

  /**
   * Solves each component of the plan space on its own (see {@link Components}), in parallel,
   * and joins their plans: the optimum of the whole is the sum of theirs, as no constraint spans
   * two. Before building a part's model, a plan found query by query ({@link TreePlans#greedy})
   * bounds its optimum: candidates that cannot be in a plan that cheap are left out
   * ({@link Pruning}), and the solver starts from that plan.
   */
  @Override public Plan solve() {
    final long start = System.nanoTime();
    final int n = space.candidates().size();
    final List<List<PhysicalCandidate>> parts = Components.of(space, !space.workload().budgets().isEmpty());
    final Plan known = TreePlans.greedy(space);
    final boolean[] inKnown = new boolean[n];
    if (known != null) {
      known.candidates().forEach(v -> inKnown[v] = true);
    }
    final double[] bound = new double[n];
    Arrays.fill(bound, Double.POSITIVE_INFINITY);
    for (List<PhysicalCandidate> part : parts) {
      double cost = known == null ? Double.POSITIVE_INFINITY : 0;
      for (PhysicalCandidate v : part) {
        cost += inKnown[v.id()] ? space.weight(v.id()) : 0;
      }
      for (PhysicalCandidate v : part) {
        bound[v.id()] = cost;
      }
    }
    final List<List<List<PhysicalEdge>>> feasible = space.feasibleInputs();
    final boolean[] alive = Pruning.alive(space, feasible, bound);
    final List<List<List<PhysicalEdge>>> inputs = new ArrayList<>();
    for (List<List<PhysicalEdge>> in : feasible) {
      final List<List<PhysicalEdge>> kept = new ArrayList<>();
      for (List<PhysicalEdge> edges : in) {
        kept.add(edges.stream().filter(e -> alive[e.producer()]).toList());
      }
      inputs.add(kept);
    }
    final Set<PhysicalEdge> hint = known == null ? Set.of() : new HashSet<>(known.edges());
    final long deadline = start + timeLimit.toNanos();
    final ExecutorService pool = Executors.newFixedThreadPool(
        Math.max(1, Math.min(parts.size(), Runtime.getRuntime().availableProcessors())));
    final List<Future<Plan>> solved = new ArrayList<>();
    try {
      for (List<PhysicalCandidate> part : parts) {
        final List<PhysicalCandidate> members = part.stream().filter(v -> alive[v.id()]).toList();
        solved.add(pool.submit(() -> solve(members, inputs, inKnown, hint,
            Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))));
      }
      final List<Integer> chosen = new ArrayList<>();
      final List<PhysicalEdge> edges = new ArrayList<>();
      double cost = 0;
      double lower = 0;
      String status = "OPTIMAL";
      int variables = 0;
      int constraints = 0;
      for (Future<Plan> f : solved) {
        final Plan part = join(f);
        chosen.addAll(part.candidates());
        edges.addAll(part.edges());
        cost += part.cost();
        lower += part.bound();
        status = part.status().equals("OPTIMAL") ? status : part.status();
        variables += part.variables();
        constraints += part.constraints();
      }
      assertDag(chosen, edges);
      return new Plan(chosen, edges, cost, status.equals("OPTIMAL") ? cost : lower, status,
          variables, constraints, (System.nanoTime() - start) / 1_000_000);
    } finally {
      pool.shutdownNow();
    }
  }

  private static Plan join(Future<Plan> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PlanningException("interrupted while solving");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private Plan solve(List<PhysicalCandidate> members, List<List<List<PhysicalEdge>>> inputs,
      boolean[] inKnown, Set<PhysicalEdge> knownEdges, Duration limit) {
    if ((limit.isZero() || limit.compareTo(timeLimit.dividedBy(10)) < 0) && !knownEdges.isEmpty()) {
      // Less than a tenth of the time limit left for this part (CP-SAT's presolve alone could
      // overrun it): its share of the known plan, with no bound proven.
      return known(members, inKnown, knownEdges);
    }
    final MPSolver solver = MPSolver.createSolver(solverId);
    if (solver == null) {
      throw new PlanningException("OR-Tools has no solver " + solverId);
    }
    try {
      final Model model = buildModel(solver, members, inputs);
      addConstraints(model);
      if (!knownEdges.isEmpty()) {
        // Start from the plan found query by query.
        final List<MPVariable> vars = new ArrayList<>();
        final List<Double> values = new ArrayList<>();
        for (PhysicalCandidate v : members) {
          vars.add(model.candidates().get(v.id()).x());
          values.add(inKnown[v.id()] ? 1.0 : 0.0);
        }
        model.edges().forEach((e, y) -> {
          vars.add(y);
          values.add(knownEdges.contains(e) ? 1.0 : 0.0);
        });
        solver.setHint(vars.toArray(new MPVariable[0]), values.stream().mapToDouble(d -> d).toArray());
      }
      solver.setTimeLimit(limit.toMillis());
      if (solverId.equals("CP_SAT")) {
        // One search worker per part: parts are solved in parallel on a small machine.
        solver.setSolverSpecificParametersAsString("num_workers:1");
      }
      final MPSolverParameters params = new MPSolverParameters();
      params.setDoubleParam(MPSolverParameters.DoubleParam.RELATIVE_MIP_GAP, 0.0);
      final long start = System.nanoTime();
      final MPSolver.ResultStatus status = solver.solve(params);
      final long millis = (System.nanoTime() - start) / 1_000_000;
      LOG.log(System.Logger.Level.DEBUG, "{0}: {1} variables, {2} constraints, {3} in {4} ms",
          solverId, solver.numVariables(), solver.numConstraints(), status, millis);
      if (status == MPSolver.ResultStatus.NOT_SOLVED && !knownEdges.isEmpty()) {
        return known(members, inKnown, knownEdges);
      }
      if (status != MPSolver.ResultStatus.OPTIMAL && status != MPSolver.ResultStatus.FEASIBLE) {
        throw new PlanningException(status == MPSolver.ResultStatus.INFEASIBLE
            ? "no plan meets every query's target, retention and budget"
            : solverId + " stopped with status " + status + " after " + millis + " ms");
      }
      return extractSolution(model, status.toString(), millis);
    } finally {
      solver.delete();
    }
  }

  /** The known plan's candidates and edges among {@code members}, status FEASIBLE, bound 0. */
  private Plan known(List<PhysicalCandidate> members, boolean[] inKnown, Set<PhysicalEdge> knownEdges) {
    final List<Integer> chosen = new ArrayList<>();
    double cost = 0;
    for (PhysicalCandidate v : members) {
      if (inKnown[v.id()]) {
        chosen.add(v.id());
        cost += space.weight(v.id());
      }
    }
    final Set<Integer> in = new HashSet<>(chosen);
    final List<PhysicalEdge> edges = knownEdges.stream().filter(e -> in.contains(e.consumer())).toList();
    return new Plan(chosen, edges, cost, 0, "FEASIBLE", 0, 0, 0);
  }

  /** x_v for every member, y_{u,c,i} for every feasible edge, z and w levels, g histories. */
  private Model buildModel(MPSolver solver, List<PhysicalCandidate> members,
      List<List<List<PhysicalEdge>>> inputs) {
    final List<Set<Guarantee>> levels = Levels.of(space);
    final List<CandidateVars> vars = new ArrayList<>(Collections.nCopies(space.candidates().size(),
        (CandidateVars) null));
    for (PhysicalCandidate v : members) {
      final MPVariable x = solver.makeBoolVar("x_" + v.id());
      final Map<Guarantee, MPVariable> level = new LinkedHashMap<>();
      if (space.memo().candidate(v.logical()).operator() instanceof Operator.Divide) {
        int l = 0;
        for (Guarantee g : levels.get(v.id())) {
          level.put(g, solver.makeBoolVar("z_" + v.id() + "_" + l++));
        }
      }
      final Map<Duration, MPVariable> history = new LinkedHashMap<>();
      final Duration capacity = v.properties().history();
      for (Duration h : space.history().get(v.group())) {
        // g_{v,h} = 0 for h beyond what v keeps: (R).
        final double ub = capacity != null && h.compareTo(capacity) > 0 ? 0 : 1;
        history.put(h, solver.makeIntVar(0, ub, "g_" + v.id() + "_" + h.getSeconds()));
      }
      vars.set(v.id(), new CandidateVars(x, level, history));
    }
    final Map<PhysicalEdge, MPVariable> edges = new LinkedHashMap<>();
    for (PhysicalCandidate c : members) {
      for (List<PhysicalEdge> input : inputs.get(c.id())) {
        for (PhysicalEdge e : input) {
          edges.put(e, solver.makeBoolVar("y_" + e.producer() + "_" + e.consumer() + "_" + e.input()));
        }
      }
    }
    final MPObjective objective = solver.objective();
    for (PhysicalCandidate v : members) {
      // minimize Σ w_v x_v
      objective.setCoefficient(vars.get(v.id()).x(), space.weight(v.id()));
    }
    objective.setMinimization();
    return new Model(solver, members, vars, edges, inputs);
  }

  private void addConstraints(Model m) {
    final MPSolver s = m.solver();
    final List<List<List<PhysicalEdge>>> inputs = m.inputs();
    final Map<Integer, List<PhysicalEdge>> readers = new HashMap<>();
    for (PhysicalEdge e : m.edges().keySet()) {
      readers.computeIfAbsent(e.producer(), k -> new ArrayList<>()).add(e);
    }
    for (PhysicalCandidate c : m.members()) {
      final CandidateVars cv = m.candidates().get(c.id());
      for (List<PhysicalEdge> input : inputs.get(c.id())) {
        // (A) Σ_u y_{u,c,i} = x_c: a used consumer's input reads exactly one feasible producer.
        final MPConstraint one = s.makeConstraint(0, 0);
        one.setCoefficient(cv.x(), -1);
        for (PhysicalEdge e : input) {
          one.setCoefficient(m.edges().get(e), 1);
          // (B) y_{u,c,i} <= x_u: a producer is used whenever an edge reads it.
          final MPConstraint used = s.makeConstraint(Double.NEGATIVE_INFINITY, 0);
          used.setCoefficient(m.edges().get(e), 1);
          used.setCoefficient(m.candidates().get(e.producer()).x(), -1);
        }
      }
      if (c.properties().lifetime() instanceof Lifetime.None) {
        // (P) Σ_{c,i} y_{u,c,i} <= 1: a result that is not kept streams into one consumer.
        final MPConstraint pipe = s.makeConstraint(Double.NEGATIVE_INFINITY, 1);
        for (PhysicalEdge e : readers.getOrDefault(c.id(), List.of())) {
          pipe.setCoefficient(m.edges().get(e), 1);
        }
      }
      addAccuracy(m, c, inputs.get(c.id()), inputs);
      addHistory(m, c, inputs.get(c.id()));
    }
    for (Query q : space.workload().queries()) {
      final CandidateVars answer = m.candidates().get(space.answers().get(q.name()));
      if (answer != null) {
        // (C) x_{a_q} = 1: each query's answer, and so its root group, is covered.
        answer.x().setBounds(1, 1);
      }
    }
    for (Budget b : space.workload().budgets()) {
      // (B) Σ_v r_v x_v <= budget.
      final MPConstraint budget = s.makeConstraint(Double.NEGATIVE_INFINITY, b.limit());
      for (PhysicalCandidate v : m.members()) {
        budget.setCoefficient(m.candidates().get(v.id()).x(), space.costs().get(v.id()).of(b.resource()));
      }
    }
  }

  /**
   * (K): the error level of every candidate an answer or a ratio reads, and at each answer no
   * level beyond its query's target. A fixed θ has its own level (x_v); a readout, whose
   * producer is a state of fixed θ, has level ℓ exactly when it reads a producer of level ℓ, a
   * sum of edge variables; a ratio has variables z for its levels and w for its operands'.
   */
  private void addAccuracy(Model m, PhysicalCandidate c, List<List<PhysicalEdge>> inputs,
      List<List<List<PhysicalEdge>>> all) {
    final MPSolver s = m.solver();
    final CandidateVars cv = m.candidates().get(c.id());
    final LogicalCandidate logical = space.memo().candidate(c.logical());
    if (logical.operator() instanceof Operator.Answer answer) {
      for (PhysicalEdge e : inputs.get(0)) {
        for (Map.Entry<Guarantee, List<MPVariable>> l : levels(m, e.producer(), all).entrySet()) {
          if (!l.getKey().meets(answer.target())) {
            // (K) y_{u,a_q,0} + [u has level ℓ] <= 1 for each ℓ beyond q's target.
            final MPConstraint k = s.makeConstraint(Double.NEGATIVE_INFINITY, 1);
            k.setCoefficient(m.edges().get(e), 1);
            l.getValue().forEach(v -> k.setCoefficient(v, 1));
          }
        }
      }
      return;
    }
    if (!(logical.operator() instanceof Operator.Divide)) {
      return;
    }
    // Σ_ℓ z_{c,ℓ} = x_c: a used ratio has one error level.
    sumEquals(s, cv.level().values(), cv.x());
    final List<Map<Guarantee, MPVariable>> operand = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      final Map<Guarantee, MPVariable> w = new LinkedHashMap<>();
      for (PhysicalEdge e : inputs.get(i)) {
        for (Map.Entry<Guarantee, List<MPVariable>> l : levels(m, e.producer(), all).entrySet()) {
          final MPVariable wl = w.computeIfAbsent(l.getKey(),
              g -> s.makeBoolVar("w_" + c.id() + "_" + operand.size() + "_" + w.size()));
          // w_{c,i,ℓ} >= y_{u,c,i} + [u has level ℓ] - 1: operand i has the level of its producer.
          final MPConstraint link = s.makeConstraint(-1, Double.POSITIVE_INFINITY);
          link.setCoefficient(wl, 1);
          link.setCoefficient(m.edges().get(e), -1);
          l.getValue().forEach(v -> link.setCoefficient(v, -1));
        }
      }
      // Σ_ℓ w_{c,i,ℓ} = x_c
      sumEquals(s, w.values(), cv.x());
      operand.add(w);
    }
    for (Map.Entry<Guarantee, MPVariable> a : operand.get(0).entrySet()) {
      for (Map.Entry<Guarantee, MPVariable> b : operand.get(1).entrySet()) {
        // z_{c,(a+b)/(1-b)} >= w_{c,0,a} + w_{c,1,b} - 1
        atLeastBoth(s, cv.level().get(Guarantee.ratio(a.getKey(), b.getKey())), a.getValue(),
            b.getValue());
      }
    }
  }

  /**
   * (R) histories: each answer asks ρ_q of its root; a consumer recomputed on demand that must
   * serve h asks h + lookback of its producer, a kept one only the lookback; g_{u,h} is 0 above
   * what u keeps (the variable bound set in buildModel).
   */
  private void addHistory(Model m, PhysicalCandidate c, List<List<PhysicalEdge>> inputs) {
    final MPSolver s = m.solver();
    final CandidateVars cv = m.candidates().get(c.id());
    final LogicalCandidate logical = space.memo().candidate(c.logical());
    if (logical.operator() instanceof Operator.Answer answer) {
      final Duration rho = space.workload().queries().stream()
          .filter(q -> q.name().equals(answer.query())).findFirst().orElseThrow().retention();
      if (rho.compareTo(Duration.ZERO) > 0) {
        // g_{a_q,ρ_q} = 1
        cv.history().get(rho).setBounds(1, 1);
      }
    }
    final Duration lookback = History.lookback(space.memo(), c.logical(), c.properties().timing());
    final boolean onDemand = c.properties().recomputedOnDemand();
    for (List<PhysicalEdge> input : inputs) {
      for (PhysicalEdge e : input) {
        final MPVariable y = m.edges().get(e);
        final CandidateVars u = m.candidates().get(e.producer());
        if (lookback.compareTo(Duration.ZERO) > 0) {
          // g_{u,lookback} >= y_{u,c,i}
          final MPConstraint now = s.makeConstraint(0, Double.POSITIVE_INFINITY);
          now.setCoefficient(historyVar(u, lookback), 1);
          now.setCoefficient(y, -1);
        }
        if (onDemand) {
          for (Map.Entry<Duration, MPVariable> h : cv.history().entrySet()) {
            // g_{u,h+lookback} >= g_{c,h} + y_{u,c,i} - 1
            atLeastBoth(s, historyVar(u, h.getKey().plus(lookback)), h.getValue(), y);
          }
        }
      }
    }
  }

  private static MPVariable historyVar(CandidateVars u, Duration h) {
    final MPVariable g = u.history().get(h);
    if (g == null) {
      throw new IllegalStateException("history " + h + " missing from H of a producer");
    }
    return g;
  }

  /**
   * [v has level ℓ] for each ℓ ∈ Λ_v, as a sum of variables: x_v for a fixed θ; for a readout,
   * Σ y_{u,v,0} over its producers u of level ℓ; z_{v,ℓ} for a ratio.
   */
  private Map<Guarantee, List<MPVariable>> levels(Model m, int v,
      List<List<List<PhysicalEdge>>> all) {
    final CandidateVars vars = m.candidates().get(v);
    final Map<Guarantee, List<MPVariable>> out = new LinkedHashMap<>();
    if (!vars.level().isEmpty()) {
      vars.level().forEach((g, z) -> out.put(g, List.of(z)));
      return out;
    }
    final Guarantee fixed = fixedGuarantee(v);
    if (fixed != null) {
      return Map.of(fixed, List.of(vars.x()));
    }
    for (PhysicalEdge e : all.get(v).get(0)) {
      final Guarantee g = fixedGuarantee(e.producer());
      if (g == null) {
        throw new IllegalStateException("candidate " + v + " reads " + e.producer()
            + ", whose error its θ does not fix");
      }
      out.computeIfAbsent(g, k -> new ArrayList<>()).add(m.edges().get(e));
    }
    return out;
  }

  /** ℓ(u) when u's θ fixes its guarantee, else null. */
  private Guarantee fixedGuarantee(int u) {
    final Parameters theta = space.memo().candidate(space.candidates().get(u).logical())
        .properties().parameters();
    return theta instanceof Parameters.Fixed fixed ? fixed.guarantee() : null;
  }

  /** target >= a + b - 1. */
  private static void atLeastBoth(MPSolver s, MPVariable target, MPVariable a, MPVariable b) {
    final MPConstraint c = s.makeConstraint(-1, Double.POSITIVE_INFINITY);
    c.setCoefficient(target, 1);
    c.setCoefficient(a, -1);
    c.setCoefficient(b, -1);
  }

  /** Σ vars = x. */
  private static void sumEquals(MPSolver s, Iterable<MPVariable> vars, MPVariable x) {
    final MPConstraint c = s.makeConstraint(0, 0);
    c.setCoefficient(x, -1);
    for (MPVariable v : vars) {
      c.setCoefficient(v, 1);
    }
  }

  /** The candidates with x_v = 1 and edges with y = 1, checked to be a DAG of one producer per input. */
  private Plan extractSolution(Model m, String status, long millis) {
    final List<Integer> chosen = new ArrayList<>();
    for (PhysicalCandidate v : m.members()) {
      if (m.candidates().get(v.id()).x().solutionValue() > 0.5) {
        chosen.add(v.id());
      }
    }
    final List<PhysicalEdge> edges = new ArrayList<>();
    for (Map.Entry<PhysicalEdge, MPVariable> e : m.edges().entrySet()) {
      if (e.getValue().solutionValue() > 0.5) {
        edges.add(e.getKey());
      }
    }
    double cost = 0;
    for (int v : chosen) {
      cost += space.weight(v);
    }
    final double bound = status.equals("OPTIMAL") ? cost : m.solver().objective().bestBound();
    return new Plan(chosen, edges, cost, bound, status, m.solver().numVariables(),
        m.solver().numConstraints(), millis);
  }

  /** Every chosen input has one chosen producer, itself chosen, and the chosen edges are acyclic. */
  private void assertDag(List<Integer> chosen, List<PhysicalEdge> edges) {
    final Map<Integer, Integer> pending = new HashMap<>();
    final Map<Integer, List<Integer>> consumers = new HashMap<>();
    final Map<String, Integer> perInput = new HashMap<>();
    for (int v : chosen) {
      pending.put(v, 0);
    }
    for (PhysicalEdge e : edges) {
      if (!pending.containsKey(e.producer()) || !pending.containsKey(e.consumer())) {
        throw new IllegalStateException("edge " + e + " between unchosen candidates");
      }
      perInput.merge(e.consumer() + "/" + e.input(), 1, Integer::sum);
      pending.merge(e.consumer(), 1, Integer::sum);
      consumers.computeIfAbsent(e.producer(), k -> new ArrayList<>()).add(e.consumer());
    }
    for (int v : chosen) {
      final int arity = space.memo().candidate(space.candidates().get(v).logical()).children().size();
      for (int i = 0; i < arity; i++) {
        if (perInput.getOrDefault(v + "/" + i, 0) != 1) {
          throw new IllegalStateException("input " + i + " of candidate " + v + " has "
              + perInput.getOrDefault(v + "/" + i, 0) + " producers");
        }
      }
    }
    final Deque<Integer> ready = new ArrayDeque<>();
    pending.forEach((v, n) -> {
      if (n == 0) {
        ready.add(v);
      }
    });
    int seen = 0;
    while (!ready.isEmpty()) {
      final int v = ready.poll();
      seen++;
      for (int c : consumers.getOrDefault(v, List.of())) {
        if (pending.merge(c, -1, Integer::sum) == 0) {
          ready.add(c);
        }
      }
    }
    if (seen != chosen.size()) {
      throw new IllegalStateException("the chosen plan has a cycle");
    }
  }
}
