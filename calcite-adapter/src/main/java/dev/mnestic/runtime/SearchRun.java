package dev.mnestic.runtime;

import dev.mnestic.store.Session;
import dev.mnestic.store.StoreSnapshot;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.StopCheck;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a search atom ({@code ~rel:idx{... | query: q, ...}}), the runtime of {@code
 * rel.SearchApply}: reads every row of the indexed relation the statement sees, brings the
 * index to them ({@link SearchIndex#sync}), then searches once per row reaching the atom with
 * that row's query value, giving the row followed by each hit's relation row and bound values.
 * One instance of an index is synced and searched by one statement at a time.
 *
 * <p>The read and the sync are skipped when the index already holds the rows the statement
 * sees: its last sync was of the table's committed rows at a state ({@link
 * StoreSnapshot#committedState}) that is still the table's, and the statement sees just those
 * (no uncommitted write of its session). So a search of a table that has not changed since
 * the last search costs no walk over the table; after a commit (from CozoScript, SQL or
 * anything else) the next search reads the table again and the index adds and drops only what
 * changed; a session searching its own uncommitted writes always reads the table, and the
 * state is not recorded, so that other sessions and a rollback never see those rows.
 */
public final class SearchRun {
  /** Rows read between two looks at the statement's stop. */
  private static final int CHECK_EVERY = 4096;

  /** Per index instance, its last sync: the rows and the committed state they are, or null. */
  private static final Map<SearchIndex, Synced> SYNCED =
      Collections.synchronizedMap(new WeakHashMap<>());

  private record Synced(Object state, List<Object[]> rows) {
  }

  private SearchRun() {
  }

  /**
   * What the planner hands the runtime (stashed, never written as code).
   *
   * @param description the atom as the plan shows it ({@code ~r:idx{k: 10, ef: 50}})
   * @param index the index instance (the front end's, one per index and store)
   * @param table the stored name of the indexed relation's table
   * @param request the atom's constant parameters, checked by the index's kind
   * @param queryColumn the column of the outer row holding the query value
   * @param filter the atom's {@code filter} over the relation's row and the bound values, or
   *     null
   * @param relationArity the width of the relation's rows
   */
  public record Spec(String description, SearchIndex index, String table,
      SearchIndex.Request request,
      int queryColumn, SearchIndex.RowFilter filter, int relationArity) {
    @Override public String toString() {
      return description;
    }
  }

  /**
   * The rows the statement sees of the indexed relation, the index brought to them: those of
   * its last sync when they still are (see the class comment), else read and synced.
   */
  private static List<Object[]> synced(Session store, Enumerable<?> relation, Spec spec,
      StopCheck stop) {
    final Object before = StoreSnapshot.committedState(store, spec.table());
    final Synced last = SYNCED.get(spec.index());
    if (before != null && last != null && before.equals(last.state())) {
      return last.rows();
    }
    final List<Object[]> stored = new ArrayList<>();
    for (Object row : relation) {
      stored.add((Object[]) row);
      if (stored.size() % CHECK_EVERY == 0) {
        stop.check();
      }
    }
    SYNCED.remove(spec.index());
    spec.index().sync(stored, stop);
    final Object after = StoreSnapshot.committedState(store, spec.table());
    SYNCED.put(spec.index(), new Synced(before != null && before.equals(after) ? before : null,
        stored));
    return stored;
  }

  /** The rows of the search: each outer row, a hit's relation row, the hit's bound values. */
  public static Enumerable<Object[]> run(DataContext root, Enumerable<?> outer,
      Enumerable<?> relation, Spec spec) {
    final AtomicBoolean flag = DataContext.Variable.CANCEL_FLAG.get(root);
    final StopCheck stop = () -> RunningStatement.check(flag);
    return new AbstractEnumerable<Object[]>() {
      @Override public Enumerator<Object[]> enumerator() {
        return Linq4j.enumerator(rows(Session.of(root.getRootSchema()), outer, relation, spec,
            stop));
      }
    };
  }

  static List<Object[]> rows(Session store, Enumerable<?> outer, Enumerable<?> relation,
      Spec spec, StopCheck stop) {
    final List<Object[]> out = new ArrayList<>();
    synchronized (spec.index()) {
      final List<Object[]> stored = synced(store, relation, spec, stop);
      for (Object o : outer) {
        final Object[] row = (Object[]) o;
        for (SearchIndex.Hit hit : spec.index().search(spec.request(), row[spec.queryColumn()],
            spec.filter(), stop)) {
          final Object[] found = stored.get(hit.row());
          final Object[] joined = new Object[row.length + found.length + hit.binds().size()];
          System.arraycopy(row, 0, joined, 0, row.length);
          System.arraycopy(found, 0, joined, row.length, found.length);
          for (int i = 0; i < hit.binds().size(); i++) {
            joined[row.length + found.length + i] = hit.binds().get(i);
          }
          out.add(joined);
        }
        stop.check();
      }
    }
    return out;
  }
}
