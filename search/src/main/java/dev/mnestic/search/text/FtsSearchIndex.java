package dev.mnestic.search.text;

import dev.mnestic.search.KeyedRows;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.StopCheck;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A full-text index over a relation's rows ({@link FtsIndex} keyed by the rows' keys in
 * CozoDB's value order), kept in step by {@link #sync} and {@link #update}: a row whose
 * extracted text is unchanged costs a lookup, a changed one is re-indexed. A search scores as CozoDB does ({@code N} is the
 * relation's row count, null texts included), keeps the rows passing the atom's filter, best
 * first, up to {@code k}.
 */
final class FtsSearchIndex extends KeyedRows<String> {
  private final SearchIndex.RowFunction extractor;
  private final FtsIndex<List<Object>> index;

  FtsSearchIndex(
      TextAnalyzer analyzer, SearchIndex.Columns columns, SearchIndex.RowFunction extractor) {
    super(columns);
    this.extractor = extractor;
    this.index = new FtsIndex<>(analyzer, KeyedRows::compareKeys);
  }

  @Override protected void put(List<Object> key, String text) {
    index.put(key, text);
  }

  @Override protected void remove(List<Object> key, String text) {
    index.remove(key, text);
  }

  @Override protected String value(Object[] row) {
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

  /**
   * CozoDB's {@code rel:idx} rows: per term (in code point order) and row key (in key order),
   * the term's UTF-8 byte offsets and positions in the row's text and the text's token count.
   */
  @Override
  public List<Object[]> relationRows(String part, StopCheck stop) {
    List<Object[]> out = new ArrayList<>();
    for (FtsIndex.Entry<List<Object>> e : index.entries()) {
      Object[] row = new Object[e.key().size() + 5];
      row[0] = e.word();
      for (int i = 0; i < e.key().size(); i++) {
        row[1 + i] = e.key().get(i);
      }
      int at = 1 + e.key().size();
      row[at] = ints(e.posting().offsetFrom());
      row[at + 1] = ints(e.posting().offsetTo());
      row[at + 2] = ints(e.posting().positions());
      row[at + 3] = (long) e.posting().totalLength();
      out.add(row);
    }
    return out;
  }

  private static List<Object> ints(int[] values) {
    List<Object> out = new ArrayList<>(values.length);
    for (int v : values) {
      out.add((long) v);
    }
    return Values.listOf(out);
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
      hits = index.search(q, r.scoreKind(), rowCount());
    } catch (FtsQuery.SyntaxError e) {
      // CozoDB's message (pest's), without a code
      throw new ValueException(null, e.getMessage(), null);
    } catch (IllegalArgumentException e) {
      throw new ValueException(dev.mnestic.value.ErrorCode.PARSER_PEST, e.getMessage(), null);
    }
    List<Hit> out = new ArrayList<>();
    for (FtsIndex.Hit<List<Object>> h : hits) {
      if (out.size() >= r.k()) {
        break;
      }
      Object[] row = row(h.key());
      List<Object> binds = r.binds().isEmpty() ? List.of() : List.of(h.score());
      if (filter != null) {
        Object[] values = Arrays.copyOf(row, row.length + binds.size());
        for (int i = 0; i < binds.size(); i++) {
          values[row.length + i] = binds.get(i);
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
