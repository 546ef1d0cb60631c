package dev.mnestic.datalog.ast;

import java.util.List;

/**
 * A rule: {@code head[...] := body} (inline), {@code head[...] <- [[...]]}
 * (constant) or {@code head[...] <~ Name(...)} (fixed, its {@link #fixed} application).
 * The entry rule is named {@value #ENTRY}.
 */
public record Rule(String name, List<HeadArg> head, Kind kind, List<Atom> body,
    Expr constant, Pos pos, FixedApply fixed) {
  public static final String ENTRY = "?";

  /** An inline or constant rule. */
  public Rule(String name, List<HeadArg> head, Kind kind, List<Atom> body, Expr constant,
      Pos pos) {
    this(name, head, kind, body, constant, pos, null);
  }

  /** How a rule is defined. */
  public enum Kind { INLINE, CONSTANT, FIXED }

  /** A head position: a variable, or an aggregation of one ({@code count(x)}, {@code min_cost_k(x, 3)}). */
  public record HeadArg(Expr.Var var, String aggregation, List<Expr> aggregationArgs, Pos pos) {
    public boolean isAggregated() {
      return aggregation != null;
    }

    @Override public String toString() {
      return aggregation == null ? var.name() : aggregation + "(" + var.name() + ")";
    }
  }
}
