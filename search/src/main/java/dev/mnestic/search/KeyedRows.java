package dev.mnestic.search;

import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.StopCheck;
import dev.mnestic.value.Values;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A search index over a relation's rows that indexes one value per row key, kept in step by
 * {@link #sync}: the value each key's row gave ({@link #value}) is remembered, so a row whose
 * value is unchanged costs a lookup, a changed one is removed and indexed again, and a key no
 * longer among the rows is removed. A search names its hits by their position in the rows of
 * the last sync ({@link #position}, {@link #row}). The full-text and MinHash-LSH indices are
 * ones.
 *
 * @param <V> the value indexed per key
 */
public abstract class KeyedRows<V> implements SearchIndex {
  private final SearchIndex.Columns columns;
  private final Map<List<Object>, V> values = new HashMap<>();
  private Map<List<Object>, Integer> positions = Map.of();
  private List<Object[]> rows = List.of();

  protected KeyedRows(SearchIndex.Columns columns) {
    this.columns = columns;
  }

  /** Row keys in CozoDB's value order: column by column, a key that is a prefix first. */
  public static int compareKeys(List<Object> a, List<Object> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      final int c = Values.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  /** The value that {@code row} has indexed (null allowed). */
  protected abstract V value(Object[] row);

  /** Indexes {@code value} under {@code key}, which holds nothing. */
  protected abstract void put(List<Object> key, V value);

  /** Removes {@code value}, indexed under {@code key}. */
  protected abstract void remove(List<Object> key, V value);

  @Override public final void sync(List<Object[]> rows, StopCheck stop) {
    final Map<List<Object>, Integer> at = new HashMap<>();
    for (int r = 0; r < rows.size(); r++) {
      if (r % 4096 == 4095) {
        stop.check();
      }
      final Object[] row = rows.get(r);
      final List<Object> key = List.copyOf(Arrays.asList(row).subList(0, columns.keyCount()));
      at.put(key, r);
      final V value = value(row);
      if (values.containsKey(key)) {
        final V old = values.get(key);
        if (Objects.equals(old, value)) {
          continue;
        }
        remove(key, old);
      }
      put(key, value);
      values.put(key, value);
    }
    for (List<Object> gone : new ArrayList<>(values.keySet())) {
      if (!at.containsKey(gone)) {
        remove(gone, values.remove(gone));
      }
    }
    this.rows = rows;
    this.positions = at;
  }

  /** How many rows the last sync had. */
  protected final int rowCount() {
    return rows.size();
  }

  /** The position of {@code key}'s row in the last sync's rows. */
  protected final int position(List<Object> key) {
    return positions.get(key);
  }

  /** The row at {@code position} of the last sync's rows. */
  protected final Object[] row(int position) {
    return rows.get(position);
  }
}
