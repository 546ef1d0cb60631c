package dev.mnestic.runtime;

import dev.mnestic.value.Aggregators;
import dev.mnestic.value.Values;

import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Runtime of {@link dev.mnestic.rel.DatalogAggregate}. */
public final class Aggregation {
  /** Aggregations whose result does not depend on the order of their input. */
  private static final Set<String> ORDER_BLIND = Set.of(
      "count", "count_unique", "unique", "group_count", "union", "and", "or");

  private Aggregation() {
  }

  /**
   * Groups {@code rows} by the columns whose aggregation is null and
   * aggregates the others; with no aggregation at all, the distinct rows.
   */
  public static Enumerable<Object[]> group(Enumerable<Object[]> rows, String[] aggregations) {
    if (Arrays.stream(aggregations).allMatch(a -> a == null)) {
      return distinct(rows);
    }
    final List<Object[]> input = new ArrayList<>();
    for (Object[] row : rows) {
      input.add(row);
    }
    // CozoDB feeds a group's values in the value order of its rows; only
    // some aggregations can tell (float sums round by order).
    if (!Arrays.stream(aggregations).allMatch(a -> a == null || ORDER_BLIND.contains(a))) {
      input.sort((a, b) -> Values.compare(Arrays.asList(a), Arrays.asList(b)));
    }
    final Map<RowKey, Aggregators.Aggregator[]> groups = new LinkedHashMap<>();
    for (Object[] row : input) {
      final List<Object> key = new ArrayList<>();
      for (int i = 0; i < aggregations.length; i++) {
        if (aggregations[i] == null) {
          key.add(row[i]);
        }
      }
      final Aggregators.Aggregator[] aggs = groups.computeIfAbsent(new RowKey(key.toArray()), k -> {
        final Aggregators.Aggregator[] a = new Aggregators.Aggregator[aggregations.length];
        for (int i = 0; i < aggregations.length; i++) {
          if (aggregations[i] != null) {
            a[i] = Aggregators.create(aggregations[i]);
          }
        }
        return a;
      });
      for (int i = 0; i < aggregations.length; i++) {
        if (aggs[i] != null) {
          aggs[i].add(row[i]);
        }
      }
    }
    if (groups.isEmpty() && Arrays.stream(aggregations).allMatch(a -> a != null)) {
      // No grouping key: one row even for no input, as CozoDB gives (count 0).
      final Aggregators.Aggregator[] empty = new Aggregators.Aggregator[aggregations.length];
      for (int i = 0; i < aggregations.length; i++) {
        empty[i] = Aggregators.create(aggregations[i]);
      }
      groups.put(new RowKey(new Object[0]), empty);
    }
    final List<Object[]> out = new ArrayList<>();
    groups.forEach((key, aggs) -> {
      final Object[] row = new Object[aggregations.length];
      int k = 0;
      for (int i = 0; i < aggregations.length; i++) {
        row[i] = aggs[i] == null ? key.values()[k++] : aggs[i].result();
      }
      out.add(row);
    });
    return Linq4j.asEnumerable(out);
  }

  private static Enumerable<Object[]> distinct(Enumerable<Object[]> rows) {
    final Set<RowKey> seen = new HashSet<>();
    final List<Object[]> out = new ArrayList<>();
    for (Object[] row : rows) {
      if (seen.add(new RowKey(row))) {
        out.add(row);
      }
    }
    return Linq4j.asEnumerable(out);
  }
}
