package dev.mnestic.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@link GenericJoinRun} against the nested loops over every combination of input rows that
 * agree on their shared variables (the join's definition, bag semantics), on random relations
 * with repeated rows, of Ints only (the extremes included) or of nulls and values of several
 * types, and random ways to bind variables.
 */
class GenericJoinRunTest {
  @Test void equalsNestedLoopsOnRandomJoins() {
    final Random random = new Random(23);
    int nonEmpty = 0;
    for (int trial = 0; trial < 400; trial++) {
      // half the joins over Ints only (their own longs), half over mixed values (a dictionary)
      // (trials 4k: ints fitting in 32 bits, sorted packed)
      final boolean ints = trial % 2 == 0;
      final int width = 1 + random.nextInt(4);
      final int n = 1 + random.nextInt(4);
      final List<String> variables = new ArrayList<>();
      for (int v = 0; v < width; v++) {
        variables.add("v" + v);
      }
      final List<int[]> bindings = new ArrayList<>();
      final List<List<Object[]>> inputs = new ArrayList<>();
      final boolean[] bound = new boolean[width];
      for (int i = 0; i < n; i++) {
        final List<Integer> vs = new ArrayList<>();
        for (int v = 0; v < width; v++) {
          vs.add(v);
        }
        Collections.shuffle(vs, random);
        // the last input binds whatever no other did
        final int arity = 1 + random.nextInt(width);
        final List<Integer> mine = new ArrayList<>(vs.subList(0, arity));
        if (i == n - 1) {
          for (int v = 0; v < width; v++) {
            if (!bound[v] && !mine.contains(v)) {
              mine.add(v);
            }
          }
        }
        // now and again an earlier input's rows again (a relation applied twice), bound to the
        // same variables (not the last input's, which must bind the rest) or to others: its
        // trie may then be the earlier one's
        final int again = i == 0 ? -1 : random.nextInt(i);
        final boolean twice = again >= 0 && random.nextInt(3) == 0
            && bindings.get(again).length == mine.size();
        final int[] binding = twice && i < n - 1 && random.nextBoolean()
            ? bindings.get(again).clone() : mine.stream().mapToInt(Integer::intValue).toArray();
        for (int v : binding) {
          bound[v] = true;
        }
        bindings.add(binding);
        final List<Object[]> rows = new ArrayList<>();
        if (twice) {
          rows.addAll(inputs.get(again));
          inputs.add(rows);
          continue;
        }
        final int size = random.nextInt(25);
        for (int r = 0; r < size; r++) {
          final Object[] row = new Object[mine.size()];
          for (int c = 0; c < row.length; c++) {
            row[c] = !ints ? value(random)
                : INTS[trial % 4 == 0 ? 1 + random.nextInt(5) : random.nextInt(INTS.length)];
          }
          rows.add(row);
          if (random.nextInt(5) == 0) {
            rows.add(row.clone());
          }
        }
        inputs.add(rows);
      }
      final GenericJoinRun.Spec spec = rowsOnly(variables, bindings);
      final List<List<Object>> expected = nestedLoops(inputs, bindings, width);
      final List<List<Object>> actual = sorted(GenericJoinRun.join(inputs, spec, null));
      assertEquals(expected, actual, spec.toString());
      nonEmpty += expected.isEmpty() ? 0 : 1;
    }
    assertTrue(nonEmpty > 100, nonEmpty + " of 400 joins had rows");
  }

  /** Ints, the extremes included. */
  private static final Long[] INTS = {Long.MIN_VALUE, (long) Integer.MIN_VALUE, -1L, 0L, 1L,
      (long) Integer.MAX_VALUE, Long.MAX_VALUE};

  /** A small domain, so that joins meet: Ints, a Float equal to none of them, a String, null. */
  private static Object value(Random random) {
    switch (random.nextInt(8)) {
      case 0:
        return null;
      case 1:
        return 1.0;
      case 2:
        return "x";
      default:
        return (long) random.nextInt(3);
    }
  }

  /** Every combination of one row per input agreeing on each variable, as Java equality says. */
  private static List<List<Object>> nestedLoops(List<List<Object[]>> inputs, List<int[]> bindings,
      int width) {
    final List<Object[]> out = new ArrayList<>();
    loop(0, inputs, bindings, new Object[width], new boolean[width], out);
    return sorted(out);
  }

  private static void loop(int i, List<List<Object[]>> inputs, List<int[]> bindings,
      Object[] binding, boolean[] set, List<Object[]> out) {
    if (i == inputs.size()) {
      out.add(binding.clone());
      return;
    }
    final int[] columns = bindings.get(i);
    rows:
    for (Object[] row : inputs.get(i)) {
      final Object[] b = binding.clone();
      final boolean[] s = set.clone();
      for (int c = 0; c < columns.length; c++) {
        final int v = columns[c];
        if (s[v] && !Objects.equals(b[v], row[c])) {
          continue rows;
        }
        b[v] = row[c];
        s[v] = true;
      }
      loop(i + 1, inputs, bindings, b, s, out);
    }
  }

  private static List<List<Object>> sorted(List<Object[]> rows) {
    final List<List<Object>> lists = new ArrayList<>();
    for (Object[] row : rows) {
      lists.add(Arrays.asList(row));
    }
    lists.sort(Comparator.comparing(Object::toString));
    return lists;
  }

  @Test void triangleOfOneRelation() {
    // e[a, b], e[b, c], e[a, c] over the edges of K4 (smaller node first): its 4 triangles
    final List<Object[]> edges = new ArrayList<>();
    for (long a = 0; a < 4; a++) {
      for (long b = a + 1; b < 4; b++) {
        edges.add(new Object[] {a, b});
      }
    }
    final List<Object[]> rows = GenericJoinRun.join(List.of(edges, edges, edges),
        rowsOnly(List.of("a", "b", "c"),
            List.of(new int[] {0, 1}, new int[] {1, 2}, new int[] {0, 2})), null);
    assertEquals(List.of(List.of(0L, 1L, 2L), List.of(0L, 1L, 3L), List.of(0L, 2L, 3L),
        List.of(1L, 2L, 3L)), sorted(rows));
  }

  @Test void stopsWhenCancelled() {
    final List<Object[]> edges = new ArrayList<>();
    for (long a = 0; a < 200; a++) {
      for (long b = a + 1; b < 200; b++) {
        edges.add(new Object[] {a, b});
      }
    }
    final AtomicBoolean flag = new AtomicBoolean(true);
    assertThrows(RunningStatement.StatementStoppedException.class,
        () -> GenericJoinRun.join(List.of(edges, edges, edges),
        rowsOnly(List.of("a", "b", "c"),
            List.of(new int[] {0, 1}, new int[] {1, 2}, new int[] {0, 2})), flag));
  }

  @Test void refusesAVariableNoInputBinds() {
    assertThrows(IllegalArgumentException.class, () -> rowsOnly(
        List.of("a", "b"), List.<int[]>of(new int[] {0})));
    assertThrows(IllegalArgumentException.class, () -> rowsOnly(
        List.of("a"), List.<int[]>of(new int[] {0, 0})));
  }

  /** A spec whose every input is read as its plan's rows. */
  private static GenericJoinRun.Spec rowsOnly(List<String> variables, List<int[]> bindings) {
    return new GenericJoinRun.Spec(variables, bindings,
        Collections.nCopies(bindings.size(), null));
  }
}
