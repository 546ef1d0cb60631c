package dev.mnestic.runtime;

import java.util.Arrays;

/**
 * A row (or a group's key columns) as a hash key: equal when its values are
 * {@code equals}. {@code List.hashCode} and {@code Arrays.hashCode}
 * (31 * h + e) collide heavily for rows of small integers, which degrades a
 * HashMap to tree bins; this mixes each value's hash.
 */
public final class RowKey {
  private final Object[] values;
  private final int hash;

  public RowKey(Object[] values) {
    this.values = values;
    this.hash = hash(values);
  }

  /** The hash of a row: each value's hash mixed in. */
  static int hash(Object[] values) {
    long h = 0x9E3779B97F4A7C15L;
    for (Object v : values) {
      h = (h ^ (v == null ? 0 : v.hashCode())) * 0xBF58476D1CE4E5B9L;
      h ^= h >>> 31;
    }
    return (int) (h ^ (h >>> 32));
  }

  /** The values, in order (not copied). */
  public Object[] values() {
    return values;
  }

  @Override public int hashCode() {
    return hash;
  }

  @Override public boolean equals(Object o) {
    return o instanceof RowKey && Arrays.equals(values, ((RowKey) o).values);
  }
}
