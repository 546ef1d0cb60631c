package dev.mnestic.datalog.fixed;

import dev.mnestic.datalog.ast.Expr;
import dev.mnestic.datalog.ast.FixedApply;
import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.eval.ConstantEvaluator;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The options of one fixed rule application, evaluated by the front end's own
 * {@link ConstantEvaluator} with the script's parameters: a constant option folds as a
 * constant rule's body does ({@code value} of one using a variable is
 * {@code eval::not_constant}); an {@link #expression} is folded per row of an input. Errors
 * are CozoDB's, placed where CozoDB places them: a missing option at the argument list, a
 * wrong one at its value.
 */
final class OptionValues implements FixedRule.Options {
  private final FixedApply apply;
  private final Map<String, ?> params;

  OptionValues(FixedApply apply, Map<String, ?> params) {
    this.apply = apply;
    this.params = params;
  }

  @Override public Set<String> names() {
    return apply.options().keySet();
  }

  @Override public boolean has(String name) {
    return apply.options().containsKey(name);
  }

  @Override public Object value(String name) {
    return ConstantEvaluator.evaluate(option(name), params);
  }

  @Override public String string(String name, String defaultValue) {
    if (!has(name)) {
      return orMissing(name, defaultValue);
    }
    if (!(value(name) instanceof String s)) {
      throw wrong(name, "a string is required");
    }
    return s;
  }

  @Override public long integer(String name, Long defaultValue) {
    if (!has(name)) {
      return orMissing(name, defaultValue);
    }
    final Object v = value(name);
    if (v instanceof Long l) {
      return l;
    }
    if (v instanceof Double d) {
      // CozoDB: a whole float is its integer; another one is "not found"
      if (d == Math.rint(d) && !Double.isInfinite(d)) {
        return (long) (double) d;
      }
      throw missing(name);
    }
    throw wrong(name, "an integer is required");
  }

  @Override public long positiveInteger(String name, Long defaultValue) {
    final long i = integer(name, defaultValue);
    if (i <= 0) {
      throw wrong(name, "a positive integer is required");
    }
    return i;
  }

  @Override public long nonNegativeInteger(String name, Long defaultValue) {
    final long i = integer(name, defaultValue);
    if (i < 0) {
      throw wrong(name, "a non-negative integer is required");
    }
    return i;
  }

  @Override public double floating(String name, Double defaultValue) {
    if (!has(name)) {
      return orMissing(name, defaultValue);
    }
    if (!(value(name) instanceof Number n)) {
      throw wrong(name, "a floating number is required");
    }
    return n.doubleValue();
  }

  @Override public double unitInterval(String name, Double defaultValue) {
    final double f = floating(name, defaultValue);
    if (!(f >= 0 && f <= 1)) {
      throw wrong(name, "a number between 0. and 1. is required");
    }
    return f;
  }

  @Override public boolean bool(String name, Boolean defaultValue) {
    if (!has(name)) {
      return orMissing(name, defaultValue);
    }
    if (!(value(name) instanceof Boolean b)) {
      throw wrong(name, "a boolean value is required");
    }
    return b;
  }

  @Override public FixedRule.Expression expression(String name) {
    final Expr e = option(name);
    return names -> new ConstantEvaluator(params).bind(e, names);
  }

  /** {@code e}, part of an option, as a function of rows binding {@code names} by position. */
  Function<Object[], Object> bind(Expr e, List<String> names) {
    return new ConstantEvaluator(params).bind(e, names);
  }

  /** The option's expression as written; {@code fixed_rule::arg_not_found} when missing. */
  Expr option(String name) {
    final Expr e = apply.options().get(name);
    if (e == null) {
      throw missing(name);
    }
    return e;
  }

  private <T> T orMissing(String name, T defaultValue) {
    if (defaultValue == null) {
      throw missing(name);
    }
    return defaultValue;
  }

  private DatalogException missing(String name) {
    final Pos at = apply.argsPos();
    return new DatalogException(ErrorCode.FIXED_RULE_ARG_NOT_FOUND, "Cannot find a required named"
        + " option '" + name + "' for '" + apply.name() + "'", at.line(), at.column());
  }

  /** {@code fixed_rule::arg_wrong} at the option's value (at the arguments if it has none). */
  DatalogException wrong(String name, String help) {
    final Expr e = apply.options().get(name);
    final Pos at = e == null ? apply.argsPos() : e.pos();
    return new DatalogException(ErrorCode.FIXED_RULE_ARG_WRONG, "Wrong value for option '" + name
        + "' of '" + apply.name() + "'", at.line(), at.column(), help);
  }
}
