package dev.mnestic.search.text;

import java.util.ArrayList;
import java.util.List;

/**
 * A full-text query ({@code cozo-core/src/fts/ast.rs}): literals (a word or phrase, maybe a
 * prefix, with its boost), {@code NEAR} groups, and AND, OR, NOT over them. {@link
 * #tokenize} runs the index's analyzer over the literals, as CozoDB does before searching.
 */
public sealed interface FtsExpr {
  /** Text to match: its tokens all, or with {@code prefix} the terms starting with it. */
  record Literal(String value, boolean prefix, double boost) implements FtsExpr {}

  /** Every literal within {@code distance} positions of the others. */
  record Near(List<Literal> literals, int distance) implements FtsExpr {
    public Near {
      literals = List.copyOf(literals);
    }
  }

  /** All of {@code operands}; the scores add up. */
  record And(List<FtsExpr> operands) implements FtsExpr {
    public And {
      operands = List.copyOf(operands);
    }
  }

  /** Any of {@code operands}; the best score counts. */
  record Or(List<FtsExpr> operands) implements FtsExpr {
    public Or {
      operands = List.copyOf(operands);
    }
  }

  /** What {@code left} matches and {@code right} does not, with {@code left}'s scores. */
  record Not(FtsExpr left, FtsExpr right) implements FtsExpr {}

  /** Whether this matches nothing: an empty literal or group, or a literal boosted by 0. */
  default boolean isEmpty() {
    if (this instanceof Literal l) {
      return l.boost() == 0 || l.value().isEmpty();
    } else if (this instanceof Near n) {
      return n.literals().isEmpty();
    } else if (this instanceof And a) {
      return a.operands().isEmpty();
    } else if (this instanceof Or o) {
      return o.operands().isEmpty();
    } else {
      return ((Not) this).left().isEmpty();
    }
  }

  /** The query over the analyzer's tokens of its literals, flattened (CozoDB's order). */
  default FtsExpr tokenize(TextAnalyzer analyzer) {
    return flatten(tokenizeEach(this, analyzer));
  }

  private static List<Literal> literalTokens(Literal l, TextAnalyzer analyzer) {
    if (l.prefix()) {
      return List.of(l);
    }
    List<Literal> out = new ArrayList<>();
    for (Token t : analyzer.tokens(l.value())) {
      out.add(new Literal(t.text(), false, l.boost()));
    }
    return out;
  }

  private static FtsExpr tokenizeEach(FtsExpr e, TextAnalyzer analyzer) {
    if (e instanceof Literal l) {
      List<Literal> tokens = literalTokens(l, analyzer);
      return tokens.size() == 1 ? tokens.get(0) : new And(List.copyOf(tokens));
    } else if (e instanceof Near n) {
      List<Literal> tokens = new ArrayList<>();
      for (Literal l : n.literals()) {
        tokens.addAll(literalTokens(l, analyzer));
      }
      return new Near(tokens, n.distance());
    } else if (e instanceof And a) {
      return new And(a.operands().stream().map(x -> tokenizeEach(x, analyzer)).toList());
    } else if (e instanceof Or o) {
      return new Or(o.operands().stream().map(x -> tokenizeEach(x, analyzer)).toList());
    } else {
      Not n = (Not) e;
      return new Not(tokenizeEach(n.left(), analyzer), tokenizeEach(n.right(), analyzer));
    }
  }

  private static FtsExpr flatten(FtsExpr e) {
    if (e instanceof And a) {
      List<FtsExpr> flat = new ArrayList<>();
      for (FtsExpr x : a.operands()) {
        FtsExpr f = flatten(x);
        if (f instanceof And inner) {
          flat.addAll(inner.operands());
        } else if (!f.isEmpty()) {
          flat.add(f);
        }
      }
      return flat.size() == 1 ? flat.get(0) : new And(flat);
    } else if (e instanceof Or o) {
      List<FtsExpr> flat = new ArrayList<>();
      for (FtsExpr x : o.operands()) {
        FtsExpr f = flatten(x);
        if (f instanceof Or inner) {
          flat.addAll(inner.operands());
        } else if (!f.isEmpty()) {
          flat.add(f);
        }
      }
      return flat.size() == 1 ? flat.get(0) : new Or(flat);
    } else if (e instanceof Not n) {
      FtsExpr left = flatten(n.left());
      FtsExpr right = flatten(n.right());
      return right.isEmpty() ? left : new Not(left, right);
    }
    return e;
  }
}
