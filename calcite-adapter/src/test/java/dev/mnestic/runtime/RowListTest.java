package dev.mnestic.runtime;

import org.apache.calcite.linq4j.Enumerator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link RowList} against an {@code ArrayList} of the same rows, packed and not. */
class RowListTest {
  /** Rows of Longs of one arity, then now and again a row that is not: always the same rows. */
  @Test void agreesWithAnArrayList() {
    final Random random = new Random(5);
    for (int arity = 0; arity <= 3; arity++) {
      final RowList rows = new RowList();
      final List<Object[]> reference = new ArrayList<>();
      for (int k = 0; k < 20_000; k++) {
        if (random.nextInt(3000) == 0) {
          rows.clear();
          reference.clear();
        }
        final Object[] row = new Object[arity];
        for (int c = 0; c < arity; c++) {
          row[c] = random.nextLong() >> random.nextInt(64);
        }
        if (arity > 0 && random.nextInt(5000) == 0) {
          // A row that is not of Longs (a Double, a null, or another arity) unpacks the list.
          row[0] = random.nextBoolean() ? 2.5 : null;
        }
        assertEquals(reference.add(row), rows.add(row.clone()));
        assertRows(reference, rows);
      }
      assertThrows(IndexOutOfBoundsException.class, () -> rows.get(rows.size()));
    }
  }

  @Test void otherArityUnpacks() {
    final RowList rows = new RowList();
    rows.add(new Object[] {1L, 2L});
    rows.add(new Object[] {3L});
    rows.add(new Object[] {4L, 5L});
    assertRows(List.of(new Object[] {1L, 2L}, new Object[] {3L}, new Object[] {4L, 5L}), rows);
  }

  /** addAll of another list: packed into packed by one copy, any other way row by row. */
  @Test void addAllOfEveryKind() {
    final Random random = new Random(9);
    for (int k = 0; k < 200; k++) {
      final RowList rows = new RowList();
      final List<Object[]> reference = new ArrayList<>();
      for (int part = 0; part < 4; part++) {
        final RowList more = new RowList();
        final int arity = 1 + random.nextInt(2);
        final boolean mixed = random.nextInt(4) == 0;
        for (int i = random.nextInt(40); i > 0; i--) {
          final Object[] row = new Object[arity];
          for (int c = 0; c < arity; c++) {
            row[c] = mixed && random.nextBoolean() ? (Object) ("s" + i) : (Object) ((long) i * c);
          }
          more.add(row);
        }
        assertEquals(reference.addAll(more), rows.addAll(more));
        assertRows(reference, rows);
      }
    }
  }

  /** A list made of packed values holds their rows, grows and unpacks as one built row by row. */
  @Test void madeOfPackedValues() {
    final Random random = new Random(13);
    for (int arity = 1; arity <= 3; arity++) {
      final List<Object[]> reference = new ArrayList<>();
      final long[] values = new long[arity * random.nextInt(50)];
      for (int k = 0; k < values.length; k++) {
        values[k] = random.nextLong() >> random.nextInt(64);
      }
      for (int r = 0; r < values.length / arity; r++) {
        final Object[] row = new Object[arity];
        for (int c = 0; c < arity; c++) {
          row[c] = values[r * arity + c];
        }
        reference.add(row);
      }
      final RowList rows = RowList.packed(values, arity);
      assertRows(reference, rows);
      final Object[] more = new Object[arity];
      Arrays.fill(more, 7L);
      assertEquals(reference.add(more), rows.add(more.clone()));
      assertRows(reference, rows);
      final Object[] other = new Object[arity];
      Arrays.fill(other, "x");
      assertEquals(reference.add(other), rows.add(other.clone()));
      assertRows(reference, rows);
    }
    assertThrows(IllegalArgumentException.class, () -> RowList.packed(new long[3], 2));
    assertThrows(IllegalArgumentException.class, () -> RowList.packed(new long[0], 0));
  }

  private static void assertRows(List<Object[]> expected, List<Object[]> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(Arrays.asList(expected.get(i)), Arrays.asList(actual.get(i)), "row " + i);
    }
    final List<List<Object>> iterated = new ArrayList<>();
    for (Object[] row : actual) {
      iterated.add(Arrays.asList(row));
    }
    assertEquals(expected.stream().map(Arrays::asList).toList(), iterated);
    if (actual instanceof RowList rows) {
      // The enumerator makes each row once: current() twice is the same row.
      final Enumerator<Object[]> e = rows.enumerable().enumerator();
      for (int pass = 0; pass < 2; pass++) {
        final List<List<Object>> enumerated = new ArrayList<>();
        while (e.moveNext()) {
          assertSame(e.current(), e.current());
          enumerated.add(Arrays.asList(e.current()));
        }
        assertEquals(iterated, enumerated);
        e.reset();
      }
    }
  }
}
