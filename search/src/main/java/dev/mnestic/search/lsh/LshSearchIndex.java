package dev.mnestic.search.lsh;

import dev.mnestic.search.KeyedRows;
import dev.mnestic.value.Bytes;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.StopCheck;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;
import java.util.ArrayList;
import java.util.Arrays;
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

  /**
   * CozoDB's {@code rel:idx} rows (a bucket's bytes, a key in it) or, for {@code part} {@code
   * "inv"}, {@code rel:idx:inv}'s (a key, the list of its buckets' bytes by band). They are
   * mnestic's own: the buckets hash the signature under permutations drawn from a seed of the
   * index's definition, where CozoDB draws them at random when it creates the index.
   */
  @Override
  public List<Object[]> relationRows(String part, StopCheck stop) {
    List<Object[]> out = new ArrayList<>();
    if (part.equals("inv")) {
      index.inverse().forEach((key, bands) -> {
        Object[] row = Arrays.copyOf(key.toArray(), key.size() + 1);
        row[key.size()] = Values.listOf(bands.stream().map(Bytes::of).toList());
        out.add(row);
      });
      return out;
    }
    for (LshIndex.Bucket<List<Object>> b : index.buckets()) {
      Object[] row = new Object[1 + b.key().size()];
      row[0] = Bytes.of(b.band());
      for (int i = 0; i < b.key().size(); i++) {
        row[1 + i] = b.key().get(i);
      }
      out.add(row);
    }
    return out;
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
