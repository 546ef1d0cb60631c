package dev.mnestic.runtime;

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
