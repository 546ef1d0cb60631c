package dev.mnestic.runtime;

import dev.mnestic.value.Aggregators;
import dev.mnestic.value.BoundedMeet;
import dev.mnestic.value.HeadAggregation;
import dev.mnestic.value.Values;

import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runtime of {@link dev.mnestic.rel.DatalogAggregate}, and the grouping that
 * {@link SemiNaive} shares: rows are a head's columns followed by their
 * position in CozoDB's evaluation order, and are fed to the aggregations in
 * that order.
 */
public final class Aggregation {
  private Aggregation() {
  }

  /**
   * Groups {@code rows} by the grouping keys of {@code aggregations} and
   * aggregates the other columns: with the meet forms for a head of
   * {@link HeadAggregation#meetKind meet kind}, else with the normal forms.
   * Each row has one column more than {@code aggregations}: its position
   * in the evaluation order. A head of
   * {@link HeadAggregation#boundedMeetKind bounded-meet kind} gives a row per
   * survivor of each group. With no aggregation at all, the distinct rows.
   */
  public static Enumerable<Object[]> group(Enumerable<Object[]> rows,
      HeadAggregation aggregations) {
    if (!aggregations.aggregated()) {
      return distinct(rows);
    }
    if (aggregations.boundedMeetKind()) {
      final BoundedGroups groups = new BoundedGroups(aggregations);
      for (Object[] row : rows) {
        groups.offer(row);
      }
      return Linq4j.asEnumerable(groups.rows());
    }
    final List<Object[]> input = new ArrayList<>();
    for (Object[] row : rows) {
      input.add(row);
    }
    return Linq4j.asEnumerable(aggregations.meetKind()
        ? meet(input, aggregations) : normal(input, aggregations));
  }

  /**
   * As {@link #group} over the rows of {@code table} projected to {@code columns} (per column,
   * one of the table's, or -1 for a null), for a head whose columns are all aggregated, of
   * normal kind and blind to order (one group): packed rows are read as they lie, each
   * aggregated value handed over unboxed ({@code count} boxes none), no row made.
   */
  public static Enumerable<Object[]> groupColumns(RowTable table, int[] columns,
      HeadAggregation aggregations) {
    final RowList list = table.list();
    final int size = list.size();
    if (!list.isPacked()) {
      final List<Object[]> input = new ArrayList<>(size);
      for (Object[] row : list) {
        final Object[] projected = new Object[columns.length];
        for (int k = 0; k < columns.length; k++) {
          projected[k] = columns[k] < 0 ? null : row[columns[k]];
        }
        input.add(projected);
      }
      return Linq4j.asEnumerable(normal(input, aggregations));
    }
    final Aggregators.Aggregator[] aggs = create(aggregations);
    final long[] values = list.packedValues();
    final int arity = list.arity();
    for (int i = 0; i < aggs.length; i++) {
      final int column = columns[i];
      final Aggregators.Aggregator agg = aggs[i];
      for (int r = 0; r < size; r++) {
        if (column < 0) {
          agg.add(null);
        } else {
          agg.add(values[r * arity + column]);
        }
      }
    }
    return Linq4j.asEnumerable(List.<Object[]>of(results(aggs, new Object[aggs.length])));
  }

  /** {@code row} with each aggregated column's result in place. */
  private static Object[] results(Aggregators.Aggregator[] aggs, Object[] row) {
    for (int i = 0; i < aggs.length; i++) {
      if (aggs[i] != null) {
        row[i] = aggs[i].result();
      }
    }
    return row;
  }

  private static Enumerable<Object[]> distinct(Enumerable<Object[]> rows) {
    final RowSet seen = new RowSet();
    final List<Object[]> out = new ArrayList<>();
    for (Object[] row : rows) {
      if (seen.add(row)) {
        out.add(row);
      }
    }
    return Linq4j.asEnumerable(out);
  }

  /**
   * Sorts rows into CozoDB's evaluation order by their last column, unless
   * the aggregations cannot tell the order.
   */
  static void order(List<Object[]> rows, HeadAggregation aggregations) {
    if (!aggregations.orderBlind()) {
      final int last = aggregations.width();
      rows.sort((a, b) -> Values.compare(a[last], b[last]));
    }
  }

  /** Groups with the normal forms; without grouping keys, one row even for no input (count 0). */
  static List<Object[]> normal(List<Object[]> input, HeadAggregation aggregations) {
    order(input, aggregations);
    final Map<RowKey, Aggregators.Aggregator[]> groups = new LinkedHashMap<>();
    final Map<RowKey, Object[]> keys = new LinkedHashMap<>();
    // Without grouping keys every row is in one group: no key made or looked up per row.
    final RowKey oneGroup = aggregations.noKeys() ? new RowKey(new Object[0]) : null;
    RowKey lastKey = null;
    Aggregators.Aggregator[] aggs = null;
    for (Object[] row : input) {
      final RowKey key = oneGroup != null ? oneGroup : key(row, aggregations);
      if (key != lastKey) {
        lastKey = key;
        aggs = groups.get(key);
        if (aggs == null) {
          aggs = create(aggregations);
          groups.put(key, aggs);
          keys.put(key, row);
        }
      }
      for (int i = 0; i < aggs.length; i++) {
        if (aggs[i] != null) {
          aggs[i].add(row[i]);
        }
      }
    }
    final List<Object[]> out = new ArrayList<>();
    if (groups.isEmpty() && aggregations.noKeys()) {
      out.add(results(create(aggregations), new Object[aggregations.width()]));
    }
    groups.forEach((key, group) ->
        out.add(results(group, Arrays.copyOf(keys.get(key), aggregations.width()))));
    return out;
  }

  /** Groups with the meet forms; without grouping keys, one row even for no input. */
  private static List<Object[]> meet(List<Object[]> input, HeadAggregation aggregations) {
    order(input, aggregations);
    final MeetGroups groups = new MeetGroups(aggregations);
    for (Object[] row : input) {
      groups.merge(row);
    }
    groups.addEmptyGroup();
    return new ArrayList<>(groups.rows());
  }

  /** One group's fresh normal aggregators, null for the grouping keys. */
  private static Aggregators.Aggregator[] create(HeadAggregation aggregations) {
    final Aggregators.Aggregator[] a = new Aggregators.Aggregator[aggregations.width()];
    for (int i = 0; i < a.length; i++) {
      a[i] = aggregations.create(i);
    }
    return a;
  }

  /** A row's grouping key: its columns that are the head's grouping keys. */
  static RowKey key(Object[] row, HeadAggregation aggregations) {
    int n = 0;
    for (int c = 0; c < aggregations.width(); c++) {
      n += aggregations.isKey(c) ? 1 : 0;
    }
    final Object[] values = new Object[n];
    n = 0;
    for (int c = 0; c < aggregations.width(); c++) {
      if (aggregations.isKey(c)) {
        values[n++] = row[c];
      }
    }
    return new RowKey(values);
  }

  /**
   * One row per group, merged with the meet forms (CozoDB's
   * {@code MeetAggrStore}): a group's first row is taken as it is, later
   * ones merged into it.
   */
  static final class MeetGroups {
    private final HeadAggregation aggregations;
    private final Aggregators.Meet[] meets;
    private final Map<RowKey, Object[]> best = new LinkedHashMap<>();

    MeetGroups(HeadAggregation aggregations) {
      this.aggregations = aggregations;
      this.meets = new Aggregators.Meet[aggregations.width()];
      for (int i = 0; i < meets.length; i++) {
        meets[i] = aggregations.meet(i);
      }
    }

    /**
     * Merges a row (its first {@code aggregations.width()} columns); returns
     * the group's key if the group is new or changed, else null.
     */
    RowKey merge(Object[] row) {
      final RowKey key = key(row, aggregations);
      final Object[] current = best.get(key);
      if (current == null) {
        best.put(key, Arrays.copyOf(row, meets.length));
        return key;
      }
      boolean changed = false;
      for (int c = 0; c < meets.length; c++) {
        if (meets[c] != null) {
          changed |= meets[c].merge(current, c, row[c]);
        }
      }
      return changed ? key : null;
    }

    /**
     * Without grouping keys and without rows, CozoDB's one group of each
     * aggregation's value for no values; returns its key, else null.
     */
    RowKey addEmptyGroup() {
      if (!best.isEmpty() || Arrays.stream(meets).anyMatch(m -> m == null)) {
        return null;
      }
      final Object[] row = new Object[meets.length];
      for (int i = 0; i < row.length; i++) {
        row[i] = meets[i].emptyMeet();
      }
      final RowKey key = new RowKey(new Object[0]);
      best.put(key, row);
      return key;
    }

    Object[] get(RowKey key) {
      return best.get(key);
    }

    /** The groups' rows, in the order the groups were first seen. */
    Collection<Object[]> rows() {
      return best.values();
    }
  }

  /**
   * Each group's survivors under a {@linkplain BoundedMeet bounded-meet}
   * aggregation, the head's last column (the columns before it are the
   * group's key).
   */
  static final class BoundedGroups {
    private final int width;
    private final BoundedMeet aggregation;
    private final Map<RowKey, BoundedMeet.Survivors> groups = new LinkedHashMap<>();

    BoundedGroups(HeadAggregation aggregations) {
      this.width = aggregations.width();
      this.aggregation = aggregations.boundedMeet();
    }

    /**
     * Offers a row's value to its group; returns the group's key when the
     * value joined the survivors, else null.
     */
    RowKey offer(Object[] row) {
      final RowKey key = new RowKey(Arrays.copyOf(row, width - 1));
      final BoundedMeet.Survivors survivors =
          groups.computeIfAbsent(key, k -> aggregation.survivors());
      return survivors.offer(row[width - 1]) ? key : null;
    }

    /** Whether a row (its first {@code width} columns) is a survivor of its group now. */
    boolean survives(Object[] row) {
      final BoundedMeet.Survivors survivors =
          groups.get(new RowKey(Arrays.copyOf(row, width - 1)));
      return survivors != null && survivors.contains(row[width - 1]);
    }

    /** A row per survivor: groups in the order first seen, each group's survivors in their order. */
    List<Object[]> rows() {
      final List<Object[]> rows = new ArrayList<>();
      groups.forEach((key, survivors) -> {
        for (Object value : survivors.values()) {
          final Object[] row = Arrays.copyOf(key.values(), width);
          row[width - 1] = value;
          rows.add(row);
        }
      });
      return rows;
    }
  }
}
