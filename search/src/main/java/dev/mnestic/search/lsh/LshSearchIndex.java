package dev.mnestic.search.lsh;

import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.StopCheck;
import dev.mnestic.value.ValueException;
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
 * A MinHash-LSH index over a relation's rows ({@link LshIndex} keyed by the rows' keys in
 * CozoDB's value order), kept in step by {@link #sync}: a row whose extracted value is
 * unchanged costs a lookup. A search returns the candidates sharing a band with the query that
 * pass the atom's filter, at most {@code k}.
 */
final class LshSearchIndex implements SearchIndex {
  private final LshIndex<List<Object>> index;
  private final SearchIndex.Columns columns;
  private final SearchIndex.RowFunction extractor;
  private final Map<List<Object>, Object> values = new HashMap<>();
  private Map<List<Object>, Integer> positions = Map.of();
  private List<Object[]> rows = List.of();

  LshSearchIndex(
      LshIndex<List<Object>> index,
      SearchIndex.Columns columns,
      SearchIndex.RowFunction extractor) {
    this.index = index;
    this.columns = columns;
    this.extractor = extractor;
  }

  static int compareKeys(List<Object> a, List<Object> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = Values.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  @Override
  public void sync(List<Object[]> rows, StopCheck stop) {
    Map<List<Object>, Integer> at = new HashMap<>();
    Set<List<Object>> seen = new HashSet<>();
    for (int r = 0; r < rows.size(); r++) {
      if (r % 4096 == 4095) {
        stop.check();
      }
      Object[] row = rows.get(r);
      List<Object> key = List.copyOf(Arrays.asList(row).subList(0, columns.keyCount()));
      at.put(key, r);
      seen.add(key);
      Object value = extractor.apply(row);
      if (values.containsKey(key) && Objects.equals(values.get(key), value)) {
        continue;
      }
      try {
        index.put(key, value);
      } catch (IllegalArgumentException e) {
        throw new ValueException(
            null, "Cannot put value " + Values.display(value) + " into a LSH index", null);
      }
      values.put(key, value);
    }
    for (List<Object> gone : new ArrayList<>(values.keySet())) {
      if (!seen.contains(gone)) {
        values.remove(gone);
        index.remove(gone);
      }
    }
    this.rows = rows;
    this.positions = at;
  }

  @Override
  public List<Hit> search(
      SearchIndex.Request request, Object query, RowFilter filter, StopCheck stop) {
    Integer k = ((LshKind.Request) request).k();
    if (query != null && !(query instanceof String) && !(query instanceof List)) {
      throw new ValueException(
          null, "Cannot search for value " + Values.display(query) + " in a LSH index", null);
    }
    List<Hit> out = new ArrayList<>();
    for (List<Object> key : index.candidates(query, filter == null ? k : null)) {
      int row = positions.get(key);
      if (filter != null && !filter.test(rows.get(row))) {
        continue;
      }
      out.add(new Hit(row, List.of()));
      if (k != null && out.size() >= k) {
        break;
      }
    }
    return out;
  }
}
