package dev.mnestic.search.text;

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
 * A full-text index over a relation's rows ({@link FtsIndex} keyed by the rows' keys in
 * CozoDB's value order), kept in step by {@link #sync}: a row whose extracted text is unchanged
 * costs a lookup, a changed one is re-indexed. A search scores as CozoDB does ({@code N} is the
 * relation's row count, null texts included), keeps the rows passing the atom's filter, best
 * first, up to {@code k}.
 */
final class FtsSearchIndex implements SearchIndex {
  private final SearchIndex.Columns columns;
  private final SearchIndex.RowFunction extractor;
  private final FtsIndex<List<Object>> index;
  /** Per key, the text indexed for it (null: the extractor gave null). */
  private final Map<List<Object>, String> texts = new HashMap<>();
  private Map<List<Object>, Integer> positions = Map.of();
  private List<Object[]> rows = List.of();

  FtsSearchIndex(
      TextAnalyzer analyzer, SearchIndex.Columns columns, SearchIndex.RowFunction extractor) {
    this.columns = columns;
    this.extractor = extractor;
    this.index = new FtsIndex<>(analyzer, FtsSearchIndex::compareKeys);
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
      String text = text(row);
      if (texts.containsKey(key)) {
        String old = texts.get(key);
        if (Objects.equals(old, text)) {
          continue;
        }
        index.remove(key, old);
      }
      texts.put(key, text);
      index.put(key, text);
    }
    for (List<Object> gone : new ArrayList<>(texts.keySet())) {
      if (!seen.contains(gone)) {
        index.remove(gone, texts.remove(gone));
      }
    }
    this.rows = rows;
    this.positions = at;
  }

  private String text(Object[] row) {
    Object v = extractor.apply(row);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String)) {
      throw new ValueException(
          dev.mnestic.value.ErrorCode.EVAL_FTS_EXTRACTOR_INVALID_RETURN_TYPE,
          "FTS index extractor must return a string, got " + Values.display(v),
          null);
    }
    return (String) v;
  }

  @Override
  public List<Hit> search(
      SearchIndex.Request request, Object query, RowFilter filter, StopCheck stop) {
    FtsKind.Request r = (FtsKind.Request) request;
    if (!(query instanceof String q)) {
      throw new ValueException(null, "FTS query must be a string, got " + query, null);
    }
    List<FtsIndex.Hit<List<Object>>> hits;
    try {
      hits = index.search(q, r.scoreKind(), rows.size());
    } catch (IllegalArgumentException e) {
      throw new ValueException(dev.mnestic.value.ErrorCode.PARSER_PEST, e.getMessage(), null);
    }
    List<Hit> out = new ArrayList<>();
    for (FtsIndex.Hit<List<Object>> h : hits) {
      if (out.size() >= r.k()) {
        break;
      }
      int row = positions.get(h.key());
      List<Object> binds = r.binds().isEmpty() ? List.of() : List.of(h.score());
      if (filter != null) {
        Object[] values = Arrays.copyOf(rows.get(row), rows.get(row).length + binds.size());
        for (int i = 0; i < binds.size(); i++) {
          values[rows.get(row).length + i] = binds.get(i);
        }
        if (!filter.test(values)) {
          continue;
        }
      }
      out.add(new Hit(row, binds));
    }
    return out;
  }
}
