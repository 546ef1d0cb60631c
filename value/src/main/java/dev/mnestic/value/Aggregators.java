package dev.mnestic.value;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntBinaryOperator;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * CozoDB's aggregations ({@code cozo-core/src/data/aggr.rs}, version 0.7.6),
 * each in the forms CozoDB has:
 *
 * <ul>
 *   <li>normal: an {@link Aggregator} takes a group's values one at a time
 *       and gives the aggregate at the end;</li>
 *   <li>meet, for {@code min}, {@code max}, {@code and}, {@code or},
 *       {@code union}, {@code intersection}, {@code choice},
 *       {@code min_cost}, {@code shortest}, {@code bit_and} and
 *       {@code bit_or}: a {@link Meet} merges a value into a group's current
 *       one and says whether it changed, which is what lets them run inside
 *       recursion, keeping each group's best.</li>
 * </ul>
 *
 * <p>A rule uses the meet forms when {@link #meetKind} says so (CozoDB's
 * {@code AggrKind::Meet}); then a group's first value is taken as it is,
 * unchecked ({@code min('a')} of one row is {@code 'a'}, {@code union} of
 * one list is that list, unsorted), the next ones are merged, and
 * {@code union} and {@code intersection} make a {@link ValueSet}. A group of
 * no values (a rule without grouping keys over no rows) is each
 * aggregation's {@link #emptyMeet} or normal result.
 *
 * <p>Failures are CozoDB's, messages included: a {@link ValueException}
 * without a code ({@code cannot compute 'sum': encountered value "a"},
 * {@code 'min' applied to non-numerical values} also for {@code max}).
 *
 * <p>One deliberate difference: CozoDB 0.7.6's meet {@code and} and
 * {@code or} report a change when there was none and none when there was
 * one ({@code Ok(old == *l)}); in recursion CozoDB then never stops on a
 * cycle and can lose an update. Here they report real changes.
 */
public final class Aggregators {
  /** Normal forms by name; {@code collect} also takes a limit. */
  private static final Map<String, Supplier<Aggregator>> NORMAL = Map.ofEntries(
      Map.entry("count", Count::new),
      Map.entry("count_unique", CountUnique::new),
      Map.entry("collect", () -> new Collect(Integer.MAX_VALUE)),
      Map.entry("unique", Unique::new),
      Map.entry("group_count", GroupCount::new),
      Map.entry("sum", () -> new Fold("sum", 0.0, false)),
      Map.entry("product", () -> new Fold("product", 1.0, true)),
      Map.entry("mean", Mean::new),
      Map.entry("variance", () -> new Variance(false)),
      Map.entry("std_dev", () -> new Variance(true)),
      Map.entry("min", () -> new Extreme(true)),
      Map.entry("max", () -> new Extreme(false)),
      Map.entry("and", () -> new Logic(true)),
      Map.entry("or", () -> new Logic(false)),
      Map.entry("union", Union::new),
      Map.entry("intersection", Intersection::new),
      Map.entry("choice", Choice::new),
      Map.entry("choice_rand", ChoiceRand::new),
      Map.entry("min_cost", MinCost::new),
      Map.entry("shortest", Shortest::new),
      Map.entry("latest_by", () -> new By("latest_by", false)),
      Map.entry("smallest_by", () -> new By("smallest_by", true)),
      Map.entry("bit_and", () -> new Bits("bit_and", (x, y) -> x & y)),
      Map.entry("bit_or", () -> new Bits("bit_or", (x, y) -> x | y)),
      Map.entry("bit_xor", () -> new Bits("bit_xor", (x, y) -> x ^ y)));

  /** Meet forms by name. */
  private static final Map<String, Meet> MEET = Map.ofEntries(
      Map.entry("min", new MeetExtreme(true)),
      Map.entry("max", new MeetExtreme(false)),
      Map.entry("and", new MeetLogic(true)),
      Map.entry("or", new MeetLogic(false)),
      Map.entry("union", new MeetUnion()),
      Map.entry("intersection", new MeetIntersection()),
      Map.entry("choice", new MeetChoice()),
      Map.entry("min_cost", new MeetMinCost()),
      Map.entry("shortest", new MeetShortest()),
      Map.entry("bit_and", new MeetBits("bit_and", (x, y) -> x & y)),
      Map.entry("bit_or", new MeetBits("bit_or", (x, y) -> x | y)));

  /** Bounded-meet aggregations by name; {@code min_cost_k} is made per k. */
  private static final Map<String, BoundedMeet> BOUNDED_MEET = Map.of(
      "pareto_min", Pareto.MIN,
      "pareto_max", Pareto.MAX,
      MinCostK.NAME, new MinCostK(1));

  /** Aggregations whose result never depends on the order of their input. */
  private static final Set<String> ORDER_BLIND = Set.of(
      "count", "count_unique", "unique", "group_count", "pareto_min", "pareto_max",
      MinCostK.NAME);

  private Aggregators() {
  }

  /** Whether {@code name} is one of CozoDB's aggregations or a bounded-meet one. */
  public static boolean isDefined(String name) {
    return NORMAL.containsKey(name) || BOUNDED_MEET.containsKey(name);
  }

  /** Whether {@code name} is a {@linkplain BoundedMeet bounded-meet} aggregation. */
  public static boolean isBoundedMeet(String name) {
    return BOUNDED_MEET.containsKey(name);
  }

  /** The names of the bounded-meet aggregations. */
  public static Set<String> boundedMeetNames() {
    return BOUNDED_MEET.keySet();
  }

  /** The bounded-meet aggregation of a {@linkplain #spec spec}: {@code pareto_min}, {@code min_cost_k(3)}. */
  public static BoundedMeet boundedMeet(String spec) {
    if (spec.startsWith(MinCostK.NAME + "(")) {
      return new MinCostK(Integer.parseInt(spec.substring(MinCostK.NAME.length() + 1,
          spec.length() - 1)));
    }
    final BoundedMeet m = BOUNDED_MEET.get(name(spec));
    if (m == null) {
      throw new IllegalArgumentException("not a bounded-meet aggregation: " + spec);
    }
    return m;
  }

  /**
   * Whether a head (per column: an aggregation spec, or null for a grouping
   * key) aggregates with a {@linkplain BoundedMeet bounded-meet}
   * aggregation: its only aggregation, in the last column. Each of a group's
   * survivors is then a row.
   */
  public static boolean boundedMeetKind(List<String> specs) {
    return boundedMeetKind(specs, Aggregators::isBoundedMeet);
  }

  /** As {@link #boundedMeetKind(List)}, with {@code isBoundedMeet} telling them by name. */
  static boolean boundedMeetKind(List<String> specs, Predicate<String> isBoundedMeet) {
    return !specs.isEmpty() && specs.get(specs.size() - 1) != null
        && isBoundedMeet.test(name(specs.get(specs.size() - 1)))
        && specs.subList(0, specs.size() - 1).stream().allMatch(s -> s == null);
  }

  /** Whether {@code name} is a meet aggregation. */
  public static boolean isMeet(String name) {
    return MEET.containsKey(name);
  }

  /** The names of the meet aggregations. */
  public static Set<String> meetNames() {
    return MEET.keySet();
  }

  /**
   * Whether the aggregation of a head (per column: the aggregation
   * {@linkplain #spec spec}, or null for a grouping key) does not depend on
   * the order of the values it is fed.
   */
  public static boolean orderBlind(List<String> specs) {
    return specs.stream().allMatch(s -> s == null || ORDER_BLIND.contains(name(s)));
  }

  /**
   * CozoDB's {@code AggrKind::Meet}: a head (per column: an aggregation
   * spec, or null for a grouping key) whose aggregations are all meet ones
   * and come after every grouping key. Such a head's groups merge their
   * values with {@link Meet}; any other head with aggregations uses the
   * normal forms, also inside recursion.
   */
  public static boolean meetKind(List<String> specs) {
    return meetKind(specs, Aggregators::isMeet);
  }

  /** As {@link #meetKind(List)}, with {@code isMeet} telling the meet aggregations by name. */
  static boolean meetKind(List<String> specs, Predicate<String> isMeet) {
    boolean aggregated = false;
    for (String s : specs) {
      if (s == null) {
        if (aggregated) {
          return false;
        }
      } else {
        if (!isMeet.test(name(s))) {
          return false;
        }
        aggregated = true;
      }
    }
    return aggregated;
  }

  /**
   * How an aggregation is named where plans carry it: its name, and with a
   * number argument ({@code collect}'s limit, {@code min_cost_k}'s k),
   * {@code name(n)}.
   */
  public static String spec(String name, Long argument) {
    return argument == null ? name : name + "(" + argument + ")";
  }

  private static String name(String spec) {
    final int paren = spec.indexOf('(');
    return paren < 0 ? spec : spec.substring(0, paren);
  }

  /** A fresh normal aggregation for a {@linkplain #spec spec}. */
  public static Aggregator create(String spec) {
    return factory(spec).get();
  }

  /** The factory of a {@linkplain #spec spec}'s normal aggregations, its argument parsed once. */
  public static Supplier<Aggregator> factory(String spec) {
    final String name = name(spec);
    if (!name.equals(spec)) {
      final int limit = Integer.parseInt(spec.substring(name.length() + 1, spec.length() - 1));
      return () -> new Collect(limit);
    }
    final Supplier<Aggregator> s = NORMAL.get(name);
    if (s == null) {
      throw new IllegalArgumentException("no aggregation " + spec);
    }
    return s;
  }

  /** The meet form of a {@linkplain #spec spec}. */
  public static Meet meet(String spec) {
    final Meet m = MEET.get(name(spec));
    if (m == null) {
      throw new IllegalArgumentException("not a meet aggregation: " + spec);
    }
    return m;
  }

  /** One group's normal aggregation (CozoDB's {@code NormalAggrObj}). */
  public interface Aggregator {
    void add(Object value);

    /** Adds the Int {@code value}: boxed for {@link #add(Object)} where the value is read. */
    default void add(long value) {
      add((Object) value);
    }

    Object result();
  }

  /** A meet aggregation (CozoDB's {@code MeetAggrObj}); stateless. */
  public interface Meet {
    /** The value of a group of no values. */
    Object emptyMeet();

    /**
     * Merges {@code value} into {@code current[i]}, in place; returns
     * whether it changed.
     */
    boolean merge(Object[] current, int i, Object value);
  }

  // failures

  private static ValueException cannot(String name, Object v) {
    return ValueException.uncoded("cannot compute '" + name + "': encountered value "
        + Values.display(v));
  }

  private static ValueException nonNumerical() {
    // CozoDB's max says 'min' too.
    return ValueException.uncoded("'min' applied to non-numerical values");
  }

  /** A number's f64 value (CozoDB's {@code get_float}), or null. */
  private static Double floatOf(Object v) {
    if (v instanceof Long) {
      return (double) (Long) v;
    }
    return v instanceof Double ? (Double) v : null;
  }

  /** A list of bytes as Rust's {@code {:x?}} writes it: {@code [1, ff]}. */
  private static String hex(Bytes b) {
    final StringBuilder s = new StringBuilder("[");
    for (int i = 0; i < b.length(); i++) {
      s.append(i > 0 ? ", " : "").append(Integer.toHexString(b.get(i)));
    }
    return s.append(']').toString();
  }

  private static Bytes combine(String name, Bytes l, Bytes r, IntBinaryOperator op) {
    if (l.length() != r.length()) {
      throw ValueException.uncoded("operands of '" + name + "' must have the same lengths, got "
          + hex(l) + " and " + hex(r));
    }
    final byte[] out = new byte[l.length()];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) op.applyAsInt(l.get(i), r.get(i));
    }
    return Bytes.of(out);
  }

  private static List<Object> sorted(Collection<?> items) {
    final TreeSet<Object> set = new TreeSet<>(Values.ORDER);
    set.addAll(items);
    return Values.listOf(set);
  }

  // normal forms

  private static final class Count implements Aggregator {
    private long count;

    @Override public void add(Object value) {
      count++;
    }

    @Override public void add(long value) {
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

  /** {@code collect(x)}, {@code collect(x, n)}: the values in input order, at most n. */
  private static final class Collect implements Aggregator {
    private final int limit;
    private final List<Object> items = new ArrayList<>();

    Collect(int limit) {
      this.limit = limit;
    }

    @Override public void add(Object value) {
      if (items.size() < limit) {
        items.add(value);
      }
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
      return Values.listOf(seen);
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

  /** sum and product: over floats, in input order, as CozoDB computes them. */
  private static final class Fold implements Aggregator {
    private final String name;
    private final boolean multiply;
    private double acc;

    Fold(String name, double start, boolean multiply) {
      this.name = name;
      this.acc = start;
      this.multiply = multiply;
    }

    @Override public void add(Object value) {
      final Double f = floatOf(value);
      if (f == null) {
        throw cannot(name, value);
      }
      acc = multiply ? acc * f : acc + f;
    }

    @Override public Object result() {
      return acc;
    }
  }

  private static final class Mean implements Aggregator {
    private double sum;
    private long count;

    @Override public void add(Object value) {
      final Double f = floatOf(value);
      if (f == null) {
        throw cannot("mean", value);
      }
      sum += f;
      count++;
    }

    @Override public Object result() {
      return sum / count;
    }
  }

  /** Sample variance ({@code n - 1}), or its square root. */
  private static final class Variance implements Aggregator {
    private final boolean root;
    private double sum;
    private double sumSquares;
    private long count;

    Variance(boolean root) {
      this.root = root;
    }

    @Override public void add(Object value) {
      final Double f = floatOf(value);
      if (f == null) {
        throw cannot(root ? "std_dev" : "variance", value);
      }
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

  /** min and max: nulls skipped; the first other value taken unchecked; then numbers, the first of equals kept. */
  private static final class Extreme implements Aggregator {
    private final boolean min;
    private Object found;

    Extreme(boolean min) {
      this.min = min;
    }

    @Override public void add(Object value) {
      if (value == null) {
        return;
      }
      if (found == null) {
        found = value;
        return;
      }
      final Double a = floatOf(found);
      final Double b = floatOf(value);
      if (a == null || b == null) {
        throw nonNumerical();
      }
      if (min ? a > b : a < b) {
        found = value;
      }
    }

    @Override public Object result() {
      return found;
    }
  }

  private static final class Logic implements Aggregator {
    private final boolean and;
    private boolean acc;

    Logic(boolean and) {
      this.and = and;
      this.acc = and;
    }

    @Override public void add(Object value) {
      if (!(value instanceof Boolean)) {
        throw ValueException.uncoded("cannot compute '" + (and ? "and" : "or") + "' for "
            + Values.display(value));
      }
      acc = and ? acc & (Boolean) value : acc | (Boolean) value;
    }

    @Override public Object result() {
      return acc;
    }
  }

  private static final class Union implements Aggregator {
    private final Set<Object> items = new TreeSet<>(Values.ORDER);

    @Override public void add(Object value) {
      if (!(value instanceof List)) {
        throw ValueException.uncoded("cannot compute 'union' for value " + Values.display(value));
      }
      items.addAll((List<?>) value);
    }

    @Override public Object result() {
      return Values.listOf(items);
    }
  }

  /** The elements common to every list; {@code []} for none. */
  private static final class Intersection implements Aggregator {
    private Set<Object> items;

    @Override public void add(Object value) {
      if (!(value instanceof List)) {
        throw ValueException.uncoded("cannot compute 'intersection' for value "
            + Values.display(value));
      }
      final Set<Object> next = new TreeSet<>(Values.ORDER);
      next.addAll((List<?>) value);
      if (items == null) {
        items = next;
      } else {
        items.retainAll(next);
      }
    }

    @Override public Object result() {
      return items == null ? List.of() : Values.listOf(items);
    }
  }

  /** The first value that is not null (taking null while there is none). */
  private static final class Choice implements Aggregator {
    private Object found;

    @Override public void add(Object value) {
      if (found == null) {
        found = value;
      }
    }

    @Override public Object result() {
      return found;
    }
  }

  /** One of the values at random, each equally likely (reservoir sampling, as CozoDB). */
  private static final class ChoiceRand implements Aggregator {
    private long count;
    private Object found;

    @Override public void add(Object value) {
      count++;
      if (ThreadLocalRandom.current().nextDouble() < 1.0 / count) {
        found = value;
      }
    }

    @Override public Object result() {
      return found;
    }
  }

  /** {@code min_cost([data, cost])}: {@code [data, cost]} of the least cost (the first of equals), the cost a Float. */
  private static final class MinCost implements Aggregator {
    private Object found;
    private double cost = Double.POSITIVE_INFINITY;

    @Override public void add(Object value) {
      if (!(value instanceof List)) {
        throw ValueException.uncoded("cannot compute 'min_cost' on " + Values.display(value));
      }
      final List<?> l = (List<?>) value;
      if (l.size() != 2) {
        throw ValueException.uncoded("'min_cost' requires a list of exactly two items as argument");
      }
      final Double c = floatOf(l.get(1));
      if (c == null) {
        throw ValueException.uncoded("Cost must be numeric");
      }
      if (c < cost) {
        cost = c;
        found = l.get(0);
      }
    }

    @Override public Object result() {
      return Values.list(found, cost);
    }
  }

  /** The shortest list (the first of equals); null for none. */
  private static final class Shortest implements Aggregator {
    private List<?> found;

    @Override public void add(Object value) {
      if (!(value instanceof List)) {
        throw ValueException.uncoded("cannot compute 'shortest' on " + Values.display(value));
      }
      if (found == null || ((List<?>) value).size() < found.size()) {
        found = (List<?>) value;
      }
    }

    @Override public Object result() {
      return found;
    }
  }

  /**
   * {@code latest_by([data, key])}: the data of the greatest key;
   * {@code smallest_by([data, key])}: of the least. Keys compare in
   * {@link Values}' order; the first of equals is kept.
   */
  private static final class By implements Aggregator {
    private final String name;
    private final boolean smallest;
    private Object found;
    private Object key;

    By(String name, boolean smallest) {
      this.name = name;
      this.smallest = smallest;
    }

    @Override public void add(Object value) {
      if (!(value instanceof List)) {
        throw ValueException.uncoded("cannot compute '" + name + "' on " + Values.display(value));
      }
      final List<?> l = (List<?>) value;
      if (l.size() != 2) {
        throw ValueException.uncoded("'" + name
            + "' requires a list of exactly two items as argument");
      }
      final Object k = l.get(1);
      final boolean better = smallest
          ? key == null || Values.compare(k, key) < 0
          : Values.compare(k, key) > 0;
      if (better) {
        key = k;
        found = l.get(0);
      }
    }

    @Override public Object result() {
      return found;
    }
  }

  /** bit_and, bit_or, bit_xor over Bytes of one length; empty Bytes for none. */
  private static final class Bits implements Aggregator {
    private final String name;
    private final IntBinaryOperator op;
    private Bytes acc = Bytes.of(new byte[0]);

    Bits(String name, IntBinaryOperator op) {
      this.name = name;
      this.op = op;
    }

    @Override public void add(Object value) {
      if (!(value instanceof Bytes)) {
        throw ValueException.uncoded("cannot apply '" + name + "' to " + Values.display(value));
      }
      acc = acc.length() == 0 ? (Bytes) value : combine(name, acc, (Bytes) value, op);
    }

    @Override public Object result() {
      return acc;
    }
  }

  // meet forms

  /**
   * How several meets treat null: a null value changes nothing; a value
   * replaces a null current one.
   */
  private static boolean takeFirst(Object[] current, int i, Object value) {
    if (current[i] == null && value != null) {
      current[i] = value;
      return true;
    }
    return false;
  }

  /** min and max: a null never wins; else numbers, the current kept on a tie. */
  private static final class MeetExtreme implements Meet {
    private final boolean min;

    MeetExtreme(boolean min) {
      this.min = min;
    }

    @Override public Object emptyMeet() {
      return null;
    }

    @Override public boolean merge(Object[] current, int i, Object value) {
      if (value == null || current[i] == null) {
        return takeFirst(current, i, value);
      }
      final Double a = floatOf(current[i]);
      final Double b = floatOf(value);
      if (a == null || b == null) {
        throw nonNumerical();
      }
      if (min ? a > b : a < b) {
        current[i] = value;
        return true;
      }
      return false;
    }
  }

  private static final class MeetLogic implements Meet {
    private final boolean and;

    MeetLogic(boolean and) {
      this.and = and;
    }

    @Override public Object emptyMeet() {
      return and;
    }

    @Override public boolean merge(Object[] current, int i, Object value) {
      if (!(current[i] instanceof Boolean) || !(value instanceof Boolean)) {
        throw ValueException.uncoded("cannot compute '" + (and ? "and" : "or") + "' for "
            + Values.display(current[i]) + " and " + Values.display(value));
      }
      final boolean old = (Boolean) current[i];
      final boolean now = and ? old & (Boolean) value : old | (Boolean) value;
      current[i] = now;
      return now != old;
    }
  }

  /** The set of all elements; the current value becomes a Set at the first merge. */
  private static final class MeetUnion implements Meet {
    @Override public Object emptyMeet() {
      return ValueSet.of(List.of());
    }

    @Override public boolean merge(Object[] current, int i, Object value) {
      final Set<Object> set = asSet(current, i);
      if (set == null || !(value instanceof List || value instanceof ValueSet)) {
        throw ValueException.uncoded("cannot compute 'union' for value " + Values.display(value));
      }
      final boolean added = set.addAll(elements(value));
      current[i] = ValueSet.of(set);
      return added;
    }
  }

  /** The set of the elements common to all; null for none yet. */
  private static final class MeetIntersection implements Meet {
    @Override public Object emptyMeet() {
      return null;
    }

    @Override public boolean merge(Object[] current, int i, Object value) {
      if (value == null || current[i] == null) {
        return takeFirst(current, i, value);
      }
      final Set<Object> set = asSet(current, i);
      if (set == null || !(value instanceof List || value instanceof ValueSet)) {
        // CozoDB names 'union' here.
        throw ValueException.uncoded("cannot compute 'union' for value " + Values.display(value));
      }
      final int before = set.size();
      set.retainAll(sorted(elements(value)));
      current[i] = ValueSet.of(set);
      return set.size() != before;
    }
  }

  /** The current List or Set as a sorted set; null for any other value. */
  private static Set<Object> asSet(Object[] current, int i) {
    if (!(current[i] instanceof List || current[i] instanceof ValueSet)) {
      return null;
    }
    final TreeSet<Object> set = new TreeSet<>(Values.ORDER);
    set.addAll(elements(current[i]));
    return set;
  }

  private static List<?> elements(Object listOrSet) {
    return listOrSet instanceof ValueSet ? ((ValueSet) listOrSet).elements() : (List<?>) listOrSet;
  }

  /** The first value that is not null. */
  private static final class MeetChoice implements Meet {
    @Override public Object emptyMeet() {
      return null;
    }

    @Override public boolean merge(Object[] current, int i, Object value) {
      return takeFirst(current, i, value);
    }
  }

  /** The {@code [data, cost]} pair of strictly least cost, kept as given. */
  private static final class MeetMinCost implements Meet {
    @Override public Object emptyMeet() {
      return Values.list(null, Double.POSITIVE_INFINITY);
    }

    @Override public boolean merge(Object[] current, int i, Object value) {
      if (!(current[i] instanceof List) || !(value instanceof List)) {
        throw ValueException.uncoded("cannot compute 'min_cost' on "
            + Values.display(current[i]) + ", " + Values.display(value));
      }
      final List<?> prev = (List<?>) current[i];
      final List<?> l = (List<?>) value;
      if (l.size() != 2 || prev.size() != 2) {
        throw ValueException.uncoded("'min_cost' requires a list of length 2 as argument, got "
            + Values.display(prev) + ", " + Values.display(l));
      }
      final Double cost = floatOf(l.get(1));
      if (cost == null) {
        throw ValueException.uncoded("'min_cost' must have numerical costs");
      }
      final Double prevCost = floatOf(prev.get(1));
      if (prevCost == null) {
        throw ValueException.uncoded("'prev_cost' must have numerical costs");
      }
      if (prevCost <= cost) {
        return false;
      }
      current[i] = value;
      return true;
    }
  }

  /** The strictly shorter list; null never wins. */
  private static final class MeetShortest implements Meet {
    @Override public Object emptyMeet() {
      return null;
    }

    @Override public boolean merge(Object[] current, int i, Object value) {
      if (value == null || current[i] == null) {
        return takeFirst(current, i, value);
      }
      if (!(current[i] instanceof List) || !(value instanceof List)) {
        throw ValueException.uncoded("cannot compute 'shortest' on "
            + Values.display(current[i]) + " and " + Values.display(value));
      }
      if (((List<?>) value).size() < ((List<?>) current[i]).size()) {
        current[i] = value;
        return true;
      }
      return false;
    }
  }

  /** bit_and and bit_or: empty Bytes take the other operand. */
  private static final class MeetBits implements Meet {
    private final String name;
    private final IntBinaryOperator op;

    MeetBits(String name, IntBinaryOperator op) {
      this.name = name;
      this.op = op;
    }

    @Override public Object emptyMeet() {
      return Bytes.of(new byte[0]);
    }

    @Override public boolean merge(Object[] current, int i, Object value) {
      if (!(current[i] instanceof Bytes) || !(value instanceof Bytes)) {
        throw ValueException.uncoded("cannot apply '" + name + "' to ("
            + Values.display(current[i]) + ", " + Values.display(value) + ")");
      }
      final Bytes l = (Bytes) current[i];
      final Bytes r = (Bytes) value;
      if (l.equals(r)) {
        return false;
      }
      final Bytes now = l.length() == 0 ? r : combine(name, l, r, op);
      current[i] = now;
      return !now.equals(l);
    }
  }
}
