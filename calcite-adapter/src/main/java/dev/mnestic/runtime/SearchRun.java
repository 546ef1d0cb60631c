package dev.mnestic.runtime;

import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.StopCheck;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a search atom ({@code ~rel:idx{... | query: q, ...}}), the runtime of {@code
 * rel.SearchApply}: reads every row of the indexed relation the statement sees, brings the
 * index to them ({@link SearchIndex#sync}), then searches once per row reaching the atom with
 * that row's query value, giving the row followed by each hit's relation row and bound values.
 * One instance of an index is synced and searched by one statement at a time.
 */
public final class SearchRun {
  /** Rows read between two looks at the statement's stop. */
  private static final int CHECK_EVERY = 4096;

  private SearchRun() {
  }

  /**
   * What the planner hands the runtime (stashed, never written as code).
   *
   * @param description the atom as the plan shows it ({@code ~r:idx{k: 10, ef: 50}})
   * @param index the index instance (the front end's, one per index and store)
   * @param request the atom's constant parameters, checked by the index's kind
   * @param queryColumn the column of the outer row holding the query value
   * @param filter the atom's {@code filter} over the relation's row and the bound values, or
   *     null
   * @param relationArity the width of the relation's rows
   */
  public record Spec(String description, SearchIndex index, SearchIndex.Request request,
      int queryColumn, SearchIndex.RowFilter filter, int relationArity) {
    @Override public String toString() {
      return description;
    }
  }

  /** The rows of the search: each outer row, a hit's relation row, the hit's bound values. */
  public static Enumerable<Object[]> run(DataContext root, Enumerable<?> outer,
      Enumerable<?> relation, Spec spec) {
    final AtomicBoolean flag = DataContext.Variable.CANCEL_FLAG.get(root);
    final StopCheck stop = () -> RunningStatement.check(flag);
    return new AbstractEnumerable<Object[]>() {
      @Override public Enumerator<Object[]> enumerator() {
        return Linq4j.enumerator(rows(outer, relation, spec, stop));
      }
    };
  }

  static List<Object[]> rows(Enumerable<?> outer, Enumerable<?> relation, Spec spec,
      StopCheck stop) {
    final List<Object[]> stored = new ArrayList<>();
    for (Object row : relation) {
      stored.add((Object[]) row);
      if (stored.size() % CHECK_EVERY == 0) {
        stop.check();
      }
    }
    final List<Object[]> out = new ArrayList<>();
    synchronized (spec.index()) {
      spec.index().sync(stored, stop);
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
