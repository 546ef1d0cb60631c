package dev.mnestic.planner.view;

import dev.mnestic.planner.memo.Guarantee;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.rules.Edges;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.select.Search;
import dev.mnestic.planner.workload.Query;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * The viewer: a plan space and the plan chosen from it, as text (every group and candidate with
 * its properties and the ε and δ its θ fixes, every edge with α^log / α^phys and its rejection
 * reason, what each stage pruned, then the chosen part: {@link #chosen}), as JSON (the same, and
 * the summaries each query reads: the chain of producers from its answer down to each summary
 * built), or as Graphviz dot (the chosen DAG, a cluster per independent part, the pruned
 * candidates). All three say the same of the chosen plan: each candidate's ε and δ in it, the
 * MILP actually solved per independent part (variables and constraints of CP-SAT's last model,
 * or none when the Lagrangian bound proved the part), its proven bound, the phases the time
 * limit cut short, and what each stage pruned.
 */
public final class PlanView {
  private final PlanSpace space;
  private final Plan plan;
  private final double withoutSharing;
  private final Set<Integer> chosen;
  private final Set<PhysicalEdge> chosenEdges;
  /** The ε and δ of each chosen candidate's result in the plan. */
  private final Map<Integer, Guarantee> levels;
  /**
   * Each level's text, made once: a plan of 1,664 queries holds a few dozen levels, and
   * formatting one anew for each of its 5,800 candidates was a fifth of writing the plan cold.
   */
  private final Map<Guarantee, String> levelText = new HashMap<>();
  /** The part of each chosen candidate (an index into the search's parts), when the search has parts. */
  private final Map<Integer, Integer> partOf = new HashMap<>();
  /** The chosen edges into each chosen candidate, by input; made on first use ({@link #into}). */
  private Map<Integer, List<PhysicalEdge>> into;
  /**
   * Whether the view's time is up ({@code mnestic plan --total}); never, for a view written
   * whole. Under a limit the chosen plan comes first and the memo after it, as far as time
   * allows ({@link #text}, {@link #json}).
   */
  private final BooleanSupplier late;
  private final boolean limited;
  /** Every edge considered ({@link #everyEdge}), made on first use; null when not made in time. */
  private List<PhysicalEdge> everyEdge;
  /** The rejected edges ({@link #rejected}), made on first use; null when not made in time. */
  private List<PhysicalEdge> rejected;
  private boolean rejectedTried;
  /** Whether some text or JSON written so far left part of the memo out ({@link #cut}). */
  private boolean leftOut;

  /**
   * The view of {@code plan}, written whole.
   *
   * @param withoutSharing the cost of the plan without sharing, NaN when not worked out
   */
  public PlanView(PlanSpace space, Plan plan, double withoutSharing) {
    this(space, plan, withoutSharing, null);
  }

  /**
   * The view of {@code plan}, written as far as {@code late} allows (null: whole): the chosen
   * plan always, the memo's groups, edges and pruned alternatives after it until {@code late},
   * then how many of each were left out.
   */
  public PlanView(PlanSpace space, Plan plan, double withoutSharing, BooleanSupplier late) {
    this.space = space;
    this.plan = plan;
    this.withoutSharing = withoutSharing;
    this.limited = late != null;
    this.late = late != null ? late : () -> false;
    this.chosen = new HashSet<>(plan.candidates());
    this.chosenEdges = new HashSet<>(plan.edges());
    this.levels = plan.levels(space);
    final List<Search.Part> parts = plan.search().parts();
    for (int k = 0; k < parts.size(); k++) {
      for (String q : parts.get(k).queries()) {
        for (int v : reads(space.answers().get(q))) {
          partOf.put(v, k);
        }
      }
    }
  }

  /**
   * Every edge considered: the plan space's feasible ones and, built again here with their
   * reasons, the rejected ones; by consumer, input and producer.
   */
  private List<PhysicalEdge> everyEdge() {
    if (everyEdge == null && rejected() != null) {
      everyEdge = new ArrayList<>(space.edges());
      everyEdge.addAll(rejected);
      everyEdge.sort(Comparator.comparingInt(PhysicalEdge::consumer).thenComparingInt(PhysicalEdge::input)
          .thenComparingInt(PhysicalEdge::producer));
    }
    return everyEdge;
  }

  /**
   * The rejected edges, built again with their reasons as far as {@code late} allows (null: not
   * in time), unsorted: the memo's size only counts them, so sorting every edge (millions at
   * scale, past the view's deadline when the rejected ones were counted just in time) is left
   * to a listing.
   */
  private List<PhysicalEdge> rejected() {
    if (!rejectedTried) {
      rejectedTried = true;
      rejected = Edges.rejected(space, late);
    }
    return rejected;
  }

  /**
   * The memo's size ({@link #memoSize}), then every group, candidate, edge and pruned
   * alternative, and the chosen plan ({@link #chosen}). Under a limit the chosen plan comes
   * right after the size, and the memo follows until the view's time is up; then a line says
   * how much of it was left out.
   */
  public String text() {
    final StringBuilder b = new StringBuilder(memoSize());
    if (limited) {
      b.append(chosen()).append("\nthe memo\n");
    }
    final Memo memo = space.memo();
    final List<PhysicalEdge> edges = everyEdge();
    final Cut cut = new Cut();
    for (int g = 0; g < memo.groupCount(); g++) {
      if (cut.groups(g, memo.groupCount())) {
        break;
      }
      b.append("\nG").append(g).append(' ').append(memo.key(g)).append('\n');
      for (int c : memo.candidatesOf(g)) {
        b.append("  ").append(memo.candidate(c)).append('\n');
        for (int v : space.byGroup().get(g)) {
          final PhysicalCandidate p = space.candidates().get(v);
          if (p.logical() == c) {
            b.append(chosen.contains(v) ? "  * " : "    ").append('v').append(v).append(" @ ")
                .append(p.properties()).append("  w=").append(num(space.weight(v))).append("  ")
                .append(fixedLevel(v)).append('\n');
          }
        }
      }
    }
    b.append("\nedges (u, c, i): α^log; α^phys\n");
    final List<PhysicalEdge> shown = edges != null ? edges : space.edges();
    for (int k = 0; k < shown.size(); k++) {
      if (cut.edges(k, shown.size())) {
        break;
      }
      final PhysicalEdge e = shown.get(k);
      b.append(chosenEdges.contains(e) ? "  * " : "    ").append("(v").append(e.producer())
          .append(", v").append(e.consumer()).append(", ").append(e.input()).append("): ")
          .append(e.alphaLog()).append("; ").append(e.alphaPhys()).append('\n');
    }
    b.append("\npruned\n");
    final List<PlanSpace.Pruned> pruned = space.pruned();
    for (int k = 0; k < pruned.size(); k++) {
      if (cut.pruned(k, pruned.size() + plan.search().cuts().size())) {
        break;
      }
      final PlanSpace.Pruned p = pruned.get(k);
      b.append("  ").append(p.stage()).append(": ").append(p.what()).append(": ")
          .append(p.reason()).append('\n');
    }
    final List<Search.Cut> cuts = plan.search().cuts();
    for (int k = 0; k < cuts.size(); k++) {
      if (cut.pruned(pruned.size() + k, pruned.size() + cuts.size())) {
        break;
      }
      final Search.Cut c = cuts.get(k);
      b.append("  ").append(c.reason().stage).append(": v").append(c.candidate()).append(' ')
          .append(describe(c.candidate())).append("  ").append(fixedLevel(c.candidate())).append(": ")
          .append(reason(c)).append('\n');
    }
    if (edges == null) {
      cut.rejectedLeftOut = true;
    }
    if (cut.any()) {
      leftOut = true;
      b.append(cut.text()).append('\n');
    }
    return limited ? b.toString() : b.append('\n').append(chosen()).toString();
  }

  /** Whether what this view wrote so far left part of the memo out, its time being up. */
  public boolean cut() {
    return leftOut;
  }

  /**
   * What a view under a limit left out of the memo ({@link #text}, {@link #json}): from the
   * first group, edge or pruned alternative not written in time on, every later one of its
   * list, and the rejected edges when they were not listed in time.
   */
  private final class Cut {
    int groups = -1;
    int groupsOf;
    int edges = -1;
    int edgesOf;
    int pruned = -1;
    int prunedOf;
    boolean rejectedLeftOut;

    /** Whether group k of n is left out: once one is, so is every later one. */
    boolean groups(int k, int n) {
      if (groups < 0 && (k & 15) == 0 && late.getAsBoolean()) {
        groups = k;
        groupsOf = n;
      }
      return groups >= 0;
    }

    boolean edges(int k, int n) {
      if (edges < 0 && (k & 1023) == 0 && late.getAsBoolean()) {
        edges = k;
        edgesOf = n;
      }
      return edges >= 0;
    }

    boolean pruned(int k, int n) {
      if (pruned < 0 && (k & 255) == 0 && late.getAsBoolean()) {
        pruned = k;
        prunedOf = n;
      }
      return pruned >= 0;
    }

    boolean any() {
      return groups >= 0 || edges >= 0 || pruned >= 0 || rejectedLeftOut;
    }

    /** One line: what was left out and how to see it all. */
    String text() {
      final List<String> out = new ArrayList<>();
      if (groups >= 0) {
        out.add((groupsOf - groups) + " of " + groupsOf + " groups");
      }
      if (edges >= 0) {
        out.add((edgesOf - edges) + " of " + edgesOf + " edges");
      }
      if (rejectedLeftOut) {
        out.add("the rejected edges");
      }
      if (pruned >= 0) {
        out.add((prunedOf - pruned) + " of " + prunedOf + " pruned alternatives");
      }
      return "memo cut short by the time limit: left out " + String.join(", ", out)
          + " (--full writes the whole memo)";
    }

    /** The same as a JSON object. */
    String json() {
      return "{\"groupsLeftOut\":" + (groups < 0 ? 0 : groupsOf - groups) + ",\"edgesLeftOut\":"
          + (edges < 0 ? 0 : edgesOf - edges) + ",\"rejectedEdgesLeftOut\":" + rejectedLeftOut
          + ",\"prunedLeftOut\":" + (pruned < 0 ? 0 : prunedOf - pruned) + ",\"how\":\"--full writes the whole memo\"}";
    }
  }

  /**
   * One line: how many groups, candidates and edges the memo holds (the first line of
   * {@link #text}; {@code mnestic plan} prints it above {@link #chosen} by default).
   */
  public String memoSize() {
    final Memo memo = space.memo();
    final List<PhysicalEdge> rejected = rejected();
    leftOut |= rejected == null;
    return "memo: " + memo.groupCount() + " groups, " + memo.candidateCount()
        + " logical candidates, " + space.candidates().size() + " physical candidates, "
        + (rejected != null ? space.edges().size() + rejected.size() + " edges (" + space.edges().size() + " feasible)"
        : space.edges().size() + " feasible edges (the rejected ones not counted in time: --full counts them)")
        + "\n";
  }

  /**
   * The chosen plan alone, the end of {@link #text}: the search's phases, the MILP's size and
   * time and the proven
   * bound, the chosen DAG (each candidate with the ε and δ of its result and the producers it
   * reads), each chosen summary (a build or a merge) with the queries that read it, directly or
   * through others (sharing), the MILP solved per independent part and how its search ended, how
   * many candidates each stage pruned, and the cost against the cost without sharing; above
   * them the phases of the search, those the time limit cut short marked.
   */
  public String chosen() {
    final StringBuilder b = new StringBuilder();
    final Memo memo = space.memo();
    if (!plan.search().phases().isEmpty()) {
      // First, as the only times (with the line below) that differ from one run to the next.
      b.append("phases: ").append(plan.search().phases().stream().map(p -> p.name() + " " + p.millis() + " ms"
          + (p.cut() ? " (cut short by the time limit)" : "")).collect(Collectors.joining(", "))).append('\n');
    }
    b.append("stage 3: ").append(plan.status()).append(", ").append(plan.variables())
        .append(" variables, ").append(plan.constraints()).append(" constraints, ")
        .append(plan.millis()).append(" ms\n");
    // A part its Lagrangian bound proves needs no CP-SAT model, so the sizes above count the
    // models of the other parts only (none when the bound proved every part).
    b.append("  lower bound ").append(num(plan.bound())).append(String.format(Locale.ROOT, " (gap %.2f%%)",
        100 * gap(plan.cost(), plan.bound()))).append(" (the Lagrangian bound's or CP-SAT's); the sizes "
        + "count the CP-SAT models of the parts the bound alone did not prove\n");
    b.append("chosen plan\n");
    for (int g : memo.topologicalOrder()) {
      for (int v : space.byGroup().get(g)) {
        if (chosen.contains(v)) {
          b.append("  v").append(v).append(" G").append(g).append(' ').append(describe(v)).append("  [")
              .append(levelText.computeIfAbsent(levels.get(v), Guarantee::toString)).append(']');
          for (PhysicalEdge e : into(v)) {
            b.append(" <-").append(e.input()).append(" v").append(e.producer());
          }
          b.append('\n');
        }
      }
    }
    b.append("summaries and the queries reading them\n");
    readers().forEach((v, queries) -> b.append("  v").append(v).append(' ')
        .append(describe(v)).append(": ").append(String.join(", ", queries)).append('\n'));
    final List<Search.Part> parts = plan.search().parts();
    if (!parts.isEmpty()) {
      b.append("parts: the MILP solved for each independent part\n");
      for (int k = 0; k < parts.size(); k++) {
        b.append("  ").append(part(k)).append('\n');
      }
    }
    b.append("pruned: ").append(prunedCounts().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
        .collect(Collectors.joining(", "))).append('\n');
    b.append("cost ").append(num(plan.cost())).append(", without sharing ")
        .append(Double.isNaN(withoutSharing) ? "not worked out in time (--full works it out)" : num(withoutSharing))
        .append('\n');
    return b.toString();
  }

  /** The share of {@code cost} its lower bound leaves open. */
  private static double gap(double cost, double bound) {
    return cost > 0 ? Math.max(0, cost - bound) / cost : 0;
  }

  /** Part k in one line: its queries, how its search ended, its cost and bound, the MILP solved. */
  private String part(int k) {
    final Search.Part p = plan.search().parts().get(k);
    return "part " + k + " (" + p.queries().size() + " queries: " + abbreviate(p.queries()) + "): "
        + p.outcome().phrase + "; cost " + num(p.cost()) + ", bound " + num(p.bound()) + String.format(Locale.ROOT,
        " (gap %.2f%%)", 100 * p.gap()) + "; " + p.candidates() + " candidates reached, " + p.afterPruning()
        + " after pruning, " + p.modelled() + " in the CP-SAT model: " + p.variables() + " variables, "
        + p.constraints() + " constraints" + (p.grownAlone()
        ? "; first plan joined from each query's own cheapest tree from where the growth's deadline passed" : "")
        + (p.narrowed() ? "; built without merges over other queries' windows (the plan space's deadline had passed)"
        : "");
  }

  private static String abbreviate(List<String> names) {
    return names.size() <= 6 ? String.join(", ", names)
        : String.join(", ", names.subList(0, 5)) + ", ... " + names.get(names.size() - 1);
  }

  /** How many candidates (or alternatives) each stage pruned, by stage, in the order they ran. */
  private Map<String, Integer> prunedCounts() {
    final Map<String, Integer> counts = new LinkedHashMap<>();
    for (PlanSpace.Pruned p : space.pruned()) {
      counts.merge(p.stage(), 1, Integer::sum);
    }
    for (Search.CutReason r : Search.CutReason.values()) {
      counts.put(r.stage, 0);
    }
    for (Search.Cut c : plan.search().cuts()) {
      counts.merge(c.reason().stage, 1, Integer::sum);
    }
    return counts;
  }

  /** Why Stage 3 set {@code c} aside, with the cost it exceeds. */
  private static String reason(Search.Cut c) {
    return c.reason().reason + (Double.isNaN(c.above()) ? "" : " (every plan using it costs more than "
        + num(c.above()) + ")");
  }

  /** The ε and δ v's θ fixes, or that its come from its inputs. */
  private String fixedLevel(int v) {
    final Guarantee g = Plan.fixedLevel(space, v);
    return g == null ? "ε, δ from its inputs" : "[" + g + "]";
  }

  /**
   * The same as {@link #text} as one JSON object: {@code groups} (each physical candidate with
   * its properties, weight, whether chosen, and {@code guarantee}: the ε and δ its θ fixes, or
   * for a chosen candidate those of its result in the plan; null otherwise), {@code edges},
   * {@code pruned} (every stage's, Stage 3's with the candidate and the ε and δ its θ fixes), {@code milp} (status, size,
   * bound, the phases and each part), {@code queries} (each query's answer, target, ε and δ,
   * part, and the summaries it reads: for each chosen build or merge below its answer, the chain
   * of producers from the answer down to it), and the costs. The chosen plan ({@code milp},
   * {@code queries}, the costs) comes first; under a limit the memo after it is written until the
   * view's time is up, and {@code memoCut} then counts what was left out.
   */
  public String json() {
    final StringBuilder b = new StringBuilder("{\"milp\":{\"status\":").append(str(plan.status().name())).append(",\"variables\":")
        .append(plan.variables()).append(",\"constraints\":").append(plan.constraints())
        .append(",\"millis\":").append(plan.millis()).append(",\"bound\":").append(num(plan.bound()))
        .append(",\"gap\":").append(num(gap(plan.cost(), plan.bound()))).append(",\"phases\":[");
    boolean first = true;
    for (Search.Phase p : plan.search().phases()) {
      b.append(first ? "" : ",").append("{\"name\":").append(str(p.name())).append(",\"millis\":")
          .append(p.millis()).append(",\"cut\":").append(p.cut()).append('}');
      first = false;
    }
    b.append("],\"parts\":[");
    for (int k = 0; k < plan.search().parts().size(); k++) {
      final Search.Part p = plan.search().parts().get(k);
      b.append(k == 0 ? "" : ",").append("{\"part\":").append(k).append(",\"queries\":[")
          .append(p.queries().stream().map(PlanView::str).collect(Collectors.joining(","))).append("],\"outcome\":")
          .append(str(p.outcome().name())).append(",\"cost\":").append(num(p.cost())).append(",\"bound\":")
          .append(num(p.bound())).append(",\"candidates\":").append(p.candidates()).append(",\"afterPruning\":")
          .append(p.afterPruning()).append(",\"modelled\":").append(p.modelled()).append(",\"variables\":")
          .append(p.variables()).append(",\"constraints\":").append(p.constraints()).append(",\"grownAlone\":")
          .append(p.grownAlone()).append(",\"narrowed\":").append(p.narrowed()).append('}');
    }
    b.append("]},\"queries\":[");
    first = true;
    for (Query q : space.workload().queries()) {
      final int answer = space.answers().get(q.name());
      b.append(first ? "" : ",").append("{\"name\":").append(str(q.name())).append(",\"answer\":").append(answer)
          .append(",\"target\":").append(str(q.target().toString())).append(",\"guarantee\":")
          .append(guarantee(levels.get(answer))).append(",\"part\":")
          .append(partOf.containsKey(answer) ? partOf.get(answer) : "null").append(",\"reads\":[");
      boolean firstRead = true;
      for (List<Integer> chain : chains(answer)) {
        final int summary = chain.get(chain.size() - 1);
        b.append(firstRead ? "" : ",").append("{\"summary\":").append(summary).append(",\"operator\":")
            .append(str(describe(summary))).append(",\"chain\":").append(chain).append('}');
        firstRead = false;
      }
      b.append("]}");
      first = false;
    }
    b.append("],\"cost\":").append(num(plan.cost())).append(",\"costWithoutSharing\":")
        .append(Double.isNaN(withoutSharing) ? "null" : num(withoutSharing));
    b.append(",\"groups\":[");
    final Memo memo = space.memo();
    final Cut cut = new Cut();
    for (int g = 0; g < memo.groupCount(); g++) {
      if (cut.groups(g, memo.groupCount())) {
        break;
      }
      b.append(g == 0 ? "" : ",").append("{\"id\":").append(g).append(",\"key\":")
          .append(str(memo.key(g).toString())).append(",\"candidates\":[");
      boolean firstCandidate = true;
      for (int v : space.byGroup().get(g)) {
        final PhysicalCandidate p = space.candidates().get(v);
        final LogicalCandidate c = memo.candidate(p.logical());
        final Guarantee level = chosen.contains(v) ? levels.get(v) : Plan.fixedLevel(space, v);
        b.append(firstCandidate ? "" : ",").append("{\"id\":").append(v).append(",\"operator\":")
            .append(str(c.operator().toString())).append(",\"children\":").append(c.children())
            .append(",\"logical\":").append(str(c.properties().toString())).append(",\"physical\":")
            .append(str(p.properties().toString())).append(",\"weight\":").append(num(space.weight(v)))
            .append(",\"chosen\":").append(chosen.contains(v)).append(",\"guarantee\":").append(guarantee(level))
            .append('}');
        firstCandidate = false;
      }
      b.append("]}");
    }
    b.append("],\"edges\":[");
    final List<PhysicalEdge> every = everyEdge();
    final List<PhysicalEdge> shown = every != null ? every : space.edges();
    cut.rejectedLeftOut = every == null;
    first = true;
    for (int k = 0; k < shown.size(); k++) {
      if (cut.edges(k, shown.size())) {
        break;
      }
      final PhysicalEdge e = shown.get(k);
      b.append(first ? "" : ",").append("{\"producer\":").append(e.producer()).append(",\"consumer\":")
          .append(e.consumer()).append(",\"input\":").append(e.input()).append(",\"alphaLog\":")
          .append(e.alphaLog().ok() ? "null" : str(e.alphaLog().rejection())).append(",\"alphaPhys\":")
          .append(e.alphaPhys().ok() ? "null" : str(e.alphaPhys().rejection())).append(",\"chosen\":")
          .append(chosenEdges.contains(e)).append('}');
      first = false;
    }
    b.append("],\"pruned\":[");
    first = true;
    final List<PlanSpace.Pruned> prunedList = space.pruned();
    final List<Search.Cut> cuts = plan.search().cuts();
    for (int k = 0; k < prunedList.size(); k++) {
      if (cut.pruned(k, prunedList.size() + cuts.size())) {
        break;
      }
      final PlanSpace.Pruned p = prunedList.get(k);
      b.append(first ? "" : ",").append("{\"stage\":").append(str(p.stage())).append(",\"what\":")
          .append(str(p.what())).append(",\"reason\":").append(str(p.reason())).append('}');
      first = false;
    }
    for (int k = 0; k < cuts.size(); k++) {
      if (cut.pruned(prunedList.size() + k, prunedList.size() + cuts.size())) {
        break;
      }
      final Search.Cut c = cuts.get(k);
      b.append(first ? "" : ",").append("{\"stage\":").append(str(c.reason().stage)).append(",\"candidate\":")
          .append(c.candidate()).append(",\"part\":").append(c.part() < 0 ? "null" : c.part())
          .append(",\"what\":").append(str(describe(c.candidate()))).append(",\"guarantee\":")
          .append(guarantee(Plan.fixedLevel(space, c.candidate()))).append(",\"reason\":").append(str(reason(c)))
          .append('}');
      first = false;
    }
    b.append(']');
    if (cut.any()) {
      leftOut = true;
      b.append(",\"memoCut\":").append(cut.json());
    }
    b.append('}');
    return b.toString();
  }

  /** A guarantee as a JSON object ({@code metric}, {@code epsilon}, {@code delta}), or null. */
  private static String guarantee(Guarantee g) {
    return g == null ? "null" : "{\"metric\":" + str(g.metric().name()) + ",\"epsilon\":" + num(g.epsilon())
        + ",\"delta\":" + num(g.delta()) + "}";
  }

  /**
   * The chosen DAG for Graphviz: producers point at their consumers, each node labelled with
   * its candidate and the ε and δ of its result, one cluster per independent part labelled with
   * how its search ended and the MILP solved for it, and the candidates every stage pruned as
   * dashed nodes in a cluster of their own (Stage 3's with the ε and δ their θ fixes); the graph's label gives the cost, the bound and the
   * phases the time limit cut short.
   */
  public String dot() {
    final StringBuilder b = new StringBuilder("digraph plan {\n  rankdir=BT;\n  node [shape=box];\n");
    final Map<Integer, List<Integer>> byPart = new TreeMap<>();
    for (int v : plan.candidates()) {
      byPart.computeIfAbsent(partOf.getOrDefault(v, -1), k -> new ArrayList<>()).add(v);
    }
    byPart.forEach((k, vs) -> {
      final String indent = k < 0 ? "  " : "    ";
      if (k >= 0) {
        b.append("  subgraph cluster_part").append(k).append(" {\n    label=").append(str(part(k))).append(";\n");
      }
      for (int v : vs) {
        b.append(indent).append('v').append(v).append(" [label=").append(str(describe(v).replace(" @ ", "\n")
            + "\n" + levels.get(v))).append(space.answers().containsValue(v) ? ", shape=ellipse" : "")
            .append("];\n");
      }
      if (k >= 0) {
        b.append("  }\n");
      }
    });
    for (PhysicalEdge e : plan.edges()) {
      b.append("  v").append(e.producer()).append(" -> v").append(e.consumer()).append(" [label=\"")
          .append(e.input()).append("\"];\n");
    }
    b.append("  subgraph cluster_pruned {\n    label=").append(str("pruned: " + prunedCounts())).append(";\n"
        + "    node [style=dashed];\n");
    int n = 0;
    for (PlanSpace.Pruned p : space.pruned()) {
      b.append("    p").append(n++).append(" [label=").append(str(p.stage() + "\n" + p.what() + "\n" + p.reason()))
          .append("];\n");
    }
    for (Search.Cut c : plan.search().cuts()) {
      b.append("    p").append(n++).append(" [label=").append(str(c.reason().stage + "\nv" + c.candidate() + " "
          + describe(c.candidate()) + "\n" + reason(c) + "\n" + fixedLevel(c.candidate()))).append("];\n");
    }
    b.append("  }\n");
    final String cut = plan.search().phases().stream().filter(Search.Phase::cut).map(Search.Phase::name)
        .collect(Collectors.joining(", "));
    b.append("  label=").append(str("cost " + num(plan.cost()) + ", without sharing " + num(withoutSharing)
        + "; " + plan.status() + ", bound " + num(plan.bound()) + ", " + plan.variables() + " variables, "
        + plan.constraints() + " constraints" + (cut.isEmpty() ? "" : "; cut short by the time limit: " + cut)))
        .append(";\n}\n");
    return b.toString();
  }

  /** What chosen candidate {@code from} reads through the chosen edges, directly or not, and itself. */
  private Set<Integer> reads(int from) {
    final Set<Integer> seen = new HashSet<>();
    final Deque<Integer> todo = new ArrayDeque<>(List.of(from));
    while (!todo.isEmpty()) {
      final int v = todo.pop();
      if (seen.add(v)) {
        for (PhysicalEdge e : into(v)) {
          todo.push(e.producer());
        }
      }
    }
    return seen;
  }

  /** The chosen edges into v, by input. */
  private List<PhysicalEdge> into(int v) {
    if (into == null) {
      into = new HashMap<>();
      for (PhysicalEdge e : plan.edges()) {
        into.computeIfAbsent(e.consumer(), k -> new ArrayList<>()).add(e);
      }
      into.values().forEach(l -> l.sort(Comparator.comparingInt(PhysicalEdge::input)));
    }
    return into.getOrDefault(v, List.of());
  }

  /**
   * The summaries the answer {@code answer} reads: for each chosen build or merge below it, the
   * chain of producers from the answer down to it (through a merge, on down to the summaries it
   * merges).
   */
  private List<List<Integer>> chains(int answer) {
    final List<List<Integer>> chains = new ArrayList<>();
    final Deque<List<Integer>> todo = new ArrayDeque<>();
    todo.add(List.of(answer));
    while (!todo.isEmpty()) {
      final List<Integer> chain = todo.poll();
      final int v = chain.get(chain.size() - 1);
      if (summary(v)) {
        chains.add(chain);
      }
      for (PhysicalEdge e : into(v)) {
        final List<Integer> longer = new ArrayList<>(chain);
        longer.add(e.producer());
        todo.add(longer);
      }
    }
    return chains;
  }

  /** Whether v is a summary: a build or a merge. */
  private boolean summary(int v) {
    final Operator op = space.memo().candidate(space.candidates().get(v).logical()).operator();
    return op instanceof Operator.Build || op instanceof Operator.Merge;
  }

  /**
   * Each chosen summary (a build or a merge), by candidate, and the queries whose answers read
   * it: one summary with several readers is built once for them all.
   */
  private Map<Integer, SortedSet<String>> readers() {
    final Map<Integer, SortedSet<String>> readers = new TreeMap<>();
    space.answers().forEach((query, answer) -> {
      for (int v : reads(answer)) {
        if (summary(v)) {
          readers.computeIfAbsent(v, k -> new TreeSet<>()).add(query);
        }
      }
    });
    return readers;
  }

  private String describe(int v) {
    final PhysicalCandidate p = space.candidates().get(v);
    final LogicalCandidate c = space.memo().candidate(p.logical());
    return c.operator() + " {" + c.properties() + "} @ " + p.properties();
  }

  private static String num(double d) {
    return String.format(Locale.ROOT, "%.6g", d);
  }

  /**
   * A JSON (and dot) string literal: a line break is {@code \n} in both (dot centres the line),
   * any other control character a JSON escape.
   */
  private static String str(String s) {
    final StringBuilder b = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      if (ch == '"' || ch == '\\') {
        b.append('\\').append(ch);
      } else if (ch == '\n') {
        b.append("\\n");
      } else if (ch < 0x20) {
        b.append(String.format("\\u%04x", (int) ch));
      } else {
        b.append(ch);
      }
    }
    return b.append('"').toString();
  }

}
