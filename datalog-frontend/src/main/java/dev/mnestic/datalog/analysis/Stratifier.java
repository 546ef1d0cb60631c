package dev.mnestic.datalog.analysis;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.FixedApply;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.value.ErrorCode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Orders a query's rules for evaluation, as CozoDB stratifies them.
 *
 * <ol>
 *   <li>Build the dependency graph: rule {@code k} depends on each rule its
 *       bodies apply. An edge is <em>forbidden</em> inside a strongly connected
 *       component when it is a negation, when {@code k} aggregates (unless all
 *       of {@code k}'s aggregations are meet aggregations and the edge is
 *       {@code k}'s own recursion), when it reads a meet-aggregating rule
 *       other than {@code k} itself, or when {@code k} is a fixed rule reading the
 *       rule (a fixed rule's inputs are complete before it runs).
 *   <li>Keep the rules reachable from the entry rule {@code ?}.
 *   <li>Find the strongly connected components; a forbidden edge inside one is
 *       {@code eval::unstratifiable}.
 *   <li>Return the components, each rule's dependencies before it.
 * </ol>
 */
public final class Stratifier {
  private Stratifier() {
  }

  /**
   * Returns the strongly connected components of the rules reachable from
   * the entry, in evaluation order, each a sorted list of rule names.
   *
   * @param isMeet whether an aggregation (by name) is a meet aggregation
   */
  public static List<List<String>> stratify(List<Rule> rules, Predicate<String> isMeet) {
    final Map<String, List<Rule>> byName = new LinkedHashMap<>();
    for (Rule r : rules) {
      byName.computeIfAbsent(r.name(), k -> new ArrayList<>()).add(r);
    }
    checkApplications(byName);
    final Map<String, Map<String, Boolean>> graph = graph(byName, isMeet);
    final Set<String> reachable = reachable(graph, Rule.ENTRY);
    final Map<String, Map<String, Boolean>> live = new TreeMap<>();
    for (String k : reachable) {
      live.put(k, graph.get(k));
    }
    final List<Set<String>> sccs = Tarjan.components(live);
    for (Map.Entry<String, Map<String, Boolean>> e : live.entrySet()) {
      for (Set<String> scc : sccs) {
        if (!scc.contains(e.getKey())) {
          continue;
        }
        for (Map.Entry<String, Boolean> dep : e.getValue().entrySet()) {
          if (dep.getValue() && scc.contains(dep.getKey())) {
            throw new DatalogException(ErrorCode.EVAL_UNSTRATIFIABLE, "Query is unstratifiable", 0, 0,
                "The rule '" + dep.getKey() + "' is in the strongly connected component "
                    + debugList(scc) + ",\nand is involved in at least one forbidden dependency \n"
                    + "(negation, non-meet aggregation, or algorithm-application).");
          }
        }
      }
    }
    return sccs.stream().map(List::copyOf).collect(Collectors.toList());
  }

  /** Every applied rule exists and is applied with its arity; every fixed rule's input exists. */
  private static void checkApplications(Map<String, List<Rule>> byName) {
    for (List<Rule> defs : byName.values()) {
      for (Rule rule : defs) {
        for (FixedApply.Input in : fixedInputs(rule)) {
          if (!byName.containsKey(in.relation())) {
            throw new DatalogException(ErrorCode.ALGO_RULE_NOT_FOUND,
                "The requested rule '" + in.relation() + "' cannot be found", in.pos().line(),
                in.pos().column());
          }
        }
        for (Atom a : rule.body()) {
          forEachApplication(a, false, (apply, negated) -> {
            final List<Rule> target = byName.get(apply.rule());
            if (target == null) {
              throw new DatalogException(ErrorCode.EVAL_RULE_NOT_FOUND,
                  "Requested rule " + apply.rule() + " not found",
                  apply.pos().line(), apply.pos().column());
            }
            final int arity = target.get(0).head().size();
            if (arity != apply.args().size()) {
              throw new DatalogException(ErrorCode.EVAL_RULE_ARITY_MISMATCH,
                  "Arity mismatch for rule application " + apply.rule(),
                  apply.pos().line(), apply.pos().column(),
                  "Required arity: " + arity + ", number of arguments given: "
                      + apply.args().size());
            }
          });
        }
      }
    }
  }

  private static Map<String, Map<String, Boolean>> graph(Map<String, List<Rule>> byName,
      Predicate<String> isMeet) {
    final Set<String> meetRules = new TreeSet<>();
    final Map<String, Boolean> aggregates = new HashMap<>();
    for (Map.Entry<String, List<Rule>> e : byName.entrySet()) {
      final boolean hasAggregation = e.getValue().stream()
          .anyMatch(r -> r.head().stream().anyMatch(Rule.HeadArg::isAggregated));
      final boolean meet = hasAggregation && e.getValue().stream()
          .allMatch(r -> r.head().stream()
              .allMatch(h -> !h.isAggregated() || isMeet.test(h.aggregation())));
      aggregates.put(e.getKey(), hasAggregation);
      if (meet) {
        meetRules.add(e.getKey());
      }
    }
    final Map<String, Map<String, Boolean>> graph = new TreeMap<>();
    for (Map.Entry<String, List<Rule>> e : byName.entrySet()) {
      final String k = e.getKey();
      final boolean hasAggregation = aggregates.get(k);
      final boolean meet = meetRules.contains(k);
      final Map<String, Boolean> deps = new TreeMap<>();
      for (Rule rule : e.getValue()) {
        for (FixedApply.Input in : fixedInputs(rule)) {
          deps.put(in.relation(), true);
        }
        for (Atom a : rule.body()) {
          forEachApplication(a, false, (apply, negated) -> {
            final String dep = apply.rule();
            final boolean forbidden = hasAggregation
                ? !(meet && dep.equals(k)) || negated
                : negated || (meetRules.contains(dep) && !dep.equals(k));
            deps.merge(dep, forbidden, Boolean::logicalOr);
          });
        }
      }
      graph.put(k, deps);
    }
    return graph;
  }

  /** The rules (not stored relations) a fixed rule reads; none for another rule. */
  private static List<FixedApply.Input> fixedInputs(Rule rule) {
    return rule.fixed() == null ? List.of()
        : rule.fixed().inputs().stream().filter(in -> !in.stored()).toList();
  }

  /** Calls {@code visit} for each rule application in {@code atom}, saying whether it is negated. */
  static void forEachApplication(Atom atom, boolean negated, ApplicationVisitor visit) {
    if (atom instanceof Atom.RuleApply) {
      visit.visit((Atom.RuleApply) atom, negated);
    } else if (atom instanceof Atom.Negation) {
      forEachApplication(((Atom.Negation) atom).atom(), true, visit);
    } else if (atom instanceof Atom.Conjunction) {
      for (Atom a : ((Atom.Conjunction) atom).atoms()) {
        forEachApplication(a, negated, visit);
      }
    } else if (atom instanceof Atom.Disjunction) {
      for (List<Atom> conjunction : ((Atom.Disjunction) atom).disjuncts()) {
        for (Atom a : conjunction) {
          forEachApplication(a, negated, visit);
        }
      }
    }
  }

  /** Receives rule applications. */
  @FunctionalInterface
  interface ApplicationVisitor {
    void visit(Atom.RuleApply apply, boolean negated);
  }

  private static Set<String> reachable(Map<String, Map<String, Boolean>> graph, String from) {
    final Set<String> seen = new TreeSet<>();
    final Deque<String> todo = new ArrayDeque<>();
    if (graph.containsKey(from)) {
      todo.push(from);
    }
    while (!todo.isEmpty()) {
      final String k = todo.pop();
      if (seen.add(k)) {
        graph.getOrDefault(k, Map.of()).keySet().forEach(todo::push);
      }
    }
    return seen;
  }

  /** Rust's Debug rendering of a list of strings, as CozoDB's messages print rule names. */
  private static String debugList(Set<String> names) {
    return names.stream()
        .map(n -> "\"" + n.replace("\\", "\\\\").replace("\"", "\\\"") + "\"")
        .collect(Collectors.joining(", ", "[", "]"));
  }
}
