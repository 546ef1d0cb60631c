package dev.mnestic.runtime;

import dev.mnestic.store.Session;
import dev.mnestic.store.TableFeed;
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
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a search atom ({@code ~rel:idx{... | query: q, ...}}), the runtime of {@code
 * rel.SearchApply}: brings the index to the rows of the indexed relation the statement sees,
 * then searches once per row reaching the atom with that row's query value, giving the row
 * followed by each hit's relation row and bound values. One instance of an index is brought up
 * and searched by one statement at a time.
 *
 * <p>An index is kept at the committed rows of its table at a version ({@link TableFeed}), so
 * that a statement brings it up with what changed, not the whole relation: the rows committed
 * since that version (whichever door wrote them, CozoScript, SQL or a batch; an UPDATE a
 * deletion and an insertion), then the statement's own transaction's uncommitted writes, which
 * it sees and which are taken back after its search (so no other session, and no statement
 * after a rollback, sees them). Both come as the table's rows, as HSQLDB holds them, and are
 * read as the relation by the relation's own plan ({@link RelationReader}). The whole relation
 * is read, and the index brought to it ({@link SearchIndex#sync}), only when that cannot be
 * done: the index's first search after the store opens, commits the table's log does not tell
 * (a statement rolled back in part, very many rows), a transaction whose own writes cannot be
 * told (rolled back to a savepoint) or that does not read at READ COMMITTED, a relation read
 * through a copy (inside a recursion). {@link #rowsRead} counts the rows each way reads.
 */
public final class SearchRun {
  /** Rows read between two looks at the statement's stop. */
  private static final int CHECK_EVERY = 4096;

  /** Per index instance, what it holds. */
  private static final Map<SearchIndex, Kept> KEPT =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** The rows of indexed relations read to bring indices up, whole or changed. */
  private static final AtomicLong ROWS_READ = new AtomicLong();

  /**
   * What an index holds: its table's committed rows at {@code version} of {@code feed} (which
   * follows the table from there), or, at -1, rows no version tells.
   */
  private static final class Kept {
    TableFeed feed;
    long version = -1;
    /** While a statement's own writes are applied (version -1): the version to go back to. */
    long restore = -1;
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
   * Reads rows of the indexed relation's table, as HSQLDB holds them, into the relation's
   * rows, as the search's relation input reads the table (the plan's operator supplies it).
   */
  @FunctionalInterface
  public interface RelationReader {
    /**
     * The relation's rows of {@code rows}, given as the value of {@code store.StoreReads.ROWS}
     * ({@link TableFeed#rows(Session, List)}), read in the context of {@code root}.
     */
    List<Object[]> read(DataContext root, Object rows);
  }

  /** How many rows of indexed relations searches have read to bring their indices up. */
  public static long rowsRead() {
    return ROWS_READ.get();
  }

  /**
   * The rows of the search: each outer row, a hit's relation row, the hit's bound values.
   *
   * @param reader reads changed rows of the table as the relation; null when the relation is
   *     not read straight from the table (then a change is read as the whole relation again)
   */
  public static Enumerable<Object[]> run(DataContext root, Enumerable<?> outer,
      Enumerable<?> relation, RelationReader reader, Spec spec) {
    final AtomicBoolean flag = DataContext.Variable.CANCEL_FLAG.get(root);
    final StopCheck stop = () -> RunningStatement.check(flag);
    return new AbstractEnumerable<Object[]>() {
      @Override public Enumerator<Object[]> enumerator() {
        return Linq4j.enumerator(rows(root, outer, relation, reader, spec, stop));
      }
    };
  }

  static List<Object[]> rows(DataContext root, Enumerable<?> outer, Enumerable<?> relation,
      RelationReader reader, Spec spec, StopCheck stop) {
    final Session store = Session.of(root.getRootSchema());
    final List<Object[]> out = new ArrayList<>();
    synchronized (spec.index()) {
      final Kept kept = KEPT.computeIfAbsent(spec.index(), i -> new Kept());
      final TableFeed.Changes own = bringUp(root, store, relation, reader, spec, kept, stop);
      try {
        for (Object o : outer) {
          final Object[] row = (Object[]) o;
          for (SearchIndex.Hit hit : spec.index().search(spec.request(),
              row[spec.queryColumn()], spec.filter(), stop)) {
            final Object[] found = hit.row();
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
      } finally {
        if (own != null) {
          // back to the committed rows: the own insertions out, the rows they replaced back
          spec.index().update(own.inserted(), own.deleted(), stop);
          kept.version = kept.restore;
        }
      }
    }
    return out;
  }

  /**
   * Brings the index to the rows of the relation the statement sees; the statement's own
   * writes it applied on top of the committed rows it keeps (the relation's rows deleted and
   * inserted), to take back after the search, or null when there are none to take back.
   */
  private static TableFeed.Changes bringUp(DataContext root, Session store,
      Enumerable<?> relation, RelationReader reader, Spec spec, Kept kept, StopCheck stop) {
    final long now = kept.feed == null ? -1 : kept.feed.version(store);
    final TableFeed.Changes own = now < 0 ? null : kept.feed.ownChanges(store);
    if (kept.version >= 0 && own != null) {
      final TableFeed.Changes committed = kept.feed.changesSince(kept.version, now);
      if (committed != null) {
        final TableFeed.Changes net = committed.net();
        final TableFeed.Changes mine = own.net();
        if (reader != null || net.inserted().isEmpty() && net.deleted().isEmpty()
            && mine.inserted().isEmpty() && mine.deleted().isEmpty()) {
          if (now != kept.version) {
            final TableFeed.Changes read = read(root, store, reader, kept.feed, net);
            kept.version = -1;
            spec.index().update(read.deleted(), read.inserted(), stop);
            kept.version = now;
            kept.feed.mark(now);
          }
          return apply(root, store, reader, kept, mine, spec, stop);
        }
      }
    }
    // the whole relation, as the statement sees it
    final TableFeed feed = TableFeed.of(store, spec.table());
    final long before = feed == null ? -1 : feed.version(store);
    final TableFeed.Changes seen = before < 0 ? null : feed.ownChanges(store);
    final List<Object[]> rows = new ArrayList<>();
    for (Object row : relation) {
      rows.add((Object[]) row);
      if (rows.size() % CHECK_EVERY == 0) {
        stop.check();
      }
    }
    ROWS_READ.addAndGet(rows.size());
    kept.version = -1;
    spec.index().sync(rows, stop);
    final TableFeed.Changes mine = seen == null ? null : seen.net();
    if (before < 0 || feed.version(store) != before || mine == null || reader == null
        && !(mine.inserted().isEmpty() && mine.deleted().isEmpty())) {
      return null;
    }
    // the committed rows at `before` and the statement's own writes: kept as the former
    feed.mark(before);
    if (kept.feed != null && kept.feed != feed) {
      kept.feed.close();
    }
    kept.feed = feed;
    if (mine.inserted().isEmpty() && mine.deleted().isEmpty()) {
      kept.version = before;
      return null;
    }
    kept.restore = before;
    return read(root, store, reader, feed, mine);
  }

  /**
   * Applies the statement's own writes {@code mine} to the committed rows the index holds;
   * what to take back after the search (the index's version -1 meanwhile), or null for none.
   */
  private static TableFeed.Changes apply(DataContext root, Session store,
      RelationReader reader, Kept kept, TableFeed.Changes mine, Spec spec, StopCheck stop) {
    if (mine.inserted().isEmpty() && mine.deleted().isEmpty()) {
      return null;
    }
    final TableFeed.Changes read = read(root, store, reader, kept.feed, mine);
    kept.restore = kept.version;
    kept.version = -1;
    spec.index().update(read.deleted(), read.inserted(), stop);
    return read;
  }

  /** {@code changes}, rows of the table, read as rows of the relation. */
  private static TableFeed.Changes read(DataContext root, Session store, RelationReader reader,
      TableFeed feed, TableFeed.Changes changes) {
    return new TableFeed.Changes(read(root, store, reader, feed, changes.inserted()),
        read(root, store, reader, feed, changes.deleted()));
  }

  private static List<Object[]> read(DataContext root, Session store, RelationReader reader,
      TableFeed feed, List<Object[]> rows) {
    if (rows.isEmpty()) {
      return List.of();
    }
    ROWS_READ.addAndGet(rows.size());
    return reader.read(root, feed.rows(store, rows));
  }
}
