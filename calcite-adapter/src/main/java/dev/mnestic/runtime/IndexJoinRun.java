package dev.mnestic.runtime;

import dev.mnestic.store.Session;
import dev.mnestic.store.StoreCatalog;
import dev.mnestic.store.StoreReads;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs an index join ({@code rel.IndexJoin}): the rows reaching a stored relation's atom
 * joined with the relation's rows whose key columns hold the values those rows bind. Before
 * anything is read from the store, the left rows are taken until they end, or until their
 * distinct values of the looked-up column are more than a {@link #LOOKUP_SHARE}th of the
 * table's rows (or {@link #MAX_HELD} rows are held): when they ended with few, the table's
 * rows holding those values are looked up in the store's index leading with that column
 * ({@link StoreReads#lookup}: one walk down the index per value), else the whole table is
 * read (the right input), as a hash join would. Either way the rows found are hashed by all
 * the join's key columns and the left rows probe them. Inside a fixpoint the plan runs once
 * per round: each round looks up only the values no earlier round did (its delta's new
 * values), until those looked up reach the share and the table is read whole, once.
 *
 * <p>The right rows are the table's as the store holds them (the lowering decodes the joined
 * rows); their key columns are decoded to CozoDB values to be compared with the left rows',
 * as a join of the decoded relation compares them. A lookup finds every row whose decoded key
 * is the value looked up (and perhaps more, which the comparison drops).
 */
public final class IndexJoinRun {
  /**
   * Values are looked up when they are at most a {@code LOOKUP_SHARE}th of the table's rows:
   * each lookup costs HSQLDB a walk down its index and the row, some times what reading a row
   * of the whole table costs.
   */
  public static final int LOOKUP_SHARE = 8;

  /** The most left rows held while deciding; beyond, the table is read. */
  static final int MAX_HELD = 1 << 16;

  private IndexJoinRun() {
  }

  /** How a value a left row binds is looked up in the store's index. */
  @FunctionalInterface
  public interface LookupValue {
    /**
     * The stored value (as Calcite holds it) of the looked-up column where a row's CozoDB value
     * is {@code value}; null when no row holds a non-null {@code value} through one stored
     * value (another type, a codec), which no lookup then finds.
     */
    Object stored(Object value);
  }

  /**
   * What the planner hands the runtime (stashed, never written as code).
   *
   * @param description the atom as the plan shows it
   * @param table the stored name of the relation's table
   * @param leftKeys per key, the left row's column
   * @param rightKeys per key, the table's column
   * @param codecs per key, the codec decoding its column's stored values to CozoDB values
   *     ({@link CozoCalls.Codec#decode}), or null for {@link CozoCalls#value}
   * @param lookupKey the key whose column an index of the store leads with
   * @param lookup the looked-up column's stored values
   */
  public record Spec(String description, String table, int[] leftKeys, int[] rightKeys,
      CozoCalls.Codec[] codecs, int lookupKey, LookupValue lookup) {
  }

  /**
   * The left rows each followed by each row of the table (the right input: the whole table,
   * its columns read as {@code reads} say) that holds its keys. What one enumeration read of
   * the table is kept for the next (a fixpoint's next round): the values looked up and the
   * rows they found, or the whole table once read.
   */
  public static Enumerable<Object[]> join(DataContext root, Enumerable<Object[]> left,
      Enumerable<Object[]> right, StoreReads.Read[] reads, Spec spec) {
    final Found found = new Found(root, right, reads, spec);
    return new AbstractEnumerable<Object[]>() {
      @Override public Enumerator<Object[]> enumerator() {
        return Linq4j.enumerator(found.join(left));
      }
    };
  }

  /** The table's rows read so far by one join, hashed by its keys. */
  private static final class Found {
    private final DataContext root;
    private final Enumerable<Object[]> right;
    private final StoreReads.Read[] reads;
    private final Spec spec;
    private final Map<List<Object>, List<Object[]>> byKey = new HashMap<>();
    /** The looked-up column's values looked up so far. */
    private final Set<Object> looked = new HashSet<>();
    /** Whether the whole table has been read. */
    private boolean whole;

    Found(DataContext root, Enumerable<Object[]> right, StoreReads.Read[] reads, Spec spec) {
      this.root = root;
      this.right = right;
      this.reads = reads;
      this.spec = spec;
    }

    List<Object[]> join(Enumerable<Object[]> left) {
      final List<Object[]> held = new ArrayList<>();
      final Set<Object> values = new HashSet<>();
      final Enumerator<Object[]> in = left.enumerator();
      try {
        boolean lookups = !whole;
        if (lookups) {
          final long share = StoreCatalog.rowCount(Session.of(root.getRootSchema()),
              spec.table()) / LOOKUP_SHARE;
          while (in.moveNext()) {
            final Object[] row = in.current();
            held.add(row);
            final Object bound = row[spec.leftKeys()[spec.lookupKey()]];
            final Object value = bound == null ? null : spec.lookup().stored(bound);
            if (value != null && !looked.contains(value)) {
              values.add(value);
            }
            // a null: no index walk finds the rows holding it
            if (bound == null || looked.size() + values.size() > share
                || held.size() >= MAX_HELD) {
              lookups = false;
              break;
            }
          }
          if (held.isEmpty()) {
            return List.of();
          }
        }
        final List<Object[]> rows = !lookups ? null : values.isEmpty() ? List.of()
            : StoreReads.lookup(root, spec.table(), reads, spec.rightKeys()[spec.lookupKey()],
                values);
        if (rows != null) {
          looked.addAll(values);
          rows.forEach(this::add);
        } else if (!whole) {
          byKey.clear();
          right.forEach(this::add);
          whole = true;
        }
        final List<Object[]> out = new ArrayList<>();
        for (Object[] l : held) {
          probe(l, byKey, spec, out);
        }
        while (in.moveNext()) {
          probe(in.current(), byKey, spec, out);
        }
        return out;
      } finally {
        in.close();
      }
    }

    /** Adds a row of the table, hashed by its keys decoded. */
    private void add(Object[] r) {
      final Object[] key = new Object[spec.rightKeys().length];
      for (int k = 0; k < key.length; k++) {
        final Object stored = r[spec.rightKeys()[k]];
        final CozoCalls.Codec codec = spec.codecs()[k];
        key[k] = codec == null ? CozoCalls.value(stored) : codec.decode(stored);
      }
      byKey.computeIfAbsent(Arrays.asList(key), k -> new ArrayList<>(1)).add(r);
    }
  }

  /** Adds the left row {@code l} followed by each right row holding its keys to {@code out}. */
  private static void probe(Object[] l, Map<List<Object>, List<Object[]>> byKey, Spec spec,
      List<Object[]> out) {
    final Object[] key = new Object[spec.leftKeys().length];
    for (int k = 0; k < key.length; k++) {
      key[k] = l[spec.leftKeys()[k]];
    }
    final List<Object[]> matches = byKey.get(Arrays.asList(key));
    if (matches == null) {
      return;
    }
    for (Object[] r : matches) {
      final Object[] row = Arrays.copyOf(l, l.length + r.length);
      System.arraycopy(r, 0, row, l.length, r.length);
      out.add(row);
    }
  }
}
