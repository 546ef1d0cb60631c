package dev.mnestic.runtime;

import java.util.Arrays;
import java.util.function.IntToDoubleFunction;

/** Sorts an array of ints (row numbers) by a comparator, without boxing. */
final class IntSort {
  /** Compares two ints, as {@link java.util.Comparator} compares objects. */
  interface IntComparator {
    int compare(int a, int b);
  }

  private static final int INSERTION_SORT_THRESHOLD = 24;

  private IntSort() {
  }

  /** Sorts {@code a[from..to)} stably (merge sort, O(n log n) comparisons). */
  static void sort(int[] a, int from, int to, IntComparator c) {
    if (to - from < 2) {
      return;
    }
    final int[] buffer = new int[to - from];
    mergeSort(a, from, to, buffer, c);
  }

  /**
   * Sorts {@code a[from..to)} by {@code c}, fast when most elements differ
   * on {@code key}, which {@code c} must order first (a coarser key than c's
   * is fine): sorts (key as a float, element) packed in longs, a primitive
   * sort, then each run of equal floats by {@code c}.
   */
  static void sortByKey(int[] a, int from, int to, IntToDoubleFunction key, IntComparator c) {
    final int n = to - from;
    final long[] packed = new long[n];
    for (int i = 0; i < n; i++) {
      packed[i] = (long) sortableBits((float) key.applyAsDouble(a[from + i])) << 32
          | (a[from + i] & 0xffffffffL);
    }
    Arrays.sort(packed);
    int run = 0;
    for (int i = 0; i < n; i++) {
      a[from + i] = (int) packed[i];
      if (i > 0 && packed[i] >>> 32 != packed[i - 1] >>> 32) {
        sort(a, from + run, from + i, c);
        run = i;
      }
    }
    sort(a, from + run, to, c);
  }

  /** Bits of {@code f} that compare as signed ints as the floats do. */
  private static int sortableBits(float f) {
    final int bits = Float.floatToIntBits(f);
    return bits ^ (bits >> 31) & 0x7fffffff;
  }

  private static void mergeSort(int[] a, int from, int to, int[] buffer, IntComparator c) {
    if (to - from <= INSERTION_SORT_THRESHOLD) {
      for (int i = from + 1; i < to; i++) {
        final int x = a[i];
        int j = i - 1;
        while (j >= from && c.compare(a[j], x) > 0) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = x;
      }
      return;
    }
    final int mid = (from + to) >>> 1;
    mergeSort(a, from, mid, buffer, c);
    mergeSort(a, mid, to, buffer, c);
    if (c.compare(a[mid - 1], a[mid]) <= 0) {
      return;
    }
    System.arraycopy(a, from, buffer, 0, mid - from);
    int i = 0;
    final int iEnd = mid - from;
    int j = mid;
    int k = from;
    while (i < iEnd && j < to) {
      a[k++] = c.compare(a[j], buffer[i]) < 0 ? a[j++] : buffer[i++];
    }
    System.arraycopy(buffer, i, a, k, iEnd - i);
  }
}
