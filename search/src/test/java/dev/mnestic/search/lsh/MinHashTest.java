package dev.mnestic.search.lsh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mnestic.search.text.TextAnalyzer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * XXH32 against xxHash's published values; signatures against the exact Jaccard similarity
 * of the sets they summarise; the index's candidates against its definition (a shared band).
 */
class MinHashTest {
  private static int xxh32(String s, int seed) {
    return XxHash32.hash(s.getBytes(StandardCharsets.US_ASCII), seed);
  }

  @Test
  void xxh32GivesThePublishedValues() {
    assertEquals(0x02CC5D05, xxh32("", 0));
    assertEquals(0x550D7456, xxh32("a", 0));
    assertEquals(0x32D153FF, xxh32("abc", 0));
    assertEquals(0xE2293B2F, xxh32("Nobody inspects the spammish repetition", 0));
    // xxHash's own sanity test: the empty input under seed PRIME32_1
    assertEquals(0x36B78AE7, xxh32("", 0x9E3779B1));
  }

  @Test
  void anNgramIsHashedAsRustHashesAVecOfStrings() {
    // length 2 as 8 little-endian bytes, then "ab" 0xFF, "c" 0xFF
    assertArrayEquals(
        new byte[] {2, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', (byte) 0xFF, 'c', (byte) 0xFF},
        MinHash.encode(List.of("ab", "c")));
  }

  @Test
  void signaturesEstimateTheJaccardSimilarity() {
    int[] perms = MinHash.permutations(4000, new SplittableRandom(7));
    Random r = new Random(11);
    for (int trial = 0; trial < 5; trial++) {
      Set<List<String>> a = new HashSet<>();
      Set<List<String>> b = new HashSet<>();
      for (int i = 0; i < 300; i++) {
        List<String> x = List.of("w" + r.nextInt(400));
        if (r.nextBoolean()) {
          a.add(x);
        }
        if (r.nextBoolean()) {
          b.add(x);
        }
      }
      Set<List<String>> union = new HashSet<>(a);
      union.addAll(b);
      Set<List<String>> both = new HashSet<>(a);
      both.retainAll(b);
      double jaccard = (double) both.size() / union.size();
      double estimate =
          MinHash.similarity(MinHash.signature(a, perms), MinHash.signature(b, perms));
      // 4000 permutations: standard error below 0.008
      assertEquals(jaccard, estimate, 0.04, "trial " + trial);
    }
  }

  @Test
  void candidatesShareABand() {
    TextAnalyzer simple =
        TextAnalyzer.of(TextAnalyzer.Config.of("Simple"), List.of(TextAnalyzer.Config.of("Lowercase")));
    int[] perms = MinHash.permutations(200, new SplittableRandom(3));
    LshParams params = LshParams.optimal(0.7, 200, 0.5, 0.5);
    LshIndex<String> index = new LshIndex<>(simple, 1, params, perms, Comparator.naturalOrder());
    List<String> texts = new ArrayList<>();
    Random r = new Random(5);
    for (int i = 0; i < 200; i++) {
      StringBuilder t = new StringBuilder();
      for (int w = 0; w < 12; w++) {
        t.append(" w").append(r.nextInt(60));
      }
      texts.add(t.toString());
      index.put("k" + i, t.toString());
    }
    String query = texts.get(17);
    List<String> found = index.candidates(query, null);
    assertTrue(found.contains("k17"), "a text finds itself");
    int[] q = index.signature(query);
    for (int i = 0; i < texts.size(); i++) {
      int[] s = index.signature(texts.get(i));
      boolean shares = false;
      for (int band = 0; band < params.bands() && !shares; band++) {
        boolean same = true;
        for (int row = 0; row < params.rows(); row++) {
          same &= s[band * params.rows() + row] == q[band * params.rows() + row];
        }
        shares = same;
      }
      assertEquals(shares, found.contains("k" + i), "k" + i);
    }
    index.put("k17", "something else entirely");
    assertFalse(index.candidates(query, null).contains("k17"), "a replaced row leaves its bands");
    index.remove("k17");
    assertTrue(index.candidates("something else entirely", null).isEmpty());
  }
}
