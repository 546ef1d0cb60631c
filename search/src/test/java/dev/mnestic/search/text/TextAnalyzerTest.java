package dev.mnestic.search.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tokenizers against CozoDB's (tantivy's) own unit tests of them, and the options' errors
 * in CozoDB's words. The analyzers' effect on search is checked against CozoDB itself in
 * {@link FtsOracleTest}.
 */
class TextAnalyzerTest {
  private static List<Token> ngrams(String text, long min, long max, boolean prefixOnly) {
    return TextAnalyzer.of(new TextAnalyzer.Config("NGram", List.of(min, max, prefixOnly)), List.of())
        .tokens(text);
  }

  private static List<String> texts(List<Token> tokens) {
    return tokens.stream().map(Token::text).toList();
  }

  @Test
  void ngramsAsTantivysTests() {
    assertEquals(
        List.of("h", "he", "e", "el", "l", "ll", "l", "lo", "o"),
        texts(ngrams("hello", 1, 2, false)));
    assertEquals(List.of("hel", "ell", "llo"), texts(ngrams("hello", 3, 3, false)));
    assertEquals(
        List.of("fr", "fra", "fran", "frank"), texts(ngrams("frankenstein", 2, 5, true)));
    assertEquals(
        List.of("h", "hε", "ε", "εl", "l", "ll", "l", "lo", "o"),
        texts(ngrams("hεllo", 1, 2, false)));
    assertEquals(List.of("hε", "hεl", "hεll", "hεllo"), texts(ngrams("hεllo", 2, 5, true)));
    assertEquals(List.of(), ngrams("", 1, 5, false));
    assertEquals(List.of(), ngrams("", 2, 5, false));
    ngrams("hello", 1, 2, false).forEach(t -> assertEquals(0, t.position()));
  }

  @Test
  void simpleAndWhitespaceNumberTheirTokens() {
    TextAnalyzer simple = TextAnalyzer.of(TextAnalyzer.Config.of("Simple"), List.of());
    assertEquals(
        List.of(
            new Token("Hello", 2, 7, 0), new Token("world", 9, 14, 1), new Token("x2", 17, 19, 2)),
        simple.tokens("  Hello, world!! x2"));
    TextAnalyzer ws = TextAnalyzer.of(TextAnalyzer.Config.of("Whitespace"), List.of());
    assertEquals(
        List.of(new Token("Hello,", 0, 6, 0), new Token("world!!", 8, 15, 1)),
        ws.tokens("Hello,\t world!!\n"));
    // a stop word leaves its position empty, so NEAR sees the gap
    TextAnalyzer stops =
        TextAnalyzer.of(
            TextAnalyzer.Config.of("Simple"),
            List.of(new TextAnalyzer.Config("Stopwords", List.of(List.of("the")))));
    assertEquals(
        List.of(new Token("fox", 0, 3, 0), new Token("dog", 8, 11, 2)), stops.tokens("fox the dog"));
  }

  @Test
  void uniqueNgramsAsCozo() {
    TextAnalyzer simple = TextAnalyzer.of(TextAnalyzer.Config.of("Simple"), List.of());
    assertEquals(
        Set.of(List.of("a", "b"), List.of("b", "a")), simple.uniqueNgrams("a b a b", 2));
    assertEquals(Set.of(List.of("a", "b")), simple.uniqueNgrams("a b", 3));
    assertEquals(Set.of(List.of()), simple.uniqueNgrams("", 3));
    assertEquals(Set.of(), simple.uniqueNgrams("", 1));
  }

  @Test
  void lowercaseIsRustsPerCharacter() {
    assertEquals("σίσυφοσ", TextAnalyzer.toLowerCase("ΣΊΣΥΦΟΣ"));
    assertEquals("i\u0307stanbul", TextAnalyzer.toLowerCase("İstanbul"));
  }

  @Test
  void badOptionsSayWhat() {
    assertEquals(
        "Unknown tokenizer: Foo",
        assertThrows(
                IllegalArgumentException.class,
                () -> TextAnalyzer.of(TextAnalyzer.Config.of("Foo"), List.of()))
            .getMessage());
    assertEquals(
        "Unsupported language: klingon",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    TextAnalyzer.of(
                        TextAnalyzer.Config.of("Simple"),
                        List.of(new TextAnalyzer.Config("Stemmer", List.of("Klingon")))))
            .getMessage());
    assertEquals(
        "Unsupported language: xx",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    TextAnalyzer.of(
                        TextAnalyzer.Config.of("Simple"),
                        List.of(new TextAnalyzer.Config("Stopwords", List.of("xx")))))
            .getMessage());
    assertEquals(
        "max_gram must be >= min_gram",
        assertThrows(IllegalArgumentException.class, () -> ngrams("x", 3, 2, false))
            .getMessage());
    assertEquals(
        "Unknown Cangjie kind: Default",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    TextAnalyzer.of(
                        new TextAnalyzer.Config("Cangjie", List.of("Default")), List.of()))
            .getMessage());
    assertEquals(
        List.of(new Token("中", 0, 3, 0), new Token("文", 3, 6, 1)),
        TextAnalyzer.of(new TextAnalyzer.Config("Cangjie", List.of("unicode")), List.of())
            .tokens("中文"));
  }

  @Test
  void queryErrorsNameTheirPlace() {
    assertEquals(
        "full-text query 1:5: a boost needs a decimal point (^2.0, not ^2): CozoDB 0.7.6 crashes"
            + " on an integer boost",
        assertThrows(IllegalArgumentException.class, () -> FtsQuery.parse("fox^2")).getMessage());
    // as CozoDB says it (pest's rendering), on the second line
    assertEquals(
        " --> 2:5\n  |\n2 |  AND\n  |     ^---\n  |\n  = expected fts_phrase, fts_near, or"
            + " fts_grouped",
        assertThrows(FtsQuery.SyntaxError.class, () -> FtsQuery.parse("fox\n AND"))
            .getMessage());
  }
}
