package dev.mnestic.search.lsh;

import dev.mnestic.search.text.TextAnalyzer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * CozoDB's MinHash-LSH index over the rows of one relation: each row's signature cut in
 * {@link LshParams#bands()} bands of {@link LshParams#rows()} values, each band (its values'
 * little-endian bytes and the band's number) a bucket holding the row's key, and per row the
 * buckets it is in (CozoDB's {@code :inv} relation) so that a replaced row leaves its old ones.
 *
 * <p>A row's value is a text (its distinct {@code nGram}-grams of tokens are hashed) or a list
 * (its elements are, each as its {@code String.valueOf}); null is not indexed.
 *
 * @param <K> a row's key; {@code keyOrder} is the relation's key order
 */
public final class LshIndex<K> {
  private final TextAnalyzer analyzer;
  private final int nGram;
  private final LshParams params;
  private final int[] perms;
  private final Comparator<? super K> keyOrder;
  private final Map<ByteBuffer, NavigableSet<K>> buckets = new HashMap<>();
  private final TreeMap<K, List<ByteBuffer>> inverse;

  public LshIndex(
      TextAnalyzer analyzer,
      int nGram,
      LshParams params,
      int[] perms,
      Comparator<? super K> keyOrder) {
    if (params.bands() * params.rows() > perms.length) {
      throw new IllegalArgumentException("more bands and rows than permutations");
    }
    this.analyzer = analyzer;
    this.nGram = nGram;
    this.params = params;
    this.perms = perms.clone();
    this.keyOrder = keyOrder;
    this.inverse = new TreeMap<>(keyOrder);
  }

  /** The signature of {@code value} (a text or a list), null for null. */
  public int[] signature(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof String s) {
      return MinHash.signature(analyzer.uniqueNgrams(s, nGram), perms);
    }
    if (value instanceof List<?> l) {
      Set<List<String>> elements = new LinkedHashSet<>();
      for (Object o : l) {
        elements.add(List.of(String.valueOf(o)));
      }
      return MinHash.signature(elements, perms);
    }
    throw new IllegalArgumentException("Cannot put value " + value + " into a LSH index");
  }

  private List<ByteBuffer> bands(int[] sig) {
    List<ByteBuffer> bands = new ArrayList<>(params.bands());
    for (int i = 0; i < params.bands(); i++) {
      ByteBuffer b = ByteBuffer.allocate(params.rows() * 4 + 2).order(ByteOrder.LITTLE_ENDIAN);
      for (int j = 0; j < params.rows(); j++) {
        b.putInt(sig[i * params.rows() + j]);
      }
      b.putShort((short) i);
      bands.add(b.flip());
    }
    return bands;
  }

  /** Indexes {@code value} under {@code key}, replacing what {@code key} had. */
  public void put(K key, Object value) {
    remove(key);
    int[] sig = signature(value);
    if (sig == null) {
      return;
    }
    List<ByteBuffer> bands = bands(sig);
    for (ByteBuffer b : bands) {
      buckets.computeIfAbsent(b, x -> new TreeSet<>(keyOrder)).add(key);
    }
    inverse.put(key, bands);
  }

  /** Removes {@code key} from its buckets. */
  public void remove(K key) {
    List<ByteBuffer> old = inverse.remove(key);
    if (old == null) {
      return;
    }
    for (ByteBuffer b : old) {
      NavigableSet<K> keys = buckets.get(b);
      keys.remove(key);
      if (keys.isEmpty()) {
        buckets.remove(b);
      }
    }
  }

  /** A bucket's bytes (a band's values and its number) and a key it holds. */
  public record Bucket<K>(byte[] band, K key) {}

  /**
   * CozoDB's {@code rel:idx} rows: every bucket and key in it, by the bucket's bytes (unsigned,
   * as CozoDB's store orders them) then the key.
   */
  public List<Bucket<K>> buckets() {
    List<Bucket<K>> out = new ArrayList<>();
    buckets.forEach((b, keys) -> keys.forEach(k -> out.add(new Bucket<>(bytes(b), k))));
    out.sort(
        Comparator.<Bucket<K>, byte[]>comparing(Bucket::band, java.util.Arrays::compareUnsigned)
            .thenComparing(Bucket::key, keyOrder));
    return out;
  }

  /** CozoDB's {@code rel:idx:inv} rows: per key, in key order, its buckets' bytes by band. */
  public Map<K, List<byte[]>> inverse() {
    Map<K, List<byte[]>> out = new java.util.LinkedHashMap<>();
    inverse.forEach((k, bands) -> out.put(k, bands.stream().map(LshIndex::bytes).toList()));
    return out;
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  /**
   * The candidates for {@code query}: the keys sharing a band with it, band by band, in key
   * order within a band. Without a filter CozoDB stops a band's scan once it holds {@code k}
   * candidates (then takes one more from each later band that has any), so pass {@code k}
   * only then; the caller keeps the first {@code k} rows that pass.
   */
  public List<K> candidates(Object query, Integer k) {
    int[] sig = signature(query);
    if (sig == null) {
      return List.of();
    }
    Set<K> found = new LinkedHashSet<>();
    for (ByteBuffer b : bands(sig)) {
      NavigableSet<K> keys = buckets.get(b);
      if (keys == null) {
        continue;
      }
      for (K key : keys) {
        found.add(key);
        if (k != null && found.size() >= k) {
          break;
        }
      }
    }
    return new ArrayList<>(found);
  }
}
