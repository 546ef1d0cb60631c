package dev.mnestic.graph;

import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.FixedRule;
import dev.mnestic.value.StopCheck;
import dev.mnestic.value.ValueException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One application of a graph algorithm for the tests: inputs from lists, options from constant
 * values, and expressions as Java functions of their variables.
 */
final class Fixture implements FixedRule.Call {
  private final String name;
  private final List<FixedRule.Input> inputs = new ArrayList<>();
  private final Map<String, Object> options = new LinkedHashMap<>();
  private StopCheck stop = StopCheck.NEVER;

  private Fixture(String name) {
    this.name = name;
  }

  /** An application of {@code GraphAlgorithms.BUILT_IN.get(name)}. */
  static Fixture of(String name) {
    return new Fixture(name);
  }

  /** An expression over named variables, for options such as {@code condition}. */
  record Expr(Set<String> variables, Function<Map<String, Object>, Object> body)
      implements FixedRule.Expression {
    @Override
    public Function<Object[], Object> bind(List<String> names) {
      for (String v : variables) {
        if (!names.contains(v)) {
          throw new ValueException(ErrorCode.EVAL_UNBOUND_VARIABLE,
              "Unbound variable " + v, null);
        }
      }
      return row -> {
        Map<String, Object> values = new LinkedHashMap<>();
        for (String v : variables) {
          values.put(v, row[names.lastIndexOf(v)]);
        }
        return body.apply(values);
      };
    }
  }

  /** An input relation binding {@code bindings} to its first columns. */
  Fixture input(List<String> bindings, int arity, List<Object[]> rows) {
    inputs.add(new FixedRule.Input() {
      @Override
      public int arity() {
        return arity;
      }

      @Override
      public List<String> bindings() {
        return bindings;
      }

      @Override
      public List<Object[]> rows() {
        return rows;
      }
    });
    return this;
  }

  /** An input relation of {@code rows}, all as wide as the first (1 when there is none). */
  Fixture input(List<Object[]> rows) {
    int arity = rows.isEmpty() ? 1 : rows.get(0).length;
    List<String> bindings = new ArrayList<>();
    for (int i = 0; i < arity; i++) {
      bindings.add("_" + inputs.size() + "_" + i);
    }
    return input(bindings, arity, rows);
  }

  /** An input relation of single nodes. */
  Fixture nodes(List<?> nodes) {
    List<Object[]> rows = new ArrayList<>();
    for (Object n : nodes) {
      rows.add(new Object[] {n});
    }
    return input(rows);
  }

  /** Runs with {@code stop} as the statement's stop check. */
  Fixture stoppedBy(StopCheck stop) {
    this.stop = stop;
    return this;
  }

  Fixture option(String option, Object value) {
    options.put(option, value);
    return this;
  }

  /** Runs the rule, checking that every row is as wide as its arity says. */
  List<Object[]> run() {
    FixedRule rule = GraphAlgorithms.BUILT_IN.get(name);
    return run(rule);
  }

  List<Object[]> run(FixedRule rule) {
    int arity = rule.arity(options(), List.of());
    List<Object[]> rows = new ArrayList<>();
    rule.run(this, row -> {
      if (row.length != arity) {
        throw new AssertionError(name + " gave a row of " + row.length + " values, not " + arity);
      }
      rows.add(row);
    });
    return rows;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<FixedRule.Input> inputs() {
    return inputs;
  }

  @Override
  public FixedRule.Input input(int index) {
    if (index >= inputs.size()) {
      throw new IllegalArgumentException("no input " + index + " for " + name);
    }
    return inputs.get(index);
  }

  @Override
  public StopCheck stop() {
    return stop;
  }

  @Override
  public FixedRule.Options options() {
    return new FixedRule.Options() {
      @Override
      public Set<String> names() {
        return options.keySet();
      }

      @Override
      public boolean has(String option) {
        return options.containsKey(option);
      }

      @Override
      public Object value(String option) {
        if (!options.containsKey(option)) {
          throw new IllegalArgumentException("no option " + option + " for " + name);
        }
        return options.get(option);
      }

      private Object valueOr(String option, Object defaultValue) {
        return options.containsKey(option) ? options.get(option) : required(option, defaultValue);
      }

      private Object required(String option, Object defaultValue) {
        if (defaultValue == null) {
          throw new IllegalArgumentException("no option " + option + " for " + name);
        }
        return defaultValue;
      }

      private ValueException wrong(String option, String help) {
        return new ValueException(ErrorCode.FIXED_RULE_ARG_WRONG,
            "Wrong value for option '" + option + "' of '" + name + "'", help);
      }

      @Override
      public String string(String option, String defaultValue) {
        Object v = valueOr(option, defaultValue);
        if (!(v instanceof String)) {
          throw wrong(option, "a string is required");
        }
        return (String) v;
      }

      @Override
      public long integer(String option, Long defaultValue) {
        Object v = valueOr(option, defaultValue);
        if (!(v instanceof Long)) {
          throw wrong(option, "an integer is required");
        }
        return (Long) v;
      }

      @Override
      public long positiveInteger(String option, Long defaultValue) {
        long v = integer(option, defaultValue);
        if (v <= 0) {
          throw wrong(option, "a positive integer is required");
        }
        return v;
      }

      @Override
      public long nonNegativeInteger(String option, Long defaultValue) {
        long v = integer(option, defaultValue);
        if (v < 0) {
          throw wrong(option, "a non-negative integer is required");
        }
        return v;
      }

      @Override
      public double floating(String option, Double defaultValue) {
        Object v = valueOr(option, defaultValue);
        if (!(v instanceof Long || v instanceof Double)) {
          throw wrong(option, "a floating number is required");
        }
        return ((Number) v).doubleValue();
      }

      @Override
      public double unitInterval(String option, Double defaultValue) {
        double v = floating(option, defaultValue);
        if (!(v >= 0 && v <= 1)) {
          throw wrong(option, "a number between 0. and 1. is required");
        }
        return v;
      }

      @Override
      public boolean bool(String option, Boolean defaultValue) {
        Object v = valueOr(option, defaultValue);
        if (!(v instanceof Boolean)) {
          throw wrong(option, "a boolean value is required");
        }
        return (Boolean) v;
      }

      @Override
      public FixedRule.Expression expression(String option) {
        Object v = value(option);
        if (v instanceof FixedRule.Expression) {
          return (FixedRule.Expression) v;
        }
        return new Expr(Set.of(), vars -> v);
      }
    };
  }
}
