package dev.mnestic.search.text;

import java.util.ArrayList;
import java.util.List;

/**
 * The parser of CozoDB's full-text queries ({@code fts_doc} in {@code cozoscript.pest}, built
 * as {@code parse/fts.rs} does), a hand-written PEG over the same grammar:
 *
 * <pre>
 *   doc     = expr+                          (juxtaposed expressions: AND)
 *   expr    = term (op term)*                NOT binds loosest, then AND, then OR (tightest)
 *   op      = "AND" | "OR" | "," | ";" | "NOT"
 *   term    = phrase | "NEAR" ("/" int)? "(" phrase+ ")" | "(" expr+ ")"
 *   phrase  = (word+ | "string" | 'string' | _"raw"_) "*"? ("^" float)?
 *   word    = an identifier character run not starting with AND, OR, NOT, NEAR
 * </pre>
 *
 * with spaces and {@code #} or {@code /* *}{@code /} comments between the parts. A run of
 * words is one literal (its text as written, comments included), a trailing {@code *} makes
 * it a prefix, {@code NEAR}'s distance defaults to 10. Like CozoDB, {@code ORANGE} or {@code
 * NOTE} cannot start a phrase (write them quoted). A boost must be written with a dot
 * ({@code ^2.0}): CozoDB 0.7.6 panics on {@code ^2}, this parser says so.
 */
public final class FtsQuery {
  private final String src;
  private int pos;

  private FtsQuery(String src) {
    this.src = src;
  }

  /**
   * A query that CozoDB's grammar does not take; its message is CozoDB's (pest's rendering of
   * where the query stops being one and the grammar's rules expected there, {@link
   * FtsSyntax}).
   */
  public static final class SyntaxError extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    SyntaxError(String message) {
      super(message);
    }
  }

  /**
   * The query {@code q}.
   *
   * @throws SyntaxError when CozoDB's grammar does not take it
   * @throws IllegalArgumentException for an integer boost (CozoDB crashes on it) or a bad
   *     escape in a string, naming the line and column
   */
  public static FtsExpr parse(String q) {
    String error = FtsSyntax.error(q);
    if (error != null) {
      throw new SyntaxError(error);
    }
    return new FtsQuery(q).doc();
  }

  private FtsExpr doc() {
    List<FtsExpr> exprs = new ArrayList<>();
    skip();
    FtsExpr e = expr();
    if (e == null) {
      throw disagreement();
    }
    exprs.add(e);
    while (true) {
      int save = pos;
      skip();
      FtsExpr next = expr();
      if (next == null) {
        pos = save;
        break;
      }
      exprs.add(next);
    }
    skip();
    if (pos < src.length()) {
      throw disagreement();
    }
    return exprs.size() == 1 ? exprs.get(0) : new FtsExpr.And(exprs);
  }

  /** Binary operators' precedence: NOT 1, AND 2, OR 3 (pest's Pratt parser, all left). */
  private FtsExpr expr() {
    List<FtsExpr> terms = new ArrayList<>();
    List<Integer> ops = new ArrayList<>();
    FtsExpr first = term();
    if (first == null) {
      return null;
    }
    terms.add(first);
    while (true) {
      int save = pos;
      skip();
      int op = op();
      if (op == 0) {
        pos = save;
        break;
      }
      skip();
      FtsExpr t = term();
      if (t == null) {
        pos = save;
        break;
      }
      ops.add(op);
      terms.add(t);
    }
    int[] at = {0};
    return climb(terms, ops, at, 0);
  }

  private static FtsExpr climb(List<FtsExpr> terms, List<Integer> ops, int[] at, int minPrec) {
    FtsExpr lhs = terms.get(at[0]);
    while (at[0] < ops.size() && ops.get(at[0]) > minPrec) {
      int op = ops.get(at[0]);
      at[0]++;
      FtsExpr rhs = climb(terms, ops, at, op);
      lhs =
          switch (op) {
            case 1 -> new FtsExpr.Not(lhs, rhs);
            case 2 -> new FtsExpr.And(List.of(lhs, rhs));
            default -> new FtsExpr.Or(List.of(lhs, rhs));
          };
    }
    return lhs;
  }

  private int op() {
    if (lit("AND")) {
      return 2;
    }
    if (lit("OR") || lit(",") || lit(";")) {
      return 3;
    }
    if (lit("NOT")) {
      return 1;
    }
    return 0;
  }

  private FtsExpr term() {
    int save = pos;
    FtsExpr.Literal p = phrase();
    if (p != null) {
      return p;
    }
    pos = save;
    FtsExpr n = near();
    if (n != null) {
      return n;
    }
    pos = save;
    FtsExpr g = grouped();
    if (g != null) {
      return g;
    }
    pos = save;
    return null;
  }

  private FtsExpr near() {
    if (!lit("NEAR")) {
      return null;
    }
    int distance = 10;
    int save = pos;
    skip();
    if (lit("/")) {
      skip();
      String digits = posInt();
      if (digits == null) {
        return null;
      }
      long d = Long.parseLong(digits.replace("_", ""));
      distance = (int) d;
    } else {
      pos = save;
    }
    skip();
    if (!lit("(")) {
      return null;
    }
    List<FtsExpr.Literal> literals = new ArrayList<>();
    while (true) {
      int before = pos;
      skip();
      FtsExpr.Literal p = phrase();
      if (p == null) {
        pos = before;
        break;
      }
      literals.add(p);
    }
    if (literals.isEmpty()) {
      return null;
    }
    skip();
    if (!lit(")")) {
      return null;
    }
    return new FtsExpr.Near(literals, distance);
  }

  private FtsExpr grouped() {
    if (!lit("(")) {
      return null;
    }
    List<FtsExpr> exprs = new ArrayList<>();
    while (true) {
      int before = pos;
      skip();
      FtsExpr e = expr();
      if (e == null) {
        pos = before;
        break;
      }
      exprs.add(e);
    }
    if (exprs.isEmpty()) {
      return null;
    }
    skip();
    if (!lit(")")) {
      return null;
    }
    return exprs.size() == 1 ? exprs.get(0) : new FtsExpr.And(exprs);
  }

  private FtsExpr.Literal phrase() {
    String text = wordGroup();
    if (text == null) {
      text = string();
      if (text == null) {
        return null;
      }
    }
    boolean prefix = false;
    double boost = 1.0;
    int save = pos;
    skip();
    if (lit("*")) {
      prefix = true;
    } else {
      pos = save;
    }
    save = pos;
    skip();
    if (lit("^")) {
      skip();
      int numberAt = pos;
      String f = dotFloat();
      if (f != null) {
        boost = Double.parseDouble(f.replace("_", ""));
      } else if (posInt() != null) {
        throw new IllegalArgumentException(
            at(numberAt)
                + ": a boost needs a decimal point (^2.0, not ^2): CozoDB 0.7.6 crashes on an"
                + " integer boost");
      } else {
        pos = save;
      }
    } else {
      pos = save;
    }
    return new FtsExpr.Literal(text, prefix, boost);
  }

  /**
   * {@code fts_phrase_group}: words separated by spaces or comments, as written. Pest expands
   * {@code word+} to {@code word ~ skip ~ (word ~ (skip ~ word)*)?}, so the spaces and comments
   * after a lone word belong to its text ({@code hello #world} searches hello and world, as in
   * CozoDB), those after the last of several words do not.
   */
  private String wordGroup() {
    int start = pos;
    if (!word()) {
      return null;
    }
    skip();
    int end = pos;
    if (word()) {
      end = pos;
      while (true) {
        skip();
        if (!word()) {
          break;
        }
        end = pos;
      }
    }
    pos = end;
    return src.substring(start, end).trim();
  }

  private boolean word() {
    for (String k : new String[] {"AND", "OR", "NOT", "NEAR", ",", ";"}) {
      if (src.startsWith(k, pos)) {
        return false;
      }
    }
    int start = pos;
    while (pos < src.length()) {
      int cp = src.codePointAt(pos);
      if (!Character.isUnicodeIdentifierPart(cp) || Character.isIdentifierIgnorable(cp)) {
        break;
      }
      pos += Character.charCount(cp);
    }
    if (pos == start) {
      return false;
    }
    return true;
  }

  private String string() {
    if (pos >= src.length()) {
      return null;
    }
    char c = src.charAt(pos);
    if (c == '"' || c == '\'') {
      return quoted(c);
    }
    if (c == '_') {
      return raw();
    }
    return null;
  }

  private String quoted(char quote) {
    int start = pos;
    pos++;
    StringBuilder b = new StringBuilder();
    while (pos < src.length()) {
      char c = src.charAt(pos);
      if (c == quote) {
        pos++;
        return b.toString();
      }
      if (c != '\\') {
        b.append(c);
        pos++;
        continue;
      }
      if (pos + 1 >= src.length()) {
        break;
      }
      char e = src.charAt(pos + 1);
      pos += 2;
      switch (e) {
        case '\\', '/' -> b.append(e);
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          if (pos + 4 > src.length() || !src.substring(pos, pos + 4).matches("[0-9a-fA-F]{4}")) {
            throw new IllegalArgumentException(at(pos - 2) + ": invalid escape sequence");
          }
          int code = Integer.parseInt(src.substring(pos, pos + 4), 16);
          if (code >= 0xD800 && code <= 0xDFFF) {
            throw new IllegalArgumentException(at(pos - 2) + ": invalid UTF8 code " + code);
          }
          b.append((char) code);
          pos += 4;
        }
        default -> {
          if (e != quote) {
            throw new IllegalArgumentException(at(pos - 2) + ": invalid escape sequence \\" + e);
          }
          b.append(e);
        }
      }
    }
    pos = start;
    return null;
  }

  private String raw() {
    int start = pos;
    int n = 0;
    while (pos < src.length() && src.charAt(pos) == '_') {
      pos++;
      n++;
    }
    if (!lit("\"")) {
      pos = start;
      return null;
    }
    String close = "\"" + "_".repeat(n);
    int end = src.indexOf(close, pos);
    if (end < 0) {
      pos = start;
      return null;
    }
    String s = src.substring(pos, end);
    pos = end + close.length();
    return s;
  }

  private String posInt() {
    int start = pos;
    if (pos >= src.length() || !isDigit(src.charAt(pos))) {
      return null;
    }
    pos++;
    while (pos < src.length() && (isDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
      pos++;
    }
    return src.substring(start, pos);
  }

  /** {@code dot_float}: {@code 0} or a number without leading zero, then a dot and digits. */
  private String dotFloat() {
    int start = pos;
    if (lit("0")) {
      // a lone zero
    } else if (pos < src.length() && src.charAt(pos) >= '1' && src.charAt(pos) <= '9') {
      pos++;
      while (pos < src.length() && (isDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
        pos++;
      }
    } else {
      return null;
    }
    if (!lit(".")) {
      pos = start;
      return null;
    }
    while (pos < src.length() && (isDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
      pos++;
    }
    return src.substring(start, pos);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private boolean lit(String s) {
    if (src.startsWith(s, pos)) {
      pos += s.length();
      return true;
    }
    return false;
  }

  /** Spaces and comments ({@code WHITESPACE} and {@code COMMENT} of the grammar). */
  private void skip() {
    while (pos < src.length()) {
      char c = src.charAt(pos);
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        pos++;
      } else if (c == '#') {
        while (pos < src.length() && src.charAt(pos) != '\n') {
          pos++;
        }
      } else if (src.startsWith("/*", pos)) {
        int end = blockCommentEnd(pos);
        if (end < 0) {
          return;
        }
        pos = end;
      } else {
        return;
      }
    }
  }

  /** Where the (nesting) block comment at {@code at} ends, or -1 when it does not. */
  private int blockCommentEnd(int at) {
    int i = at + 2;
    while (i < src.length()) {
      if (src.startsWith("*/", i)) {
        return i + 2;
      }
      if (src.startsWith("/*", i)) {
        i = blockCommentEnd(i);
        if (i < 0) {
          return -1;
        }
      } else {
        i++;
      }
    }
    return -1;
  }

  /**
   * A query the grammar takes but this parser does not: a fault of this parser, named as
   * such.
   */
  private IllegalStateException disagreement() {
    return new IllegalStateException(at(pos) + ": CozoDB's grammar takes the query " + src
        + ", mnestic's parser of it does not");
  }

  private String at(int offset) {
    int line = 1;
    int col = 1;
    for (int i = 0; i < offset && i < src.length(); i++) {
      if (src.charAt(i) == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    return "full-text query " + line + ":" + col;
  }
}
