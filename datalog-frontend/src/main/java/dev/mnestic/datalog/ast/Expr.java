package dev.mnestic.datalog.ast;

import java.util.List;

/**
 * An expression of CozoScript. Operators are applications of the functions
 * they stand for, as in CozoDB: {@code a + b} is {@code add(a, b)},
 * {@code a ++ b} is {@code concat(a, b)}, {@code a ~ b} is
 * {@code coalesce(a, b)}, {@code a -> k} is {@code maybe_get(a, k)},
 * {@code -a} is {@code minus(a)} and {@code !a} is {@code negate(a)}.
 */
public sealed interface Expr {
  Pos pos();

  /** A variable; {@code _} and names starting with {@code _} are anonymous in rule bodies. */
  record Var(String name, Pos pos) implements Expr {
    @Override public String toString() {
      return name;
    }
  }

  /** A constant: null, a Boolean, a Long, a Double or a String. */
  record Literal(Object value, Pos pos) implements Expr {
    @Override public String toString() {
      return value instanceof String ? "'" + value + "'" : String.valueOf(value);
    }
  }

  /** {@code $name}, bound when the script runs. */
  record Param(String name, Pos pos) implements Expr {
    @Override public String toString() {
      return "$" + name;
    }
  }

  /** {@code [e, ...]}. */
  record ListExpr(List<Expr> items, Pos pos) implements Expr {
    @Override public String toString() {
      return items.toString();
    }
  }

  /** {@code fn(args)}, and every operator. */
  record Apply(String function, List<Expr> args, Pos pos) implements Expr {
    @Override public String toString() {
      return function + args.toString().replace('[', '(').replace(']', ')');
    }
  }
}
