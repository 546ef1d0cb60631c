package dev.mnestic.runtime;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link RowSet} against {@code HashSet} of lists, on rows with many repeats and nulls. */
class RowSetTest {
  @Test void agreesWithAHashSetOfLists() {
    final Random random = new Random(7);
    final RowSet rows = new RowSet();
    final Set<List<Object>> reference = new HashSet<>();
    for (int k = 0; k < 200_000; k++) {
      final Object[] row = {(long) random.nextInt(300),
          random.nextInt(5) == 0 ? null : "s" + random.nextInt(40),
          random.nextBoolean() ? 1.5 : (Object) (long) random.nextInt(3)};
      assertEquals(reference.add(Arrays.asList(row.clone())), rows.add(row), Arrays.toString(row));
    }
    assertEquals(reference.size(), rows.size());
  }

  /** Rows of Int pairs take the packed path, including 0, negatives and values past 32 bits. */
  @Test void packedPairsAndSingles() {
    final Random random = new Random(11);
    final RowSet pairs = new RowSet();
    final RowSet singles = new RowSet();
    final Set<List<Object>> reference = new HashSet<>();
    final Set<Object> singleReference = new HashSet<>();
    final long[] values = {0, 1, -1, 7, Integer.MAX_VALUE, Integer.MIN_VALUE, 1L << 32, -(1L << 40)};
    for (int k = 0; k < 100_000; k++) {
      final Object a = random.nextInt(4) == 0 ? values[random.nextInt(values.length)] : (long) random.nextInt(500) - 250;
      final Object b = random.nextInt(9) == 0 ? (Object) 2.0 : (Object) values[random.nextInt(values.length)];
      assertEquals(reference.add(List.of(a, b)), pairs.add(new Object[] {a, b}), a + ", " + b);
      assertEquals(singleReference.add(a), singles.add(new Object[] {a}), String.valueOf(a));
    }
    assertEquals(reference.size(), pairs.size());
    assertEquals(singleReference.size(), singles.size());
  }

  /**
   * A group's second values that turn dense, widen up and down, then turn sparse again (and
   * dense again), against a {@code HashSet}: runs of neighbours from a moving, sometimes
   * negative start, with far values (the ends of the int range) mixed in at times.
   */
  @Test void denseGroupsWidenAndGoBackToHashing() {
    final Random random = new Random(19);
    for (int trial = 0; trial < 200; trial++) {
      final RowSet pairs = new RowSet();
      final Set<List<Long>> reference = new HashSet<>();
      final long start = random.nextInt(3) == 0 ? -random.nextInt(5000) : random.nextInt(100_000);
      final int groups = 1 + random.nextInt(4);
      final int adds = random.nextInt(6000);
      final int farEvery = random.nextBoolean() ? 0 : 1 + random.nextInt(3000);
      for (int k = 0; k < adds; k++) {
        final long a = start + random.nextInt(groups);
        final long b = farEvery > 0 && random.nextInt(farEvery) == 0
            ? (random.nextBoolean() ? Integer.MIN_VALUE + random.nextInt(3)
                : Integer.MAX_VALUE - random.nextInt(3))
            : random.nextInt(4) == 0 ? start - k / 2 : start + random.nextInt(1 + 2 * k);
        assertEquals(reference.add(List.of(a, b)), pairs.add(a, b), a + ", " + b);
      }
      assertEquals(reference.size(), pairs.size());
    }
  }

  /** A chain's groups: each round adds the next node to every group, one bit each. */
  @Test void chainGroupsGrowOneWay() {
    final int n = 700;
    final RowSet pairs = new RowSet();
    for (int round = 1; round < n; round++) {
      for (int a = 0; a + round < n; a++) {
        assertTrue(pairs.add(a, a + round));
        assertFalse(pairs.add(new Object[] {(long) a, (long) a + round}));
      }
    }
    assertEquals((long) n * (n - 1) / 2, pairs.size());
  }
}
