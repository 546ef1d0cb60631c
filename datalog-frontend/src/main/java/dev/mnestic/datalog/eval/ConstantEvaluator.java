package dev.mnestic.datalog.eval;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.runtime.CozoCalls;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Functions;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Evaluates an expression without variables, such as the body of a constant
 * rule {@code ?[a, b] <- [[1, 'x' ++ 'y']]}, to a {@link Values value}, with
 * CozoDB's errors in CozoDB's order. CozoDB works in two passes, and so does
 * this class:
 *
 * <ol>
 *   <li>While parsing (innermost first, left to right): every {@code $param}
 *       must be given ({@code parser::param_not_found}), every known function
 *       must get its number of arguments ({@code parser::func_wrong_num_args}),
 *       {@code if} two or three ({@code parser::bad_if}), {@code cond} at least
 *       one ({@code parser::empty_cond}).</li>
 *   <li>Folding: a function application whose arguments are all constants is
 *       applied, innermost first, left to right; a failure is
 *       {@code eval::throw} with the function's reason as help. Variables,
 *       {@code if}, {@code cond} and unknown functions stay unevaluated, and
 *       the arguments of the last three are not even looked at.</li>
 *   <li>An expression that did not fold to a constant is
 *       {@code eval::not_constant} ("Expression contains unevaluated
 *       constant"): so is a variable, and so is a function CozoDB does not
 *       have.</li>
 * </ol>
 *
 * <p>Errors name the line and column of the expression at fault (for an
 * operator, the operator's).
 */
public final class ConstantEvaluator {

  /** Marks a subexpression that did not fold to a constant. */
  private static final Object UNEVALUATED = new Object();

  /** The parameters, by name without {@code $}. */
  private final Map<String, Object> params;
  /** While {@link #bind bound} to rows: each variable's position in {@link #row}; else null. */
  private Map<String, Integer> positions;
  /** The row being evaluated, while bound. */
  private Object[] row;

  /**
   * An evaluator with parameters, by name without {@code $}; each is
   * converted by {@link Values#of}.
   */
  public ConstantEvaluator(Map<String, ?> params) {
    final Map<String, Object> copy = new HashMap<>();
    params.forEach((k, v) -> copy.put(k, Values.of(v)));
    this.params = copy;
  }

  /** Evaluates {@code e} with the given parameters. */
  public static Object evaluate(Expr e, Map<String, ?> params) {
    return new ConstantEvaluator(params).evaluate(e);
  }

  /**
   * Evaluates {@code e}.
   *
   * @throws DatalogException with CozoDB's code, message and help
   */
  public Object evaluate(Expr e) {
    check(e);
    final Object v = fold(e);
    if (v == UNEVALUATED) {
      final Pos pos = firstUnevaluated(e).pos();
      throw new DatalogException(ErrorCode.EVAL_NOT_CONSTANT, "Expression contains unevaluated constant",
          pos.line(), pos.column());
    }
    return v;
  }

  /**
   * {@code e} as a function of a row in which variable {@code names.get(i)} is value {@code i}
   * (a fixed rule's option over its input's bindings, such as ReorderSort's {@code sort_by}):
   * checked once as {@link #evaluate} checks, then folded per row, each variable its value.
   * The function keeps the row being evaluated: one thread at a time.
   *
   * @throws DatalogException {@code eval::bad_binding} for a variable not in {@code names},
   *     and, per row, as {@link #evaluate}
   */
  public Function<Object[], Object> bind(Expr e, List<String> names) {
    check(e);
    final Map<String, Integer> at = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      at.putIfAbsent(names.get(i), i);
    }
    final Expr.Var unbound = firstUnbound(e, at);
    if (unbound != null) {
      throw error(ErrorCode.EVAL_BAD_BINDING, "Cannot find binding " + unbound.name(), null,
          unbound.pos());
    }
    final ConstantEvaluator bound = new ConstantEvaluator(Map.of());
    bound.params.putAll(params);
    bound.positions = at;
    return values -> {
      bound.row = values;
      final Object v = bound.fold(e);
      if (v == UNEVALUATED) {
        final Pos pos = firstUnevaluated(e).pos();
        throw new DatalogException(ErrorCode.EVAL_NOT_CONSTANT,
            "Expression contains unevaluated constant", pos.line(), pos.column());
      }
      return v;
    };
  }

  /** The first variable of {@code e} (in reading order) that {@code at} does not place. */
  private static Expr.Var firstUnbound(Expr e, Map<String, Integer> at) {
    if (e instanceof Expr.Var v) {
      return at.containsKey(v.name()) ? null : v;
    }
    final List<Expr> children = e instanceof Expr.ListExpr l ? l.items()
        : e instanceof Expr.Apply a ? a.args() : List.of();
    for (Expr c : children) {
      final Expr.Var found = firstUnbound(c, at);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /**
   * What CozoDB checks while parsing an expression that takes no parameters
   * (a column's default): no {@code $param}, every function with its number
   * of arguments.
   */
  public static void checkWithoutParams(Expr e) {
    new ConstantEvaluator(Map.of()).check(e);
  }

  // 1. what CozoDB checks while parsing

  private void check(Expr e) {
    if (e instanceof Expr.Param) {
      final Expr.Param p = (Expr.Param) e;
      if (!params.containsKey(p.name())) {
        throw error(ErrorCode.PARSER_PARAM_NOT_FOUND, "Required parameter " + p.name() + " not found", null, p.pos());
      }
    } else if (e instanceof Expr.ListExpr) {
      ((Expr.ListExpr) e).items().forEach(this::check);
    } else if (e instanceof Expr.Apply) {
      final Expr.Apply a = (Expr.Apply) e;
      a.args().forEach(this::check);
      if (isConditional(a)) {
        checkConditional(a);
      } else if (Functions.isDefined(a.function())) {
        try {
          Functions.checkArity(a.function(), a.args().size());
        } catch (ValueException x) {
          throw error(x, a.pos());
        }
      }
    }
  }

  /** Whether {@code a} is {@code if} or {@code cond}, which CozoDB parses to clauses, no function. */
  public static boolean isConditional(Expr.Apply a) {
    return a.function().equals("if") || a.function().equals("cond");
  }

  /**
   * Checks the arguments of {@code if} (two or three, {@code parser::bad_if}) or {@code cond}
   * (at least one, {@code parser::empty_cond}) as CozoDB's parser does.
   */
  public static void checkConditional(Expr.Apply a) {
    final int n = a.args().size();
    if (a.function().equals("if") && n != 2 && n != 3) {
      throw error(ErrorCode.PARSER_BAD_IF, "wrong number of arguments to if: 2 or 3 required", null, a.pos());
    }
    if (a.function().equals("cond") && n == 0) {
      throw error(ErrorCode.PARSER_EMPTY_COND, "'cond' cannot have empty body", null, a.pos());
    }
  }

  // 2. folding

  private Object fold(Expr e) {
    if (e instanceof Expr.Literal) {
      return ((Expr.Literal) e).value();
    }
    if (e instanceof Expr.Param) {
      return params.get(((Expr.Param) e).name());
    }
    if (e instanceof Expr.Var v) {
      return positions == null ? UNEVALUATED : row[positions.get(v.name())];
    }
    if (e instanceof Expr.ListExpr) {
      final List<Object> items = foldAll(((Expr.ListExpr) e).items());
      return items == null ? UNEVALUATED : Values.listOf(items);
    }
    final Expr.Apply a = (Expr.Apply) e;
    if (isOpaque(a)) {
      return UNEVALUATED;
    }
    final List<Object> args = foldAll(a.args());
    if (args == null) {
      return UNEVALUATED;
    }
    try {
      return Functions.apply(a.function(), args, CozoCalls.STOP);
    } catch (ValueException x) {
      throw error(x, a.pos());
    }
  }

  /** The values of all of {@code exprs} (each folded, so that errors surface), or null if one is not constant. */
  private List<Object> foldAll(List<Expr> exprs) {
    final List<Object> values = new ArrayList<>(exprs.size());
    boolean constant = true;
    for (Expr x : exprs) {
      final Object v = fold(x);
      constant &= v != UNEVALUATED;
      values.add(v);
    }
    return constant ? values : null;
  }

  /** {@code if}, {@code cond}, and functions CozoDB lacks: never folded, arguments untouched. */
  private static boolean isOpaque(Expr.Apply a) {
    final String f = a.function();
    return isConditional(a) || !Functions.isDefined(f);
  }

  /** The first subexpression (in reading order) that cannot fold. */
  private static Expr firstUnevaluated(Expr e) {
    if (e instanceof Expr.Var || e instanceof Expr.Apply && isOpaque((Expr.Apply) e)) {
      return e;
    }
    final List<Expr> children = e instanceof Expr.ListExpr ? ((Expr.ListExpr) e).items()
        : e instanceof Expr.Apply ? ((Expr.Apply) e).args() : List.of();
    for (Expr c : children) {
      final Expr found = firstUnevaluated(c);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  private static DatalogException error(ValueException x, Pos pos) {
    return error(x.errorCode(), x.getMessage(), x.help(), pos);
  }

  private static DatalogException error(ErrorCode code, String message, String help, Pos pos) {
    return new DatalogException(code, message, pos.line(), pos.column(), help);
  }
}
