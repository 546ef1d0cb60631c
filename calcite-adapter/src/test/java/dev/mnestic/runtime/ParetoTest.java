package dev.mnestic.runtime;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link Pareto}'s frontier against the definition, on random groups. */
class ParetoTest {
  private static List<List<Object>> frontier(boolean min, List<List<Object>> points) {
    final Pareto.Frontier f = min ? new Pareto.Min().init() : new Pareto.Max().init();
    for (List<Object> p : points) {
      if (min) {
        new Pareto.Min().add(f, p);
      } else {
        new Pareto.Max().add(f, p);
      }
    }
    return min ? new Pareto.Min().result(f) : new Pareto.Max().result(f);
  }

  /** The distinct points no other point dominates, in lexicographic order (null if none). O(n²). */
  private static List<List<Object>> reference(boolean min, List<List<Object>> points) {
    final List<List<Object>> out = new ArrayList<>();
    for (List<Object> p : points) {
      boolean dominated = false;
      for (List<Object> q : points) {
        boolean noWorse = true;
        boolean better = false;
        for (int i = 0; i < p.size(); i++) {
          final int c = Long.compare(((Number) q.get(i)).longValue(),
              ((Number) p.get(i)).longValue()) * (min ? 1 : -1);
          noWorse &= c <= 0;
          better |= c < 0;
        }
        dominated |= noWorse && better;
      }
      if (!dominated && !out.contains(p)) {
        out.add(p);
      }
    }
    out.sort((a, b) -> {
      for (int i = 0; i < a.size(); i++) {
        final int c = Long.compare(((Number) a.get(i)).longValue(), ((Number) b.get(i)).longValue());
        if (c != 0) {
          return c;
        }
      }
      return 0;
    });
    // no point at all: NULL, as SQL's aggregates of no value
    return out.isEmpty() ? null : out;
  }

  @Test void randomGroupsMatchTheDefinitionInAnyOrder() {
    final Random random = new Random(3);
    for (int t = 0; t < 2000; t++) {
      final int d = 1 + random.nextInt(5);
      final int values = 2 + random.nextInt(8);
      final List<List<Object>> points = new ArrayList<>();
      for (int i = random.nextInt(40); i > 0; i--) {
        final List<Object> p = new ArrayList<>();
        for (int j = 0; j < d; j++) {
          p.add(random.nextInt(values));
        }
        points.add(p);
      }
      final boolean min = random.nextBoolean();
      final List<List<Object>> expected = reference(min, points);
      assertEquals(expected, frontier(min, points), "over " + points);
      Collections.shuffle(points, random);
      assertEquals(expected, frontier(min, points), "shuffled");
    }
  }

  /** Numbers compare by value whatever their class: 1, 1.0 and 1.00 are one point. */
  @Test void numbersByValue() {
    final List<List<Object>> f = frontier(true, List.of(
        Arrays.asList(1, new BigDecimal("2.50")),
        Arrays.asList(1.0, new BigDecimal("2.5")),
        Arrays.asList(0.5, new BigDecimal("3")),
        Arrays.asList(2L, new BigDecimal("2.4"))));
    assertEquals(3, f.size(), f.toString());
    assertEquals(0.5, f.get(0).get(0));
  }

  /** A point with a NULL component is skipped, as SQL's aggregates skip NULLs. */
  @Test void pointsWithANullAreSkipped() {
    assertEquals(List.of(List.of(2, 3)), frontier(false, List.of(
        Arrays.asList(1, null), List.of(2, 3), Arrays.asList(null, 9), List.of(1, 1))));
    assertEquals(List.of(List.of(1, 1)), frontier(true, List.of(
        Arrays.asList(0, null), List.of(2, 3), List.of(1, 1))));
    assertNull(frontier(true, List.of(Arrays.asList(1, null), Arrays.asList(null, null))));
    // Skipped before the length check: a NULL-holding point of another length is no error.
    assertEquals(List.of(List.of(5)), frontier(true, List.of(Arrays.asList(1, null), List.of(5))));
  }

  @Test void malformedPointsAreErrors() {
    final IllegalArgumentException arity = assertThrows(IllegalArgumentException.class,
        () -> frontier(false, List.of(List.of(1, 2), List.of(1))));
    assertEquals("PARETO_MAX: points of one group must have the same number of components;"
        + " got [1, 2] and [1]", arity.getMessage());
    assertThrows(IllegalArgumentException.class, () -> frontier(true, List.of(List.of())));
  }
}
