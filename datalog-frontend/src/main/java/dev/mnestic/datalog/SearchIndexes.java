package dev.mnestic.datalog;

import dev.mnestic.datalog.eval.ConstantEvaluator;
import dev.mnestic.datalog.parse.Parser;
import dev.mnestic.store.Session;
import dev.mnestic.value.ColType;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.ValueException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Function;

/**
 * The search index kinds ({@code ::hnsw}, {@code ::fts}, {@code ::lsh}) and their instances.
 * A relation keeps each index's definition ({@code store.TablePolicy}); the index itself lives
 * here, in memory, one instance per store, table and definition, made empty at its first
 * search, filled from the whole relation then, and brought up by every statement that
 * searches it with the rows changed since ({@code runtime.SearchRun}). So reopening a store
 * rebuilds its indices at their first search, and a write (committed, rolled back, from SQL or
 * CozoScript) reaches an index at the next search.
 * Instances are held while their store's database is ({@link WeakHashMap} on HSQLDB's {@code
 * Database}).
 */
public final class SearchIndexes {
  /** The built-in kinds by system-op name. */
  static final Map<String, SearchIndex.Kind> BUILT_IN = builtIn();

  /** Per store (HSQLDB's database), per table, index and definition: the instance. */
  private static final Map<Object, Map<String, SearchIndex>> INSTANCES =
      Collections.synchronizedMap(new WeakHashMap<>());

  private SearchIndexes() {
  }

  private static Map<String, SearchIndex.Kind> builtIn() {
    final Map<String, SearchIndex.Kind> kinds = new HashMap<>();
    for (SearchIndex.Kind k : List.<SearchIndex.Kind>of(new dev.mnestic.search.HnswKind(),
        new dev.mnestic.search.text.FtsKind(), new dev.mnestic.search.lsh.LshKind())) {
      kinds.put(k.name(), k);
    }
    return Map.copyOf(kinds);
  }

  /** The kind named {@code name}, or the error CozoDB would give for an unknown one. */
  static SearchIndex.Kind kind(String name) {
    final SearchIndex.Kind kind = BUILT_IN.get(name);
    if (kind == null) {
      throw new ValueException(ErrorCode.MNESTIC_UNSUPPORTED,
          "::" + name + " indices are not supported by mnestic yet", null);
    }
    return kind;
  }

  /**
   * A relation's columns as its indices see them, in the order its rows are read (keys first
   * for a relation {@code :create} made).
   */
  static SearchIndex.Columns columns(StoredSchema schema) {
    final List<String> names = new ArrayList<>();
    final List<ColType> types = new ArrayList<>();
    int keys = 0;
    for (StoredSchema.Column c : schema.columns()) {
      names.add(c.name());
      types.add(c.type());
      keys += c.key() ? 1 : 0;
    }
    return new SearchIndex.Columns(names, types, keys);
  }

  /**
   * The instance of {@code definition} over the store's table {@code table} in {@code
   * session}'s store, made (empty) the first time.
   */
  static SearchIndex instance(Session session, String table, SearchIndex.Definition definition,
      SearchIndex.Columns columns) {
    final Object database = ((org.hsqldb.Session)
        ((org.hsqldb.jdbc.JDBCConnection) session.getConnection()).getSession()).getDatabase();
    final String key = table + "\u0000" + definition.name() + "\u0000" + definition.kind()
        + "\u0000" + definition.options().text() + "\u0000" + columns;
    final Map<String, SearchIndex> ofStore = INSTANCES.computeIfAbsent(database,
        d -> Collections.synchronizedMap(new HashMap<>()));
    synchronized (ofStore) {
      // one instance per table and index name: a new definition replaces the old one
      ofStore.keySet().removeIf(k -> k.startsWith(table + "\u0000" + definition.name()
          + "\u0000") && !k.equals(key));
      return ofStore.computeIfAbsent(key, k -> create(definition, columns));
    }
  }

  /** A new, empty instance of {@code definition} over a relation of {@code columns}. */
  static SearchIndex create(SearchIndex.Definition definition, SearchIndex.Columns columns) {
    return kind(definition.kind()).create(definition, columns,
        filter((String) definition.option("index_filter"), columns.names()),
        source -> function(source, columns.names()));
  }

  /**
   * A CozoScript expression over a row whose values are {@code names}, as a {@link
   * SearchIndex.RowFilter} (true passes; anything but a Bool is CozoDB's {@code eval::throw}),
   * or null for no expression.
   */
  static SearchIndex.RowFilter filter(String source, List<String> names) {
    if (source == null) {
      return null;
    }
    return filter(new ConstantEvaluator(Map.of()).bind(Parser.parseExpression(source), names));
  }

  /** A CozoScript expression over a row whose values are {@code names}. */
  static SearchIndex.RowFunction function(String source, List<String> names) {
    final Function<Object[], Object> f =
        new ConstantEvaluator(Map.of()).bind(Parser.parseExpression(source), names);
    return f::apply;
  }

  /** {@code f}'s value as a filter's verdict. */
  static SearchIndex.RowFilter filter(Function<Object[], Object> f) {
    return row -> {
      final Object v = f.apply(row);
      if (!(v instanceof Boolean)) {
        throw new ValueException(ErrorCode.EVAL_THROW, ValueException.EVAL_FAILED,
            "filter must evaluate to a boolean");
      }
      return (Boolean) v;
    };
  }
}
