package dev.mnestic.search.lsh;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * CozoDB's MinHash: one 32-bit seed per permutation, drawn at random when the index is created
 * and kept with it, and for each seed the least XXH32 of the values under that seed ({@code
 * HashValues}). A value is hashed as Rust's {@code Hash} writes it on a 64-bit CozoDB: an
 * n-gram (a list of token texts) as its length in 8 little-endian bytes, then each text's
 * UTF-8 bytes and a {@code 0xFF}. The seeds being random, two indices (CozoDB's or ours) agree
 * in distribution only: identical texts always share every band, disjoint ones almost never.
 */
public final class MinHash {
  private MinHash() {}

  /** {@code n} random seeds (CozoDB's {@code HashPermutations::new}). */
  public static int[] permutations(int n, RandomGenerator random) {
    int[] perms = new int[n];
    for (int i = 0; i < n; i++) {
      perms[i] = random.nextInt();
    }
    return perms;
  }

  /** The signature of {@code ngrams} under {@code perms}: all {@code 0xFFFFFFFF} for none. */
  public static int[] signature(Collection<List<String>> ngrams, int[] perms) {
    int[] sig = new int[perms.length];
    Arrays.fill(sig, -1);
    for (List<String> gram : ngrams) {
      byte[] bytes = encode(gram);
      for (int i = 0; i < perms.length; i++) {
        int h = XxHash32.hash(bytes, perms[i]);
        if (Integer.compareUnsigned(h, sig[i]) < 0) {
          sig[i] = h;
        }
      }
    }
    return sig;
  }

  /** Rust's {@code Hash} of a {@code Vec<SmartString>}: length, then each string and 0xFF. */
  static byte[] encode(List<String> gram) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long len = gram.size();
    for (int i = 0; i < 8; i++) {
      out.write((int) (len >>> (8 * i)));
    }
    for (String s : gram) {
      out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
      out.write(0xFF);
    }
    return out.toByteArray();
  }

  /** The fraction of positions where {@code a} and {@code b} agree: the Jaccard estimate. */
  public static double similarity(int[] a, int[] b) {
    int same = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i] == b[i]) {
        same++;
      }
    }
    return (double) same / a.length;
  }
}
