package dev.mnestic.datalog.ast;

import java.util.List;

/** One conjunct of a rule body. */
public sealed interface Atom {
  Pos pos();

  /** {@code rule[a, b]}: a rule of the script applied to terms. */
  record RuleApply(String rule, List<Expr> args, Pos pos) implements Atom {
  }

  /**
   * A stored relation: positional {@code *rel[a, b]} (bindings in column
   * order) or named {@code *rel{col: e, col2}} ({@code col2} alone binds a
   * variable of that name); with {@code @ validAt} ({@code *rel{a, b @ 'NOW'}})
   * a time-travel relation as of that moment, else null.
   */
  record StoredApply(String relation, List<Expr> positional, List<Binding> named, Expr validAt,
      Pos pos) implements Atom {
    public boolean isNamed() {
      return named != null;
    }
  }

  /**
   * A search of a relation's search index, CozoDB's {@code ~rel:idx{a, b: e | query: q, k: 10,
   * bind_distance: d}}: the bindings of the relation's columns (as in a named stored atom),
   * then the index's parameters, each {@code name: expr}.
   */
  record SearchApply(String relation, String index, List<Binding> bindings,
      List<Binding> parameters, Pos pos) implements Atom {
  }

  /** {@code col: expr} inside {@code *rel{...}}. */
  record Binding(String column, Expr value, Pos pos) {
  }

  /** {@code v = expr}: binds {@code v}, or tests equality when {@code v} is already bound. */
  record Unify(Expr.Var var, Expr value, Pos pos) implements Atom {
  }

  /** {@code v in expr}: one row for each element of the list. */
  record Member(Expr.Var var, Expr list, Pos pos) implements Atom {
  }

  /** {@code not atom}. */
  record Negation(Atom atom, Pos pos) implements Atom {
  }

  /** {@code a or b or ...}, each disjunct a conjunction. */
  record Disjunction(List<List<Atom>> disjuncts, Pos pos) implements Atom {
  }

  /** A (parenthesised) conjunction in atom position. */
  record Conjunction(List<Atom> atoms, Pos pos) implements Atom {
  }

  /** An expression that must be true. */
  record Filter(Expr condition, Pos pos) implements Atom {
  }
}
