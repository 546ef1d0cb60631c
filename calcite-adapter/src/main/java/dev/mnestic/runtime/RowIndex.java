package dev.mnestic.runtime;

import java.util.Arrays;

/**
 * Packed rows of Ints ({@link RowList}) grouped by the value of one column, to probe with a
 * {@code long} and read the matching rows' values with no row, key or boxed value made: an
 * open-addressing table from value to group, and per group its rows, in their order in the
 * list (as a hash join over the list would give them). Two kinds:
 * <ul>
 *   <li>{@link Grouped}, of rows that no longer change (a stored relation's copy, a delta):
 *       the rows copied group after group, each group's read in one sweep;
 *   <li>{@link Growing}, of a list that only grows (a set-semantics relation's full table
 *       during its fixpoint): each round {@link Growing#catchUp} links the rows added since
 *       into their groups, where a {@link Grouped} index would be built anew over them all.
 * </ul>
 */
abstract sealed class RowIndex permits RowIndex.Grouped, RowIndex.Growing {
  /** Slot to value; a slot is in use when its {@link #slots} entry is not 0. */
  private long[] keys;
  /** Slot to its group + 1; 0 for an empty slot. */
  private int[] slots;
  /** How many groups there are: the values seen. */
  int groups;
  /**
   * Once the groups are all made ({@link #lookUpDirectly}) and their values dense: value minus
   * {@link #low} to its group, -1 for none; else null.
   */
  private int[] direct;
  private long low;

  /**
   * An empty index; the table grows with the groups (sized by the rows, a million rows of a
   * hundred thousand values would spread over a table ten times too large for the caches).
   */
  RowIndex() {
    keys = new long[16];
    slots = new int[16];
  }

  /** The group of the rows whose column holds {@code key}; -1 for none. */
  final int group(long key) {
    if (direct != null) {
      final long at = key - low;
      return at >= 0 && at < direct.length ? direct[(int) at] : -1;
    }
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

  /** The group of {@code key}, the next new one ({@link #groups} before) if it had none. */
  final int add(long key) {
    if (2 * (groups + 1) > keys.length) {
      grow();
    }
    final int mask = keys.length - 1;
    int i = slot(key, mask);
    while (slots[i] != 0 && keys[i] != key) {
      i = (i + 1) & mask;
    }
    if (slots[i] == 0) {
      keys[i] = key;
      slots[i] = ++groups;
    }
    return slots[i] - 1;
  }

  /**
   * Looks values up in an array over their range from now on, no hash and no probe, if they
   * lie within four slots a group (node ids 0..n); called once no group is added any more.
   */
  final void lookUpDirectly() {
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    for (int i = 0; i < keys.length; i++) {
      if (slots[i] != 0) {
        lo = Math.min(lo, keys[i]);
        hi = Math.max(hi, keys[i]);
      }
    }
    // hi - lo overflows to a negative for values far apart
    if (groups == 0 || hi - lo < 0 || hi - lo >= 4L * groups + 64) {
      return;
    }
    final int[] byValue = new int[(int) (hi - lo + 1)];
    Arrays.fill(byValue, -1);
    for (int i = 0; i < keys.length; i++) {
      if (slots[i] != 0) {
        byValue[(int) (keys[i] - lo)] = slots[i] - 1;
      }
    }
    low = lo;
    direct = byValue;
  }

  private void grow() {
    final long[] oldKeys = keys;
    final int[] oldSlots = slots;
    keys = new long[2 * oldKeys.length];
    slots = new int[2 * oldKeys.length];
    final int mask = keys.length - 1;
    for (int k = 0; k < oldKeys.length; k++) {
      if (oldSlots[k] != 0) {
        int i = slot(oldKeys[k], mask);
        while (slots[i] != 0) {
          i = (i + 1) & mask;
        }
        keys[i] = oldKeys[k];
        slots[i] = oldSlots[k];
      }
    }
  }

  private static int slot(long key, int mask) {
    final long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  /** Rows that no longer change, copied group after group. */
  static final class Grouped extends RowIndex {
    /** Group g's rows are rows {@code starts[g]} to {@code starts[g + 1] - 1} of {@link #values}. */
    private final int[] starts;
    /** The rows, {@code arity} values each, group after group. */
    final long[] values;

    /**
     * Indexes the rows of {@code list} (packed) by column {@code column}. Rows that come
     * grouped already (a stored relation read in its key's order, indexed by its first column)
     * are looked up once a run of equal values and copied in one piece.
     */
    Grouped(RowList list, int column) {
      final int size = list.size();
      final long[] packed = list.packedValues();
      final int arity = size == 0 ? 1 : list.arity();
      final int[] groupOf = new int[size];
      int[] counts = new int[16];
      // whether each group's rows are one run, the groups in order: the rows as they are
      boolean grouped = true;
      int g = -1;
      for (int r = 0; r < size; r++) {
        final long key = packed[r * arity + column];
        if (r == 0 || key != packed[(r - 1) * arity + column]) {
          final int made = groups;
          g = add(key);
          grouped &= g == made;
          if (g == counts.length) {
            counts = Arrays.copyOf(counts, 2 * counts.length);
          }
        }
        groupOf[r] = g;
        counts[g]++;
      }
      starts = new int[groups + 1];
      for (int k = 0; k < groups; k++) {
        starts[k + 1] = starts[k] + counts[k];
      }
      lookUpDirectly();
      if (grouped) {
        values = Arrays.copyOf(packed, size * arity);
        return;
      }
      final int[] next = Arrays.copyOf(starts, groups);
      values = new long[size * arity];
      for (int r = 0; r < size; r++) {
        System.arraycopy(packed, r * arity, values, next[groupOf[r]]++ * arity, arity);
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
  }

  /**
   * A list that only grows, indexed in place: each group's rows linked first to last through
   * {@link #next}, row numbers of the list (its packed values are read where they are).
   */
  static final class Growing extends RowIndex {
    private final RowList list;
    private final int column;
    /** Group g's first and last row; -1 before it has any. */
    private int[] first = new int[16];
    private int[] last = new int[16];
    /** Row r's successor in its group, -1 after the last. */
    int[] next = new int[16];
    /** The rows indexed: the list's first {@code indexed}. */
    private int indexed;

    /** An index of {@code list} (packed) by column {@code column}; empty until caught up. */
    Growing(RowList list, int column) {
      this.list = list;
      this.column = column;
    }

    /**
     * Links in the rows the list gained since the last call; returns this. The list must have
     * only grown since (packed).
     */
    Growing catchUp() {
      final int size = list.size();
      if (size > next.length) {
        next = Arrays.copyOf(next, Math.max(size, 2 * next.length));
      }
      final long[] packed = list.packedValues();
      final int arity = list.arity();
      for (int r = indexed; r < size; r++) {
        final int made = groups;
        final int g = add(packed[r * arity + column]);
        if (g == made) {
          if (g == first.length) {
            first = Arrays.copyOf(first, 2 * g);
            last = Arrays.copyOf(last, 2 * g);
          }
          first[g] = r;
        } else {
          next[last[g]] = r;
        }
        last[g] = r;
        next[r] = -1;
      }
      indexed = size;
      return this;
    }

    /** The first row of group {@code g}. */
    int first(int g) {
      return first[g];
    }

    /** The packed values the rows are read from (the list's, until it next grows). */
    long[] values() {
      return list.packedValues();
    }
  }
}
