package dev.mnestic.planner.view;

import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.rules.Edges;
import dev.mnestic.planner.select.Plan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The viewer: a plan space and the plan chosen from it, as text (every group and candidate with
 * its properties, every edge with α^log / α^phys and its rejection reason, what each stage
 * pruned, the MILP's size and time, the chosen DAG with its cost and the cost without sharing,
 * which queries read each chosen summary; {@link #chosen} is that last part alone),
 * as JSON (the same), or as Graphviz dot (the chosen DAG).
 */
public final class PlanView {
  private final PlanSpace space;
  private final Plan plan;
  private final double withoutSharing;
  private final Set<Integer> chosen;
  private final Set<PhysicalEdge> chosenEdges;

  public PlanView(PlanSpace space, Plan plan, double withoutSharing) {
    this.space = space;
    this.plan = plan;
    this.withoutSharing = withoutSharing;
    this.chosen = new HashSet<>(plan.candidates());
    this.chosenEdges = new HashSet<>(plan.edges());
  }

  /**
   * Every edge considered: the plan space's feasible ones and, built again here with their
   * reasons, the rejected ones; by consumer, input and producer.
   */
  private List<PhysicalEdge> everyEdge() {
    final List<PhysicalEdge> all = new ArrayList<>(space.edges());
    all.addAll(Edges.rejected(space));
    all.sort(Comparator.comparingInt(PhysicalEdge::consumer).thenComparingInt(PhysicalEdge::input)
        .thenComparingInt(PhysicalEdge::producer));
    return all;
  }

  public String text() {
    final StringBuilder b = new StringBuilder(memoSize());
    final Memo memo = space.memo();
    final List<PhysicalEdge> edges = everyEdge();
    for (int g = 0; g < memo.groupCount(); g++) {
      b.append("\nG").append(g).append(' ').append(memo.key(g)).append('\n');
      for (int c : memo.candidatesOf(g)) {
        b.append("  ").append(memo.candidate(c)).append('\n');
        for (int v : space.byGroup().get(g)) {
          final PhysicalCandidate p = space.candidates().get(v);
          if (p.logical() == c) {
            b.append(chosen.contains(v) ? "  * " : "    ").append('v').append(v).append(" @ ")
                .append(p.properties()).append("  w=").append(num(space.weight(v))).append('\n');
          }
        }
      }
    }
    b.append("\nedges (u, c, i): α^log; α^phys\n");
    for (PhysicalEdge e : edges) {
      b.append(chosenEdges.contains(e) ? "  * " : "    ").append("(v").append(e.producer())
          .append(", v").append(e.consumer()).append(", ").append(e.input()).append("): ")
          .append(e.alphaLog()).append("; ").append(e.alphaPhys()).append('\n');
    }
    b.append("\npruned\n");
    for (PlanSpace.Pruned p : space.pruned()) {
      b.append("  ").append(p.stage()).append(": ").append(p.what()).append(": ")
          .append(p.reason()).append('\n');
    }
    return b.append('\n').append(chosen()).toString();
  }

  /**
   * One line: how many groups, candidates and edges the memo holds (the first line of
   * {@link #text}; {@code mnestic plan} prints it above {@link #chosen} by default).
   */
  public String memoSize() {
    final Memo memo = space.memo();
    return "memo: " + memo.groupCount() + " groups, " + memo.candidateCount()
        + " logical candidates, " + space.candidates().size() + " physical candidates, "
        + everyEdge().size() + " edges (" + space.edges().size() + " feasible)\n";
  }

  /**
   * The chosen plan alone, the end of {@link #text}: the MILP's size and time, the chosen DAG
   * (each candidate with the producers it reads), each chosen summary (a build or a merge) with
   * the queries that read it, directly or through others (sharing), and the cost against the
   * cost without sharing.
   */
  public String chosen() {
    final StringBuilder b = new StringBuilder();
    final Memo memo = space.memo();
    b.append("stage 3: ").append(plan.status()).append(", ").append(plan.variables())
        .append(" variables, ").append(plan.constraints()).append(" constraints, ")
        .append(plan.millis()).append(" ms\n");
    // A part its Lagrangian bound proves needs no CP-SAT model, so the sizes above count the
    // models of the other parts only (none when the bound proved every part).
    b.append("  lower bound ").append(num(plan.bound())).append(" (the Lagrangian bound's or CP-SAT's); the sizes "
        + "count the CP-SAT models of the parts the bound alone did not prove\n");
    b.append("chosen plan\n");
    for (int g : memo.topologicalOrder()) {
      for (int v : space.byGroup().get(g)) {
        if (chosen.contains(v)) {
          b.append("  v").append(v).append(" G").append(g).append(' ').append(describe(v));
          for (PhysicalEdge e : plan.edges()) {
            if (e.consumer() == v) {
              b.append(" <-").append(e.input()).append(" v").append(e.producer());
            }
          }
          b.append('\n');
        }
      }
    }
    b.append("summaries and the queries reading them\n");
    readers().forEach((v, queries) -> b.append("  v").append(v).append(' ')
        .append(describe(v)).append(": ").append(String.join(", ", queries)).append('\n'));
    b.append("cost ").append(num(plan.cost())).append(", without sharing ")
        .append(num(withoutSharing)).append('\n');
    return b.toString();
  }

  public String json() {
    final StringBuilder b = new StringBuilder("{\"groups\":[");
    final Memo memo = space.memo();
    for (int g = 0; g < memo.groupCount(); g++) {
      b.append(g == 0 ? "" : ",").append("{\"id\":").append(g).append(",\"key\":")
          .append(str(memo.key(g).toString())).append(",\"candidates\":[");
      boolean first = true;
      for (int v : space.byGroup().get(g)) {
        final PhysicalCandidate p = space.candidates().get(v);
        final LogicalCandidate c = memo.candidate(p.logical());
        b.append(first ? "" : ",").append("{\"id\":").append(v).append(",\"operator\":")
            .append(str(c.operator().toString())).append(",\"children\":").append(c.children())
            .append(",\"logical\":").append(str(c.properties().toString())).append(",\"physical\":")
            .append(str(p.properties().toString())).append(",\"weight\":").append(num(space.weight(v)))
            .append(",\"chosen\":").append(chosen.contains(v)).append('}');
        first = false;
      }
      b.append("]}");
    }
    b.append("],\"edges\":[");
    boolean first = true;
    for (PhysicalEdge e : everyEdge()) {
      b.append(first ? "" : ",").append("{\"producer\":").append(e.producer()).append(",\"consumer\":")
          .append(e.consumer()).append(",\"input\":").append(e.input()).append(",\"alphaLog\":")
          .append(e.alphaLog().ok() ? "null" : str(e.alphaLog().rejection())).append(",\"alphaPhys\":")
          .append(e.alphaPhys().ok() ? "null" : str(e.alphaPhys().rejection())).append(",\"chosen\":")
          .append(chosenEdges.contains(e)).append('}');
      first = false;
    }
    b.append("],\"pruned\":[");
    first = true;
    for (PlanSpace.Pruned p : space.pruned()) {
      b.append(first ? "" : ",").append("{\"stage\":").append(str(p.stage())).append(",\"what\":")
          .append(str(p.what())).append(",\"reason\":").append(str(p.reason())).append('}');
      first = false;
    }
    b.append("],\"milp\":{\"status\":").append(str(plan.status().name())).append(",\"variables\":")
        .append(plan.variables()).append(",\"constraints\":").append(plan.constraints())
        .append(",\"millis\":").append(plan.millis()).append("},\"cost\":").append(num(plan.cost()))
        .append(",\"costWithoutSharing\":").append(num(withoutSharing)).append('}');
    return b.toString();
  }

  /** The chosen DAG for Graphviz: producers point at their consumers. */
  public String dot() {
    final StringBuilder b = new StringBuilder("digraph plan {\n  rankdir=BT;\n  node [shape=box];\n");
    for (int v : plan.candidates()) {
      b.append("  v").append(v).append(" [label=\"").append(describe(v).replace("\"", "'")
          .replace(" @ ", "\\n")).append(chosenStyle(v)).append("];\n");
    }
    for (PhysicalEdge e : plan.edges()) {
      b.append("  v").append(e.producer()).append(" -> v").append(e.consumer()).append(" [label=\"")
          .append(e.input()).append("\"];\n");
    }
    b.append("  label=").append(str("cost " + num(plan.cost()) + ", without sharing "
        + num(withoutSharing))).append(";\n}\n");
    return b.toString();
  }

  /**
   * Each chosen summary (a build or a merge), by candidate, and the queries whose answers read
   * it: one summary with several readers is built once for them all.
   */
  private Map<Integer, SortedSet<String>> readers() {
    final Map<Integer, SortedSet<String>> readers = new TreeMap<>();
    space.answers().forEach((query, answer) -> {
      final Deque<Integer> todo = new ArrayDeque<>(List.of(answer));
      final Set<Integer> seen = new HashSet<>();
      while (!todo.isEmpty()) {
        final int v = todo.pop();
        if (!seen.add(v)) {
          continue;
        }
        final Operator op = space.memo().candidate(space.candidates().get(v).logical()).operator();
        if (op instanceof Operator.Build || op instanceof Operator.Merge) {
          readers.computeIfAbsent(v, k -> new TreeSet<>()).add(query);
        }
        for (PhysicalEdge e : plan.edges()) {
          if (e.consumer() == v) {
            todo.push(e.producer());
          }
        }
      }
    });
    return readers;
  }

  /** Closes a node's label; the answers are drawn as ellipses. */
  private String chosenStyle(int v) {
    return space.answers().containsValue(v) ? "\", shape=ellipse" : "\"";
  }

  private String describe(int v) {
    final PhysicalCandidate p = space.candidates().get(v);
    final LogicalCandidate c = space.memo().candidate(p.logical());
    return c.operator() + " {" + c.properties() + "} @ " + p.properties();
  }

  private static String num(double d) {
    return String.format(Locale.ROOT, "%.6g", d);
  }

  /** A JSON (and dot) string literal. */
  private static String str(String s) {
    final StringBuilder b = new StringBuilder("\"");
    for (char ch : s.toCharArray()) {
      if (ch == '"' || ch == '\\') {
        b.append('\\').append(ch);
      } else if (ch < 0x20) {
        b.append(String.format("\\u%04x", (int) ch));
      } else {
        b.append(ch);
      }
    }
    return b.append('"').toString();
  }

}
