package dev.mnestic.datalog.parse;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.ast.Pos;
import dev.mnestic.value.ErrorCode;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits CozoScript into tokens. Comments are {@code # ...} to the end of
 * the line and {@code /* ... *}{@code /} (nesting). Strings: single-quoted with
 * JSON escapes; double-quoted, optionally fenced by underscores
 * ({@code __"..."__}), raw, as in CozoDB. Numbers: decimal, {@code 0x},
 * {@code 0o}, {@code 0b} integers with {@code _} separators; floats with a
 * point or an exponent.
 */
final class Lexer {
  /** Multi-character symbols, longest first where one is a prefix of another. */
  private static final String[] SYMBOLS = {
      "::", ":=", "<-", "<~", "=>", "==", "!=", ">=", "<=", "++", "&&", "||", "->",
      "?", "[", "]", "(", ")", "{", "}", ",", ";", ":", "=", "!", "<", ">", "+", "-",
      "*", "/", "%", "^", "~", "@", "|",
  };

  private final String src;
  private int i;
  private int line = 1;
  private int lineStart;

  private Lexer(String src) {
    this.src = src;
  }

  static List<Token> tokenize(String src) {
    return new Lexer(src).run();
  }

  private List<Token> run() {
    final List<Token> tokens = new ArrayList<>();
    while (true) {
      skipSpaceAndComments();
      if (i >= src.length()) {
        tokens.add(new Token(Token.Kind.EOF, "", null, pos(), i, i));
        return tokens;
      }
      tokens.add(next());
    }
  }

  private Pos pos() {
    return new Pos(line, i - lineStart + 1);
  }

  private void advance() {
    if (src.charAt(i) == '\n') {
      line++;
      lineStart = i + 1;
    }
    i++;
  }

  private void skipSpaceAndComments() {
    while (i < src.length()) {
      final char c = src.charAt(i);
      if (Character.isWhitespace(c)) {
        advance();
      } else if (c == '#') {
        while (i < src.length() && src.charAt(i) != '\n') {
          advance();
        }
      } else if (src.startsWith("/*", i)) {
        final Pos start = pos();
        int depth = 0;
        do {
          if (i >= src.length()) {
            throw new DatalogException(ErrorCode.PARSER_PEST, "unterminated block comment",
                start.line(), start.column());
          }
          if (src.startsWith("/*", i)) {
            depth++;
            advance();
            advance();
          } else if (src.startsWith("*/", i)) {
            depth--;
            advance();
            advance();
          } else {
            advance();
          }
        } while (depth > 0);
      } else {
        return;
      }
    }
  }

  private Token next() {
    final int start = i;
    final Pos pos = pos();
    final char c = src.charAt(i);
    if (c == '\'') {
      return singleQuoted(start, pos);
    }
    if (c == '"' || (c == '_' && rawStringAhead())) {
      return rawString(start, pos);
    }
    if (Character.isDigit(c)) {
      return number(start, pos);
    }
    if (c == '$') {
      advance();
      while (i < src.length() && (isIdentPart(src.charAt(i)) || src.charAt(i) == '.')) {
        advance();
      }
      if (i == start + 1) {
        throw error(pos, "expected a parameter name after '$'");
      }
      return new Token(Token.Kind.PARAM, src.substring(start + 1, i), null, pos, start, i);
    }
    if (isIdentStart(c)) {
      while (i < src.length() && (isIdentPart(src.charAt(i)) || src.charAt(i) == '.')) {
        advance();
      }
      return new Token(Token.Kind.IDENT, src.substring(start, i), null, pos, start, i);
    }
    for (String s : SYMBOLS) {
      if (src.startsWith(s, i)) {
        for (int k = 0; k < s.length(); k++) {
          advance();
        }
        return new Token(Token.Kind.SYMBOL, s, null, pos, start, i);
      }
    }
    throw error(pos, "unexpected character '" + c + "'");
  }

  private boolean rawStringAhead() {
    int k = i;
    while (k < src.length() && src.charAt(k) == '_') {
      k++;
    }
    return k < src.length() && src.charAt(k) == '"';
  }

  private Token rawString(int start, Pos pos) {
    int fence = 0;
    while (src.charAt(i) == '_') {
      fence++;
      advance();
    }
    advance(); // "
    final String close = "\"" + "_".repeat(fence);
    final int end = src.indexOf(close, i);
    if (end < 0) {
      throw error(pos, "unterminated string");
    }
    final String value = src.substring(i, end);
    while (i < end + close.length()) {
      advance();
    }
    return new Token(Token.Kind.STRING, src.substring(start, i), value, pos, start, i);
  }

  private Token singleQuoted(int start, Pos pos) {
    advance();
    final StringBuilder b = new StringBuilder();
    while (true) {
      if (i >= src.length()) {
        throw error(pos, "unterminated string");
      }
      final char c = src.charAt(i);
      if (c == '\'') {
        advance();
        break;
      }
      if (c == '\\') {
        if (i + 1 >= src.length()) {
          throw error(pos, "unterminated string");
        }
        final char e = src.charAt(i + 1);
        switch (e) {
        case '\'': b.append('\''); break;
        case '\\': b.append('\\'); break;
        case '/': b.append('/'); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'n': b.append('\n'); break;
        case 'r': b.append('\r'); break;
        case 't': b.append('\t'); break;
        case 'u':
          if (i + 6 > src.length()
              || !src.substring(i + 2, i + 6).matches("[0-9A-Fa-f]{4}")) {
            throw error(pos(), "bad \\u escape: expected four hex digits");
          }
          b.append((char) Integer.parseInt(src.substring(i + 2, i + 6), 16));
          advance();
          advance();
          advance();
          advance();
          break;
        default:
          throw error(pos(), "bad escape '\\" + e + "'");
        }
        advance();
        advance();
      } else {
        b.append(c);
        advance();
      }
    }
    return new Token(Token.Kind.STRING, src.substring(start, i), b.toString(), pos, start, i);
  }

  private Token number(int start, Pos pos) {
    if (src.startsWith("0x", i) || src.startsWith("0o", i) || src.startsWith("0b", i)) {
      final int radix = src.charAt(i + 1) == 'x' ? 16 : src.charAt(i + 1) == 'o' ? 8 : 2;
      advance();
      advance();
      final int digits = i;
      while (i < src.length() && (Character.digit(src.charAt(i), radix) >= 0 || src.charAt(i) == '_')) {
        advance();
      }
      final String text = src.substring(digits, i).replace("_", "");
      if (text.isEmpty()) {
        throw error(pos, "expected digits after '" + src.substring(start, digits) + "'");
      }
      return new Token(Token.Kind.INT, src.substring(start, i), parseLong(text, radix, pos), pos, start, i);
    }
    boolean isFloat = false;
    digits();
    if (i < src.length() && src.charAt(i) == '.' && !(i + 1 < src.length() && src.charAt(i + 1) == '.')) {
      isFloat = true;
      advance();
      digits();
    }
    if (i < src.length() && (src.charAt(i) == 'e' || src.charAt(i) == 'E')) {
      int k = i + 1;
      if (k < src.length() && (src.charAt(k) == '+' || src.charAt(k) == '-')) {
        k++;
      }
      if (k < src.length() && Character.isDigit(src.charAt(k))) {
        isFloat = true;
        while (i < k) {
          advance();
        }
        digits();
      }
    }
    final String text = src.substring(start, i);
    final String clean = text.replace("_", "");
    if (isFloat) {
      return new Token(Token.Kind.FLOAT, text, Double.parseDouble(clean), pos, start, i);
    }
    try {
      return new Token(Token.Kind.INT, text, Long.parseLong(clean), pos, start, i);
    } catch (NumberFormatException e) {
      // as CozoDB: a decimal integer past i64 (-9223372036854775808 is '-' and a positive one)
      throw new DatalogException(ErrorCode.PARSER_BAD_POS_INT, "Cannot parse integer",
          pos.line(), pos.column(), "integer out of range: " + clean);
    }
  }

  private void digits() {
    while (i < src.length() && (Character.isDigit(src.charAt(i)) || src.charAt(i) == '_')) {
      advance();
    }
  }

  private static long parseLong(String digits, int radix, Pos pos) {
    try {
      return Long.parseLong(digits, radix);
    } catch (NumberFormatException e) {
      throw error(pos, "integer out of range: " + digits);
    }
  }

  static boolean isIdentStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  static boolean isIdentPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  static DatalogException error(Pos pos, String message) {
    return new DatalogException(ErrorCode.PARSER_PEST, message, pos.line(), pos.column());
  }
}
