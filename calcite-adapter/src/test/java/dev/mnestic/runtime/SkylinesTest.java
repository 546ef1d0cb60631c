package dev.mnestic.runtime;

import dev.mnestic.runtime.Skylines.Direction;


import org.apache.calcite.linq4j.Linq4j;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Skylines}' algorithms against the definition of dominance
 * ({@link dev.mnestic.rel.Skyline}) applied to every pair of rows.
 */
class SkylinesTest {
  /** The skyline by its definition: rows no other row dominates. O(n²). */
  private static List<Object[]> reference(List<Object[]> rows, int[] fields, Direction[] dirs,
      boolean distinct) {
    final List<Object[]> out = new ArrayList<>();
    for (Object[] r : rows) {
      boolean dominated = false;
      for (Object[] s : rows) {
        dominated |= dominates(s, r, fields, dirs);
      }
      if (!dominated) {
        out.add(r);
      }
    }
    if (!distinct) {
      return out;
    }
    final List<Object[]> unique = new ArrayList<>();
    for (Object[] r : out) {
      if (unique.stream().noneMatch(u -> sameDimensions(u, r, fields))) {
        unique.add(r);
      }
    }
    return unique;
  }

  private static boolean dominates(Object[] s, Object[] r, int[] fields, Direction[] dirs) {
    boolean strict = false;
    for (int i = 0; i < fields.length; i++) {
      final Object a = s[fields[i]];
      final Object b = r[fields[i]];
      if (dirs[i] == Direction.DIFF) {
        if (!sqlEqualOrBothNull(a, b)) {
          return false;
        }
        continue;
      }
      if (a == null || b == null) {
        return false;
      }
      final int c = dirs[i] == Direction.MIN ? compare(a, b) : compare(b, a);
      if (c > 0) {
        return false;
      }
      strict |= c < 0;
    }
    return strict;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    if (a instanceof Double x && b instanceof Double y) {
      // SQL: 0.0 = -0.0.
      return x.doubleValue() == y.doubleValue() ? 0 : Double.compare(x, y);
    }
    return ((Comparable) a).compareTo(b);
  }

  private static boolean sqlEqualOrBothNull(Object a, Object b) {
    return a == null || b == null ? a == b : compare(a, b) == 0;
  }

  private static boolean sameDimensions(Object[] a, Object[] b, int[] fields) {
    for (int f : fields) {
      if (!sqlEqualOrBothNull(a[f], b[f])) {
        return false;
      }
    }
    return true;
  }

  private static List<Object[]> run(List<Object[]> rows, int[] fields, Direction[] dirs,
      boolean distinct) {
    return run(rows, fields, dirs, distinct, prefilters(fields, dirs));
  }

  /** Whether the plan would read these dimensions' input through the elimination filter. */
  private static boolean prefilters(int[] fields, Direction[] dirs) {
    return Skylines.prefilters(orderedCount(dirs), fields.length);
  }

  private static int orderedCount(Direction[] dirs) {
    return (int) Arrays.stream(dirs).filter(x -> x != Direction.DIFF).count();
  }

  /** The skyline as generated code computes it, with or without the elimination filter. */
  private static List<Object[]> run(List<Object[]> rows, int[] fields, Direction[] dirs,
      boolean distinct, boolean prefilter) {
    final List<Object[]> out = new ArrayList<>();
    Skylines.skyline(Linq4j.asEnumerable(rows), fields, dirs, distinct,
        Skylines.Algorithm.forDimensions(orderedCount(dirs)), prefilter)
        .forEach(out::add);
    return out;
  }

  /** Rows as sorted strings; with DISTINCT only the dimensions, since which row of a set of equal ones is kept is unspecified. */
  private static List<String> canonical(List<Object[]> rows, int[] fields, boolean distinct) {
    return rows.stream()
        .map(r -> distinct
            ? Arrays.stream(fields).mapToObj(f -> String.valueOf(r[f])).toList().toString()
            : Arrays.toString(r))
        .sorted()
        .collect(Collectors.toList());
  }

  /** The definition's skyline is the algorithm's, with the elimination filter and without. */
  private static void check(List<Object[]> rows, int[] fields, Direction[] dirs,
      boolean distinct) {
    final List<String> expected =
        canonical(reference(rows, fields, dirs, distinct), fields, distinct);
    for (boolean prefilter : prefilters(fields, dirs) ? new boolean[] {false, true}
        : new boolean[] {false}) {
      assertEquals(expected,
          canonical(run(rows, fields, dirs, distinct, prefilter), fields, distinct),
          () -> "fields " + Arrays.toString(fields) + " " + Arrays.toString(dirs)
              + (distinct ? " DISTINCT" : "") + (prefilter ? " prefiltered" : "") + " over "
              + rows.stream().map(Arrays::toString).collect(Collectors.joining(", ")));
    }
  }

  /**
   * Tables of 20,000 rows, past several of the elimination filter's blocks, in d = 2 to 6:
   * correlated (the filter drops nearly all), independent and anti-correlated (it may turn
   * itself off), with NULLs, duplicates, infinities, and in some a long past 2^53 part-way
   * (the filter turns off, ranks follow): the same skyline with the filter as without.
   */
  @Test void eliminationFilterKeepsTheSkyline() {
    final Random random = new Random(13);
    for (int t = 0; t < 30; t++) {
      final int d = 2 + t % 5;
      final int kind = t / 5 % 3;
      final boolean longs = t % 4 == 3;
      final List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < 20_000; i++) {
        final Object[] row = new Object[d + 1];
        final double base = random.nextDouble();
        for (int c = 0; c < d; c++) {
          final double v = switch (kind) {
            case 0 -> base + 0.05 * random.nextGaussian();
            case 1 -> random.nextDouble();
            default -> (c % 2 == 0 ? base : 1 - base) + 0.05 * random.nextGaussian();
          };
          final double rounded = Math.round(v * 300) / 300.0;
          row[c] = longs ? (Object) Math.round(rounded * 300)
              : random.nextInt(500) == 0 ? (Object) null
              : random.nextInt(2000) == 0 ? (Object) Double.NEGATIVE_INFINITY
              : (Object) rounded;
        }
        if (longs && i == 12_345) {
          row[0] = (1L << 60) + random.nextInt(3);
        }
        row[d] = i;
        rows.add(row);
      }
      final int[] fields = IntStream.range(0, d).toArray();
      final Direction[] dirs = randomMinMax(random, d);
      for (boolean distinct : new boolean[] {false, true}) {
        assertEquals(canonical(run(rows, fields, dirs, distinct, false), fields, distinct),
            canonical(run(rows, fields, dirs, distinct, true), fields, distinct),
            "table " + t + ", d = " + d + (distinct ? ", DISTINCT" : ""));
      }
    }
  }

  /**
   * The filter adapts to its yield: on correlated rows it stays on and drops nearly all; on
   * anti-correlated rows in four dimensions, where the best few dominate little, it turns off.
   */
  @Test void eliminationFilterTurnsOffWhereItDropsLittle() {
    final Random random = new Random(17);
    final int d = 4;
    final int[] fields = {0, 1, 2, 3};
    final boolean[] max = new boolean[d];
    for (boolean anti : new boolean[] {false, true}) {
      final EliminationFilter filter = new EliminationFilter(fields, max);
      int dropped = 0;
      final int n = 5 * EliminationFilter.BLOCK;
      for (int i = 0; i < n; i++) {
        final Object[] row = new Object[d];
        final double[] p = anti ? antiCorrelated(random, d) : null;
        final double base = random.nextDouble();
        for (int c = 0; c < d; c++) {
          row[c] = anti ? p[c] : base + 0.05 * random.nextGaussian();
        }
        if (filter.drops(row)) {
          dropped++;
        }
      }
      if (anti) {
        assertTrue(!filter.on(), "anti-correlated: still on after dropping " + dropped);
      } else {
        assertTrue(filter.on(), "correlated: turned off");
        assertTrue(dropped > 0.95 * n, "correlated: dropped only " + dropped + " of " + n);
      }
    }
  }

  /**
   * Random tables of 0 to 60 rows, d = 0 to 6 MIN/MAX dimensions over few
   * values (ties and duplicates), DIFF dimensions, NULLs, DISTINCT or not.
   */
  @Test void randomTablesMatchTheDefinition() {
    final Random random = new Random(5);
    for (int t = 0; t < 3000; t++) {
      final int columns = 1 + random.nextInt(7);
      final int n = random.nextInt(61);
      final int values = 1 + random.nextInt(6);
      final double nulls = random.nextInt(3) == 0 ? 0.1 : 0;
      final List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        final Object[] row = new Object[columns + 1];
        for (int c = 0; c < columns; c++) {
          row[c] = random.nextDouble() < nulls ? null : random.nextInt(values);
        }
        row[columns] = i;
        rows.add(row);
      }
      final int dims = 1 + random.nextInt(columns);
      final int[] fields = new int[dims];
      final Direction[] dirs = new Direction[dims];
      for (int i = 0; i < dims; i++) {
        fields[i] = random.nextInt(columns);
        dirs[i] = Direction.values()[random.nextInt(random.nextInt(4) == 0 ? 3 : 2)];
      }
      check(rows, fields, dirs, random.nextBoolean());
    }
  }

  /** Larger tables for SaLSa's window and stop rule: d = 3 to 6, correlated or anti-correlated. */
  @Test void largerTablesMatchTheDefinition() {
    final Random random = new Random(7);
    for (int t = 0; t < 60; t++) {
      final int d = 3 + random.nextInt(4);
      final List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        final Object[] row = new Object[d];
        final double base = random.nextDouble();
        for (int c = 0; c < d; c++) {
          final double v = switch (t % 3) {
            case 0 -> random.nextDouble();
            case 1 -> base + 0.1 * random.nextDouble();
            default -> (c % 2 == 0 ? base : 1 - base) + 0.05 * random.nextGaussian();
          };
          row[c] = Math.round(v * 50) / 50.0;
        }
        rows.add(row);
      }
      final int[] fields = IntStream.range(0, d).toArray();
      final Direction[] dirs = randomMinMax(random, d);
      check(rows, fields, dirs, false);
      check(rows, fields, dirs, true);
    }
  }

  /** Anti-correlated tables whose skylines hold hundreds of rows: SaLSa's indexed window. */
  @Test void largeSkylinesMatchTheDefinition() {
    final Random random = new Random(11);
    for (int d = 3; d <= 6; d++) {
      final List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        final Object[] row = new Object[d];
        final double[] p = antiCorrelated(random, d);
        for (int c = 0; c < d; c++) {
          // Odd dimensions are MAX: negated, so the table stays anti-correlated.
          row[c] = (c % 2 == 0 ? 1 : -1) * Math.round(p[c] * 200) / 200.0;
        }
        rows.add(row);
      }
      final int[] fields = new int[d];
      final Direction[] dirs = new Direction[d];
      for (int c = 0; c < d; c++) {
        fields[c] = c;
        dirs[c] = c % 2 == 0 ? Direction.MIN : Direction.MAX;
      }
      final List<Object[]> skyline = run(rows, fields, dirs, false);
      assertTrue(skyline.size() > 200, "only " + skyline.size() + " rows at d = " + d);
      check(rows, fields, dirs, false);
    }
  }

  /**
   * Values a double does not hold exactly are compared by rank: longs past
   * 2^53, decimals, strings; 0.0 equals -0.0; infinities are values.
   */
  @Test void valuesOfEveryKind() {
    final long big = 1L << 60;
    final List<Object[]> rows = List.of(
        new Object[] {big, new BigDecimal("1.0"), "b", 0.0, Double.POSITIVE_INFINITY},
        new Object[] {big + 1, new BigDecimal("1.00"), "b", -0.0, Double.NEGATIVE_INFINITY},
        new Object[] {big + 2, new BigDecimal("0.5"), "a", 1.0, 1.0},
        new Object[] {big, new BigDecimal("1"), "c", -0.0, 2.0});
    for (int d = 1; d <= 5; d++) {
      final int[] fields = new int[d];
      final Direction[] dirs = new Direction[d];
      for (int mask = 0; mask < 1 << d; mask++) {
        for (int c = 0; c < d; c++) {
          fields[c] = c;
          dirs[c] = (mask & 1 << c) != 0 ? Direction.MAX : Direction.MIN;
        }
        check(rows, fields, dirs, false);
        check(rows, fields, dirs, true);
      }
    }
    // 1.0 and 1.00 are one partition, as are 0.0 and -0.0.
    check(rows, new int[] {1, 3, 0}, new Direction[] {Direction.DIFF, Direction.DIFF,
        Direction.MIN}, false);
  }

  /** Cheap and near hotels, per city or over all; a NULL price is incomparable. */
  @Test void hotels() {
    final List<Object[]> rows = List.of(
        new Object[] {"a", "x", 100.0, 2.0},
        new Object[] {"b", "x", 80.0, 3.0},
        new Object[] {"c", "x", 130.0, 3.0},
        new Object[] {"d", "y", 50.0, 9.0},
        new Object[] {"e", "y", null, 1.0},
        new Object[] {"f", "y", 60.0, 9.5},
        new Object[] {"g", "y", 110.0, 2.5});
    assertEquals(List.of("a", "b", "d", "e", "g"), names(run(rows, new int[] {2, 3, 1},
        new Direction[] {Direction.MIN, Direction.MIN, Direction.DIFF}, false)));
    assertEquals(List.of("a", "b", "d", "e"), names(run(rows, new int[] {2, 3},
        new Direction[] {Direction.MIN, Direction.MIN}, false)));
  }

  /**
   * DIFF partitions by hashing: values without an order (lists, plain
   * objects) partition by equality, values SQL calls equal (1.0 and 1.00,
   * 0.0 and -0.0) are one partition, NULL is one partition; and ten
   * thousand partitions of two rows each keep exactly their better rows.
   */
  @Test void diffPartitionsByHashing() {
    final Object unordered = new Object();
    final List<Object[]> rows = List.of(
        new Object[] {"a", List.of(1, "p"), 1.0, 2.0},
        new Object[] {"b", List.of(1, "p"), 2.0, 3.0},
        new Object[] {"c", List.of(1, "q"), 2.0, 3.0},
        new Object[] {"d", unordered, 5.0, 5.0},
        new Object[] {"e", unordered, 4.0, 4.0},
        new Object[] {"f", new Object(), 9.0, 9.0},
        new Object[] {"g", new BigDecimal("1.0"), 3.0, 3.0},
        new Object[] {"h", new BigDecimal("1.00"), 2.0, 2.0},
        new Object[] {"i", 0.0, 3.0, 3.0},
        new Object[] {"j", -0.0, 2.0, 2.0},
        new Object[] {"k", null, 3.0, 3.0},
        new Object[] {"l", null, 2.0, 2.0});
    final int[] fields = {2, 3, 1};
    final Direction[] dirs = {Direction.MIN, Direction.MIN, Direction.DIFF};
    assertEquals(List.of("a", "c", "e", "f", "h", "j", "l"), names(run(rows, fields, dirs, false)));
    final List<Object[]> pairs = new ArrayList<>();
    for (int p = 0; p < 10_000; p++) {
      pairs.add(new Object[] {"keep", List.of(p), (double) (p % 7), 1.0});
      pairs.add(new Object[] {"drop", List.of(p), (double) (p % 7), 2.0});
    }
    assertEquals(Collections.nCopies(10_000, "keep"), names(run(pairs, fields, dirs, false)));
  }

  /** d dimensions, each MIN or MAX at random. */
  /**
   * A point of Börzsönyi's anti-correlated distribution: uniform coordinates moved to a plane
   * x1 + ... + xd = d · plane, plane normal around 0.5, so a point good in one dimension is bad
   * in another.
   */
  private static double[] antiCorrelated(Random random, int d) {
    final double plane = 0.5 + 0.02 * random.nextGaussian();
    final double[] p = new double[d];
    double mean = 0;
    for (int c = 0; c < d; c++) {
      p[c] = random.nextDouble();
      mean += p[c] / d;
    }
    for (int c = 0; c < d; c++) {
      p[c] += plane - mean;
    }
    return p;
  }

  private static Direction[] randomMinMax(Random random, int d) {
    final Direction[] dirs = new Direction[d];
    for (int c = 0; c < d; c++) {
      dirs[c] = random.nextBoolean() ? Direction.MIN : Direction.MAX;
    }
    return dirs;
  }

  private static List<String> names(List<Object[]> rows) {
    return rows.stream().map(r -> (String) r[0]).sorted().toList();
  }
}
