package dev.mnestic.search.text;

/**
 * One token of an analysed text: its text after the filters, where it was in the text (UTF-8
 * byte offsets, as CozoDB stores them in an index's {@code offset_from} and {@code
 * offset_to}) and its position, which the tokenizer gives (the n-th token of {@code Simple} or
 * {@code Whitespace}, 0 for every {@code Raw} and {@code NGram} token) and the filters keep,
 * so that a dropped stop word leaves a gap that {@code NEAR} sees, as in CozoDB.
 */
public record Token(String text, int offsetFrom, int offsetTo, int position) {
  Token withText(String newText) {
    return new Token(newText, offsetFrom, offsetTo, position);
  }
}
