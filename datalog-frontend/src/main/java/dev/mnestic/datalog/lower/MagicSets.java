package dev.mnestic.datalog.lower;

import dev.mnestic.datalog.ast.Atom;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.FixedApply;
import dev.mnestic.datalog.ast.Rule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The magic-set rewrite, as CozoDB's ({@code cozo-core/src/query/magic.rs}, turned off by
 * {@code :disable_magic_rewrite true}): a rule applied with some arguments already bound
 * ({@code ?[y] := tc[$src, y]}, or a variable bound by the atoms before it) is evaluated only
 * for those bindings. Each such application of relation {@code r} with adornment {@code α}
 * (per argument, {@code b}ound or {@code f}ree) reads {@code r|Mα}, a copy of {@code r}'s
 * rules whose bodies start with {@code r|Iα}, the bindings asked for; an application writes
 * its bindings into {@code r|Iα} by a rule of the atoms before it. Inside {@code r|Mα}'s rules
 * the applications are adorned in turn, so a recursion passes its bindings down (a transitive
 * closure from one source derives only the pairs from that source).
 *
 * <p>Only <em>pure</em> relations are rewritten: defined by inline rules without aggregation
 * whose bodies negate no rule and apply only pure relations or constant rules (CozoDB exempts
 * aggregating rules too). The bindings a rule writes into {@code r|Iα} come from the atoms
 * before the application that read only stored relations, constant rules and pure relations
 * (expressions, unifications, stored atoms); a variable only an other atom binds counts as
 * free. Where an application has more than one such atom before it, they are kept once, as a
 * supplementary relation ({@code r|S0}, as CozoDB's), which the input and the next
 * application's supplementary read, so a body of n applications makes rules of O(n) atoms,
 * not O(n²). So the magic relations read nothing but pure ones and stored relations, and the
 * rewritten query stratifies as the original does. A relation applied with every argument free
 * keeps its name and rules (adorned inside); relations no rule applies are left out, as the
 * stratifier leaves out what the entry does not reach.
 *
 * <p>A relation that some application asks for whole (every argument free) is read whole by
 * all of them: its full relation is derived anyway, so a bound application reads it rather than
 * deriving a second, adorned copy. (Andersen's {@code pt[p, a] := *load[p, q], pt[q, r],
 * pt[r, a]} applies {@code pt} with {@code r} bound inside the rules of the {@code pt} the query
 * reads whole: adorning it derived pt twice over and multiplied the work.) The rewrite is run
 * again with such relations left whole until no more are found.
 */
public final class MagicSets {
  private final Map<String, List<Rule>> byName = new LinkedHashMap<>();
  /** The relations rewritten when applied with a bound argument. */
  private final Set<String> candidates = new HashSet<>();
  /** Candidates read whole wherever they are applied, as some application asks them whole. */
  private final Set<String> whole;
  /** Candidates some application asks for with every argument free. */
  private final Set<String> askedWhole = new HashSet<>();
  /** Constant rules and candidates: what the atoms binding an input may read. */
  private final Set<String> pure = new HashSet<>();
  /** Adorned relations still to write: relation and adornment. */
  private final Deque<Adorned> pending = new ArrayDeque<>();
  private final Set<String> written = new HashSet<>();
  private final List<Rule> out = new ArrayList<>();
  private final List<Rule> inputs = new ArrayList<>();
  private boolean rewrote;
  /** Supplementary relations made so far, numbering the next one's name. */
  private int sups;

  private record Adorned(String relation, boolean[] bound) {
  }

  private MagicSets(List<Rule> rules, Set<String> whole) {
    this.whole = whole;
    for (Rule r : rules) {
      byName.computeIfAbsent(r.name(), k -> new ArrayList<>()).addAll(Dnf.expand(r));
    }
  }

  /**
   * {@code rules} (a query's, headed) rewritten, or {@code rules} itself when no pure relation is
   * applied with a bound argument. Rules are in disjunctive normal form ({@link Dnf}) after it.
   */
  public static List<Rule> rewrite(List<Rule> rules) {
    final Set<String> whole = new HashSet<>();
    MagicSets m;
    do {
      m = new MagicSets(rules, whole);
      m.findPure();
      m.run();
    } while (whole.addAll(m.askedWhole));
    if (!m.rewrote) {
      return rules;
    }
    final List<Rule> all = new ArrayList<>(m.out);
    all.addAll(m.inputs);
    return all;
  }

  /** The name of {@code relation} adorned as {@code bound}: {@code tc|Mbf}, as CozoDB shows it. */
  static String adorned(String relation, boolean[] bound) {
    return relation + "|M" + bits(bound);
  }

  /** The name of the bindings asked of {@code relation} adorned as {@code bound}: {@code tc|Ibf}. */
  static String input(String relation, boolean[] bound) {
    return relation + "|I" + bits(bound);
  }

  private static String bits(boolean[] bound) {
    final StringBuilder b = new StringBuilder();
    for (boolean x : bound) {
      b.append(x ? 'b' : 'f');
    }
    return b.toString();
  }

  /** The pure relations: the greatest set closed under the conditions of the class comment. */
  private void findPure() {
    for (Map.Entry<String, List<Rule>> e : byName.entrySet()) {
      final Rule first = e.getValue().get(0);
      if (first.kind() == Rule.Kind.CONSTANT) {
        pure.add(e.getKey());
      } else if (first.kind() == Rule.Kind.INLINE && !e.getKey().equals(Rule.ENTRY)
          && e.getValue().stream().allMatch(MagicSets::plain)) {
        candidates.add(e.getKey());
      }
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (String c : List.copyOf(candidates)) {
        for (Rule r : byName.get(c)) {
          for (Atom a : r.body()) {
            if (a instanceof Atom.RuleApply apply && !candidates.contains(apply.rule())
                && !pure.contains(apply.rule())) {
              changed |= candidates.remove(c);
            }
          }
        }
      }
    }
    pure.addAll(candidates);
  }

  /** A rule without aggregation whose body negates no rule. */
  private static boolean plain(Rule r) {
    return r.kind() == Rule.Kind.INLINE && r.head().stream().noneMatch(Rule.HeadArg::isAggregated)
        && r.body().stream().noneMatch(a -> a instanceof Atom.Negation n
            && n.atom() instanceof Atom.RuleApply);
  }

  private void run() {
    for (Map.Entry<String, List<Rule>> e : byName.entrySet()) {
      if (candidates.contains(e.getKey())) {
        continue;
      }
      for (Rule r : e.getValue()) {
        if (r.kind() != Rule.Kind.INLINE) {
          out.add(r);
          if (r.fixed() != null) {
            for (FixedApply.Input in : r.fixed().inputs()) {
              if (!in.stored()) {
                ask(in.relation(), new boolean[0]);
              }
            }
          }
          continue;
        }
        out.add(adorn(r, r.name(), null));
      }
    }
    while (!pending.isEmpty()) {
      final Adorned a = pending.pop();
      final boolean some = anyBound(a.bound());
      if (!some) {
        askedWhole.add(a.relation());
      }
      final String name = some ? adorned(a.relation(), a.bound()) : a.relation();
      if (!written.add(name)) {
        continue;
      }
      for (Rule r : byName.get(a.relation())) {
        out.add(adorn(r, name, some ? a.bound() : null));
      }
    }
  }

  /** Asks for {@code relation} adorned as {@code bound} (empty or all free: as it is). */
  private void ask(String relation, boolean[] bound) {
    if (candidates.contains(relation)) {
      pending.push(new Adorned(relation, bound));
    }
  }

  private static boolean anyBound(boolean[] bound) {
    for (boolean b : bound) {
      if (b) {
        return true;
      }
    }
    return false;
  }

  /**
   * Rule {@code r} as relation {@code name}: its body first reading the bindings asked
   * ({@code bound}'s positions of the head; null when none are), its applications of
   * candidates adorned, each writing the bindings it asks into the input relation.
   */
  private Rule adorn(Rule r, String name, boolean[] bound) {
    final Set<String> seen = new LinkedHashSet<>();
    final List<Atom> body = new ArrayList<>();
    // the atoms that may bind an input: reading only pure relations and stored ones
    final List<Atom> kept = new ArrayList<>();
    if (bound != null) {
      final List<Expr> args = new ArrayList<>();
      for (int i = 0; i < bound.length; i++) {
        if (bound[i]) {
          final Expr.Var v = r.head().get(i).var();
          args.add(v);
          seen.add(v.name());
        }
      }
      final Atom in = new Atom.RuleApply(input(r.name(), bound), args, r.pos());
      body.add(in);
      kept.add(in);
    }
    for (Atom a : r.body()) {
      if (a instanceof Atom.RuleApply apply) {
        Atom applied = apply;
        if (candidates.contains(apply.rule())) {
          final boolean[] beta = new boolean[apply.args().size()];
          for (int i = 0; i < beta.length && !whole.contains(apply.rule()); i++) {
            beta[i] = isBound(apply.args().get(i), seen);
          }
          pending.push(new Adorned(apply.rule(), beta));
          if (anyBound(beta)) {
            rewrote = true;
            if (kept.size() > 1 && !seen.isEmpty()) {
              // CozoDB's supplementary relation: the atoms so far kept once, read by the
              // input and by the next application's supplementary, not repeated in each
              final Atom sup = new Atom.RuleApply(name + "|S" + sups++,
                  seen.stream().map(v -> (Expr) new Expr.Var(v, apply.pos())).toList(),
                  apply.pos());
              inputs.add(new Rule(((Atom.RuleApply) sup).rule(), seen.stream()
                  .map(v -> new Rule.HeadArg(new Expr.Var(v, apply.pos()), null, List.of(),
                      apply.pos())).toList(), Rule.Kind.INLINE, List.copyOf(kept), null,
                  apply.pos()));
              kept.clear();
              kept.add(sup);
            }
            final Rule in = inputRule(apply, beta, kept);
            if (!isIdentity(in)) {
              inputs.add(in);
            }
            applied = new Atom.RuleApply(adorned(apply.rule(), beta), apply.args(), apply.pos());
          }
        }
        body.add(applied);
        if (pure.contains(apply.rule())) {
          kept.add(applied);
          bind(apply.args(), seen);
        }
        continue;
      }
      body.add(a);
      if (a instanceof Atom.Negation n && n.atom() instanceof Atom.RuleApply negated) {
        ask(negated.rule(), new boolean[0]);
      } else if (a instanceof Atom.StoredApply s && s.validAt() == null) {
        final List<Expr> args = s.isNamed()
            ? s.named().stream().map(Atom.Binding::value).toList() : s.positional();
        if (args.stream().allMatch(e -> e instanceof Expr.Var || bound(e, seen))) {
          kept.add(a);
          bind(args, seen);
        }
      } else if (a instanceof Atom.Unify u && bound(u.value(), seen)) {
        kept.add(a);
        seen.add(u.var().name());
      } else if (a instanceof Atom.Member m && bound(m.list(), seen)) {
        kept.add(a);
        seen.add(m.var().name());
      } else if (a instanceof Atom.Filter f && bound(f.condition(), seen)) {
        kept.add(a);
      }
    }
    return new Rule(name, r.head(), r.kind(), body, null, r.pos());
  }

  /**
   * {@code r|Iβ[args] := kept}: the bound arguments of {@code apply} (a constant or an
   * expression through a variable of its own, {@code |0 = $src}) for each row of the atoms
   * before it.
   */
  private static Rule inputRule(Atom.RuleApply apply, boolean[] beta, List<Atom> kept) {
    final List<Rule.HeadArg> head = new ArrayList<>();
    final List<Atom> body = new ArrayList<>(kept);
    for (int i = 0; i < beta.length; i++) {
      if (!beta[i]) {
        continue;
      }
      final Expr e = apply.args().get(i);
      final Expr.Var v = e instanceof Expr.Var var ? var : new Expr.Var("|" + i, e.pos());
      if (v != e) {
        body.add(new Atom.Unify(v, e, e.pos()));
      }
      head.add(new Rule.HeadArg(v, null, List.of(), e.pos()));
    }
    return new Rule(input(apply.rule(), beta), head, Rule.Kind.INLINE, body, null, apply.pos());
  }

  /**
   * Whether an input rule only copies its own relation ({@code tc|Ibf[a] := tc|Ibf[a]}, as a
   * left-recursive rule asks again what it was asked): it adds nothing.
   */
  private static boolean isIdentity(Rule in) {
    return in.body().size() == 1 && in.body().get(0) instanceof Atom.RuleApply a
        && a.rule().equals(in.name())
        && a.args().equals(in.head().stream().map(Rule.HeadArg::var).toList());
  }

  /** Whether an argument is bound by what {@code seen} holds: a wildcard never is. */
  private static boolean isBound(Expr e, Set<String> seen) {
    if (e instanceof Expr.Var v) {
      return !v.name().equals("_") && seen.contains(v.name());
    }
    return bound(e, seen);
  }

  /** Whether every variable {@code e} reads is in {@code seen}. */
  private static boolean bound(Expr e, Set<String> seen) {
    for (String v : RuleLowering.variables(e)) {
      if (v.equals("_") || !seen.contains(v)) {
        return false;
      }
    }
    return true;
  }

  private static void bind(List<Expr> args, Set<String> seen) {
    for (Expr e : args) {
      if (e instanceof Expr.Var v && !v.name().equals("_")) {
        seen.add(v.name());
      }
    }
  }
}
