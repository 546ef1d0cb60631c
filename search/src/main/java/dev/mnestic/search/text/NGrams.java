package dev.mnestic.search.text;

import java.util.ArrayList;
import java.util.List;

/**
 * CozoDB's {@code NGram} tokenizer (tantivy's {@code NgramTokenizer}): every run of {@code
 * min} to {@code max} code points, by start then length, all at position 0; with {@code
 * prefixOnly} only the runs from the start. A text shorter than {@code min} code points gives
 * none.
 */
final class NGrams {
  private NGrams() {}

  static List<Token> tokens(String text, int min, int max, boolean prefixOnly) {
    // the offsets between code points, 0 and text.length() included
    List<Integer> frontiers = new ArrayList<>();
    for (int i = 0; i < text.length(); i += Character.charCount(text.codePointAt(i))) {
      frontiers.add(i);
    }
    frontiers.add(text.length());
    int[] bytes = new int[frontiers.size()];
    for (int i = 1; i < bytes.length; i++) {
      bytes[i] =
          bytes[i - 1] + TextAnalyzer.utf8Length(text, frontiers.get(i - 1), frontiers.get(i));
    }
    List<Token> tokens = new ArrayList<>();
    for (int start = 0; start < frontiers.size(); start++) {
      if (prefixOnly && start > 0) {
        break;
      }
      for (int len = min; len <= max && start + len < frontiers.size(); len++) {
        int end = start + len;
        tokens.add(
            new Token(
                text.substring(frontiers.get(start), frontiers.get(end)),
                bytes[start],
                bytes[end],
                0));
      }
    }
    return tokens;
  }
}
