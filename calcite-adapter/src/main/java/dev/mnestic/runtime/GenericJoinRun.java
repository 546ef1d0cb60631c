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
 * {@code rel.GenericJoin}. Each input is read whole into a trie of nested hash maps, one level
 * per variable it binds, in the join's variable order; then for each variable in that order,
 * the values every input binding it still offers under the values chosen so far are the
 * intersection of those inputs' trie nodes, found by walking the smallest node and looking its
 * values up in the others. On a cyclic body such as a triangle ({@code e[a, b], e[b, c],
 * e[a, c]}) no intermediate result is larger than the output's bound, where a pairwise join
 * first makes every path of two edges.
 *
 * <p>Bag semantics, as the pairwise joins it replaces: an input row is counted at its trie's
 * leaf, and a binding is given once per combination of input rows making it (the product of
 * its leaves' counts). Values are equal as Java objects ({@link Object#equals}, null equal to
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

  /** One run: the inputs' tries and the state of the search through them. */
  private static final class Search {
    private final int width;
    /** Per input, its variables in join order (its trie's levels). */
    private final int[][] levels;
    /** Per variable, the inputs binding it. */
    private final int[][] binders;
    /** Per input, its trie node under the values bound so far: a map, or an int[1] count. */
    private final Object[] at;
    private final Object[] binding;
    private final List<Object[]> out = new ArrayList<>();
    private final AtomicBoolean flag;
    private long steps;

    Search(List<? extends Iterable<?>> inputs, Spec spec, AtomicBoolean flag) {
      this.flag = flag;
      this.width = spec.variables().size();
      final int n = inputs.size();
      this.levels = new int[n][];
      this.at = new Object[n];
      this.binding = new Object[width];
      final List<List<Integer>> by = new ArrayList<>();
      for (int v = 0; v < width; v++) {
        by.add(new ArrayList<>());
      }
      for (int i = 0; i < n; i++) {
        final int[] columns = spec.bindings().get(i);
        levels[i] = columns.clone();
        Arrays.sort(levels[i]);
        for (int v : levels[i]) {
          by.get(v).add(i);
        }
        at[i] = trie(inputs.get(i), columns, levels[i]);
      }
      this.binders = new int[width][];
      for (int v = 0; v < width; v++) {
        binders[v] = by.get(v).stream().mapToInt(Integer::intValue).toArray();
      }
    }

    /**
     * {@code rows} as a trie: one level of maps per variable of {@code levels}, the value at
     * the last level the number of rows with those values.
     */
    private Map<Object, Object> trie(Iterable<?> rows, int[] columns, int[] levels) {
      // column of each level
      final int[] column = new int[levels.length];
      for (int k = 0; k < levels.length; k++) {
        for (int c = 0; c < columns.length; c++) {
          if (columns[c] == levels[k]) {
            column[k] = c;
          }
        }
      }
      final Map<Object, Object> root = new HashMap<>();
      for (Object r : rows) {
        final Object[] row = (Object[]) r;
        step();
        Map<Object, Object> node = root;
        for (int k = 0; k < column.length - 1; k++) {
          @SuppressWarnings("unchecked")
          final Map<Object, Object> child =
              (Map<Object, Object>) node.computeIfAbsent(row[column[k]], x -> new HashMap<>());
          node = child;
        }
        final int[] count = (int[]) node.computeIfAbsent(row[column[column.length - 1]],
            x -> new int[1]);
        count[0]++;
      }
      return root;
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

    /** Binds variable {@code v} and those after it in every way, {@code times} so far. */
    private void extend(int v, long times) {
      if (v == width) {
        for (long t = 0; t < times; t++) {
          out.add(binding.clone());
        }
        return;
      }
      final int[] inputs = binders[v];
      // walk the smallest node, look its values up in the others
      int smallest = inputs[0];
      for (int i : inputs) {
        if (size(at[i]) < size(at[smallest])) {
          smallest = i;
        }
      }
      @SuppressWarnings("unchecked")
      final Map<Object, Object> walked = (Map<Object, Object>) at[smallest];
      final Object[] saved = new Object[inputs.length];
      for (int k = 0; k < inputs.length; k++) {
        saved[k] = at[inputs[k]];
      }
      values:
      for (Map.Entry<Object, Object> e : walked.entrySet()) {
        step();
        final Object value = e.getKey();
        long t = times;
        for (int k = 0; k < inputs.length; k++) {
          final int i = inputs[k];
          @SuppressWarnings("unchecked")
          final Object child = i == smallest ? e.getValue()
              : ((Map<Object, Object>) saved[k]).get(value);
          if (child == null) {
            continue values;
          }
          if (child instanceof int[] count) {
            t *= count[0];
          }
          at[i] = child;
        }
        binding[v] = value;
        extend(v + 1, t);
      }
      for (int k = 0; k < inputs.length; k++) {
        at[inputs[k]] = saved[k];
      }
    }

    private static int size(Object node) {
      return ((Map<?, ?>) node).size();
    }
  }
}
