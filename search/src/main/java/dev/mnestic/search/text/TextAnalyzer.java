package dev.mnestic.search.text;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import dev.mnestic.value.Json;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.tartarus.snowball.SnowballStemmer;
import org.tartarus.snowball.ext.ArabicStemmer;
import org.tartarus.snowball.ext.DanishStemmer;
import org.tartarus.snowball.ext.DutchStemmer;
import org.tartarus.snowball.ext.EnglishStemmer;
import org.tartarus.snowball.ext.FinnishStemmer;
import org.tartarus.snowball.ext.FrenchStemmer;
import org.tartarus.snowball.ext.GermanStemmer;
import org.tartarus.snowball.ext.GreekStemmer;
import org.tartarus.snowball.ext.HungarianStemmer;
import org.tartarus.snowball.ext.ItalianStemmer;
import org.tartarus.snowball.ext.NorwegianStemmer;
import org.tartarus.snowball.ext.PortugueseStemmer;
import org.tartarus.snowball.ext.RomanianStemmer;
import org.tartarus.snowball.ext.RussianStemmer;
import org.tartarus.snowball.ext.SpanishStemmer;
import org.tartarus.snowball.ext.SwedishStemmer;
import org.tartarus.snowball.ext.TamilStemmer;
import org.tartarus.snowball.ext.TurkishStemmer;

/**
 * A tokenizer and its filters, as CozoDB 0.7.6 builds them from an index's {@code tokenizer}
 * and {@code filters} options ({@code cozo-core/src/fts/mod.rs}, {@code TokenizerConfig}).
 * The filters run in the order given, each over the tokens the previous one left.
 *
 * <p>Where Lucene has the same thing it is Lucene's: the ASCII folding table ({@link
 * ASCIIFoldingFilter#foldToASCII}, which tantivy's, hence CozoDB's, was ported from) and the
 * Snowball stemmers (CozoDB runs the same Snowball algorithms through rust-stemmers). The
 * tokenizers are CozoDB's own rules (tantivy's, not Lucene's: {@code Simple} splits on
 * Rust's {@code char::is_alphanumeric}, {@code NGram} is tantivy's stuttering iterator) and
 * the stop words are CozoDB's stopwords-iso lists, not Lucene's, so both are written here.
 * {@code Cangjie} is jieba's dictionary segmentation as jieba-rs does it ({@link Jieba}).
 */
public final class TextAnalyzer {
  /** An option of the index: a tokenizer's or filter's name and its arguments. */
  public record Config(String name, List<Object> args) {
    public Config {
      args = List.copyOf(args);
    }

    /** {@code name} without arguments. */
    public static Config of(String name) {
      return new Config(name, List.of());
    }

    /**
     * The tokenizer or filter an index option names: a name ({@code Simple}) or a list of the
     * name and its arguments ({@code NGram(2, 3)} as the front end passes it).
     *
     * @throws IllegalArgumentException when it is neither
     */
    public static Config ofOption(Object option) {
      if (option instanceof String s) {
        return of(s);
      }
      if (option instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof String name) {
        return new Config(name, new ArrayList<>(l.subList(1, l.size())));
      }
      throw new IllegalArgumentException(
          "Tokenizer must be a symbol or a call for an existing tokenizer");
    }

    /**
     * CozoDB's JSON of it, as {@code ::indices} shows it: its name and arguments, each as serde
     * writes CozoDB's {@code DataValue} ({@code {"Str": "en"}}, {@code {"Num": {"Int": 2}}},
     * {@code {"Bool": true}}, {@code {"List": [...]}}).
     */
    public Map<String, Object> describe() {
      Map<String, Object> m = new java.util.LinkedHashMap<>();
      List<Object> tagged = new ArrayList<>();
      for (Object a : args) {
        tagged.add(tagged(a));
      }
      m.put("args", tagged);
      m.put("name", name);
      return m;
    }

    /** The config {@link #describe} describes. */
    public static Config fromDescription(Object description) {
      Map<?, ?> m = (Map<?, ?>) description;
      List<Object> args = new ArrayList<>();
      for (Object a : (List<?>) m.get("args")) {
        args.add(untagged(a));
      }
      return new Config((String) m.get("name"), args);
    }

    private static Object tagged(Object value) {
      if (value == null) {
        return "Null";
      }
      if (value instanceof String) {
        return Json.object(Map.<String, Object>of("Str", value));
      }
      if (value instanceof Boolean) {
        return Json.object(Map.<String, Object>of("Bool", value));
      }
      if (value instanceof Long) {
        return Json.object(Map.<String, Object>of("Num", Json.object(Map.<String, Object>of("Int", value))));
      }
      if (value instanceof Double) {
        return Json.object(Map.<String, Object>of("Num", Json.object(Map.<String, Object>of("Float", value))));
      }
      if (value instanceof List<?> l) {
        List<Object> out = new ArrayList<>();
        for (Object x : l) {
          out.add(tagged(x));
        }
        return Json.object(Map.<String, Object>of("List", out));
      }
      throw new IllegalArgumentException("Tokenizer arguments must be constants, got " + value);
    }

    private static Object untagged(Object tagged) {
      if ("Null".equals(tagged)) {
        return null;
      }
      Map.Entry<?, ?> e = ((Map<?, ?>) tagged).entrySet().iterator().next();
      Object v = e.getValue();
      switch ((String) e.getKey()) {
        case "Num":
          return ((Map<?, ?>) v).values().iterator().next();
        case "List":
          List<Object> out = new ArrayList<>();
          for (Object x : (List<?>) v) {
            out.add(untagged(x));
          }
          return out;
        default:
          return v;
      }
    }

    Object arg(int i) {
      return i < args.size() ? args.get(i) : null;
    }
  }

  private final Function<String, List<Token>> tokenizer;
  private final List<UnaryOperator<List<Token>>> filters;

  private TextAnalyzer(
      Function<String, List<Token>> tokenizer, List<UnaryOperator<List<Token>>> filters) {
    this.tokenizer = tokenizer;
    this.filters = filters;
  }

  /**
   * The analyzer of {@code tokenizer} then {@code filters}.
   *
   * @throws IllegalArgumentException naming the unknown tokenizer, filter or language, or
   *     the argument of the wrong type, in CozoDB's words
   */
  public static TextAnalyzer of(Config tokenizer, List<Config> filters) {
    List<UnaryOperator<List<Token>>> built = new ArrayList<>();
    for (Config f : filters) {
      built.add(filter(f));
    }
    return new TextAnalyzer(tokenizer(tokenizer), List.copyOf(built));
  }

  /** The tokens of {@code text}. */
  public List<Token> tokens(String text) {
    List<Token> tokens = tokenizer.apply(text);
    for (UnaryOperator<List<Token>> f : filters) {
      tokens = f.apply(tokens);
    }
    return tokens;
  }

  /**
   * The distinct runs of {@code n} consecutive token texts of {@code text}, what MinHash-LSH
   * hashes ({@code TextAnalyzer::unique_ngrams}): single tokens for {@code n = 1}, the whole
   * token list when it has at most {@code n} tokens (even none).
   */
  public Set<List<String>> uniqueNgrams(String text, int n) {
    List<String> texts = new ArrayList<>();
    for (Token t : tokens(text)) {
      texts.add(t.text());
    }
    Set<List<String>> grams = new LinkedHashSet<>();
    if (n == 1) {
      for (String t : texts) {
        grams.add(List.of(t));
      }
    } else if (n >= texts.size()) {
      grams.add(List.copyOf(texts));
    } else {
      for (int i = 0; i + n <= texts.size(); i++) {
        grams.add(List.copyOf(texts.subList(i, i + n)));
      }
    }
    return grams;
  }

  private static Function<String, List<Token>> tokenizer(Config c) {
    switch (c.name()) {
      case "Raw":
        return text -> List.of(new Token(text, 0, utf8Length(text, 0, text.length()), 0));
      case "Simple":
        return text -> split(text, TextAnalyzer::isAlphanumeric);
      case "Whitespace":
        return text -> split(text, cp -> !isAsciiWhitespace(cp));
      case "NGram":
        {
          long min = intArg(c, 0, 1L, "First argument `min_gram` must be an integer");
          long max = intArg(c, 1, min, "Second argument `max_gram` must be an integer");
          Object p = c.arg(2);
          if (p != null && !(p instanceof Boolean)) {
            throw new IllegalArgumentException("Third argument `prefix_only` must be a boolean");
          }
          boolean prefixOnly = Boolean.TRUE.equals(p);
          if (min < 1) {
            throw new IllegalArgumentException("min_gram must be >= 1");
          }
          if (max < min) {
            throw new IllegalArgumentException("max_gram must be >= min_gram");
          }
          return text -> NGrams.tokens(text, (int) min, (int) Math.min(max, 1 << 20), prefixOnly);
        }
      case "Cangjie":
        {
          Object hmm = c.arg(1);
          if (hmm != null && !(hmm instanceof Boolean)) {
            throw new IllegalArgumentException(
                "Second argument `use_hmm` to Cangjie must be a boolean");
          }
          Object kind = c.arg(0);
          if (kind != null && !(kind instanceof String)) {
            throw new IllegalArgumentException("First argument `kind` to Cangjie must be a string");
          }
          String k = kind == null ? "default" : (String) kind;
          boolean useHmm = Boolean.TRUE.equals(hmm);
          switch (k) {
            case "unicode":
              return TextAnalyzer::codePoints;
            case "default":
              return text -> words(Jieba.get().cut(text, useHmm));
            case "all":
              return text -> words(Jieba.get().cutAll(text));
            case "search":
              return text -> words(Jieba.get().cutForSearch(text, useHmm));
            default:
              throw new IllegalArgumentException("Unknown Cangjie kind: " + k);
          }
        }
      default:
        throw new IllegalArgumentException("Unknown tokenizer: " + c.name());
    }
  }

  private static UnaryOperator<List<Token>> filter(Config c) {
    switch (c.name()) {
      case "AlphaNumOnly":
        return keep(t -> t.chars().allMatch(ch -> ch < 128 && Character.isLetterOrDigit(ch)));
      case "AsciiFolding":
        return map(TextAnalyzer::foldToAscii);
      case "LowerCase":
      case "Lowercase":
        return map(TextAnalyzer::toLowerCase);
      case "RemoveLong":
        {
          Object limit = c.arg(0);
          if (limit == null) {
            throw new IllegalArgumentException("Missing first argument `min_length`");
          }
          if (!(limit instanceof Long)) {
            throw new IllegalArgumentException("First argument `min_length` must be an integer");
          }
          long l = (Long) limit;
          return keep(t -> t.getBytes(StandardCharsets.UTF_8).length < l);
        }
      case "SplitCompoundWords":
        {
          Object list = c.arg(0);
          if (list == null) {
            throw new IllegalArgumentException("Missing first argument `compound_words_list`");
          }
          List<String> dictionary = new ArrayList<>();
          if (list instanceof List) {
            for (Object w : (List<?>) list) {
              if (!(w instanceof String)) {
                throw new IllegalArgumentException(
                    "First argument `compound_words_list` must be a list of strings");
              }
              dictionary.add((String) w);
            }
          } else {
            throw new IllegalArgumentException(
                "First argument `compound_words_list` must be a list of strings");
          }
          return tokens -> splitCompoundWords(tokens, dictionary);
        }
      case "Stemmer":
        {
          Object lang = c.arg(0);
          if (lang == null) {
            throw new IllegalArgumentException("Missing first argument `language` to Stemmer");
          }
          if (!(lang instanceof String)) {
            throw new IllegalArgumentException(
                "First argument `language` to Stemmer must be a string");
          }
          String l = ((String) lang).toLowerCase(Locale.ROOT);
          Supplier<SnowballStemmer> stemmer = STEMMERS.get(l);
          if (stemmer == null) {
            throw new IllegalArgumentException("Unsupported language: " + l);
          }
          return tokens -> {
            SnowballStemmer s = stemmer.get();
            List<Token> out = new ArrayList<>(tokens.size());
            for (Token t : tokens) {
              s.setCurrent(t.text());
              s.stem();
              out.add(t.withText(s.getCurrent()));
            }
            return out;
          };
        }
      case "Stopwords":
        {
          Object arg = c.arg(0);
          Set<String> words;
          if (arg instanceof String) {
            words = stopwords((String) arg);
          } else if (arg instanceof List) {
            words = new HashSet<>();
            for (Object w : (List<?>) arg) {
              if (!(w instanceof String)) {
                throw new IllegalArgumentException(
                    "First argument `stopwords` must be a list of strings");
              }
              words.add((String) w);
            }
          } else {
            throw new IllegalArgumentException(
                "Filter Stopwords requires language name or a list of stopwords");
          }
          return keep(t -> !words.contains(t));
        }
      default:
        throw new IllegalArgumentException("Unknown token filter: \"" + c.name() + "\"");
    }
  }

  /**
   * CozoDB's {@code SplitCompoundWords} (tantivy's): a token that the dictionary's words tile
   * exactly, taking at each point the longest word that starts there (Aho-Corasick's
   * leftmost-longest matches, one after the other from the start), becomes those words, each
   * with the token's offsets and position; any other token stays whole.
   */
  private static List<Token> splitCompoundWords(List<Token> tokens, List<String> dictionary) {
    List<Token> out = new ArrayList<>(tokens.size());
    for (Token t : tokens) {
      String text = t.text();
      List<Integer> cuts = new ArrayList<>();
      int pos = 0;
      while (pos < text.length()) {
        int longest = 0;
        for (String w : dictionary) {
          if (w.length() > longest && text.startsWith(w, pos)) {
            longest = w.length();
          }
        }
        if (longest == 0) {
          break;
        }
        cuts.add(pos);
        pos += longest;
      }
      if (pos < text.length() || cuts.isEmpty()) {
        out.add(t);
        continue;
      }
      cuts.add(text.length());
      for (int i = 0; i + 1 < cuts.size(); i++) {
        out.add(t.withText(text.substring(cuts.get(i), cuts.get(i + 1))));
      }
    }
    return out;
  }

  /**
   * Argument {@code i} as CozoDB's {@code get_int}: an Int, or a Float of integral value
   * ({@code NGram(2.0, 3)}); {@code dflt} when absent.
   */
  private static long intArg(Config c, int i, long dflt, String error) {
    Object a = c.arg(i);
    if (a == null) {
      return dflt;
    }
    if (a instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
      return d.longValue();
    }
    if (!(a instanceof Long)) {
      throw new IllegalArgumentException(error);
    }
    return (Long) a;
  }

  private interface CodePointTest {
    boolean test(int codePoint);
  }

  /** The maximal runs of code points passing {@code inToken}, numbered from 0. */
  private static List<Token> split(String text, CodePointTest inToken) {
    List<Token> tokens = new ArrayList<>();
    int i = 0;
    int bytes = 0;
    while (i < text.length()) {
      int cp = text.codePointAt(i);
      if (!inToken.test(cp)) {
        i += Character.charCount(cp);
        bytes += utf8Length(cp);
        continue;
      }
      int start = i;
      int startBytes = bytes;
      while (i < text.length() && inToken.test(cp = text.codePointAt(i))) {
        i += Character.charCount(cp);
        bytes += utf8Length(cp);
      }
      tokens.add(new Token(text.substring(start, i), startBytes, bytes, tokens.size()));
    }
    return tokens;
  }

  /**
   * CozoDB's {@code CangjieTokenStream} over jieba's words: the n-th word at position n, its
   * offsets the running sum of the words' UTF-8 lengths (so in the {@code 'search'} and
   * {@code 'all'} kinds, whose words overlap, they run past where the words are, as in CozoDB).
   */
  private static List<Token> words(List<String> words) {
    List<Token> tokens = new ArrayList<>(words.size());
    int bytes = 0;
    for (String w : words) {
      int n = utf8Length(w, 0, w.length());
      tokens.add(new Token(w, bytes, bytes + n, tokens.size()));
      bytes += n;
    }
    return tokens;
  }

  private static List<Token> codePoints(String text) {
    List<Token> tokens = new ArrayList<>();
    int bytes = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      int n = utf8Length(cp);
      tokens.add(new Token(Character.toString(cp), bytes, bytes + n, tokens.size()));
      bytes += n;
      i += Character.charCount(cp);
    }
    return tokens;
  }

  static int utf8Length(int cp) {
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }

  /** The UTF-8 length of {@code text}'s chars {@code from} to {@code to}. */
  static int utf8Length(String text, int from, int to) {
    int n = 0;
    for (int i = from; i < to; ) {
      int cp = text.codePointAt(i);
      n += utf8Length(cp);
      i += Character.charCount(cp);
    }
    return n;
  }

  /** Rust's {@code char::is_alphanumeric}: Unicode Alphabetic or Numeric (Nd, Nl, No). */
  static boolean isAlphanumeric(int cp) {
    if (Character.isAlphabetic(cp)) {
      return true;
    }
    int type = Character.getType(cp);
    return type == Character.DECIMAL_DIGIT_NUMBER
        || type == Character.LETTER_NUMBER
        || type == Character.OTHER_NUMBER;
  }

  /** Rust's {@code char::is_ascii_whitespace}: space, tab, line feed, form feed, return. */
  private static boolean isAsciiWhitespace(int cp) {
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\f' || cp == '\r';
  }

  /** Rust's {@code char::to_lowercase} per code point (no final-sigma rule, unlike Java's). */
  static String toLowerCase(String s) {
    StringBuilder b = new StringBuilder(s.length());
    s.codePoints()
        .forEach(
            cp -> {
              if (cp == 0x130) {
                b.append("i\u0307");
              } else {
                b.appendCodePoint(Character.toLowerCase(cp));
              }
            });
    return b.toString();
  }

  private static String foldToAscii(String s) {
    char[] in = s.toCharArray();
    char[] out = new char[4 * in.length];
    int n = ASCIIFoldingFilter.foldToASCII(in, 0, out, 0, in.length);
    return new String(out, 0, n);
  }

  private static UnaryOperator<List<Token>> map(UnaryOperator<String> f) {
    return tokens -> {
      List<Token> out = new ArrayList<>(tokens.size());
      for (Token t : tokens) {
        out.add(t.withText(f.apply(t.text())));
      }
      return out;
    };
  }

  private interface TextTest {
    boolean test(String text);
  }

  private static UnaryOperator<List<Token>> keep(TextTest test) {
    return tokens -> {
      List<Token> out = new ArrayList<>(tokens.size());
      for (Token t : tokens) {
        if (test.test(t.text())) {
          out.add(t);
        }
      }
      return out;
    };
  }

  private static final Map<String, Supplier<SnowballStemmer>> STEMMERS =
      Map.ofEntries(
          Map.entry("arabic", ArabicStemmer::new),
          Map.entry("danish", DanishStemmer::new),
          Map.entry("dutch", DutchStemmer::new),
          Map.entry("english", EnglishStemmer::new),
          Map.entry("finnish", FinnishStemmer::new),
          Map.entry("french", FrenchStemmer::new),
          Map.entry("german", GermanStemmer::new),
          Map.entry("greek", GreekStemmer::new),
          Map.entry("hungarian", HungarianStemmer::new),
          Map.entry("italian", ItalianStemmer::new),
          Map.entry("norwegian", NorwegianStemmer::new),
          Map.entry("portuguese", PortugueseStemmer::new),
          Map.entry("romanian", RomanianStemmer::new),
          Map.entry("russian", RussianStemmer::new),
          Map.entry("spanish", SpanishStemmer::new),
          Map.entry("swedish", SwedishStemmer::new),
          Map.entry("tamil", TamilStemmer::new),
          Map.entry("turkish", TurkishStemmer::new));

  /** CozoDB's stop words of language {@code code} (ISO 639-1), from stopwords-iso. */
  private static Set<String> stopwords(String code) {
    if (!code.matches("[a-z]{2}")) {
      throw new IllegalArgumentException("Unsupported language: " + code);
    }
    InputStream in = TextAnalyzer.class.getResourceAsStream("stopwords-" + code + ".txt");
    if (in == null) {
      throw new IllegalArgumentException("Unsupported language: " + code);
    }
    Set<String> words = new HashSet<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        words.add(line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return words;
  }
}
