package dev.mnestic.value;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * CozoDB's aggregations over values: an {@link Aggregator} takes a group's
 * values one at a time and gives the aggregate. Meet aggregations also
 * {@link Aggregator#improves merge} a value into a running best, which is
 * what lets them run inside recursion.
 */
public final class Aggregators {
  private static final Map<String, Supplier<Aggregator>> ALL = Map.ofEntries(
      Map.entry("count", Count::new),
      Map.entry("count_unique", CountUnique::new),
      Map.entry("collect", Collect::new),
      Map.entry("unique", Unique::new),
      Map.entry("group_count", GroupCount::new),
      Map.entry("sum", () -> new Fold("sum", 0.0, Double::sum)),
      Map.entry("product", () -> new Fold("product", 1.0, (a, b) -> a * b)),
      Map.entry("mean", Mean::new),
      Map.entry("variance", () -> new Variance(false)),
      Map.entry("std_dev", () -> new Variance(true)),
      Map.entry("min", () -> new Extreme("min", true)),
      Map.entry("max", () -> new Extreme("max", false)),
      Map.entry("and", () -> new Logic("and", true)),
      Map.entry("or", () -> new Logic("or", false)),
      Map.entry("union", Union::new),
      Map.entry("choice", Choice::new));

  private Aggregators() {
  }

  /** Whether {@code name} is an aggregation mnestic runs. */
  public static boolean isDefined(String name) {
    return ALL.containsKey(name);
  }

  /** A fresh aggregator for {@code name}. */
  public static Aggregator create(String name) {
    final Supplier<Aggregator> s = ALL.get(name);
    if (s == null) {
      throw new ValueException("eval::aggr_not_found", "Aggregation '" + name + "' not found",
          null);
    }
    return s.get();
  }

  /** One group's aggregation. */
  public interface Aggregator {
    void add(Object value);

    Object result();

    /**
     * For meet aggregations: merges {@code value} into this aggregate and
     * says whether the aggregate changed.
     */
    default boolean improves(Object value) {
      throw new UnsupportedOperationException("not a meet aggregation");
    }
  }

  private static ValueException cannot(String name, Object v) {
    return new ValueException(ValueException.EVAL_THROW, ValueException.EVAL_FAILED,
        "cannot compute '" + name + "': encountered value " + Values.display(v));
  }

  private static double number(String name, Object v) {
    if (v instanceof Long) {
      return (Long) v;
    }
    if (v instanceof Double) {
      return (Double) v;
    }
    throw cannot(name, v);
  }

  private static final class Count implements Aggregator {
    private long count;

    @Override public void add(Object value) {
      count++;
    }

    @Override public Object result() {
      return count;
    }
  }

  private static final class CountUnique implements Aggregator {
    private final Set<Object> seen = new TreeSet<>(Values.ORDER);

    @Override public void add(Object value) {
      seen.add(value);
    }

    @Override public Object result() {
      return (long) seen.size();
    }
  }

  private static final class Collect implements Aggregator {
    private final List<Object> items = new ArrayList<>();

    @Override public void add(Object value) {
      items.add(value);
    }

    @Override public Object result() {
      return Values.listOf(items);
    }
  }

  private static final class Unique implements Aggregator {
    private final Set<Object> seen = new TreeSet<>(Values.ORDER);

    @Override public void add(Object value) {
      seen.add(value);
    }

    @Override public Object result() {
      return Values.listOf(new ArrayList<>(seen));
    }
  }

  private static final class GroupCount implements Aggregator {
    private final Map<Object, Long> counts = new TreeMap<>(Values.ORDER);

    @Override public void add(Object value) {
      counts.merge(value, 1L, Long::sum);
    }

    @Override public Object result() {
      final List<Object> pairs = new ArrayList<>();
      counts.forEach((k, n) -> pairs.add(Values.list(k, n)));
      return Values.listOf(pairs);
    }
  }

  /** sum and product: over floats, as CozoDB computes them. */
  private static final class Fold implements Aggregator {
    private final String name;
    private double acc;
    private final java.util.function.DoubleBinaryOperator op;

    Fold(String name, double start, java.util.function.DoubleBinaryOperator op) {
      this.name = name;
      this.acc = start;
      this.op = op;
    }

    @Override public void add(Object value) {
      acc = op.applyAsDouble(acc, number(name, value));
    }

    @Override public Object result() {
      return acc;
    }
  }

  private static final class Mean implements Aggregator {
    private double sum;
    private long count;

    @Override public void add(Object value) {
      sum += number("mean", value);
      count++;
    }

    @Override public Object result() {
      return sum / count;
    }
  }

  private static final class Variance implements Aggregator {
    private final boolean root;
    private double sum;
    private double sumSquares;
    private long count;

    Variance(boolean root) {
      this.root = root;
    }

    @Override public void add(Object value) {
      final double f = number(root ? "std_dev" : "variance", value);
      sum += f;
      sumSquares += f * f;
      count++;
    }

    @Override public Object result() {
      final double n = count;
      final double variance = (sumSquares - sum * sum / n) / (n - 1.0);
      return root ? Math.sqrt(variance) : variance;
    }
  }

  /** min and max: nulls are skipped; values compare as numbers; the first of equals stays. */
  private static final class Extreme implements Aggregator {
    private final String name;
    private final boolean min;
    private Object found;

    Extreme(String name, boolean min) {
      this.name = name;
      this.min = min;
    }

    @Override public void add(Object value) {
      improves(value);
    }

    @Override public boolean improves(Object value) {
      if (value == null) {
        return false;
      }
      if (found == null) {
        found = value;
        return true;
      }
      final double a = numeric(found);
      final double b = numeric(value);
      if (min ? a > b : a < b) {
        found = value;
        return true;
      }
      return false;
    }

    private double numeric(Object v) {
      if (v instanceof Long || v instanceof Double) {
        return ((Number) v).doubleValue();
      }
      throw new ValueException(ValueException.EVAL_THROW, ValueException.EVAL_FAILED,
          "'" + name + "' applied to non-numerical values");
    }

    @Override public Object result() {
      return found;
    }
  }

  private static final class Logic implements Aggregator {
    private final String name;
    private final boolean and;
    private boolean acc;

    Logic(String name, boolean and) {
      this.name = name;
      this.and = and;
      this.acc = and;
    }

    @Override public void add(Object value) {
      improves(value);
    }

    @Override public boolean improves(Object value) {
      if (!(value instanceof Boolean)) {
        throw cannot(name, value);
      }
      final boolean old = acc;
      acc = and ? acc & (Boolean) value : acc | (Boolean) value;
      return old != acc;
    }

    @Override public Object result() {
      return acc;
    }
  }

  private static final class Union implements Aggregator {
    private final Set<Object> items = new TreeSet<>(Values.ORDER);

    @Override public void add(Object value) {
      improves(value);
    }

    @Override public boolean improves(Object value) {
      if (!(value instanceof List)) {
        throw cannot("union", value);
      }
      return items.addAll((List<?>) value);
    }

    @Override public Object result() {
      return Values.listOf(new ArrayList<>(items));
    }
  }

  private static final class Choice implements Aggregator {
    private Object found;

    @Override public void add(Object value) {
      improves(value);
    }

    @Override public boolean improves(Object value) {
      if (found == null && value != null) {
        found = value;
        return true;
      }
      return false;
    }

    @Override public Object result() {
      return found;
    }
  }
}
