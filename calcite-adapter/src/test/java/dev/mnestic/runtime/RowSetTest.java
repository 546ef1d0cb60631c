package dev.mnestic.runtime;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
