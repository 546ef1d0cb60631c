package dev.mnestic.runtime;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The natural join of several relations over shared variables, one variable at a time (generic
 * join, the hash-based form of Ngo, Ré and Rudra's worst-case optimal join): the runtime of
 * {@code rel.GenericJoin}. Each input is read whole into a trie: its rows as longs sorted by
 * the variables it binds, in the join's variable order; then for each variable in that order,
 * the values every input binding it still offers under the values chosen so far are the
 * intersection of those inputs' trie nodes (ranges of rows), found by walking the smallest
 * node's values and seeking each in the others by galloping search (their cursors only move
 * forward, as in leapfrog triejoin). On a cyclic body such as a triangle ({@code e[a, b],
 * e[b, c], e[a, c]}) no intermediate result is larger than the output's bound, where a
 * pairwise join
 * first makes every path of two edges.
 *
 * <p>Bag semantics, as the pairwise joins it replaces: equal input rows are one leaf's range,
 * and a binding is given once per combination of input rows making it (the product of its
 * leaves' sizes). Values are equal as Java objects ({@link Object#equals}, null equal to
 * null), as the hash join's keys are.
 *
 * <p>Hazard: every input is held whole in memory, and so is the output until it is given.
 */
public final class GenericJoinRun {
  /** Steps of the search between two looks at the statement's stop. */
  private static final int CHECK_EVERY = 4096;

  private GenericJoinRun() {
  }

  /**
   * What the planner hands the runtime (stashed): the output's variables in join order and,
   * per input, the variable each of its columns binds.
   *
   * @param variables the variables' names, the output's columns in the order they are joined
   * @param bindings per input, per column, a variable's place in {@code variables}: distinct
   *     within an input, at least one; every variable bound by some input
   */
  public record Spec(List<String> variables, List<int[]> bindings) {
    public Spec {
      variables = List.copyOf(variables);
      bindings = bindings.stream().map(int[]::clone).toList();
      final boolean[] bound = new boolean[variables.size()];
      for (int[] columns : bindings) {
        if (columns.length == 0) {
          throw new IllegalArgumentException("every input binds a variable of " + variables);
        }
        final boolean[] seen = new boolean[variables.size()];
        for (int v : columns) {
          if (v < 0 || v >= variables.size() || seen[v]) {
            throw new IllegalArgumentException("an input's columns bind distinct variables of "
                + variables + ": " + Arrays.toString(columns));
          }
          seen[v] = bound[v] = true;
        }
      }
      for (int v = 0; v < bound.length; v++) {
        if (!bound[v]) {
          throw new IllegalArgumentException("no input binds " + variables.get(v));
        }
      }
    }

    @Override public String toString() {
      final List<List<String>> inputs = new ArrayList<>();
      for (int[] columns : bindings) {
        inputs.add(Arrays.stream(columns).mapToObj(variables::get).toList());
      }
      return variables + " from " + inputs;
    }
  }

  /** The join of {@code inputs} (rows {@code Object[]}) as {@code spec} says. */
  public static Enumerable<Object[]> run(DataContext root, Enumerable<?>[] inputs, Spec spec) {
    final AtomicBoolean flag = DataContext.Variable.CANCEL_FLAG.get(root);
    return new AbstractEnumerable<Object[]>() {
      @Override public Enumerator<Object[]> enumerator() {
        final List<Iterable<?>> rows = new ArrayList<>(Arrays.asList(inputs));
        return Linq4j.enumerator(join(rows, spec, flag));
      }
    };
  }

  /** The join's rows: each binding of the variables, once per combination of input rows. */
  static List<Object[]> join(List<? extends Iterable<?>> inputs, Spec spec, AtomicBoolean flag) {
    return new Search(inputs, spec, flag).run();
  }

  /**
   * One run: the inputs' tries and the state of the search through them. A trie is its
   * input's rows as longs, sorted by its variables in join order; a node is a range of rows
   * sharing the values bound so far, whose next column is sorted within it. The longs are the
   * values themselves when every value of every input is an Int, else each value's number in
   * a dictionary of the run's values (equal as Java objects).
   */
  private static final class Search {
    private final int width;
    /** Per input, its variables in join order (its trie's levels). */
    private final int[][] levels;
    /** Per input, its rows: {@code levels[i].length} longs a row, sorted. */
    private final long[][] rows;
    /**
     * Per input, its trie's first level as offsets, where its values are dense enough: the rows
     * whose first value is {@code firstMin[i] + x} are {@code [first[i][x], first[i][x + 1])};
     * null where they are not (found by the galloping search then). A first level is always
     * the whole trie's, so a value is looked up there in one step, not searched for over all
     * the rows (a triangle's second edge, looked up for every path's middle node).
     */
    private final int[][] first;
    private final long[] firstMin;
    /** Per input and variable, the variable's level in the input's trie (or -1). */
    private final int[][] level;
    /** Per variable, the inputs binding it. */
    private final int[][] binders;
    /** Per input, its node under the values bound so far: rows {@code [lo, hi)}. */
    private final int[] lo;
    private final int[] hi;
    private final long[] binding;
    /**
     * Per variable, per input binding it: its node before the variable was bound (restored
     * after), its cursor, and the variable's level in its trie.
     */
    private final int[][] savedLo;
    private final int[][] savedHi;
    private final int[][] cursor;
    private final int[][] depth;
    /** The value of each number, when the longs are numbers in a dictionary; else null. */
    private final Object[] values;
    private final List<Object[]> out = new ArrayList<>();
    private final AtomicBoolean flag;
    private long steps;

    Search(List<? extends Iterable<?>> inputs, Spec spec, AtomicBoolean flag) {
      this.flag = flag;
      this.width = spec.variables().size();
      final int n = inputs.size();
      this.levels = new int[n][];
      this.rows = new long[n][];
      this.level = new int[n][width];
      this.lo = new int[n];
      this.hi = new int[n];
      this.binding = new long[width];
      this.first = new int[n][];
      this.firstMin = new long[n];
      final List<List<Object[]>> read = new ArrayList<>();
      boolean ints = true;
      for (Iterable<?> input : inputs) {
        final List<Object[]> r = new ArrayList<>();
        for (Object row : input) {
          step();
          r.add((Object[]) row);
          for (Object value : (Object[]) row) {
            ints &= value instanceof Long;
          }
        }
        read.add(r);
      }
      // the dictionary, when some value is not an Int
      final Map<Object, Integer> numbers = ints ? null : new HashMap<>();
      final List<Object> byNumber = ints ? null : new ArrayList<>();
      final List<List<Integer>> by = new ArrayList<>();
      // each input's rows as longs before they are sorted
      final List<long[]> flats = new ArrayList<>();
      for (int v = 0; v < width; v++) {
        by.add(new ArrayList<>());
      }
      for (int i = 0; i < n; i++) {
        final int[] columns = spec.bindings().get(i);
        final int k = columns.length;
        levels[i] = columns.clone();
        Arrays.sort(levels[i]);
        Arrays.fill(level[i], -1);
        // column of each level
        final int[] column = new int[k];
        for (int d = 0; d < k; d++) {
          by.get(levels[i][d]).add(i);
          level[i][levels[i][d]] = d;
          for (int c = 0; c < k; c++) {
            if (columns[c] == levels[i][d]) {
              column[d] = c;
            }
          }
        }
        final List<Object[]> r = read.get(i);
        final long[] flat = new long[r.size() * k];
        for (int j = 0; j < r.size(); j++) {
          final Object[] row = r.get(j);
          for (int d = 0; d < k; d++) {
            final Object value = row[column[d]];
            flat[j * k + d] = ints ? (Long) value : numbers.computeIfAbsent(value, x -> {
              byNumber.add(x);
              return byNumber.size() - 1;
            });
          }
        }
        // an input whose trie is an earlier one's (a relation applied again with its variables
        // in the same order: a triangle's three edges) shares its sorted rows, read-only
        int same = 0;
        while (same < i
            && (levels[same].length != k || !Arrays.equals(flats.get(same), flat))) {
          same++;
        }
        flats.add(flat);
        rows[i] = same < i ? rows[same] : sorted(flat, k);
        hi[i] = r.size();
        if (same < i) {
          first[i] = first[same];
          firstMin[i] = firstMin[same];
        } else if (r.size() > 0) {
          firstMin[i] = rows[i][0];
          first[i] = firstLevel(rows[i], k, r.size());
        }
      }
      this.values = ints ? null : byNumber.toArray();
      this.binders = new int[width][];
      this.savedLo = new int[width][];
      this.savedHi = new int[width][];
      this.cursor = new int[width][];
      this.depth = new int[width][];
      for (int v = 0; v < width; v++) {
        binders[v] = by.get(v).stream().mapToInt(Integer::intValue).toArray();
        savedLo[v] = new int[binders[v].length];
        savedHi[v] = new int[binders[v].length];
        cursor[v] = new int[binders[v].length];
        depth[v] = new int[binders[v].length];
      }
    }

    /**
     * Rows of {@code k} longs, sorted lexicographically: a row of one long, or of two that fit
     * in ints, as one long in a primitive sort; else row numbers by a comparator.
     */
    private static long[] sorted(long[] flat, int k) {
      final int size = flat.length / k;
      if (k == 1) {
        final long[] out = flat.clone();
        Arrays.sort(out);
        return out;
      }
      boolean small = k == 2;
      for (int j = 0; j < flat.length && small; j++) {
        small = flat[j] == (int) flat[j];
      }
      if (small) {
        // a in the high half (signed), b + 2^31 in the low (unsigned): a long's order is theirs
        final long[] packed = new long[size];
        for (int j = 0; j < size; j++) {
          packed[j] = flat[2 * j] << 32 | flat[2 * j + 1] + 0x80000000L;
        }
        Arrays.sort(packed);
        final long[] out = new long[flat.length];
        for (int j = 0; j < size; j++) {
          out[2 * j] = packed[j] >> 32;
          out[2 * j + 1] = (packed[j] & 0xffffffffL) - 0x80000000L;
        }
        return out;
      }
      final int[] order = new int[size];
      for (int j = 0; j < size; j++) {
        order[j] = j;
      }
      IntSort.sort(order, 0, size, (x, y) -> {
        for (int d = 0; d < k; d++) {
          final int c = Long.compare(flat[x * k + d], flat[y * k + d]);
          if (c != 0) {
            return c;
          }
        }
        return 0;
      });
      final long[] out = new long[flat.length];
      for (int j = 0; j < size; j++) {
        System.arraycopy(flat, order[j] * k, out, j * k, k);
      }
      return out;
    }

    /**
     * The offsets of the first level of {@code size} sorted rows of {@code k} longs (see
     * {@link #first}), or null when its values span more than four times the rows (and 1,024).
     */
    private static int[] firstLevel(long[] sorted, int k, int size) {
      final long min = sorted[0];
      final long span = sorted[(size - 1) * k] - min + 1;
      if (span <= 0 || span > 4L * size + 1024) {
        return null;
      }
      final int[] offsets = new int[(int) span + 1];
      for (int r = 0; r < size; r++) {
        offsets[(int) (sorted[r * k] - min) + 1]++;
      }
      for (int x = 0; x < span; x++) {
        offsets[x + 1] += offsets[x];
      }
      return offsets;
    }

    private void step() {
      if (++steps % CHECK_EVERY == 0) {
        RunningStatement.check(flag);
      }
    }

    List<Object[]> run() {
      extend(0, 1);
      return out;
    }

    /**
     * The first row of input i in {@code [from, to)} whose level-d value is at least
     * {@code value} ({@code above}: more than it), by galloping search: the rows' level-d
     * values are sorted there.
     */
    private int seek(int i, int d, int from, int to, long value, boolean above) {
      final long[] r = rows[i];
      final int k = levels[i].length;
      int step = 1;
      int low = from;
      int high = from;
      while (high < to && (r[high * k + d] < value || above && r[high * k + d] == value)) {
        low = high + 1;
        high += step;
        step <<= 1;
      }
      high = Math.min(high, to);
      while (low < high) {
        final int mid = (low + high) >>> 1;
        if (r[mid * k + d] < value || above && r[mid * k + d] == value) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }

    /** Binds variable {@code v} and those after it in every way, {@code times} so far. */
    private void extend(int v, long times) {
      if (v == width) {
        final Object[] row = new Object[width];
        for (int u = 0; u < width; u++) {
          row[u] = values == null ? (Object) binding[u] : values[(int) binding[u]];
        }
        for (long t = 0; t < times; t++) {
          out.add(t == 0 ? row : row.clone());
        }
        return;
      }
      final int[] inputs = binders[v];
      final int m = inputs.length;
      // walk the smallest node's values, seek each in the others (their cursors only advance)
      int smallest = 0;
      for (int k = 1; k < m; k++) {
        if (hi[inputs[k]] - lo[inputs[k]] < hi[inputs[smallest]] - lo[inputs[smallest]]) {
          smallest = k;
        }
      }
      // this variable's own state, made once a search (a call per value bound before it)
      final int[] savedLo = this.savedLo[v];
      final int[] savedHi = this.savedHi[v];
      final int[] cursor = this.cursor[v];
      final int[] depth = this.depth[v];
      for (int k = 0; k < m; k++) {
        savedLo[k] = lo[inputs[k]];
        savedHi[k] = hi[inputs[k]];
        cursor[k] = savedLo[k];
        depth[k] = level[inputs[k]][v];
      }
      final int s = inputs[smallest];
      final long[] walked = rows[s];
      final int ks = levels[s].length;
      int r = savedLo[smallest];
      values:
      while (r < savedHi[smallest]) {
        step();
        final long value = walked[r * ks + depth[smallest]];
        final int end = seek(s, depth[smallest], r + 1, savedHi[smallest], value, true);
        long t = times;
        for (int k = 0; k < m; k++) {
          final int i = inputs[k];
          int from = r;
          int to = end;
          if (k != smallest && depth[k] == 0 && first[i] != null) {
            // the first level: looked up
            final long x = value - firstMin[i];
            if (x < 0 || x >= first[i].length - 1 || first[i][(int) x] == first[i][(int) x + 1]) {
              r = end;
              continue values;
            }
            from = first[i][(int) x];
            to = first[i][(int) x + 1];
          } else if (k != smallest) {
            from = seek(i, depth[k], cursor[k], savedHi[k], value, false);
            cursor[k] = from;
            if (from == savedHi[k] || rows[i][from * levels[i].length + depth[k]] != value) {
              r = end;
              continue values;
            }
            to = seek(i, depth[k], from + 1, savedHi[k], value, true);
            cursor[k] = to;
          }
          lo[i] = from;
          hi[i] = to;
          if (depth[k] == levels[i].length - 1) {
            t *= to - from;
          }
        }
        binding[v] = value;
        extend(v + 1, t);
        r = end;
      }
      for (int k = 0; k < m; k++) {
        lo[inputs[k]] = savedLo[k];
        hi[inputs[k]] = savedHi[k];
      }
    }
  }
}
