package dev.mnestic.search;

import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.StopCheck;
import dev.mnestic.value.Values;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A search index over a relation's rows that indexes one value per row key, kept in step by
 * {@link #sync} and {@link #update}: the row and the value each key's row gave ({@link
 * #value}) are remembered, so a row whose value is unchanged costs a lookup, a changed one is
 * removed and indexed again, and a key no longer among the rows is removed. A search names its
 * hits by their keys ({@link #row}). The full-text and MinHash-LSH indices are ones.
 *
 * @param <V> the value indexed per key
 */
public abstract class KeyedRows<V> implements SearchIndex {
  private final SearchIndex.Columns columns;
  private final Map<List<Object>, V> values = new HashMap<>();
  private final Map<List<Object>, Object[]> rows = new HashMap<>();

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

  /**
   * The key columns of {@code relation} as an index's relation names them: each key column's
   * name after {@code prefix} ({@code src_k}, {@code fr_k}), its type as the relation's.
   */
  public static List<SearchIndex.RelationColumn> keyColumns(String prefix,
      SearchIndex.Columns relation) {
    final List<SearchIndex.RelationColumn> out = new ArrayList<>();
    for (int i = 0; i < relation.keyCount(); i++) {
      out.add(new SearchIndex.RelationColumn(prefix + relation.names().get(i), true,
          relation.types().get(i).toString()));
    }
    return out;
  }

  /** The value that {@code row} has indexed (null allowed). */
  protected abstract V value(Object[] row);

  /** Indexes {@code value} under {@code key}, which holds nothing. */
  protected abstract void put(List<Object> key, V value);

  /** Removes {@code value}, indexed under {@code key}. */
  protected abstract void remove(List<Object> key, V value);

  @Override public final void sync(List<Object[]> rows, StopCheck stop) {
    final Set<List<Object>> at = new HashSet<>();
    for (int r = 0; r < rows.size(); r++) {
      if (r % 4096 == 4095) {
        stop.check();
      }
      at.add(add(rows.get(r)));
    }
    for (List<Object> gone : new ArrayList<>(values.keySet())) {
      if (!at.contains(gone)) {
        drop(gone);
      }
    }
  }

  @Override public final void update(List<Object[]> removed, List<Object[]> added,
      StopCheck stop) {
    for (Object[] row : removed) {
      drop(key(row));
    }
    for (int r = 0; r < added.size(); r++) {
      if (r % 4096 == 4095) {
        stop.check();
      }
      add(added.get(r));
    }
  }

  private List<Object> key(Object[] row) {
    return Arrays.asList(Arrays.copyOf(row, columns.keyCount()));
  }

  /** Holds {@code row}, indexing its value unless its key holds the same; its key. */
  private List<Object> add(Object[] row) {
    final List<Object> key = key(row);
    final V value = value(row);
    rows.put(key, row);
    if (values.containsKey(key)) {
      final V old = values.get(key);
      if (Objects.equals(old, value)) {
        return key;
      }
      remove(key, old);
    }
    put(key, value);
    values.put(key, value);
    return key;
  }

  private void drop(List<Object> key) {
    if (rows.remove(key) != null) {
      remove(key, values.remove(key));
    }
  }

  /** How many rows the index holds. */
  protected final int rowCount() {
    return rows.size();
  }

  /** The row the index holds under {@code key}. */
  protected final Object[] row(List<Object> key) {
    return rows.get(key);
  }
}
