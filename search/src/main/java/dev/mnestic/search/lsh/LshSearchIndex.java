package dev.mnestic.search.lsh;

import dev.mnestic.search.KeyedRows;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.StopCheck;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * A MinHash-LSH index over a relation's rows ({@link LshIndex} keyed by the rows' keys in
 * CozoDB's value order), kept in step by {@link #sync} and {@link #update}: a row whose
 * extracted value is unchanged costs a lookup. A search returns the candidates sharing a band with the query that
 * pass the atom's filter, at most {@code k}.
 */
final class LshSearchIndex extends KeyedRows<Object> {
  private final LshIndex<List<Object>> index;
  private final SearchIndex.RowFunction extractor;

  LshSearchIndex(
      LshIndex<List<Object>> index,
      SearchIndex.Columns columns,
      SearchIndex.RowFunction extractor) {
    super(columns);
    this.index = index;
    this.extractor = extractor;
  }

  @Override protected Object value(Object[] row) {
    return extractor.apply(row);
  }

  @Override protected void put(List<Object> key, Object value) {
    try {
      index.put(key, value);
    } catch (IllegalArgumentException e) {
      throw new ValueException(
          null, "Cannot put value " + Values.display(value) + " into a LSH index", null);
    }
  }

  @Override protected void remove(List<Object> key, Object value) {
    index.remove(key);
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
      Object[] row = row(key);
      if (filter != null && !filter.test(row)) {
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
