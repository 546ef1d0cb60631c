package dev.mnestic.runtime;

import java.util.Arrays;

/**
 * A set of rows ({@code Object[]}, equal when their values are
 * {@code equals}), for deduplication on the hot path of recursion and
 * distinct: open addressing with linear probing over the rows themselves and
 * their hashes, so an added row costs no key or entry object. Hashes are
 * {@link RowKey}'s (each value's hash mixed in), not {@code 31 * h + e},
 * which collides heavily on rows of small integers.
 *
 * <p>Rows of one Int, or of two Ints that fit in 32 bits (edges, pairs of
 * ids: most recursive relations), go into sets of packed {@code long}s
 * instead: one array probe, no row touched (equal packed keys are equal
 * rows, and such a row equals no other kind of row).
 */
public final class RowSet {
  private Object[][] rows = new Object[16][];
  private int[] hashes = new int[16];
  private int size;
  private final LongSet ints = new LongSet();
  private final LongSet intPairs = new LongSet();

  /** Adds {@code row} (kept, not copied); whether it was new. */
  public boolean add(Object[] row) {
    if (row.length == 1 && row[0] instanceof Long) {
      return ints.add((Long) row[0]);
    }
    if (row.length == 2 && row[0] instanceof Long && row[1] instanceof Long) {
      final long a = (Long) row[0];
      final long b = (Long) row[1];
      if (a == (int) a && b == (int) b) {
        return intPairs.add(a << 32 | (b & 0xFFFFFFFFL));
      }
    }
    if (2 * (size + 1) > rows.length) {
      grow();
    }
    final int hash = RowKey.hash(row);
    final int mask = rows.length - 1;
    for (int i = hash & mask; ; i = (i + 1) & mask) {
      final Object[] r = rows[i];
      if (r == null) {
        rows[i] = row;
        hashes[i] = hash;
        size++;
        return true;
      }
      if (hashes[i] == hash && Arrays.equals(r, row)) {
        return false;
      }
    }
  }

  public int size() {
    return size + ints.size + intPairs.size;
  }

  private void grow() {
    final Object[][] oldRows = rows;
    final int[] oldHashes = hashes;
    rows = new Object[oldRows.length * 2][];
    hashes = new int[oldRows.length * 2];
    final int mask = rows.length - 1;
    for (int k = 0; k < oldRows.length; k++) {
      if (oldRows[k] != null) {
        int i = oldHashes[k] & mask;
        while (rows[i] != null) {
          i = (i + 1) & mask;
        }
        rows[i] = oldRows[k];
        hashes[i] = oldHashes[k];
      }
    }
  }

  /** A set of longs: open addressing over the keys themselves (0 kept aside). */
  private static final class LongSet {
    private long[] keys = new long[16];
    private boolean hasZero;
    private int size;

    boolean add(long key) {
      if (key == 0) {
        if (hasZero) {
          return false;
        }
        hasZero = true;
        size++;
        return true;
      }
      if (2 * (size + 1) > keys.length) {
        grow();
      }
      final int mask = keys.length - 1;
      for (int i = slot(key, mask); ; i = (i + 1) & mask) {
        if (keys[i] == 0) {
          keys[i] = key;
          size++;
          return true;
        }
        if (keys[i] == key) {
          return false;
        }
      }
    }

    private static int slot(long key, int mask) {
      final long h = key * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32)) & mask;
    }

    private void grow() {
      final long[] old = keys;
      keys = new long[old.length * 2];
      final int mask = keys.length - 1;
      for (long key : old) {
        if (key != 0) {
          int i = slot(key, mask);
          while (keys[i] != 0) {
            i = (i + 1) & mask;
          }
          keys[i] = key;
        }
      }
    }
  }
}
