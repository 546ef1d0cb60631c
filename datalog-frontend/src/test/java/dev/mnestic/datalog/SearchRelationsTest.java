package dev.mnestic.datalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mnestic.value.Bytes;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * Reading a search index's own relation ({@link SearchRelations}) where CozoDB's rows come
 * from its random draws (the HNSW graph's levels, the MinHash-LSH permutations), so mnestic's
 * rows are its own: checked against their definition with CozoScript itself. The full-text
 * index's relation, deterministic, is checked against CozoDB's recorded answers ({@code
 * conformance/queries/fts-lsh.json}).
 */
class SearchRelationsTest extends OneStoreTest {
  private static List<List<Object>> rows(String script) throws Exception {
    return run(script).rows();
  }

  private static long count(String script) throws Exception {
    return (Long) rows(script).get(0).get(0);
  }

  /**
   * The HNSW graph as {@code *rel:idx{...}}: every vector at layer 0, each link's {@code dist}
   * the vectors' {@code l2_dist}, each link shown both ways, the top layer's vectors at layer 0
   * too; the statement's own writes seen.
   */
  @Test void theHnswGraphReadsAsItsRelation() throws Exception {
    final Random random = new Random(1818);
    run(":create pts {k: Int => v: <F32; 6>}");
    try {
      run("::hnsw create pts:idx {dim: 6, m: 5, ef_construction: 16, fields: [v]}");
      final StringBuilder data = new StringBuilder();
      for (int i = 0; i < 400; i++) {
        data.append(i == 0 ? "" : ", ").append('[').append(i).append(", [");
        for (int d = 0; d < 6; d++) {
          data.append(d == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f",
              random.nextGaussian()));
        }
        data.append("]]");
      }
      run("?[k, v] <- [" + data + "] :put pts {k => v}");
      run("?[k] := *pts{k}, k % 7 == 3 :rm pts {k}");
      final long n = count("?[count(k)] := *pts{k}");
      assertEquals(n, count("?[count(f)] := *pts:idx{layer: 0, fr_k: f, to_k: f}"));
      assertTrue(count("?[count(f)] := *pts:idx{layer: 0, fr_k: f, to_k: t}, f != t") >= n);
      assertEquals(List.of(), rows("?[f, t, d] := *pts:idx{layer: l, fr_k: f, to_k: t, dist: d},"
          + " f != t, *pts{k: f, v: a}, *pts{k: t, v: b}, d != l2_dist(a, b)"));
      assertEquals(List.of(), rows("?[l, f, t] := *pts:idx{layer: l, fr_k: f, to_k: t}, l < 1,"
          + " not *pts:idx{layer: l, fr_k: t, to_k: f}"));
      // the top layer's vectors are at layer 0 too (Lucene's graph as built may leave a vector
      // unreachable at layer 0 from them: searches walk it joined, HnswIndexTest)
      assertEquals(List.of(), rows("top[min(l)] := *pts:idx{layer: l}, l < 1\n"
          + "?[f] := top[l], *pts:idx{layer: l, fr_k: f, to_k: f},"
          + " not *pts:idx{layer: 0, fr_k: f, to_k: f}"));
      assertEquals(1L, count("?[count(l)] := *pts:idx{layer: l}, l == 1"));
      // the statement sees its own write: one more vector at layer 0, then none after rollback
      assertEquals(List.of(List.of(n + 1)), rows("{?[k, v] <- [[9999, [1, 2, 3, 4, 5, 6]]]"
          + " :put pts {k => v}}\n{?[count(f)] := *pts:idx{layer: 0, fr_k: f, to_k: f}}"));
      run("?[k] <- [[9999]] :rm pts {k}");
      assertEquals(n, count("?[count(f)] := *pts:idx{layer: 0, fr_k: f, to_k: f}"));
    } finally {
      run("::hnsw drop pts:idx");
      run("::remove pts");
    }
  }

  /**
   * The MinHash-LSH relations: {@code rel:idx:inv} holds per indexed row its buckets (a band's
   * values and the band's number, little-endian), equal texts the same ones; {@code rel:idx}
   * holds exactly each (bucket, key) of them; a search for a row's text finds exactly the rows
   * sharing a bucket with it.
   */
  @Test void theLshBucketsReadAsTheirRelations() throws Exception {
    final Random random = new Random(1819);
    final String[] words = {"red", "green", "blue", "apple", "tea", "wine", "dry", "sweet"};
    run(":create docs {k: Int => t: String?}");
    try {
      run("::lsh create docs:lsh {extractor: t, tokenizer: Simple, n_gram: 2, n_perm: 40,"
          + " target_threshold: 0.5}");
      final StringBuilder data = new StringBuilder();
      for (int i = 0; i < 80; i++) {
        final StringBuilder text = new StringBuilder();
        for (int w = 0; w < 4 + random.nextInt(3); w++) {
          text.append(w == 0 ? "" : " ").append(words[random.nextInt(words.length)]);
        }
        data.append(i == 0 ? "" : ", ").append('[').append(i).append(", ")
            .append(i % 20 == 0 ? "null" : "'" + text + "'").append(']');
      }
      run("?[k, t] <- [" + data + ", [100, 'red tea dry wine'], [101, 'red tea dry wine']]"
          + " :put docs {k => t}");
      final List<List<Object>> inv = rows("?[k, m] := *docs:lsh:inv{k, minhash: m}");
      assertEquals(count("?[count(k)] := *docs{k, t}, !is_null(t)"), inv.size());
      final Set<List<Object>> pairs = new HashSet<>();
      int bands = -1;
      for (List<Object> row : inv) {
        final List<?> buckets = (List<?>) row.get(1);
        bands = bands < 0 ? buckets.size() : bands;
        assertEquals(bands, buckets.size(), "as many bands for every row");
        for (int i = 0; i < buckets.size(); i++) {
          final Bytes b = (Bytes) buckets.get(i);
          assertEquals(0, (b.length() - 2) % 4, "4-byte values and a 2-byte band number");
          assertEquals(i, b.get(b.length() - 2) | b.get(b.length() - 1) << 8, "band " + i);
          pairs.add(List.of(b, row.get(0)));
        }
      }
      assertTrue(bands > 1);
      assertEquals(rows("?[m] := *docs:lsh:inv{k: 100, minhash: m}"),
          rows("?[m] := *docs:lsh:inv{k: 101, minhash: m}"));
      assertEquals(pairs, new HashSet<>(rows("?[h, k] := *docs:lsh{hash: h, src_k: k}")));
      final List<List<Object>> shared = rows("?[a, b] := *docs:lsh:inv{k: a, minhash: m},"
          + " h in m, *docs:lsh{hash: h, src_k: b}");
      assertFalse(shared.isEmpty());
      assertEquals(shared, rows("?[a, b] := *docs{k: a, t}, !is_null(t),"
          + " ~docs:lsh{k: b | query: t}"));
    } finally {
      run("::lsh drop docs:lsh");
      run("::remove docs");
    }
  }
}
