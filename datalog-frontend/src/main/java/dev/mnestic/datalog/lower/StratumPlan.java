package dev.mnestic.datalog.lower;

import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.fixed.FixedRules;
import dev.mnestic.value.FixedRule;

import java.util.ArrayList;
import java.util.List;

/**
 * What evaluating a query's strata does, in order, decided before anything
 * is lowered or run ({@link StratumPlanner}): a list of steps, each of one
 * stratum. A step names rules and relations only; lowering turns it into a
 * Calcite plan and the runner runs that plan and keeps its rows.
 *
 * @param steps in order of evaluation; a stratum's {@link CopyStored} steps
 *     come before its {@link Fixpoint}
 */
public record StratumPlan(List<Step> steps) {
  public StratumPlan {
    steps = List.copyOf(steps);
  }

  /** A step of the evaluation, of stratum {@link #stratum} (from 1) and its {@link #relations}. */
  public sealed interface Step {
    int stratum();

    List<String> relations();
  }

  /** A constant rule ({@code r[a] <- [[1]]}): its rows, evaluated by the planner. */
  public record Constant(int stratum, List<String> relations, Rule rule, List<List<Object>> rows)
      implements Step {
  }

  /**
   * A relation that reads no relation of its own stratum: its rules evaluated once, their
   * union made distinct or, where {@code aggregations} has a spec, aggregated.
   *
   * @param rules the relation's rules, disjunctions expanded, in order (a rule's ordinal is
   *     its place in CozoDB's evaluation order)
   * @param aggregations per head position, an aggregation's spec or null for a grouping key
   */
  public record Once(int stratum, List<String> relations, List<Rule> rules,
      List<String> aggregations) implements Step {
    /** Whether a head position aggregates. */
    public boolean aggregated() {
      return aggregations.stream().anyMatch(a -> a != null);
    }
  }

  /**
   * A fixed rule ({@code out[a] <~ Name(...)}): {@code rule} applied to its inputs, every one
   * of an earlier stratum or stored, as a {@code FixedRuleApply}; its rows a relation.
   */
  public record Fixed(int stratum, List<String> relations, Rule rule, FixedRule impl)
      implements Step {
  }

  /**
   * A stored relation read inside a later {@link Fixpoint}: read once, its
   * rows kept as CozoDB values, so that each round scans the copy instead of
   * the store. A relation is copied once per evaluation.
   */
  public record CopyStored(int stratum, List<String> relations, String relation,
      Atom.StoredApply at) implements Step {
  }

  /**
   * A recursive component evaluated semi-naively to its least fixpoint.
   *
   * @param members one per relation of the component, in the stratum's order
   * @param frontier the bounded-meet aggregation that limits the rounds, or null
   * @param maxRounds rounds after which a fixpoint still changing fails
   */
  public record Fixpoint(int stratum, List<String> relations, List<Member> members,
      Frontier frontier, int maxRounds) implements Step {
  }

  /**
   * A relation of a recursive component.
   *
   * @param rules the relation's rules, disjunctions expanded, in order
   * @param aggregations per head position, a meet aggregation's spec or null; null when the
   *     head aggregates nothing
   * @param seeds the rules that read no member
   * @param iteratives per rule reading members, a variant per member atom: that atom reads
   *     the last round's new rows ({@code delta}), the others every row ({@code full})
   */
  public record Member(String relation, List<Rule> rules, List<String> aggregations,
      List<Part> seeds, List<Part> iteratives) {
    /** The head's columns. */
    public int arity() {
      return rules.get(0).head().size();
    }
  }

  /**
   * A rule as a fixpoint evaluates it.
   *
   * @param ordinal the rule's place among its relation's rules
   * @param viaDelta the member atom that reads the delta; null for a seed
   */
  public record Part(Rule rule, int ordinal, Atom.RuleApply viaDelta) {
  }

  /**
   * A recursion through a bounded-meet aggregation, which may never settle:
   * {@code rule}'s aggregating head position {@code head}.
   */
  public record Frontier(String rule, Rule.HeadArg head) {
  }

  /**
   * The steps, one line each, as plan tests compare them: e.g.
   * {@code 2 [tc] fixpoint tc: seeds 0, iteratives 1 via tc(delta)}.
   */
  public String describe() {
    final StringBuilder b = new StringBuilder();
    for (Step step : steps) {
      b.append(step.stratum()).append(' ').append(step.relations()).append(' ');
      if (step instanceof Constant c) {
        b.append("constant ").append(c.rule().name()).append(": ").append(c.rows().size())
            .append(" rows");
      } else if (step instanceof Once o) {
        b.append("once ").append(o.relations().get(0)).append(": ").append(o.rules().size())
            .append(" rules");
        if (o.aggregated()) {
          b.append(", aggregations ").append(o.aggregations());
        }
      } else if (step instanceof Fixed f) {
        b.append("fixed ").append(f.rule().name()).append(": ")
            .append(FixedRules.describe(f.rule().fixed()));
      } else if (step instanceof CopyStored c) {
        b.append("copy-stored ").append(c.relation());
      } else {
        final Fixpoint f = (Fixpoint) step;
        b.append("fixpoint, at most ").append(f.maxRounds()).append(" rounds");
        if (f.frontier() != null) {
          b.append(", frontier ").append(f.frontier().rule()).append(' ')
              .append(f.frontier().head());
        }
        for (Member m : f.members()) {
          b.append("\n  ").append(m.relation()).append(": seeds ").append(ordinals(m.seeds()))
              .append(", iteratives ");
          final List<String> variants = new ArrayList<>();
          for (Part p : m.iteratives()) {
            variants.add(p.ordinal() + " via " + p.viaDelta().rule() + "(delta)");
          }
          b.append(variants);
          if (m.aggregations() != null) {
            b.append(", aggregations ").append(m.aggregations());
          }
        }
      }
      b.append('\n');
    }
    return b.toString();
  }

  private static List<Integer> ordinals(List<Part> parts) {
    return parts.stream().map(Part::ordinal).toList();
  }
}
