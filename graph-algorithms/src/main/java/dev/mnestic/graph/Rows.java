package dev.mnestic.graph;

import dev.mnestic.value.FixedRule.Input;
import dev.mnestic.value.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An input relation's rows by their first value, as CozoDB's {@code prefix_iter} reads a
 * relation: the rows starting with a key, in the relation's order.
 */
final class Rows {
  private final Map<Object, List<Object[]>> byFirst = new TreeMap<>(Values.ORDER);

  Rows(Input input) {
    for (Object[] row : input.rows()) {
      if (row.length > 0) {
        byFirst.computeIfAbsent(row[0], k -> new ArrayList<>()).add(row);
      }
    }
  }

  /** The rows whose first value is {@code key}; empty when none. */
  List<Object[]> startingWith(Object key) {
    return byFirst.getOrDefault(key, List.of());
  }

  /** The first row whose first value is {@code key}; null when none. */
  Object[] first(Object key) {
    List<Object[]> rows = byFirst.get(key);
    return rows == null ? null : rows.get(0);
  }
}
