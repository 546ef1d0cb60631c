package dev.mnestic.runtime;

import dev.mnestic.store.Session;
import dev.mnestic.store.StoreReads;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
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
 * <p>An input over a stored relation of Int columns ({@link Stored}) is read from the store's
 * packed copy of the table ({@link StoreReads#longs}), no row or boxed value made, and its
 * trie is kept beside that copy ({@link StoreReads.Packed#derived}): a later run over the same
 * committed rows (a script run again) finds it sorted, and builds nothing; a write, DDL, a
 * rollback or another connection's commit moves the table to another copy.
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
   * @param stored per input, the stored relation it reads as packed Ints ({@link Stored}), or
   *     null for an input read as its plan's rows only
   */
  public record Spec(List<String> variables, List<int[]> bindings, List<Stored> stored) {
    public Spec {
      variables = List.copyOf(variables);
      bindings = bindings.stream().map(int[]::clone).toList();
      stored = Collections.unmodifiableList(new ArrayList<>(stored));
      if (stored.size() != bindings.size()) {
        throw new IllegalArgumentException("one stored read or null per input of " + variables);
      }
      for (int i = 0; i < stored.size(); i++) {
        final Stored r = stored.get(i);
        if (r != null && Arrays.stream(r.places()).max().orElse(-1)
            != bindings.get(i).length - 1) {
          throw new IllegalArgumentException("stored read " + r + " does not give input " + i
              + "'s " + bindings.get(i).length + " columns");
        }
      }
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
      final List<String> inputs = new ArrayList<>();
      for (int i = 0; i < bindings.size(); i++) {
        final String bound = Arrays.stream(bindings.get(i)).mapToObj(variables::get).toList()
            .toString();
        inputs.add(stored.get(i) == null ? bound : bound + " packed " + stored.get(i));
      }
      return variables + " from " + inputs;
    }
  }

  /**
   * An input that is a stored relation's rows whose every column is an Int (no codec): read
   * from the table's packed copy ({@link StoreReads#longs}), filtered and cut to the input's
   * columns here, not through its plan (whose rows are read only when a value is NULL, when
   * the store gives no packed copy).
   *
   * @param table the store table
   * @param columns the table's columns read, in the relation's order, each read as {@code how}
   *     says (an integer read)
   * @param places per column read, the input's column it gives (the variable it binds); a
   *     column giving the same place as an earlier one must hold the same value (a variable
   *     repeated in the atom); -1 for a column the input does not give (a wildcard, a constant)
   * @param constants per column read, the Int it must hold, or null for any
   */
  public record Stored(String table, int[] columns, StoreReads.Read[] how, int[] places,
      Long[] constants) {
    public Stored {
      columns = columns.clone();
      how = how.clone();
      places = places.clone();
      constants = constants.clone();
      if (how.length != columns.length || places.length != columns.length
          || constants.length != columns.length) {
        throw new IllegalArgumentException("a read, a place and a constant per column of "
            + table);
      }
    }

    @Override public String toString() {
      final List<String> columns = new ArrayList<>();
      for (int c = 0; c < this.columns.length; c++) {
        columns.add(constants[c] != null ? constants[c].toString()
            : places[c] < 0 ? "_" : "#" + places[c]);
      }
      return table + columns;
    }

    @Override public boolean equals(Object o) {
      return o instanceof Stored r && table.equals(r.table) && Arrays.equals(columns, r.columns)
          && Arrays.equals(how, r.how) && Arrays.equals(places, r.places)
          && Arrays.equals(constants, r.constants);
    }

    @Override public int hashCode() {
      return table.hashCode() * 31 + Arrays.hashCode(places) * 17 + Arrays.hashCode(constants);
    }
  }

  /**
   * The join of {@code inputs} (rows {@code Object[]}) as {@code spec} says: an input
   * {@link Spec#stored} names is read from its table's packed copy, its trie kept with it; its
   * rows in {@code inputs} only when the store has no packed copy of them (a NULL).
   */
  public static Enumerable<Object[]> run(DataContext root, Enumerable<?>[] inputs, Spec spec) {
    final AtomicBoolean flag = DataContext.Variable.CANCEL_FLAG.get(root);
    return new AbstractEnumerable<Object[]>() {
      @Override public Enumerator<Object[]> enumerator() {
        final Trie[] kept = new Trie[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
          final Stored stored = spec.stored().get(i);
          if (stored != null) {
            final StoreReads.Packed packed = StoreReads.longs(Session.of(root.getRootSchema()),
                stored.table(), stored.columns(), stored.how(), flag);
            if (packed != null) {
              final int[] columns = levelColumns(spec.bindings().get(i), stored.places());
              kept[i] = packed.derived(new TrieKey(stored, Arrays.stream(columns).boxed()
                  .toList()), () -> trie(packed, stored, columns, flag));
            }
          }
        }
        return Linq4j.enumerator(new Search(Arrays.asList(inputs), kept, spec, flag).run());
      }
    };
  }

  /** The join's rows: each binding of the variables, once per combination of input rows. */
  static List<Object[]> join(List<? extends Iterable<?>> inputs, Spec spec, AtomicBoolean flag) {
    return new Search(inputs, new Trie[inputs.size()], spec, flag).run();
  }

  /**
   * What a kept trie is known by beside its packed copy: the read's filters and places, and
   * the columns of the copy its levels are, in order.
   */
  private record TrieKey(Stored stored, List<Integer> levels) {
  }

  /**
   * An input's trie: {@code size} rows of longs, sorted lexicographically, held column by
   * column ({@code columns[d][r]}: row r's level-d value, so that a node's values at a level
   * lie side by side), and its first level as offsets where its values are
   * dense: the rows whose first value is {@code firstMin + x} are
   * {@code [first[x], first[x + 1])}; {@code first} is null where they are not (found by the
   * galloping search then). A first level is always the whole trie's, so a value is looked up
   * there in one step, not searched for over all the rows (a triangle's second edge, looked up
   * for every path's middle node). {@code distinct}: no row is there twice; {@code lastMin} and
   * {@code lastMax}: the least and greatest value of the last level. Read only: a kept trie
   * serves every later run.
   */
  record Trie(long[][] columns, int size, int[] first, long firstMin, boolean distinct,
      long lastMin, long lastMax) {
    /** The trie of {@code flat}'s rows of {@code k} longs. */
    static Trie of(long[] flat, int k) {
      final int size = flat.length / k;
      final long[][] columns = new long[k][size];
      if (size == 0) {
        return new Trie(columns, 0, null, 0, true, 0, -1);
      }
      final long[] sorted = sorted(flat, k);
      for (int r = 0; r < size; r++) {
        for (int d = 0; d < k; d++) {
          columns[d][r] = sorted[r * k + d];
        }
      }
      boolean distinct = true;
      final long[] last = columns[k - 1];
      long min = last[0];
      long max = min;
      for (int r = 1; r < size; r++) {
        distinct &= !Arrays.equals(sorted, (r - 1) * k, r * k, sorted, r * k, r * k + k);
        min = Math.min(min, last[r]);
        max = Math.max(max, last[r]);
      }
      return new Trie(columns, size, firstLevel(columns[0], size), sorted[0], distinct, min,
          max);
    }
  }

  /**
   * Per level of an input's trie (its variables in join order), the column of a stored read
   * giving it ({@code places}: per column read, the input's column it gives), the first such.
   */
  private static int[] levelColumns(int[] bindings, int[] places) {
    final int[] levels = bindings.clone();
    Arrays.sort(levels);
    final int[] columns = new int[levels.length];
    for (int d = 0; d < levels.length; d++) {
      int c = 0;
      while (places[c] < 0 || bindings[places[c]] != levels[d]) {
        c++;
      }
      columns[d] = c;
    }
    return columns;
  }

  /**
   * The trie of the rows of {@code packed} that {@code stored}'s constants and repeated
   * places keep, their {@code columns} (in level order) in a row.
   */
  private static Trie trie(StoreReads.Packed packed, Stored stored, int[] columns,
      AtomicBoolean flag) {
    final long[] values = packed.values();
    final int width = packed.width();
    final int rows = packed.rows();
    final int k = columns.length;
    final int[] places = stored.places();
    final Long[] constants = stored.constants();
    // per column read, the column it must equal (an earlier one giving the same place), or -1
    final int[] same = new int[width];
    for (int c = 0; c < width; c++) {
      same[c] = -1;
      for (int e = 0; e < c && same[c] < 0; e++) {
        if (places[c] >= 0 && places[e] == places[c]) {
          same[c] = e;
        }
      }
    }
    long[] flat = new long[rows * k];
    int n = 0;
    rows:
    for (int r = 0; r < rows; r++) {
      if ((r & (CHECK_EVERY - 1)) == 0) {
        RunningStatement.check(flag);
      }
      final int at = r * width;
      for (int c = 0; c < width; c++) {
        if (constants[c] != null && values[at + c] != constants[c]
            || same[c] >= 0 && values[at + c] != values[at + same[c]]) {
          continue rows;
        }
      }
      for (int d = 0; d < k; d++) {
        flat[n++] = values[at + columns[d]];
      }
    }
    if (n < flat.length) {
      flat = Arrays.copyOf(flat, n);
    }
    return Trie.of(flat, k);
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
   * The offsets of the first level of {@code size} rows whose first values are {@code sorted} (see
   * {@link Trie#first}), or null when its values span more than four times the rows (and 1,024).
   */
  private static int[] firstLevel(long[] sorted, int size) {
    final long min = sorted[0];
    final long span = sorted[size - 1] - min + 1;
    if (span <= 0 || span > 4L * size + 1024) {
      return null;
    }
    final int[] offsets = new int[(int) span + 1];
    for (int r = 0; r < size; r++) {
      offsets[(int) (sorted[r] - min) + 1]++;
    }
    for (int x = 0; x < span; x++) {
      offsets[x + 1] += offsets[x];
    }
    return offsets;
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
    /** Per input, its rows' values level by level ({@link Trie#columns}), sorted. */
    private final long[][][] columns;
    /** Per input, whether its trie holds each row once ({@link Trie#distinct}). */
    private final boolean[] distinct;
    /** Per input, its trie's first level as offsets, or null ({@link Trie#first}). */
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
    /**
     * The last variable's values in one input's node as bits, where two inputs bind it and one
     * of them holds each row once and values within a span a bitmap covers ({@link #last}):
     * which of the two ({@link #marked}), the node marked ({@link #markedLo},
     * {@link #markedHi}), the value of bit 0; else null.
     */
    private final long[] marks;
    private final int marked;
    private int markedLo;
    private int markedHi;
    private final long marksMin;
    /** The value of each number, when the longs are numbers in a dictionary; else null. */
    private final Object[] values;
    private final List<Object[]> out = new ArrayList<>();
    private final AtomicBoolean flag;
    private long steps;

    /**
     * The search over {@code inputs}' rows, or where {@code kept[i]} is not null, over that
     * trie of Ints in input i's level order (its rows in {@code inputs} are not read).
     */
    Search(List<? extends Iterable<?>> inputs, Trie[] kept, Spec spec, AtomicBoolean flag) {
      this.flag = flag;
      this.width = spec.variables().size();
      final int n = inputs.size();
      this.levels = new int[n][];
      this.columns = new long[n][][];
      this.distinct = new boolean[n];
      this.level = new int[n][width];
      this.lo = new int[n];
      this.hi = new int[n];
      this.binding = new long[width];
      this.first = new int[n][];
      this.firstMin = new long[n];
      final List<List<Object[]>> read = new ArrayList<>();
      boolean ints = true;
      for (int i = 0; i < n; i++) {
        final List<Object[]> r = new ArrayList<>();
        if (kept[i] == null) {
          for (Object row : inputs.get(i)) {
            step(1);
            r.add((Object[]) row);
            for (Object value : (Object[]) row) {
              ints &= value instanceof Long;
            }
          }
        }
        read.add(r);
      }
      // the dictionary, when some value is not an Int
      final Map<Object, Integer> numbers = ints ? null : new HashMap<>();
      final List<Object> byNumber = ints ? null : new ArrayList<>();
      final List<List<Integer>> by = new ArrayList<>();
      // each input's rows as longs before they are sorted (null for a kept trie's)
      final List<long[]> flats = new ArrayList<>();
      final Trie[] tries = new Trie[n];
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
        if (kept[i] != null && ints) {
          tries[i] = kept[i];
          flats.add(null);
        } else {
          final long[] flat;
          if (kept[i] != null) {
            // a kept trie's Ints, numbered in the run's dictionary
            flat = new long[kept[i].size() * k];
            for (int j = 0; j < flat.length; j++) {
              flat[j] = numbers.computeIfAbsent(kept[i].columns()[j % k][j / k], x -> {
                byNumber.add(x);
                return byNumber.size() - 1;
              });
            }
          } else {
            final List<Object[]> r = read.get(i);
            flat = new long[r.size() * k];
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
          }
          // an input whose trie is an earlier one's (a relation applied again with its
          // variables in the same order: a triangle's three edges) shares its trie, read-only
          int same = 0;
          while (same < i && (levels[same].length != k || flats.get(same) == null
              || !Arrays.equals(flats.get(same), flat))) {
            same++;
          }
          flats.add(flat);
          tries[i] = same < i ? tries[same] : Trie.of(flat, k);
        }
        this.columns[i] = tries[i].columns();
        distinct[i] = tries[i].distinct();
        hi[i] = tries[i].size();
        first[i] = tries[i].first();
        firstMin[i] = tries[i].firstMin();
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
      // the last variable's binder whose node changes least often (that under the earliest
      // variables) marked in bits, when it holds each row once and its values are close
      final int[] two = binders[width - 1];
      int mark = -1;
      if (two.length == 2) {
        mark = before(two[1], width - 1) < before(two[0], width - 1) ? 1 : 0;
        final Trie t = tries[two[mark]];
        final long span = t.lastMax() - t.lastMin() + 1;
        mark = t.distinct() && span > 0 && span <= 64L * t.size() + 4096 ? mark : -1;
      }
      this.marked = mark;
      this.marks = mark < 0 ? null : new long[(int) ((tries[two[mark]].lastMax()
          - tries[two[mark]].lastMin() + 64) >>> 6)];
      this.marksMin = mark < 0 ? 0 : tries[two[mark]].lastMin();
      this.markedLo = this.markedHi = 0;
    }

    /** The variable input {@code i} binds just before {@code v} in its trie, or -1. */
    private int before(int i, int v) {
      final int d = level[i][v];
      return d == 0 ? -1 : levels[i][d - 1];
    }

    /** Counts {@code n} steps of the search, and looks at the stop every {@link #CHECK_EVERY}. */
    private void step(int n) {
      final long before = steps;
      steps += n;
      if (before / CHECK_EVERY != steps / CHECK_EVERY) {
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
      final long[] r = columns[i][d];
      int step = 1;
      int low = from;
      int high = from;
      while (high < to && (r[high] < value || above && r[high] == value)) {
        low = high + 1;
        high += step;
        step <<= 1;
      }
      high = Math.min(high, to);
      while (low < high) {
        final int mid = (low + high) >>> 1;
        if (r[mid] < value || above && r[mid] == value) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }

    /** Binds variable {@code v} and those after it in every way, {@code times} so far. */
    private void extend(int v, long times) {
      if (v == width - 1) {
        last(v, times);
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
      final long[] walked = columns[s][depth[smallest]];
      int r = savedLo[smallest];
      values:
      while (r < savedHi[smallest]) {
        step(1);
        final long value = walked[r];
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
            if (from == savedHi[k] || columns[i][depth[k]][from] != value) {
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

    /**
     * Binds the last variable {@code v} in every way, {@code times} so far: the values every
     * input binding it offers, its trie's last level in each (sorted rows within the node),
     * found by leapfrogging their cursors to the greatest value any of them holds (a step at a
     * time while the values are near, galloping beyond), a value given once per combination
     * of the rows holding it.
     */
    private void last(int v, long times) {
      final int[] inputs = binders[v];
      final int m = inputs.length;
      if (marks != null) {
        final int mi = inputs[marked];
        final int wi = inputs[1 - marked];
        if (hi[wi] - lo[wi] <= 8L * (hi[mi] - lo[mi]) + 64) {
          bits(v, mi, wi, times);
          return;
        }
      }
      final int[] cursor = this.cursor[v];
      final int[] depth = this.depth[v];
      for (int k = 0; k < m; k++) {
        cursor[k] = lo[inputs[k]];
        depth[k] = levels[inputs[k]].length - 1;
      }
      while (true) {
        step(1);
        long value = Long.MIN_VALUE;
        for (int k = 0; k < m; k++) {
          final int i = inputs[k];
          if (cursor[k] == hi[i]) {
            return;
          }
          value = Math.max(value, columns[i][depth[k]][cursor[k]]);
        }
        boolean all = true;
        for (int k = 0; k < m; k++) {
          final int i = inputs[k];
          cursor[k] = advance(i, cursor[k], value, false);
          if (cursor[k] == hi[i]) {
            return;
          }
          all &= columns[i][depth[k]][cursor[k]] == value;
        }
        if (all) {
          long t = times;
          for (int k = 0; k < m; k++) {
            final int end = advance(inputs[k], cursor[k] + 1, value, true);
            t *= end - cursor[k];
            cursor[k] = end;
          }
          binding[v] = value;
          emit(t);
        }
      }
    }

    /**
     * {@link #last} through {@link #marks}: input {@code mi}'s node marked (unless it is the
     * node marked already: under the same earlier values), input {@code wi}'s walked, each
     * value of it whose bit is set given once per row of {@code wi} holding it.
     */
    private void bits(int v, int mi, int wi, long times) {
      final long[] m = columns[mi][levels[mi].length - 1];
      if (lo[mi] != markedLo || hi[mi] != markedHi) {
        for (int r = markedLo; r < markedHi; r++) {
          final long x = m[r] - marksMin;
          marks[(int) (x >>> 6)] &= ~(1L << x);
        }
        markedLo = lo[mi];
        markedHi = hi[mi];
        for (int r = markedLo; r < markedHi; r++) {
          final long x = m[r] - marksMin;
          marks[(int) (x >>> 6)] |= 1L << x;
        }
      }
      final long[] w = columns[wi][levels[wi].length - 1];
      final long span = (long) marks.length << 6;
      final int end = hi[wi];
      step(end - lo[wi]);
      if (distinct[wi]) {
        for (int r = lo[wi]; r < end; r++) {
          final long x = w[r] - marksMin;
          if (x >= 0 && x < span && (marks[(int) (x >>> 6)] & 1L << x) != 0) {
            binding[v] = w[r];
            emit(times);
          }
        }
        return;
      }
      int r = lo[wi];
      while (r < end) {
        final long value = w[r];
        int next = r + 1;
        while (next < end && w[next] == value) {
          next++;
        }
        final long x = value - marksMin;
        if (x >= 0 && x < span && (marks[(int) (x >>> 6)] & 1L << x) != 0) {
          binding[v] = value;
          emit(times * (next - r));
        }
        r = next;
      }
    }

    /**
     * The first row of input i's node from {@code from} whose last value is at least
     * {@code value} ({@code above}: more than it): up to eight rows a step at a time, then by
     * {@link #seek}.
     */
    private int advance(int i, int from, long value, boolean above) {
      final int k = levels[i].length;
      final long[] r = columns[i][k - 1];
      final int to = hi[i];
      final int near = Math.min(to, from + 8);
      int at = from;
      while (at < near && (r[at] < value || above && r[at] == value)) {
        at++;
      }
      return at < near || at == to ? at : seek(i, k - 1, at, to, value, above);
    }

    /** The binding made, given {@code times}. */
    private void emit(long times) {
      final Object[] row = new Object[width];
      for (int u = 0; u < width; u++) {
        row[u] = values == null ? (Object) binding[u] : values[(int) binding[u]];
      }
      for (long t = 0; t < times; t++) {
        out.add(t == 0 ? row : row.clone());
      }
    }
  }
}
