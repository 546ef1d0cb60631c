package dev.mnestic.runtime;

import java.util.Arrays;

/**
 * A set of rows ({@code Object[]}, equal when their values are
 * {@code equals}), for deduplication on the hot path of recursion and
 * distinct: open addressing with linear probing over the rows themselves and
 * their hashes, so an added row costs no key or entry object. Hashes are
 * {@link RowKey}'s (each value's hash mixed in), not {@code 31 * h + e},
 * which collides heavily on rows of small integers.
 */
public final class RowSet {
  private Object[][] rows = new Object[16][];
  private int[] hashes = new int[16];
  private int size;

  /** Adds {@code row} (kept, not copied); whether it was new. */
  public boolean add(Object[] row) {
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
    return size;
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
}
