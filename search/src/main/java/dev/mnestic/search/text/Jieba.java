package dev.mnestic.search.text;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * jieba's Chinese word segmentation as jieba-rs 0.6.8 does it, the library behind CozoDB's
 * {@code Cangjie} tokenizer: the text is cut into blocks of Han characters (and, except in
 * {@code cutAll}, ASCII letters, digits and {@code +#&._%-}); a block's words are the most
 * probable route through the DAG of its dictionary words (the sum of the logarithms of their
 * frequencies over the total), and runs of single characters that are no dictionary word go
 * through jieba's HMM (Viterbi over the B/M/E/S states) when asked.
 *
 * <p>The dictionary ({@code jieba-dict.txt.gz}, 349,040 words with their frequencies) is
 * jieba-rs's {@code src/data/dict.txt} byte for byte as CozoDB 0.7.6's WebAssembly build embeds
 * it (other copies of jieba's dictionary differ in a few words, {@code 吉林} among them); the
 * HMM's probabilities are jieba-rs's {@code hmm.model}; both MIT, see {@code
 * jieba-rs-LICENSE.txt} beside them. The
 * logarithms are {@link StrictMath#log} (fdlibm, as Rust's {@code ln} on WebAssembly), so
 * that routes of equal-looking probability break the same way.
 */
final class Jieba {
  private static final double MIN_FLOAT = -3.14e100;
  private static final int B = 0;
  private static final int E = 1;
  private static final int M = 2;
  private static final int S = 3;
  private static final int[][] PREV_STATUS = {{E, S}, {B, M}, {M, B}, {S, E}};
  private static final int[] STATES = {B, M, E, S};

  /** jieba-rs's {@code hmm.rs} RE_SKIP: an ASCII word or number, maybe a decimal, maybe %. */
  private static final Pattern HMM_SKIP =
      Pattern.compile("[a-zA-Z0-9]+(?:.\\p{Nd}+)?%?", Pattern.UNIX_LINES);

  private static final class Holder {
    static final Jieba INSTANCE = new Jieba();
  }

  private final Map<String, Long> freqs = new HashMap<>(1 << 19);
  private final int longest;
  private final double logTotal;
  private final double[] initial = new double[4];
  private final double[][] trans = new double[4][4];
  private final List<Map<Integer, Double>> emit = new ArrayList<>();

  private Jieba() {
    int longestWord = 0;
    long total = 0;
    try (BufferedReader r = reader("jieba-dict.txt.gz")) {
      for (String line; (line = r.readLine()) != null; ) {
        String[] parts = line.trim().split("\\s+");
        if (parts[0].isEmpty()) {
          continue;
        }
        long freq = parts.length > 1 ? Long.parseLong(parts[1]) : 0;
        Long old = freqs.put(parts[0], freq);
        total += freq - (old == null ? 0 : old);
        longestWord = Math.max(longestWord, parts[0].codePointCount(0, parts[0].length()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    longest = longestWord;
    logTotal = StrictMath.log(total);
    try (BufferedReader r = reader("jieba-hmm.model")) {
      List<String> lines = new ArrayList<>();
      for (String line; (line = r.readLine()) != null; ) {
        if (!line.startsWith("#")) {
          lines.add(line);
        }
      }
      String[] start = lines.get(0).split(" ");
      for (int s = 0; s < 4; s++) {
        initial[s] = Double.parseDouble(start[s]);
        String[] row = lines.get(1 + s).split(" ");
        for (int t = 0; t < 4; t++) {
          trans[s][t] = Double.parseDouble(row[t]);
        }
      }
      for (int s = 0; s < 4; s++) {
        Map<Integer, Double> probs = new HashMap<>();
        for (String entry : lines.get(5 + s).split(",")) {
          int colon = entry.lastIndexOf(':');
          probs.put(entry.codePointAt(0), Double.parseDouble(entry.substring(colon + 1)));
        }
        emit.add(probs);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static BufferedReader reader(String resource) throws IOException {
    InputStream in = Jieba.class.getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException("jieba's " + resource + " is not on the class path");
    }
    if (resource.endsWith(".gz")) {
      in = new GZIPInputStream(in);
    }
    return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
  }

  /** The one segmenter (the dictionary is read once, on first use). */
  static Jieba get() {
    return Holder.INSTANCE;
  }

  /** jieba-rs's {@code cut}: the words of {@code text}, in order, covering it. */
  List<String> cut(String text, boolean hmm) {
    List<String> words = new ArrayList<>();
    int[] cps = text.codePoints().toArray();
    int i = 0;
    while (i < cps.length) {
      int j = i;
      boolean han = isHanDefault(cps[i]);
      while (j < cps.length && isHanDefault(cps[j]) == han) {
        j++;
      }
      if (han) {
        cutBlock(cps, i, j, hmm, words);
      } else {
        for (int k = i; k < j; k++) {
          if (cps[k] == '\r' && k + 1 < j && cps[k + 1] == '\n') {
            words.add("\r\n");
            k++;
          } else {
            words.add(Character.toString(cps[k]));
          }
        }
      }
      i = j;
    }
    return words;
  }

  /** jieba-rs's {@code cut_all}: every dictionary word of each Han block, by start then end. */
  List<String> cutAll(String text) {
    List<String> words = new ArrayList<>();
    int[] cps = text.codePoints().toArray();
    int i = 0;
    while (i < cps.length) {
      if (isHan(cps[i])) {
        int j = i;
        while (j < cps.length && isHan(cps[j])) {
          j++;
        }
        for (int from = i; from < j; from++) {
          for (int to : edges(cps, from, j)) {
            words.add(new String(cps, from, to - from));
          }
        }
        i = j;
      } else if (isCutAllWordChar(cps[i])) {
        int j = i;
        while (j < cps.length && !isHan(cps[j]) && isCutAllWordChar(cps[j])) {
          j++;
        }
        words.add(new String(cps, i, j - i));
        i = j;
      } else {
        words.add(Character.toString(cps[i]));
        i++;
      }
    }
    return words;
  }

  /**
   * jieba-rs's {@code cut_for_search}: {@link #cut}, each word of more than two characters
   * preceded by its dictionary bigrams, then (more than three) its dictionary trigrams.
   */
  List<String> cutForSearch(String text, boolean hmm) {
    List<String> words = new ArrayList<>();
    for (String w : cut(text, hmm)) {
      int[] cps = w.codePoints().toArray();
      for (int n = 2; n <= 3; n++) {
        if (cps.length > n) {
          for (int i = 0; i + n <= cps.length; i++) {
            String gram = new String(cps, i, n);
            if (freqs.containsKey(gram)) {
              words.add(gram);
            }
          }
        }
      }
      words.add(w);
    }
    return words;
  }

  /** The ends of the dictionary words starting at {@code from} within {@code [from, to)}. */
  private List<Integer> edges(int[] cps, int from, int to) {
    List<Integer> ends = new ArrayList<>(4);
    StringBuilder b = new StringBuilder();
    for (int end = from + 1; end <= Math.min(to, from + longest); end++) {
      b.appendCodePoint(cps[end - 1]);
      if (freqs.containsKey(b.toString())) {
        ends.add(end);
      }
    }
    return ends;
  }

  private void cutBlock(int[] cps, int from, int to, boolean hmm, List<String> words) {
    // route[i]: the best log probability of cps[i, to) and where its first word ends
    double[] score = new double[to - from + 1];
    int[] next = new int[to - from + 1];
    for (int i = to - 1; i >= from; i--) {
      List<Integer> ends = edges(cps, i, to);
      if (ends.isEmpty()) {
        score[i - from] = StrictMath.log(1) - logTotal + score[i + 1 - from];
        next[i - from] = i + 1;
        continue;
      }
      double best = Double.NEGATIVE_INFINITY;
      int bestEnd = -1;
      for (int end : ends) {
        long f = freqs.get(new String(cps, i, end - i));
        double s = StrictMath.log(f) - logTotal + score[end - from];
        // Rust's max_by over (score, end): a tie goes to the longer word
        if (bestEnd < 0 || s >= best) {
          best = s;
          bestEnd = end;
        }
      }
      score[i - from] = best;
      next[i - from] = bestEnd;
    }
    int left = -1;
    int x = from;
    while (x < to) {
      int y = next[x - from];
      boolean single = y == x + 1;
      if (single && (hmm || isAsciiAlphanumeric(cps[x]))) {
        if (left < 0) {
          left = x;
        }
      } else {
        if (left >= 0) {
          flushSingles(cps, left, x, hmm, words);
          left = -1;
        }
        words.add(new String(cps, x, y - x));
      }
      x = y;
    }
    if (left >= 0) {
      flushSingles(cps, left, to, hmm, words);
    }
  }

  /** A run of single-character routes: one word without HMM, else as jieba-rs's cut_dag_hmm. */
  private void flushSingles(int[] cps, int from, int to, boolean hmm, List<String> words) {
    String run = new String(cps, from, to - from);
    if (!hmm || to - from == 1) {
      words.add(run);
    } else if (!freqs.containsKey(run)) {
      hmmCut(cps, from, to, words);
    } else {
      for (int i = from; i < to; i++) {
        words.add(Character.toString(cps[i]));
      }
    }
  }

  private void hmmCut(int[] cps, int from, int to, List<String> words) {
    int i = from;
    while (i < to) {
      int j = i;
      boolean han = isHmmHan(cps[i]);
      while (j < to && isHmmHan(cps[j]) == han) {
        j++;
      }
      if (han) {
        if (j - i > 1) {
          viterbi(cps, i, j, words);
        } else {
          words.add(Character.toString(cps[i]));
        }
      } else {
        String block = new String(cps, i, j - i);
        Matcher m = HMM_SKIP.matcher(block);
        int last = 0;
        while (m.find()) {
          if (m.start() > last) {
            words.add(block.substring(last, m.start()));
          }
          words.add(m.group());
          last = m.end();
        }
        if (last < block.length()) {
          words.add(block.substring(last));
        }
      }
      i = j;
    }
  }

  private double emit(int state, int cp) {
    Double p = emit.get(state).get(cp);
    return p == null ? MIN_FLOAT : p;
  }

  private void viterbi(int[] cps, int from, int to, List<String> words) {
    int n = to - from;
    double[][] v = new double[n][4];
    int[][] prev = new int[n][4];
    for (int y : STATES) {
      v[0][y] = initial[y] + emit(y, cps[from]);
    }
    for (int t = 1; t < n; t++) {
      for (int y : STATES) {
        double em = emit(y, cps[from + t]);
        double best = 0;
        int bestState = -1;
        for (int y0 : PREV_STATUS[y]) {
          double p = v[t - 1][y0] + trans[y0][y] + em;
          // Rust's max_by over (probability, state): a tie goes to the later state
          if (bestState < 0 || p > best || (p == best && y0 > bestState)) {
            best = p;
            bestState = y0;
          }
        }
        v[t][y] = best;
        prev[t][y] = bestState;
      }
    }
    int state = v[n - 1][S] >= v[n - 1][E] ? S : E;
    int[] path = new int[n];
    for (int t = n - 1; t >= 0; t--) {
      path[t] = state;
      state = prev[t][state];
    }
    int begin = 0;
    int nextStart = 0;
    for (int t = 0; t < n; t++) {
      if (path[t] == B) {
        begin = t;
      } else if (path[t] == E) {
        words.add(new String(cps, from + begin, t + 1 - begin));
        nextStart = t + 1;
      } else if (path[t] == S) {
        words.add(Character.toString(cps[from + t]));
        nextStart = t + 1;
      }
    }
    if (nextStart < n) {
      words.add(new String(cps, from + nextStart, n - nextStart));
    }
  }

  private static boolean isAsciiAlphanumeric(int cp) {
    return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
  }

  /** jieba-rs's RE_HAN_CUT_ALL's class: the CJK unified ideographs and their extensions. */
  private static boolean isHan(int cp) {
    return (cp >= 0x3400 && cp <= 0x4DBF)
        || (cp >= 0x4E00 && cp <= 0x9FFF)
        || (cp >= 0xF900 && cp <= 0xFAFF)
        || (cp >= 0x20000 && cp <= 0x2A6DF)
        || (cp >= 0x2A700 && cp <= 0x2B73F)
        || (cp >= 0x2B740 && cp <= 0x2B81F)
        || (cp >= 0x2B820 && cp <= 0x2CEAF)
        || (cp >= 0x2CEB0 && cp <= 0x2EBEF)
        || (cp >= 0x2F800 && cp <= 0x2FA1F);
  }

  /** jieba-rs's RE_HAN_DEFAULT's class: {@link #isHan}, ASCII letters, digits, {@code +#&._%-}. */
  private static boolean isHanDefault(int cp) {
    return isHan(cp) || isAsciiAlphanumeric(cp) || "+#&._%-".indexOf(cp) >= 0;
  }

  /** The complement of jieba-rs's RE_SKIP_CUT_ALL: ASCII letters, digits, {@code +#\n}. */
  private static boolean isCutAllWordChar(int cp) {
    return isAsciiAlphanumeric(cp) || cp == '+' || cp == '#' || cp == '\n';
  }

  /** jieba-rs's {@code hmm.rs} RE_HAN: U+4E00 to U+9FD5. */
  private static boolean isHmmHan(int cp) {
    return cp >= 0x4E00 && cp <= 0x9FD5;
  }
}
