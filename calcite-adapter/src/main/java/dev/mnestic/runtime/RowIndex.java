package dev.mnestic.runtime;

import java.util.Arrays;

/**
 * Packed rows of Ints ({@link RowList}) grouped by the value of one column, to probe with a
 * {@code long} and read the matching rows' values with no row, key or boxed value made: an
 * open-addressing table from value to group, and the rows copied group after group (each
 * group's rows in their order in the list, as a hash join over the list would give them).
 */
final class RowIndex {
  /** Slot to value; a slot is in use when its {@link #slots} entry is not 0. */
  private final long[] keys;
  /** Slot to its group + 1; 0 for an empty slot. */
  private final int[] slots;
  /** Group g's rows are rows {@code starts[g]} to {@code starts[g + 1] - 1} of {@link #values}. */
  private final int[] starts;
  /** The rows, {@link #arity} values each, group after group. */
  final long[] values;
  final int arity;

  /** Indexes the rows of {@code list} (packed) by column {@code column}. */
  RowIndex(RowList list, int column) {
    final int size = list.size();
    final long[] packed = list.packedValues();
    arity = size == 0 ? 1 : list.arity();
    int capacity = 2;
    while (capacity < 2 * size) {
      capacity *= 2;
    }
    keys = new long[capacity];
    slots = new int[capacity];
    final int mask = capacity - 1;
    final int[] groupOf = new int[size];
    int[] counts = new int[16];
    int groups = 0;
    for (int r = 0; r < size; r++) {
      final long key = packed[r * arity + column];
      int i = slot(key, mask);
      while (slots[i] != 0 && keys[i] != key) {
        i = (i + 1) & mask;
      }
      if (slots[i] == 0) {
        keys[i] = key;
        slots[i] = ++groups;
        if (groups > counts.length) {
          counts = Arrays.copyOf(counts, 2 * counts.length);
        }
      }
      groupOf[r] = slots[i] - 1;
      counts[groupOf[r]]++;
    }
    starts = new int[groups + 1];
    for (int g = 0; g < groups; g++) {
      starts[g + 1] = starts[g] + counts[g];
    }
    final int[] next = Arrays.copyOf(starts, groups);
    values = new long[size * arity];
    for (int r = 0; r < size; r++) {
      System.arraycopy(packed, r * arity, values, next[groupOf[r]]++ * arity, arity);
    }
  }

  /** The group of the rows whose column holds {@code key}; -1 for none. */
  int group(long key) {
    final int mask = keys.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      if (slots[i] == 0) {
        return -1;
      }
      if (keys[i] == key) {
        return slots[i] - 1;
      }
    }
  }

  /** The first row of group {@code g}. */
  int start(int g) {
    return starts[g];
  }

  /** The row after the last of group {@code g}. */
  int end(int g) {
    return starts[g + 1];
  }

  private static int slot(long key, int mask) {
    final long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }
}
