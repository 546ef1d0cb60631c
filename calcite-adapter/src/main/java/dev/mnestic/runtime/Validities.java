package dev.mnestic.runtime;

import dev.mnestic.value.Validity;

import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runtime of {@link dev.mnestic.rel.AsOf}: a time-travel relation at one moment. */
public final class Validities {
  private Validities() {
  }

  /**
   * Of each fact of {@code rows} (rows with equal {@code keys} columns), the
   * row whose Validity (column {@code validity}) is the newest at or before
   * {@code at}, when it is an assertion; in the order the facts first come.
   * At the same time an assertion wins over a retraction, as CozoDB orders
   * them.
   */
  public static Enumerable<Object[]> asOf(Enumerable<Object[]> rows, int[] keys, int validity,
      long at) {
    final Map<RowKey, Object[]> current = new LinkedHashMap<>();
    for (Object[] row : rows) {
      final Validity v = (Validity) row[validity];
      if (v.timestamp() > at) {
        continue;
      }
      final Object[] key = new Object[keys.length];
      for (int i = 0; i < keys.length; i++) {
        key[i] = row[keys[i]];
      }
      // Validity orders newest first, an assertion before a retraction: the least one wins.
      current.merge(new RowKey(key), row,
          (best, next) -> ((Validity) next[validity]).compareTo((Validity) best[validity]) < 0
              ? next : best);
    }
    final List<Object[]> asserted = new ArrayList<>(current.size());
    for (Object[] row : current.values()) {
      if (((Validity) row[validity]).assertion()) {
        asserted.add(row);
      }
    }
    return Linq4j.asEnumerable(asserted);
  }
}
