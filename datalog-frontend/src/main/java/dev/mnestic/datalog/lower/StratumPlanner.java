package dev.mnestic.datalog.lower;

import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.eval.ConstantRules;
import dev.mnestic.value.HostAggregations;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides how a query's strata are evaluated ({@link StratumPlan}), from
 * its rules and the stratifier's order alone: nothing is lowered, read or
 * run. Per stratum:
 * <ol>
 *   <li>a constant rule is a {@link StratumPlan.Constant} of its rows;
 *   <li>a fixed rule is a {@link StratumPlan.Fixed}, its rule resolved;
 *   <li>a relation reading nothing of its own stratum is a
 *       {@link StratumPlan.Once};
 *   <li>a recursive component is a {@link StratumPlan.Fixpoint}: per member,
 *       its seed rules and, per rule reading members, one variant per member
 *       atom reading the delta; each stored relation it reads and no earlier
 *       fixpoint read is first a {@link StratumPlan.CopyStored}.
 * </ol>
 * Errors in the rules (an unknown aggregation, a bad constant rule) are
 * {@link DatalogException}s.
 */
public final class StratumPlanner {
  /** Rounds after which a recursion that keeps changing is stopped. */
  static final int MAX_ITERATIONS = 1_000_000;

  private StratumPlanner() {
  }

  /**
   * The plan of {@code rules} evaluated in the order of {@code strata} (each a component of
   * relation names, as {@link dev.mnestic.datalog.analysis.Stratifier} gives them).
   *
   * @param options the aggregations registered ({@link StrataOptions#host}) and how many
   *     rounds a recursion through a bounded-meet one may keep changing its result
   *     ({@link StrataOptions#maxEpochs}); the rest is the runner's
   */
  public static StratumPlan plan(List<Rule> rules, List<List<String>> strata,
      Map<String, ?> params, StrataOptions options) {
    final HostAggregations host = options.host();
    final Map<String, List<Rule>> byName = new LinkedHashMap<>();
    for (Rule r : rules) {
      byName.computeIfAbsent(r.name(), k -> new ArrayList<>())
          .addAll(r.kind() == Rule.Kind.FIXED ? List.of(r) : Dnf.expand(r));
    }
    final List<StratumPlan.Step> steps = new ArrayList<>();
    final Set<Object> copied = new HashSet<>();
    for (int k = 0; k < strata.size(); k++) {
      final int stratum = k + 1;
      final List<String> component = List.copyOf(strata.get(k));
      final Set<String> members = new TreeSet<>(component);
      final List<Rule> firstRules = byName.get(component.get(0));
      if (firstRules.get(0).kind() == Rule.Kind.CONSTANT) {
        steps.add(new StratumPlan.Constant(stratum, component, firstRules.get(0),
            ConstantRules.rows(firstRules.get(0), params)));
        continue;
      }
      if (firstRules.get(0).kind() == Rule.Kind.FIXED) {
        steps.add(new StratumPlan.Fixed(stratum, component, firstRules.get(0),
            options.fixedRules().resolve(firstRules.get(0).fixed())));
        continue;
      }
      final boolean recursive = members.size() > 1 || firstRules.stream()
          .anyMatch(r -> !RuleLowering.recursiveAtoms(r, members).isEmpty());
      if (!recursive) {
        steps.add(new StratumPlan.Once(stratum, component, List.copyOf(firstRules),
            RuleLowering.aggregations(firstRules.get(0), params, host)));
        continue;
      }
      final List<StratumPlan.Member> fixpointMembers = new ArrayList<>();
      for (String m : component) {
        fixpointMembers.add(member(m, byName.get(m), members, params, host));
      }
      // Stored relations in the order lowering reads them: a rule's relations in body
      // order, then its negated ones.
      for (StratumPlan.Member m : fixpointMembers) {
        for (Rule r : m.rules()) {
          for (Atom.StoredApply s : storedAtoms(r)) {
            // a time-travel read is copied as of its own moment
            if (copied.add(s.validAt() == null ? s.relation() : s)) {
              steps.add(new StratumPlan.CopyStored(stratum, component, s.relation(), s));
            }
          }
        }
      }
      // A frontier over a cycle whose every lap adds an incomparable point never settles.
      StratumPlan.Frontier frontier = null;
      for (StratumPlan.Member m : fixpointMembers) {
        if (m.aggregations() != null && host.boundedMeetKind(m.aggregations())) {
          final List<Rule.HeadArg> head = m.rules().get(0).head();
          frontier = new StratumPlan.Frontier(m.relation(), head.get(head.size() - 1));
          break;
        }
      }
      steps.add(new StratumPlan.Fixpoint(stratum, component, fixpointMembers, frontier,
          frontier != null ? options.maxEpochs() : MAX_ITERATIONS));
    }
    return new StratumPlan(steps);
  }

  /**
   * Member {@code m} of a component: full and delta for every member; seeds read no
   * member, iterative parts read one member's delta per variant and full elsewhere.
   */
  private static StratumPlan.Member member(String m, List<Rule> rules, Set<String> members,
      Map<String, ?> params, HostAggregations host) {
    // Meet aggregations keep each group's best (the stratifier allows no others here).
    final List<String> aggs = RuleLowering.aggregations(rules.get(0), params, host);
    final boolean aggregated = aggs.stream().anyMatch(a -> a != null);
    final List<StratumPlan.Part> seeds = new ArrayList<>();
    final List<StratumPlan.Part> iteratives = new ArrayList<>();
    for (int ordinal = 0; ordinal < rules.size(); ordinal++) {
      final Rule r = rules.get(ordinal);
      final List<Atom.RuleApply> recursiveAtoms = RuleLowering.recursiveAtoms(r, members);
      if (recursiveAtoms.isEmpty()) {
        seeds.add(new StratumPlan.Part(r, ordinal, null));
        continue;
      }
      for (Atom.RuleApply viaDelta : recursiveAtoms) {
        iteratives.add(new StratumPlan.Part(aggregated ? r : deltaFirst(r, viaDelta), ordinal,
            viaDelta));
      }
    }
    return new StratumPlan.Member(m, List.copyOf(rules), aggregated ? aggs : null, seeds,
        iteratives);
  }

  /** The stored relations a rule reads: its positive atoms', then its negated ones'. */
  private static List<Atom.StoredApply> storedAtoms(Rule rule) {
    final List<Atom.StoredApply> found = new ArrayList<>();
    for (Atom a : rule.body()) {
      if (a instanceof Atom.StoredApply s) {
        found.add(s);
      }
      if (a instanceof Atom.SearchApply s) {
        // a search reads every row of its relation
        found.add(new Atom.StoredApply(s.relation(), List.of(), null, null, s.pos()));
      }
    }
    for (Atom a : rule.body()) {
      if (a instanceof Atom.Negation n && n.atom() instanceof Atom.StoredApply s) {
        found.add(s);
      }
    }
    return found;
  }

  /**
   * {@code rule} with the atom that reads the delta first, when its body is
   * only relations applied to variables and constants: then a round starts
   * from its new tuples and probes the other relations, whose lookups a
   * fixed table keeps ({@link dev.mnestic.runtime.RowTable#fix}), instead of
   * building a lookup over the delta every round. The order changes nothing
   * else: such a body evaluates no expression, and its rows are not
   * aggregated (an aggregated head keeps CozoDB's order).
   */
  private static Rule deltaFirst(Rule rule, Atom.RuleApply viaDelta) {
    for (Atom a : rule.body()) {
      final List<Expr> args = a instanceof Atom.RuleApply r ? r.args()
          : a instanceof Atom.StoredApply s ? (s.isNamed()
              ? s.named().stream().map(Atom.Binding::value).toList() : s.positional())
          : null;
      if (args == null || !args.stream().allMatch(e -> e instanceof Expr.Var
          || e instanceof Expr.Literal)) {
        return rule;
      }
    }
    final List<Atom> body = new ArrayList<>(List.of(viaDelta));
    for (Atom a : rule.body()) {
      if (a != viaDelta) {
        body.add(a);
      }
    }
    return new Rule(rule.name(), rule.head(), rule.kind(), body, rule.constant(), rule.pos());
  }
}
