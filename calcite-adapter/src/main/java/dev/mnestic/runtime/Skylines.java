package dev.mnestic.runtime;

import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Runtime of the skyline operator ({@code dev.mnestic.rel.Skyline}, whose
 * Javadoc states the semantics). The steps:
 *
 * <ol>
 *   <li>Read the input. With the prefilter (no DIFF items, d &ge; 2), an
 *       {@link EliminationFilter} (LESS) drops, as they are read, the rows
 *       that one of the best few rows seen so far dominates, and turns itself
 *       off where it drops few. With DISTINCT, drop each row equal on every
 *       dimension to an earlier one.
 *   <li>Set aside the rows with a NULL in a MIN or MAX dimension: nothing
 *       dominates them and they dominate nothing, so they are kept.
 *   <li>Encode the MIN and MAX values of the other rows as doubles, smaller
 *       better, exactly: numbers a double holds exactly as themselves
 *       (negated for MAX), other values by their rank among the column's
 *       values. Every comparison after this reads a {@code double[]} of
 *       d values per row.
 *   <li>Partition the rows by hashing their DIFF values.
 *   <li>Run the {@link Algorithm} on each partition.
 *   <li>Emit the kept rows in input order.
 * </ol>
 */
public final class Skylines {
  /** The direction of a dimension of a skyline. */
  public enum Direction {
    /** Smaller is better. */
    MIN,
    /** Larger is better. */
    MAX,
    /** Rows are compared only with rows equal on this field. */
    DIFF
  }

  /** How the rows of one partition are reduced to its skyline; chosen by the number d of MIN and MAX dimensions. */
  public enum Algorithm {
    /** d = 0: nothing dominates anything; every row is kept. */
    ALL,
    /** d = 1: the rows holding the partition's best value. O(n). */
    EXTREMES,
    /**
     * d = 2: sort by the first dimension, ties by the second, then one scan
     * keeping the rows better on the second dimension than every row before
     * them (and their duplicates). O(n log n).
     */
    SORT_SCAN,
    /**
     * d &ge; 3: SaLSa (Bartolini, Ciaccia, Patella, "Efficient sort-based
     * skyline evaluation", TODS 2008), a sort-filter skyline: presort by a
     * monotone function (the smallest coordinate after scaling each
     * dimension to [0, 1], then the sum, then the values in order), so no
     * row is dominated by a row after it; keep a window of the rows found
     * to be in the skyline, and test each row against the window only; stop
     * as soon as one window row is strictly better on every dimension than
     * the smallest coordinate of the next row, since it then dominates every
     * row still to come. The window is a {@link SkylineWindow}: k-d trees
     * that skip the window rows that cannot dominate, so a large skyline
     * (anti-correlated data) costs about n log² n, not n times its size.
     */
    SALSA;

    /** The algorithm for d MIN and MAX dimensions. */
    public static Algorithm forDimensions(int d) {
      return d == 0 ? ALL : d == 1 ? EXTREMES : d == 2 ? SORT_SCAN : SALSA;
    }

    /** The name EXPLAIN shows, e.g. {@code sort-scan}. */
    @Override public String toString() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /** Longs up to this magnitude convert to double exactly. */
  private static final long EXACT_LONG = 1L << 53;

  private Skylines() {
  }

  /**
   * Whether the skyline of these dimensions reads its input through an
   * {@link EliminationFilter}: with two or more MIN and MAX dimensions (one
   * is a linear pass anyway) and no DIFF ones (the filter's window would be
   * per partition, and partitions are known only after hashing).
   */
  public static boolean prefilters(int orderedDimensions, int dimensions) {
    return orderedDimensions >= 2 && orderedDimensions == dimensions;
  }

  /**
   * The skyline of {@code input}; {@code fields[i]} has direction
   * {@code dirs[i]}, and {@code a} is the algorithm for their number of MIN and MAX ones.
   * Computed when enumerated.
   */
  public static Enumerable<Object[]> skyline(Enumerable<Object[]> input, int[] fields,
      Direction[] dirs, boolean distinct, Algorithm a, boolean prefilter) {
    return new AbstractEnumerable<Object[]>() {
      @Override public Enumerator<Object[]> enumerator() {
        final EliminationFilter filter = prefilter ? filter(fields, dirs) : null;
        final List<Object[]> rows = new ArrayList<>();
        for (Object[] row : input) {
          if (filter == null || !filter.drops(row)) {
            rows.add(row.clone());
          }
        }
        final boolean[] keep = keep(rows, fields, dirs, distinct, a);
        final List<Object[]> out = new ArrayList<>();
        for (int i = 0; i < keep.length; i++) {
          if (keep[i]) {
            out.add(rows.get(i));
          }
        }
        return Linq4j.enumerator(out);
      }
    };
  }

  private static EliminationFilter filter(int[] fields, Direction[] dirs) {
    if (!prefilters(fieldsOf(fields, dirs, false).length, fields.length)) {
      throw new IllegalArgumentException("no prefilter for " + Arrays.toString(dirs));
    }
    final boolean[] max = new boolean[fields.length];
    for (int i = 0; i < dirs.length; i++) {
      max[i] = dirs[i] == Direction.MAX;
    }
    return new EliminationFilter(fields, max);
  }

  /** Which of {@code rows} are in the skyline. */
  static boolean[] keep(List<Object[]> rows, int[] fields, Direction[] dirs, boolean distinct,
      Algorithm algorithm) {
    final int n = rows.size();
    final boolean[] keep = new boolean[n];
    final int[] ordered = fieldsOf(fields, dirs, false);
    final int[] diff = fieldsOf(fields, dirs, true);
    final boolean[] max = new boolean[ordered.length];
    for (int i = 0, j = 0; i < dirs.length; i++) {
      if (dirs[i] != Direction.DIFF) {
        max[j++] = dirs[i] == Direction.MAX;
      }
    }
    final int d = ordered.length;
    if (Algorithm.forDimensions(d) != algorithm) {
      throw new IllegalArgumentException(algorithm + " is not the algorithm for " + d
          + " dimensions");
    }

    // 1, 2. Candidates: rows not duplicating an earlier one (DISTINCT) and
    // without a NULL in a MIN or MAX field; the others are kept or dropped now.
    final Set<List<Object>> seen = distinct ? new HashSet<>() : null;
    final int[] candidates = new int[n];
    int count = 0;
    for (int r = 0; r < n; r++) {
      final Object[] row = rows.get(r);
      if (seen != null && !seen.add(normalizedValues(row, fields))) {
        continue;
      }
      boolean comparable = true;
      for (int f : ordered) {
        if (row[f] == null) {
          comparable = false;
          break;
        }
      }
      if (comparable) {
        candidates[count++] = r;
      } else {
        keep[r] = true;
      }
    }

    // 3. Keys: d doubles per candidate, smaller better.
    final double[] keys = new double[count * d];
    for (int j = 0; j < d; j++) {
      encode(rows, candidates, count, ordered[j], max[j], keys, j, d);
    }

    // 4. Partitions: members[offsets[p] .. offsets[p + 1]) are partition p's candidates.
    final int[] members = new int[count];
    final int[] offsets = partition(rows, candidates, count, diff, members);

    // 5. Each partition's skyline.
    final boolean[] keepCandidate = new boolean[count];
    for (int p = 0; p + 1 < offsets.length; p++) {
      final int from = offsets[p];
      final int to = offsets[p + 1];
      switch (algorithm) {
      case ALL -> {
        for (int i = from; i < to; i++) {
          keepCandidate[members[i]] = true;
        }
      }
      case EXTREMES -> extremes(members, from, to, keys, keepCandidate);
      case SORT_SCAN -> sortScan(members, from, to, keys, keepCandidate);
      case SALSA -> salsa(members, from, to, keys, d, keepCandidate);
      default -> throw new AssertionError(algorithm);
      }
    }

    // 6. Back to row numbers.
    for (int i = 0; i < count; i++) {
      if (keepCandidate[i]) {
        keep[candidates[i]] = true;
      }
    }
    return keep;
  }

  /** The fields of the DIFF dimensions, or of the MIN and MAX ones, in order. */
  private static int[] fieldsOf(int[] fields, Direction[] dirs, boolean diff) {
    return IntStream.range(0, fields.length)
        .filter(i -> (dirs[i] == Direction.DIFF) == diff)
        .map(i -> fields[i])
        .toArray();
  }

  /** Values under which SQL-equal values are {@code equals}: 1.0 and 1.00, 0.0 and -0.0. */
  private static Object normalize(Object v) {
    if (v instanceof BigDecimal b) {
      return b.signum() == 0 ? BigDecimal.ZERO : b.stripTrailingZeros();
    }
    if (v instanceof Double x) {
      return x + 0.0;
    }
    if (v instanceof Float x) {
      return x + 0.0f;
    }
    return v;
  }

  private static List<Object> normalizedValues(Object[] row, int[] fields) {
    final Object[] values = new Object[fields.length];
    for (int i = 0; i < fields.length; i++) {
      values[i] = normalize(row[fields[i]]);
    }
    return Arrays.asList(values);
  }

  /** Writes field {@code field} of each candidate into {@code keys[i * d + j]}, smaller better. */
  private static void encode(List<Object[]> rows, int[] candidates, int count, int field,
      boolean max, double[] keys, int j, int d) {
    final double sign = max ? -1 : 1;
    boolean exact = true;
    for (int i = 0; i < count && exact; i++) {
      exact = isExactDouble(rows.get(candidates[i])[field]);
    }
    if (exact) {
      for (int i = 0; i < count; i++) {
        keys[i * d + j] = sign * (((Number) rows.get(candidates[i])[field]).doubleValue() + 0.0);
      }
      return;
    }
    // Ranks: sort the candidates by value; equal values get equal ranks.
    final Object[] values = new Object[count];
    final int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      values[i] = normalize(rows.get(candidates[i])[field]);
      order[i] = i;
    }
    IntSort.sort(order, 0, count, (a, b) -> compare(values[a], values[b]));
    int rank = 0;
    for (int i = 0; i < count; i++) {
      if (i > 0 && compare(values[order[i - 1]], values[order[i]]) != 0) {
        rank++;
      }
      keys[order[i] * d + j] = sign * rank;
    }
  }

  static boolean isExactDouble(Object v) {
    if (v instanceof Double x) {
      return !x.isNaN();
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return true;
    }
    if (v instanceof Float x) {
      return !x.isNaN();
    }
    if (v instanceof Long x) {
      return -EXACT_LONG <= x && x <= EXACT_LONG;
    }
    return false;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    return ((Comparable) a).compareTo(b);
  }

  /**
   * Groups the candidates by their DIFF values into {@code members};
   * returns the start of each partition in it, then {@code count}.
   */
  private static int[] partition(List<Object[]> rows, int[] candidates, int count, int[] diff,
      int[] members) {
    if (diff.length == 0) {
      for (int i = 0; i < count; i++) {
        members[i] = i;
      }
      return new int[] {0, count};
    }
    final Map<Object, Integer> ids = new HashMap<>();
    final int[] partitionOf = new int[count];
    for (int i = 0; i < count; i++) {
      final Object[] row = rows.get(candidates[i]);
      final Object key = diff.length == 1 ? normalize(row[diff[0]]) : normalizedValues(row, diff);
      final Integer id = ids.putIfAbsent(key, ids.size());
      partitionOf[i] = id == null ? ids.size() - 1 : id;
    }
    // Counting sort by partition.
    final int[] offsets = new int[ids.size() + 1];
    for (int i = 0; i < count; i++) {
      offsets[partitionOf[i] + 1]++;
    }
    for (int p = 0; p < ids.size(); p++) {
      offsets[p + 1] += offsets[p];
    }
    final int[] next = Arrays.copyOf(offsets, ids.size());
    for (int i = 0; i < count; i++) {
      members[next[partitionOf[i]]++] = i;
    }
    return offsets;
  }

  /** d = 1: keeps the members with the smallest key. */
  private static void extremes(int[] m, int from, int to, double[] keys, boolean[] keep) {
    double best = Double.POSITIVE_INFINITY;
    for (int i = from; i < to; i++) {
      best = Math.min(best, keys[m[i]]);
    }
    for (int i = from; i < to; i++) {
      if (keys[m[i]] == best) {
        keep[m[i]] = true;
      }
    }
  }

  /** d = 2: sort by (x, y), then keep each x-group's smallest-y rows if that y beats every earlier row's. */
  private static void sortScan(int[] m, int from, int to, double[] keys, boolean[] keep) {
    IntSort.sortByKey(m, from, to, a -> keys[2 * a], (a, b) -> {
      final int c = Double.compare(keys[2 * a], keys[2 * b]);
      return c != 0 ? c : Double.compare(keys[2 * a + 1], keys[2 * b + 1]);
    });
    boolean any = false;
    double bestY = 0;
    int i = from;
    while (i < to) {
      final double x = keys[2 * m[i]];
      final double groupY = keys[2 * m[i] + 1];
      final boolean undominated = !any || groupY < bestY;
      for (; i < to && keys[2 * m[i]] == x; i++) {
        if (undominated && keys[2 * m[i] + 1] == groupY) {
          keep[m[i]] = true;
        }
      }
      if (undominated) {
        bestY = groupY;
        any = true;
      }
    }
  }

  /** d &ge; 3: SaLSa; see {@link Algorithm#SALSA}. */
  private static void salsa(int[] m, int from, int to, double[] keys, int d, boolean[] keep) {
    // Scale each dimension to [0, 1] over its finite values; infinities go
    // just outside. Any non-decreasing scaling keeps the presort monotone
    // and the stop rule sound; this one makes coordinates comparable.
    final double[] low = new double[d];
    final double[] range = new double[d];
    for (int j = 0; j < d; j++) {
      double lo = Double.POSITIVE_INFINITY;
      double hi = Double.NEGATIVE_INFINITY;
      for (int i = from; i < to; i++) {
        final double v = keys[m[i] * d + j];
        if (!Double.isInfinite(v)) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
      low[j] = lo;
      range[j] = hi > lo ? hi - lo : 0;
    }
    final int size = to - from;
    final double[] minC = new double[size];
    final double[] maxC = new double[size];
    final double[] sum = new double[size];
    final int[] order = new int[size];
    for (int i = 0; i < size; i++) {
      final int r = m[from + i];
      double mn = Double.POSITIVE_INFINITY;
      double mx = Double.NEGATIVE_INFINITY;
      double s = 0;
      for (int j = 0; j < d; j++) {
        final double c = scaled(keys[r * d + j], low[j], range[j]);
        mn = Math.min(mn, c);
        mx = Math.max(mx, c);
        s += c;
      }
      minC[i] = mn;
      maxC[i] = mx;
      sum[i] = s;
      order[i] = i;
    }
    // Presort: a row dominating another has no larger minC, no larger sum,
    // and comes first in the order of its values, so it sorts first.
    IntSort.sortByKey(order, 0, size, o -> minC[o], (a, b) -> {
      int c = Double.compare(minC[a], minC[b]);
      if (c == 0) {
        c = Double.compare(sum[a], sum[b]);
      }
      for (int j = 0; c == 0 && j < d; j++) {
        c = Double.compare(keys[m[from + a] * d + j], keys[m[from + b] * d + j]);
      }
      return c;
    });
    final SkylineWindow window = new SkylineWindow(d);
    double stop = Double.POSITIVE_INFINITY;
    for (int i = 0; i < size; i++) {
      final int o = order[i];
      if (minC[o] > stop) {
        break;
      }
      final int r = m[from + o];
      if (!window.dominates(keys, r * d)) {
        window.add(keys, r * d);
        keep[r] = true;
        stop = Math.min(stop, maxC[o]);
      }
    }
  }

  /**
   * {@code v} scaled from [low, low + range] to [0, 1] (0 if the range is not positive), an
   * infinity just outside: non-decreasing in {@code v}.
   */
  static double scaled(double v, double low, double range) {
    return v == Double.POSITIVE_INFINITY ? 2
        : v == Double.NEGATIVE_INFINITY ? -1
        : range > 0 ? (v - low) / range : 0;
  }

  /** Whether a[ai..ai+d) dominates b[bi..bi+d): no larger anywhere, smaller somewhere. */
  static boolean dominates(double[] a, int ai, double[] b, int bi, int d) {
    boolean strict = false;
    for (int j = 0; j < d; j++) {
      final double x = a[ai + j];
      final double y = b[bi + j];
      if (x > y) {
        return false;
      }
      if (x < y) {
        strict = true;
      }
    }
    return strict;
  }
}
