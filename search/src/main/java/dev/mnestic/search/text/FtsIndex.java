package dev.mnestic.search.text;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * CozoDB's full-text index over the rows of one relation ({@code cozo-core/src/fts/
 * indexing.rs}): for each term, the keys of the rows whose text has it and the term's
 * positions there, in the order CozoDB's store keeps them (terms by code point, which is
 * UTF-8 byte order, then keys in the relation's key order). A search evaluates a tokenized
 * {@link FtsExpr} as CozoDB does, scores included:
 *
 * <ul>
 *   <li>a literal scores {@code tf * boost} ({@code tf}: the term's count in the row) or, for
 *       {@code tf_idf}, {@code tf * ln(1 + (N - n + 0.5) / (n + 0.5)) * boost} with {@code N}
 *       the relation's row count and {@code n} the number of (term, row) entries found; a
 *       prefix literal over several terms of one row keeps the last term's score;
 *   <li>AND adds its operands' scores over the rows all match, OR keeps the best, NOT drops
 *       the rows its right side matches;
 *   <li>NEAR keeps the rows whose positions chain within the distance, CozoDB's way (its first
 *       literal is matched against itself too) and scores the number of surviving positions
 *       with the sum of the boosts.
 * </ul>
 *
 * @param <K> a row's key; {@code keyOrder} is the relation's key order
 */
public final class FtsIndex<K> {
  /** CozoDB's {@code score_kind}. */
  public enum ScoreKind {
    TF,
    TF_IDF
  }

  /** Terms by code point (UTF-8 byte order), as CozoDB's store sorts them. */
  static final Comparator<String> CODE_POINT_ORDER =
      (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
          int ca = a.codePointAt(i);
          int cb = b.codePointAt(j);
          if (ca != cb) {
            return Integer.compare(ca, cb);
          }
          i += Character.charCount(ca);
          j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
      };

  private final TextAnalyzer analyzer;
  private final Comparator<? super K> keyOrder;
  private final NavigableMap<String, NavigableMap<K, Posting>> postings =
      new TreeMap<>(CODE_POINT_ORDER);

  /**
   * A term in a row: where it occurs (UTF-8 byte offsets and positions) and how many tokens
   * the row's text has in all, CozoDB's index relation's {@code offset_from}, {@code
   * offset_to}, {@code position} and {@code total_length}.
   */
  public record Posting(int[] offsetFrom, int[] offsetTo, int[] positions, int totalLength) {}

  /** A row of CozoDB's index relation {@code rel:idx}: the term, the row's key, its posting. */
  public record Entry<K>(String word, K key, Posting posting) {}

  public FtsIndex(TextAnalyzer analyzer, Comparator<? super K> keyOrder) {
    this.analyzer = analyzer;
    this.keyOrder = keyOrder;
  }

  public TextAnalyzer analyzer() {
    return analyzer;
  }

  /** Indexes {@code text} (what the extractor gave; null indexes nothing) under {@code key}. */
  public void put(K key, String text) {
    if (text == null) {
      return;
    }
    List<Token> tokens = analyzer.tokens(text);
    Map<String, List<Token>> byTerm = new LinkedHashMap<>();
    for (Token t : tokens) {
      byTerm.computeIfAbsent(t.text(), x -> new ArrayList<>()).add(t);
    }
    for (Map.Entry<String, List<Token>> e : byTerm.entrySet()) {
      List<Token> ts = e.getValue();
      Posting p =
          new Posting(
              ts.stream().mapToInt(Token::offsetFrom).toArray(),
              ts.stream().mapToInt(Token::offsetTo).toArray(),
              ts.stream().mapToInt(Token::position).toArray(),
              tokens.size());
      postings.computeIfAbsent(e.getKey(), x -> new TreeMap<>(keyOrder)).put(key, p);
    }
  }

  /** Removes what {@link #put} indexed for {@code key} and {@code text}. */
  public void remove(K key, String text) {
    if (text == null) {
      return;
    }
    Set<String> terms = new LinkedHashSet<>();
    for (Token t : analyzer.tokens(text)) {
      terms.add(t.text());
    }
    for (String term : terms) {
      NavigableMap<K, Posting> rows = postings.get(term);
      if (rows != null) {
        rows.remove(key);
        if (rows.isEmpty()) {
          postings.remove(term);
        }
      }
    }
  }

  /** The index relation's rows, by term (in code point order) then key. */
  public List<Entry<K>> entries() {
    List<Entry<K>> out = new ArrayList<>();
    postings.forEach((term, rows) -> rows.forEach((k, p) -> out.add(new Entry<>(term, k, p))));
    return out;
  }

  /** A row of a search: its key and score. */
  public record Hit<K>(K key, double score) {}

  /**
   * The rows matching {@code query} (CozoDB's query text), best first, {@code rowCount} being
   * the relation's number of rows ({@code N} of the idf). Rows of equal score come in key
   * order (CozoDB leaves them in its hash map's order).
   *
   * @throws IllegalArgumentException when the query does not parse ({@link FtsQuery#parse})
   */
  public List<Hit<K>> search(String query, ScoreKind kind, long rowCount) {
    FtsExpr ast = FtsQuery.parse(query).tokenize(analyzer);
    if (ast.isEmpty()) {
      return List.of();
    }
    long n = kind == ScoreKind.TF_IDF ? rowCount : 0;
    Map<K, Double> scores = eval(ast, kind, n);
    List<Hit<K>> hits = new ArrayList<>(scores.size());
    scores.forEach((k, s) -> hits.add(new Hit<>(k, s)));
    hits.sort(
        Comparator.<Hit<K>>comparingDouble(h -> -h.score())
            .thenComparing(Hit::key, keyOrder));
    return hits;
  }

  private record Found<K>(K key, int[] positions) {}

  private List<Found<K>> literal(FtsExpr.Literal l) {
    List<Found<K>> found = new ArrayList<>();
    String value = l.value();
    if (l.prefix()) {
      // CozoDB scans [value, value + U+10FFFF) and stops at the first term not starting so
      String end = value + new String(Character.toChars(Character.MAX_CODE_POINT));
      for (Map.Entry<String, NavigableMap<K, Posting>> e :
          postings.subMap(value, true, end, false).entrySet()) {
        if (!e.getKey().startsWith(value)) {
          break;
        }
        e.getValue().forEach((k, p) -> found.add(new Found<>(k, p.positions())));
      }
    } else {
      NavigableMap<K, Posting> rows = postings.get(value);
      if (rows != null) {
        rows.forEach((k, p) -> found.add(new Found<>(k, p.positions())));
      }
    }
    return found;
  }

  private Map<K, Double> eval(FtsExpr e, ScoreKind kind, long n) {
    if (e instanceof FtsExpr.Literal l) {
      List<Found<K>> found = literal(l);
      Map<K, Double> res = new HashMap<>();
      for (Found<K> x : found) {
        res.put(x.key(), score(x.positions().length, found.size(), n, l.boost(), kind));
      }
      return res;
    } else if (e instanceof FtsExpr.And a) {
      Map<K, Double> res = eval(a.operands().get(0), kind, n);
      for (FtsExpr next : a.operands().subList(1, a.operands().size())) {
        Map<K, Double> other = eval(next, kind, n);
        Map<K, Double> both = new HashMap<>();
        res.forEach(
            (k, v) -> {
              Double w = other.get(k);
              if (w != null) {
                both.put(k, v + w);
              }
            });
        res = both;
      }
      return res;
    } else if (e instanceof FtsExpr.Or o) {
      Map<K, Double> res = new HashMap<>();
      for (FtsExpr next : o.operands()) {
        eval(next, kind, n).forEach((k, v) -> res.merge(k, v, Math::max));
      }
      return res;
    } else if (e instanceof FtsExpr.Not not) {
      Map<K, Double> res = eval(not.left(), kind, n);
      res.keySet().removeAll(eval(not.right(), kind, n).keySet());
      return res;
    }
    return near((FtsExpr.Near) e, kind, n);
  }

  private Map<K, Double> near(FtsExpr.Near near, ScoreKind kind, long n) {
    long distance = Integer.toUnsignedLong(near.distance());
    Map<K, List<Integer>> coll = new HashMap<>();
    for (Found<K> first : literal(near.literals().get(0))) {
      coll.put(first.key(), toList(first.positions()));
    }
    // as CozoDB: every literal, the first included, against the positions kept so far
    for (FtsExpr.Literal lit : near.literals()) {
      Map<K, List<Integer>> next = new HashMap<>();
      for (Found<K> x : literal(lit)) {
        List<Integer> prev = coll.remove(x.key());
        if (prev == null) {
          continue;
        }
        Set<Integer> kept = new LinkedHashSet<>();
        for (int p : prev) {
          for (int cur : x.positions()) {
            if (cur > p) {
              if (cur - p <= distance) {
                kept.add(p);
              }
            } else if (p - cur <= distance) {
              kept.add(cur);
            }
          }
        }
        if (!kept.isEmpty()) {
          next.put(x.key(), new ArrayList<>(kept));
        }
      }
      coll = next;
    }
    double boost = 0.0;
    for (FtsExpr.Literal lit : near.literals()) {
      boost += lit.boost();
    }
    Map<K, Double> res = new HashMap<>();
    int found = coll.size();
    for (Map.Entry<K, List<Integer>> c : coll.entrySet()) {
      res.put(c.getKey(), score(c.getValue().size(), found, n, boost, kind));
    }
    return res;
  }

  private static List<Integer> toList(int[] a) {
    List<Integer> l = new ArrayList<>(a.length);
    for (int x : a) {
      l.add(x);
    }
    return l;
  }

  /** CozoDB's {@code fts_compute_score}, in double precision with fdlibm's logarithm. */
  static double score(int tf, int nFound, long nTotal, double boost, ScoreKind kind) {
    if (kind == ScoreKind.TF) {
      return tf * boost;
    }
    double found = nFound;
    double idf = StrictMath.log(1.0 + ((double) nTotal - found + 0.5) / (found + 0.5));
    return tf * idf * boost;
  }
}
