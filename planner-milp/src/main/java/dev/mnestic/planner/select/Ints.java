package dev.mnestic.planner.select;

import java.util.Arrays;

/** A growable int array: lists of ids without boxing each one. */
final class Ints {
  private int[] a = new int[4];
  private int size;

  void add(int v) {
    if (size == a.length) {
      a = Arrays.copyOf(a, size * 2);
    }
    a[size++] = v;
  }

  int get(int i) {
    return a[i];
  }

  int size() {
    return size;
  }
}
