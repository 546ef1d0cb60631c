package dev.mnestic.datalog.lower;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.value.ErrorCode;

import java.util.ArrayList;
import java.util.List;

/**
 * Disjunctive normal form: a rule whose body holds {@code a or b} becomes
 * one rule per disjunct, as CozoDB normalises it; parenthesised
 * conjunctions are flattened.
 */
final class Dnf {
  private Dnf() {
  }

  static List<Rule> expand(Rule rule) {
    if (rule.kind() != Rule.Kind.INLINE) {
      return List.of(rule);
    }
    final List<Rule> rules = new ArrayList<>();
    for (List<Atom> body : bodies(rule.body())) {
      rules.add(new Rule(rule.name(), rule.head(), rule.kind(), body, null, rule.pos()));
    }
    return rules;
  }

  /** The conjunctions equivalent to {@code atoms}, each free of disjunctions. */
  private static List<List<Atom>> bodies(List<Atom> atoms) {
    List<List<Atom>> result = new ArrayList<>();
    result.add(new ArrayList<>());
    for (Atom atom : atoms) {
      final List<List<Atom>> alternatives = alternatives(atom);
      final List<List<Atom>> next = new ArrayList<>();
      for (List<Atom> prefix : result) {
        for (List<Atom> alternative : alternatives) {
          final List<Atom> body = new ArrayList<>(prefix);
          body.addAll(alternative);
          next.add(body);
        }
      }
      result = next;
    }
    return result;
  }

  private static List<List<Atom>> alternatives(Atom atom) {
    if (atom instanceof Atom.Conjunction) {
      return bodies(((Atom.Conjunction) atom).atoms());
    }
    if (atom instanceof Atom.Disjunction) {
      final List<List<Atom>> all = new ArrayList<>();
      for (List<Atom> disjunct : ((Atom.Disjunction) atom).disjuncts()) {
        all.addAll(bodies(disjunct));
      }
      return all;
    }
    if (atom instanceof Atom.Negation) {
      final Atom inner = ((Atom.Negation) atom).atom();
      if (inner instanceof Atom.Disjunction || inner instanceof Atom.Conjunction) {
        throw new DatalogException(ErrorCode.MNESTIC_UNSUPPORTED,
            "negation of a conjunction or disjunction is not supported; negate single atoms",
            atom.pos().line(), atom.pos().column());
      }
    }
    return List.of(List.of(atom));
  }
}
