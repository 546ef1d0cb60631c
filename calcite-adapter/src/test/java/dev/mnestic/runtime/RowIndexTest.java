package dev.mnestic.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link RowIndex}'s groups against a map from each value to the rows holding it, in the
 * list's order: rows in any order, rows already grouped by the column (sorted, as a stored
 * relation read in its key's order), and a list that grows between catch-ups.
 */
class RowIndexTest {
  /** Each value of column {@code column} of {@code rows} to its rows, in order. */
  private static Map<Long, List<List<Long>>> groups(List<long[]> rows, int column) {
    final Map<Long, List<List<Long>>> groups = new LinkedHashMap<>();
    for (long[] row : rows) {
      groups.computeIfAbsent(row[column], k -> new ArrayList<>())
          .add(Arrays.stream(row).boxed().toList());
    }
    return groups;
  }

  private static List<long[]> rows(Random random, int arity, boolean sorted) {
    final List<long[]> rows = new ArrayList<>();
    final int values = 1 + random.nextInt(40);
    for (int k = random.nextInt(300); k > 0; k--) {
      final long[] row = new long[arity];
      for (int c = 0; c < arity; c++) {
        row[c] = random.nextInt(values) * (random.nextBoolean() ? 1L : -(1L << 40));
      }
      rows.add(row);
    }
    if (sorted) {
      rows.sort(Comparator.comparingLong((long[] r) -> r[0]));
    }
    return rows;
  }

  private static RowList list(List<long[]> rows, int arity) {
    final long[] packed = new long[rows.size() * arity];
    for (int r = 0; r < rows.size(); r++) {
      System.arraycopy(rows.get(r), 0, packed, r * arity, arity);
    }
    return RowList.packed(packed, arity);
  }

  private static List<List<Long>> group(RowIndex.Grouped index, long key, int arity) {
    final List<List<Long>> rows = new ArrayList<>();
    final int g = index.group(key);
    if (g >= 0) {
      for (int r = index.start(g); r < index.end(g); r++) {
        rows.add(Arrays.stream(index.values, r * arity, (r + 1) * arity).boxed().toList());
      }
    }
    return rows;
  }

  /**
   * Values close together (looked up in an array over their range) from a random, sometimes
   * negative start, with gaps: every value in and just past the range against the map.
   */
  @Test void denseValuesAgreeWithAMap() {
    final Random random = new Random(43);
    for (int trial = 0; trial < 200; trial++) {
      final long start = random.nextInt(3) == 0 ? Long.MIN_VALUE + 3 + random.nextInt(5)
          : random.nextInt(2000) - 1000;
      final int span = 1 + random.nextInt(trial % 2 == 0 ? 50 : 5000);
      final List<long[]> rows = new ArrayList<>();
      for (int k = random.nextInt(400); k > 0; k--) {
        rows.add(new long[] {start + random.nextInt(span), random.nextInt(span)});
      }
      final RowIndex.Grouped index = new RowIndex.Grouped(list(rows, 2), 0);
      final Map<Long, List<List<Long>>> expected = groups(rows, 0);
      for (long v = start - 3; v < start + span + 3; v++) {
        assertEquals(expected.getOrDefault(v, List.of()), group(index, v, 2), "trial " + trial);
      }
      assertEquals(List.of(), group(index, start ^ Long.MIN_VALUE, 2));
    }
  }

  @Test void groupedAgreesWithAMap() {
    final Random random = new Random(31);
    for (int trial = 0; trial < 300; trial++) {
      final int arity = 1 + random.nextInt(3);
      final List<long[]> rows = rows(random, arity, random.nextBoolean());
      final int column = random.nextInt(arity);
      final RowIndex.Grouped index = new RowIndex.Grouped(list(rows, arity), column);
      final Map<Long, List<List<Long>>> expected = groups(rows, column);
      assertEquals(expected.size(), index.groups, "trial " + trial);
      for (Map.Entry<Long, List<List<Long>>> e : expected.entrySet()) {
        assertEquals(e.getValue(), group(index, e.getKey(), arity), "trial " + trial);
      }
      for (long absent : new long[] {1L << 50, -1, 41}) {
        assertEquals(expected.getOrDefault(absent, List.of()), group(index, absent, arity));
      }
    }
  }

  @Test void growingAgreesWithAMap() {
    final Random random = new Random(37);
    for (int trial = 0; trial < 100; trial++) {
      final int arity = 1 + random.nextInt(3);
      final int column = random.nextInt(arity);
      final RowList list = new RowList();
      final RowIndex.Growing index = new RowIndex.Growing(list, column);
      final List<long[]> all = new ArrayList<>();
      for (int round = 0; round < 4; round++) {
        for (long[] row : rows(random, arity, random.nextBoolean())) {
          all.add(row);
          list.add(Arrays.stream(row).boxed().toArray());
        }
        index.catchUp();
        for (Map.Entry<Long, List<List<Long>>> e : groups(all, column).entrySet()) {
          final List<List<Long>> got = new ArrayList<>();
          final int g = index.group(e.getKey());
          for (int r = index.first(g); r >= 0; r = index.next[r]) {
            got.add(Arrays.stream(index.values(), r * arity, (r + 1) * arity).boxed().toList());
          }
          assertEquals(e.getValue(), got, "trial " + trial + ", round " + round);
        }
      }
    }
  }
}
