package dev.mnestic.runtime;

import com.google.common.collect.ImmutableList;

import dev.mnestic.store.StoreReads;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.EnumerableDefaults;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Lookup;
import org.apache.calcite.linq4j.function.EqualityComparer;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptSchema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.RelOptTableImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.util.BuiltInMethod;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * An in-memory relation of {@code Object[]} rows that Datalog evaluation
 * fills and scans: a stratum's result, a recursive relation's {@code full}
 * and {@code delta}, a copy of a stored relation. Rows of Ints are kept
 * packed ({@link RowList}); a scan reads fresh rows.
 *
 * <p>Generated code finds the table in its {@link DataContext}, under the
 * table's name ({@code root.get(name)}), and scans its list directly. So a
 * plan over row tables runs only with a context that holds them
 * ({@code dev.mnestic.rel.Plans.run}); nothing is registered in a schema. (Calcite's own
 * {@code TransientTable} cannot be scanned by generated code at all:
 * Calcite runs such scans in its interpreter, per row and per round.)
 *
 * <p>A table whose rows are final ({@link #fix}) keeps the lookups hash
 * joins build over it: a recursive rule's join with a stored relation
 * builds its hash table over the relation once, not every round.
 */
public final class RowTable extends AbstractTable implements ScannableTable {
  private final String name;
  private final RelDataType rowType;
  private RowList rows = new RowList();
  /** Once the rows are final: the lookups built over them, by key selector and comparer. */
  private Map<List<Object>, Lookup<?, Object[]>> lookups;
  /** Once the rows are final: their {@link RowIndex}es, by column. */
  private Map<Integer, RowIndex.Grouped> indexes = new HashMap<>();
  /** Whether the rows and indexes are a kept copy's ({@link #fix(StoreReads.Packed)}). */
  private boolean kept;

  private RowTable(String name, RelDataType rowType) {
    this.name = name;
    this.rowType = rowType;
  }

  /**
   * A new empty row table named {@code name}, for plans of {@code schema}: the name generated
   * code finds it by, unique among the tables the plans of one context read (a plan made
   * again with its tables named alike is the same program, compiled once: {@code
   * dev.mnestic.rel.Plans}).
   */
  public static RelOptTable create(RelOptSchema schema, String name, RelDataType rowType) {
    final RowTable table = new RowTable(name, rowType);
    // Schemas.enumerable((ScannableTable) root.get(name), root)
    final Expression scan = Expressions.call(BuiltInMethod.SCHEMAS_ENUMERABLE_SCANNABLE.method,
        Expressions.convert_(Expressions.call(DataContext.ROOT, BuiltInMethod.DATA_CONTEXT_GET.method,
            Expressions.constant(table.name)), ScannableTable.class),
        DataContext.ROOT);
    // Deprecated for tables of a CalciteSchema; a row table is in none.
    @SuppressWarnings("deprecation")
    final RelOptTable created =
        RelOptTableImpl.create(schema, rowType, ImmutableList.of(table.name), table, scan);
    return created;
  }

  /** The row table behind {@code table}. */
  public static RowTable of(RelOptTable table) {
    return requireNonNull(table.unwrap(RowTable.class), () -> table + " is not a row table");
  }

  /** The rows themselves, packed or not, for the runtime's own readers and writers. */
  RowList list() {
    return rows;
  }

  /** Whether the rows are {@link #fix fixed}. */
  boolean fixed() {
    return lookups != null;
  }

  /** The fixed rows, packed, indexed by column {@code column}: built once, then kept. */
  synchronized RowIndex.Grouped index(int column) {
    if (lookups == null) {
      throw new IllegalStateException(name + " is not fixed");
    }
    return indexes.computeIfAbsent(column, c -> new RowIndex.Grouped(rows, c));
  }

  /** The name generated code looks the table up by. */
  public String name() {
    return name;
  }

  /** The rows, to read, and to write in place until they are {@link #fix fixed}. */
  public List<Object[]> rows() {
    return lookups == null ? rows : Collections.unmodifiableList(rows);
  }

  /**
   * Declares the rows final: from now on they are only read, and a hash
   * join that builds a lookup over them (generated code calls
   * {@code toLookup} on the scan each time it is enumerated) gets the one
   * built the first time for the same key selector.
   */
  public void fix() {
    if (lookups == null) {
      lookups = new HashMap<>();
    }
  }

  /**
   * Fixes the empty table's rows as those of {@code copy}, a stored relation's packed copy,
   * which may be kept for later statements ({@link StoreReads#longs}): its rows and the
   * indexes built over them are the copy's, shared with every table fixed from it, read only.
   */
  public synchronized void fix(StoreReads.Packed copy) {
    if (!rows.isEmpty() || lookups != null) {
      throw new IllegalStateException(name + " is not empty");
    }
    rows = copy.derived(RowList.class, () -> RowList.packed(copy.values(), copy.width()));
    indexes = copy.derived(RowIndex.class, ConcurrentHashMap::new);
    kept = true;
    fix();
  }

  /**
   * Empties the table for an evaluation run again over the same tables: no rows (their memory
   * let go, unless a kept copy's), not {@link #fix fixed}, nothing built over them kept.
   */
  public synchronized void reset() {
    if (kept) {
      rows = new RowList();
      indexes = new HashMap<>();
      kept = false;
    } else {
      rows.release();
      indexes.clear();
    }
    lookups = null;
  }

  @Override public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return rowType;
  }

  @Override public Enumerable<Object[]> scan(DataContext root) {
    return lookups == null ? rows.enumerable() : new FixedRows();
  }

  /** The scan of fixed rows: their lookups are kept (key selectors compare by identity). */
  private final class FixedRows extends AbstractEnumerable<Object[]> {
    @Override public Enumerator<Object[]> enumerator() {
      return rows.enumerable().enumerator();
    }

    @Override public <K> Lookup<K, Object[]> toLookup(Function1<Object[], K> keySelector) {
      return toLookup(keySelector, (EqualityComparer<K>) null);
    }

    @SuppressWarnings("unchecked")
    @Override public <K> Lookup<K, Object[]> toLookup(Function1<Object[], K> keySelector,
        EqualityComparer<K> comparer) {
      return (Lookup<K, Object[]>) lookups.computeIfAbsent(Arrays.asList(keySelector, comparer),
          k -> comparer == null
              ? EnumerableDefaults.toLookup(rows.enumerable(), keySelector)
              : EnumerableDefaults.toLookup(rows.enumerable(), keySelector, comparer));
    }
  }
}
