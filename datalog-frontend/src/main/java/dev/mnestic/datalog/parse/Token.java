package dev.mnestic.datalog.parse;

import dev.mnestic.datalog.ast.Pos;

/** A token of CozoScript, with where it starts and ends in the source. */
record Token(Kind kind, String text, Object value, Pos pos, int start, int end) {
  /** Token classes. Punctuation and operators are {@link #SYMBOL}s, told apart by text. */
  enum Kind { IDENT, PARAM, INT, FLOAT, STRING, SYMBOL, EOF }

  boolean is(String symbolOrWord) {
    return (kind == Kind.SYMBOL || kind == Kind.IDENT) && text.equals(symbolOrWord);
  }

  String describe() {
    switch (kind) {
    case EOF:
      return "end of input";
    case STRING:
      return "string " + text;
    default:
      return "'" + text + "'";
    }
  }
}
