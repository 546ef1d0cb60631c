package dev.mnestic.runtime;

import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.RandomAccess;

/**
 * A list of rows ({@code Object[]}) that keeps rows of Ints packed: while
 * every row added has the same arity and only {@code Long} values, the
 * values sit in one {@code long[]}, and {@link #get} makes a fresh row of
 * them on each read. The first other row turns the list into a list of the
 * rows themselves until it is {@link #clear cleared}.
 *
 * <p>This is what recursion's {@code full} and {@code delta} tables are
 * made of: a transitive closure keeps millions of Int pairs, and as
 * {@code Object[]} rows of boxed {@code Long}s (56 bytes a pair, where
 * packed is 16) every one of them survives young collections and is copied
 * by each. Packed, what the join pipeline allocates per row dies young.
 * A row read from a packed list is a copy: writing into it changes nothing.
 * {@link #enumerable} reads each row once however often its enumerator's
 * {@code current()} is called (Calcite's join pipeline calls it per key and
 * per result).
 */
public final class RowList extends AbstractList<Object[]> implements RandomAccess {
  private long[] packed = new long[16];
  private int arity;
  private int size;
  /** Null while the rows are packed. */
  private List<Object[]> rows;

  /**
   * The packed rows of {@code values}, {@code arity} Ints a row, row after row (the array is
   * kept, not copied: the list owns it from now on).
   */
  public static RowList packed(long[] values, int arity) {
    if (arity < 1 || values.length % arity != 0) {
      throw new IllegalArgumentException(values.length + " values are not rows of " + arity);
    }
    final RowList list = new RowList();
    list.packed = values;
    list.arity = arity;
    list.size = values.length / arity;
    return list;
  }

  @Override public int size() {
    return rows == null ? size : rows.size();
  }

  @Override public Object[] get(int index) {
    if (rows != null) {
      return rows.get(index);
    }
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("row " + index + " of " + size);
    }
    final Object[] row = new Object[arity];
    final int at = index * arity;
    for (int k = 0; k < arity; k++) {
      row[k] = packed[at + k];
    }
    return row;
  }

  @Override public boolean add(Object[] row) {
    if (rows == null) {
      if (!packs(row)) {
        unpack();
        return rows.add(row);
      }
      if (size == 0) {
        arity = row.length;
      }
      final int at = size * arity;
      if (at + arity > packed.length) {
        packed = Arrays.copyOf(packed, Math.max(2 * packed.length, at + arity));
      }
      for (int k = 0; k < arity; k++) {
        packed[at + k] = (Long) row[k];
      }
      size++;
      modCount++;
      return true;
    }
    return rows.add(row);
  }

  /** Appends the row of one Int, packed; only while the list is packed with rows of one column. */
  void addPacked(long value) {
    reserve(1);
    packed[size++] = value;
    modCount++;
  }

  /** Appends the row of two Ints, packed; only while the list is packed with rows of two columns. */
  void addPacked(long a, long b) {
    reserve(2);
    final int at = 2 * size++;
    packed[at] = a;
    packed[at + 1] = b;
    modCount++;
  }

  /**
   * Adds {@code rows} packed rows of the list's arity (only while it is packed and not empty),
   * their values left for the caller to write: returns the list's own array, grown to exactly
   * the new size if it was too small, the new rows' values from {@code size() * arity()} as it
   * was before the call.
   */
  long[] extend(int rows) {
    if (this.rows != null || size == 0) {
      throw new IllegalStateException("not a packed list of rows");
    }
    final int length = (size + rows) * arity;
    if (length > packed.length) {
      packed = Arrays.copyOf(packed, length);
    }
    size += rows;
    modCount++;
    return packed;
  }

  /** Makes room for one more packed row of {@code width} columns (its arity when empty). */
  private void reserve(int width) {
    if (rows != null || (size > 0 && arity != width)) {
      throw new IllegalStateException("not a packed list of rows of " + width);
    }
    arity = width;
    if ((size + 1) * width > packed.length) {
      packed = Arrays.copyOf(packed, Math.max(2 * packed.length, (size + 1) * width));
    }
  }

  /** Whether the rows are packed: every row is {@link #arity} Ints in {@link #packedValues}. */
  boolean isPacked() {
    return rows == null;
  }

  /** The packed values, row after row ({@link #arity} each, {@link #size} rows); only while packed. */
  long[] packedValues() {
    return packed;
  }

  /** The columns of every packed row; meaningless while empty. */
  int arity() {
    return arity;
  }

  /** The rows as an enumerable whose enumerator makes each row once, on {@code moveNext}. */
  public Enumerable<Object[]> enumerable() {
    return new AbstractEnumerable<>() {
      @Override public Enumerator<Object[]> enumerator() {
        return new Enumerator<>() {
          private int next;
          private Object[] current;

          @Override public Object[] current() {
            return current;
          }

          @Override public boolean moveNext() {
            if (next < size()) {
              current = get(next++);
              return true;
            }
            current = null;
            return false;
          }

          @Override public void reset() {
            next = 0;
            current = null;
          }

          @Override public void close() {
          }
        };
      }
    };
  }

  /** Adds the rows of {@code c}; another packed list's of the same arity by one array copy. */
  @Override public boolean addAll(Collection<? extends Object[]> c) {
    if (c instanceof RowList other && rows == null && other.rows == null
        && (size == 0 || other.size == 0 || other.arity == arity)) {
      if (other.size == 0) {
        return false;
      }
      if (size == 0) {
        arity = other.arity;
      }
      final int at = size * arity;
      final int length = other.size * arity;
      if (at + length > packed.length) {
        packed = Arrays.copyOf(packed, Math.max(2 * packed.length, at + length));
      }
      System.arraycopy(other.packed, 0, packed, at, length);
      size += other.size;
      modCount++;
      return true;
    }
    return super.addAll(c);
  }

  /** Empties the list; it packs again from the next row. */
  @Override public void clear() {
    rows = null;
    size = 0;
    modCount++;
  }

  /** Empties the list as {@link #clear} does, and lets go of the memory its rows took. */
  void release() {
    clear();
    packed = new long[16];
  }

  /** Whether {@code row} goes into the packed array. */
  private boolean packs(Object[] row) {
    if (size > 0 && row.length != arity) {
      return false;
    }
    for (Object value : row) {
      if (!(value instanceof Long)) {
        return false;
      }
    }
    return true;
  }

  private void unpack() {
    final List<Object[]> unpacked = new ArrayList<>(Math.max(16, 2 * size));
    for (int i = 0; i < size; i++) {
      unpacked.add(get(i));
    }
    rows = unpacked;
    size = 0;
    modCount++;
  }
}
