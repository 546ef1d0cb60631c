package dev.mnestic.runtime;

import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * A set of rows ({@code Object[]}, equal when their values are
 * {@code equals}), for deduplication on the hot path of recursion and
 * distinct: open addressing with linear probing over the rows themselves and
 * their hashes, so an added row costs no key or entry object. Hashes are
 * {@link RowKey}'s (each value's hash mixed in), not {@code 31 * h + e},
 * which collides heavily on rows of small integers.
 *
 * <p>Rows of one Int go into a set of {@code long}s instead, and rows of
 * two Ints that fit in 32 bits (edges, pairs of ids: most recursive
 * relations) into one set of {@code int}s per first value: one array probe, no row
 * touched (equal numbers are equal rows, and such a row equals no other kind
 * of row). A recursion derives its rows grouped by the first value (a
 * round joins each delta row on to its successors), so the adds of a
 * group probe one small set that stays in cache, where one set of millions
 * of packed pairs missed the cache on almost every add. A group whose
 * values lie close together (node ids 0..n) turns into a bitmap over their
 * range: no hash, no probe, a bit a possible value.
 */
public final class RowSet {
  private Object[][] rows = new Object[16][];
  private int[] hashes = new int[16];
  private int size;
  private final LongSet ints = new LongSet();
  /** Open addressing by first value; a null set is an empty slot. */
  private int[] firsts = new int[16];
  private IntSet[] seconds = new IntSet[16];
  private int pairGroups;
  private int pairCount;
  /** The group of the last pair added, and its first value. */
  private IntSet lastSeconds;
  private int lastFirst;

  /** Adds {@code row} (kept, not copied); whether it was new. */
  public boolean add(Object[] row) {
    if (row.length == 1 && row[0] instanceof Long) {
      return ints.add((Long) row[0]);
    }
    if (row.length == 2 && row[0] instanceof Long a && row[1] instanceof Long b
        && a == a.intValue() && b == b.intValue()) {
      return addSmallPair(a, b);
    }
    return addRow(row);
  }

  /** Adds the row of one Int {@code value}, unboxed; whether it was new. */
  public boolean add(long value) {
    return ints.add(value);
  }

  /** Adds the row of two Ints {@code (a, b)}, unboxed where they fit in 32 bits; whether it was new. */
  public boolean add(long a, long b) {
    return a == (int) a && b == (int) b ? addSmallPair(a, b) : addRow(new Object[] {a, b});
  }

  private boolean addSmallPair(long a, long b) {
    final IntSet group = lastSeconds != null && lastFirst == a ? lastSeconds : group((int) a);
    if (group.add((int) b)) {
      pairCount++;
      return true;
    }
    return false;
  }

  private boolean addRow(Object[] row) {
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
    return size + ints.size + pairCount;
  }

  /** The set of second values of the pairs whose first value is {@code first}, made if new. */
  private IntSet group(int first) {
    if (2 * (pairGroups + 1) > firsts.length) {
      growGroups();
    }
    final int mask = firsts.length - 1;
    int i = LongSet.slot(first, mask);
    while (seconds[i] != null && firsts[i] != first) {
      i = (i + 1) & mask;
    }
    if (seconds[i] == null) {
      firsts[i] = first;
      seconds[i] = new IntSet();
      pairGroups++;
    }
    lastFirst = first;
    lastSeconds = seconds[i];
    return seconds[i];
  }

  private void growGroups() {
    final int[] oldFirsts = firsts;
    final IntSet[] oldSeconds = seconds;
    firsts = new int[oldFirsts.length * 2];
    seconds = new IntSet[oldFirsts.length * 2];
    final int mask = firsts.length - 1;
    for (int k = 0; k < oldFirsts.length; k++) {
      if (oldSeconds[k] != null) {
        int i = LongSet.slot(oldFirsts[k], mask);
        while (seconds[i] != null) {
          i = (i + 1) & mask;
        }
        firsts[i] = oldFirsts[k];
        seconds[i] = oldSeconds[k];
      }
    }
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
    private long[] keys = new long[8];
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

  /**
   * A set of ints (a pair's second values, which fit in 32 bits), in one of two forms chosen by
   * its keys: while they are spread, {@link LongSet}'s open addressing in half the memory (8 to
   * 16 bytes a key); once they lie in a range of at most 64 values a key ({@link #dense}), a
   * bitmap over that range: an add is a bit set, no hash and no probe, and a closure over node
   * ids 0..n takes n bits a group however full it gets. Keys past the bitmap's range widen it
   * while they stay dense, else the set goes back to hashing them.
   */
  private static final class IntSet {
    /** The fewest keys a bitmap is sized for: small groups of a wide range stay hashed. */
    private static final int DENSE_FLOOR = 16;

    /** The hashed keys; null while the set is a bitmap. */
    private int[] keys = new int[8];
    private boolean hasZero;
    private int size;
    /** The least and greatest keys added while they are hashed. */
    private int min = Integer.MAX_VALUE;
    private int max = Integer.MIN_VALUE;
    /** Key {@code base + i} is in the set when bit i is set; null while the keys are hashed. */
    private long[] words;
    private long base;

    boolean add(int key) {
      if (words != null) {
        final long at = key - base;
        if (at >= 0 && at < 64L * words.length) {
          final long bit = 1L << at;
          final int w = (int) (at >>> 6);
          if ((words[w] & bit) != 0) {
            return false;
          }
          words[w] |= bit;
          size++;
          return true;
        }
        widen(key);
        return add(key);
      }
      min = Math.min(min, key);
      max = Math.max(max, key);
      if (key == 0) {
        if (hasZero) {
          return false;
        }
        hasZero = true;
        size++;
        return true;
      }
      if (2 * (size + 1) > keys.length) {
        if (dense(min, max, size + 1)) {
          toBitmap(min, max);
          return add(key);
        }
        grow();
      }
      final int mask = keys.length - 1;
      for (int i = LongSet.slot(key, mask); ; i = (i + 1) & mask) {
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

    /** Whether {@code count} keys over {@code lo..hi} take a bitmap: at most 64 values a key. */
    private static boolean dense(long lo, long hi, int count) {
      return hi - lo < 64L * Math.max(count, DENSE_FLOOR);
    }

    /** Widens the bitmap to take {@code key}, or hashes every key again if it would be sparse. */
    private void widen(int key) {
      final long[] old = words;
      final long oldBase = base;
      final long lo = Math.min(oldBase, key);
      final long hi = Math.max(oldBase + 64L * old.length - 1, key);
      if (!dense(lo, hi, size + 1)) {
        words = null;
        keys = new int[2 * Integer.highestOneBit(2 * size + 4)];
        size = 0;
        hasZero = false;
        // the range with key in it: were the old keys dense alone, they would not be hashed
        min = key;
        max = key;
        forEachBit(old, oldBase, this::add);
        return;
      }
      // Room for the range and as much again on the side that grew, so a group that grows one
      // way (a chain's) widens a logarithmic number of times.
      base = key < oldBase ? Math.floorDiv(2 * lo - hi, 64) * 64 : oldBase;
      words = new long[(int) (((key < oldBase ? hi : 2 * hi - lo) - base) / 64 + 1)];
      System.arraycopy(old, 0, words, (int) ((oldBase - base) / 64), old.length);
    }

    /** Turns the hashed keys into a bitmap over {@code lo} to {@code hi}. */
    private void toBitmap(long lo, long hi) {
      base = Math.floorDiv(lo, 64) * 64;
      words = new long[(int) ((hi - base) / 64 + 1)];
      for (int key : keys) {
        if (key != 0) {
          words[(int) ((key - base) >>> 6)] |= 1L << (key - base);
        }
      }
      if (hasZero) {
        words[(int) ((-base) >>> 6)] |= 1L << -base;
      }
      keys = null;
    }

    private static void forEachBit(long[] words, long base, IntConsumer to) {
      for (int w = 0; w < words.length; w++) {
        for (long bits = words[w]; bits != 0; bits &= bits - 1) {
          to.accept((int) (base + 64L * w + Long.numberOfTrailingZeros(bits)));
        }
      }
    }

    private void grow() {
      final int[] old = keys;
      keys = new int[old.length * 2];
      final int mask = keys.length - 1;
      for (int key : old) {
        if (key != 0) {
          int i = LongSet.slot(key, mask);
          while (keys[i] != 0) {
            i = (i + 1) & mask;
          }
          keys[i] = key;
        }
      }
    }
  }
}
