package dev.mnestic.search.text;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * Why a full-text query is not one, as CozoDB says it: its {@code fts_doc} grammar ({@code
 * cozo-core/src/cozoscript.pest}) run the way pest 2.7 runs a grammar, to replay pest's
 * bookkeeping of the rules it tried at the furthest point it reached, and that point rendered
 * as pest's error is ({@code  --> 1:10}, the line, a caret, {@code = expected fts_phrase,
 * fts_near, or fts_grouped}). {@link FtsQuery} parses; this only explains a failure.
 *
 * <p>pest's rules: each named rule, on failing where it started, is recorded at that point if
 * no rule got further, replacing the rules its own body recorded there unless that body
 * recorded exactly one (then that one stays); rules inside an atomic rule ({@code @{...}}) are
 * not recorded; silent rules ({@code _{...}}) are not rules; literals are not recorded;
 * between the parts of a sequence and the turns of a repetition of a non-atomic rule, spaces
 * and comments are skipped. The rules recorded are listed in the grammar's order ({@code EOI}
 * first).
 */
final class FtsSyntax {
  /** The rules that can be recorded, in the grammar's order (pest's {@code Rule} enum). */
  private enum Rule {
    EOI, QUOTED_STRING, QUOTED_STRING_INNER, CHAR, S_QUOTED_STRING, S_QUOTED_STRING_INNER,
    S_CHAR, RAW_STRING, RAW_STRING_INNER, POS_INT, DOT_FLOAT, FTS_DOC, FTS_PHRASE_SIMPLE,
    FTS_PHRASE_GROUP, FTS_PREFIX_MARKER, FTS_BOOSTER, FTS_PHRASE, FTS_NEAR, FTS_GROUPED,
    FTS_EXPR, FTS_AND, FTS_OR, FTS_NOT;

    /** The grammar's name of the rule. */
    String grammarName() {
      return this == EOI ? "EOI" : name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final int[] text;
  private int pos;
  private boolean atomic;
  private boolean negative;
  private int attemptPos;
  /** The rules recorded at {@code attemptPos}. */
  private final List<Rule> attempts = new ArrayList<>();
  private final List<String> stack = new ArrayList<>();

  private FtsSyntax(String query) {
    this.text = query.codePoints().toArray();
  }

  /**
   * pest's error for {@code query}, or null when the grammar takes it (a query can then still
   * fail later, on an escape in a string or an integer boost).
   */
  static String error(String query) {
    final FtsSyntax s = new FtsSyntax(query);
    if (s.rule(Rule.FTS_DOC, () -> s.seq(() -> true, s::expressions,
        () -> s.rule(Rule.EOI, () -> s.pos == s.text.length)))) {
      return null;
    }
    return s.render();
  }

  private boolean expressions() {
    return repeat(this::expr, 1);
  }

  private boolean expr() {
    return rule(Rule.FTS_EXPR, () -> seq(this::term,
        () -> repeat(() -> seq(this::op, this::term), 0)));
  }

  private boolean term() {
    return any(this::phrase, this::near, this::grouped);
  }

  private boolean op() {
    return any(() -> rule(Rule.FTS_AND, () -> literal("AND")),
        () -> rule(Rule.FTS_OR, () -> any(() -> literal("OR"), () -> literal(","),
            () -> literal(";"))),
        () -> rule(Rule.FTS_NOT, () -> literal("NOT")));
  }

  private boolean grouped() {
    return rule(Rule.FTS_GROUPED, () -> seq(() -> literal("("), this::expressions,
        () -> literal(")")));
  }

  private boolean near() {
    return rule(Rule.FTS_NEAR, () -> seq(() -> literal("NEAR"),
        () -> optional(() -> seq(() -> literal("/"), this::posInt)), () -> literal("("),
        () -> repeat(this::phrase, 1), () -> literal(")")));
  }

  private boolean phrase() {
    return rule(Rule.FTS_PHRASE, () -> seq(
        () -> any(this::group, this::quoted, this::singleQuoted, this::raw),
        () -> optional(() -> rule(Rule.FTS_PREFIX_MARKER,
            () -> atomic(() -> literal("*")))),
        () -> optional(() -> rule(Rule.FTS_BOOSTER, () -> seq(() -> literal("^"),
            () -> any(this::dotFloat, this::posInt))))));
  }

  private boolean group() {
    return rule(Rule.FTS_PHRASE_GROUP, () -> repeat(() -> rule(
        Rule.FTS_PHRASE_SIMPLE, () -> atomic(() -> seq(
            () -> not(() -> any(() -> literal("AND"), () -> literal("OR"),
                () -> literal("NOT"), () -> literal("NEAR"), () -> literal(","),
                () -> literal(";"))),
            () -> repeat(() -> one(FtsSyntax::isWordPart), 1)))), 1));
  }

  /** {@code quoted_string} ({@code ${...}}: compound-atomic, its rules recorded). */
  private boolean quoted() {
    return compound(() -> rule(Rule.QUOTED_STRING, () -> seq(() -> literal("\""),
        () -> rule(Rule.QUOTED_STRING_INNER, () -> repeat(() -> character('"'), 0)),
        () -> literal("\""))));
  }

  private boolean singleQuoted() {
    return compound(() -> rule(Rule.S_QUOTED_STRING, () -> seq(() -> literal("'"),
        () -> rule(Rule.S_QUOTED_STRING_INNER, () -> repeat(() -> character('\''),
            0)),
        () -> literal("'"))));
  }

  /** {@code char} (or {@code s_char}): an escape or any code point but the quote and {@code \}. */
  private boolean character(int quote) {
    return rule(quote == '"' ? Rule.CHAR : Rule.S_CHAR, () -> any(
        () -> seq(() -> not(() -> any(() -> literal(quote == '"' ? "\"" : "'"),
            () -> literal("\\"))), () -> one(c -> true)),
        () -> seq(() -> literal("\\"), () -> one(c -> c == quote || "\\/bfnrt".indexOf(c) >= 0)),
        () -> seq(() -> literal("\\"), () -> literal("u"), () -> one(FtsSyntax::isHex),
            () -> one(FtsSyntax::isHex), () -> one(FtsSyntax::isHex),
            () -> one(FtsSyntax::isHex))));
  }

  /** {@code raw_string}: a non-atomic rule, so spaces are skipped between its parts. */
  private boolean raw() {
    final int depth = stack.size();
    final boolean ok = rule(Rule.RAW_STRING, () -> seq(
        () -> {
          final int from = pos;
          repeat(() -> literal("_"), 0);
          stack.add(new String(text, from, pos - from));
          return true;
        },
        () -> literal("\""),
        () -> rule(Rule.RAW_STRING_INNER, () -> repeat(() -> seq(
            () -> not(() -> seq(() -> literal("\""), () -> literal(stack.get(depth)))),
            () -> one(c -> true)), 0)),
        () -> literal("\""),
        () -> literal(stack.get(depth))));
    while (stack.size() > depth) {
      stack.remove(stack.size() - 1);
    }
    return ok;
  }

  private boolean posInt() {
    return rule(Rule.POS_INT, () -> atomic(() -> seq(() -> one(FtsSyntax::isDigit),
        () -> repeat(() -> one(c -> c == '_' || isDigit(c)), 0))));
  }

  private boolean dotFloat() {
    return rule(Rule.DOT_FLOAT, () -> atomic(() -> seq(
        () -> any(() -> literal("0"), () -> seq(() -> one(c -> c >= '1' && c <= '9'),
            () -> repeat(() -> one(c -> c == '_' || isDigit(c)), 0))),
        () -> literal("."), () -> repeat(() -> one(c -> c == '_' || isDigit(c)), 0))));
  }

  // pest's state

  /** pest's {@code ParserState::rule}: runs {@code body}, recording the rule as it fails. */
  private boolean rule(Rule rule, BooleanSupplier body) {
    final int start = pos;
    final int index = start == attemptPos ? attempts.size() : 0;
    final int before = attemptsAt(start);
    final boolean ok = body.getAsBoolean();
    if (ok == negative) {
      track(rule, start, index, before);
    }
    if (!ok) {
      pos = start;
    }
    return ok;
  }

  private int attemptsAt(int at) {
    return at == attemptPos ? attempts.size() : 0;
  }

  /** pest's {@code ParserState::track}. */
  private void track(Rule rule, int at, int index, int before) {
    if (atomic) {
      return;
    }
    final int now = attemptsAt(at);
    if (now > before && now - before == 1) {
      return;
    }
    if (at == attemptPos) {
      attempts.subList(Math.min(index, attempts.size()), attempts.size()).clear();
    }
    if (at > attemptPos) {
      attempts.clear();
      attemptPos = at;
    }
    if (at == attemptPos && !negative) {
      attempts.add(rule);
    }
  }

  private boolean atomic(BooleanSupplier body) {
    final boolean was = atomic;
    atomic = true;
    final boolean ok = body.getAsBoolean();
    atomic = was;
    return ok;
  }

  /**
   * A compound-atomic rule's body ({@code ${...}}): no spaces skipped, but rules recorded. Its
   * only rules here are the strings' own, whose parts need no skipping; so this is the
   * non-skipping of {@link #atomic} without its silence.
   */
  private boolean compound(BooleanSupplier body) {
    final boolean was = skipping;
    skipping = false;
    final boolean ok = body.getAsBoolean();
    skipping = was;
    return ok;
  }

  /** Whether spaces are skipped between parts: in non-atomic rules. */
  private boolean skipping = true;

  private boolean skips() {
    return skipping && !atomic;
  }

  /** {@code a ~ b ~ ...}: each in turn, spaces skipped between them; back to start if one fails. */
  private boolean seq(BooleanSupplier... parts) {
    final int start = pos;
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        skip();
      }
      if (!parts[i].getAsBoolean()) {
        pos = start;
        return false;
      }
    }
    return true;
  }

  /** {@code a | b | ...}: the first that matches. */
  private boolean any(BooleanSupplier... choices) {
    for (BooleanSupplier c : choices) {
      if (c.getAsBoolean()) {
        return true;
      }
    }
    return false;
  }

  /** {@code a*} (at least 0) or {@code a+} (at least 1), spaces skipped between turns. */
  private boolean repeat(BooleanSupplier body, int least) {
    if (!body.getAsBoolean()) {
      return least == 0;
    }
    while (true) {
      final int before = pos;
      skip();
      if (!body.getAsBoolean()) {
        pos = before;
        return true;
      }
    }
  }

  private boolean optional(BooleanSupplier body) {
    body.getAsBoolean();
    return true;
  }

  /** {@code !a}: matches nothing, when {@code a} does not match here. */
  private boolean not(BooleanSupplier body) {
    final int start = pos;
    final boolean was = negative;
    negative = !negative;
    final boolean ok = body.getAsBoolean();
    negative = was;
    pos = start;
    return !ok;
  }

  private boolean literal(String s) {
    final int[] cps = s.codePoints().toArray();
    if (pos + cps.length > text.length) {
      return false;
    }
    for (int i = 0; i < cps.length; i++) {
      if (text[pos + i] != cps[i]) {
        return false;
      }
    }
    pos += cps.length;
    return true;
  }

  private boolean one(java.util.function.IntPredicate p) {
    if (pos < text.length && p.test(text[pos])) {
      pos++;
      return true;
    }
    return false;
  }

  /** {@code WHITESPACE} and {@code COMMENT} between parts, where skipped. */
  private void skip() {
    if (!skips()) {
      return;
    }
    while (true) {
      if (pos < text.length && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\r'
          || text[pos] == '\n')) {
        pos++;
      } else if (!comment()) {
        return;
      }
    }
  }

  private boolean comment() {
    final int start = pos;
    if (literal("#")) {
      while (pos < text.length && text[pos] != '\n') {
        pos++;
      }
      return true;
    }
    if (blockComment()) {
      return true;
    }
    pos = start;
    return false;
  }

  private boolean blockComment() {
    final int start = pos;
    if (!literal("/*")) {
      return false;
    }
    while (true) {
      if (literal("*/")) {
        return true;
      }
      if (pos >= text.length || !blockComment() && pos++ >= text.length) {
        pos = start;
        return false;
      }
    }
  }

  private static boolean isWordPart(int c) {
    return Character.isUnicodeIdentifierPart(c) && !Character.isIdentifierIgnorable(c);
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isHex(int c) {
    return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
  }

  /** pest's rendering of the error at {@code attemptPos}. */
  private String render() {
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < attemptPos; i++) {
      if (text[i] == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    int lineEnd = lineStart;
    while (lineEnd < text.length && text[lineEnd] != '\n') {
      lineEnd++;
    }
    String lineText = new String(text, lineStart, lineEnd - lineStart);
    if (lineText.endsWith("\r")) {
      lineText = lineText.substring(0, lineText.length() - 1);
    }
    final StringBuilder under = new StringBuilder();
    for (int i = lineStart; i < attemptPos; i++) {
      under.append(text[i] == '\t' ? '\t' : ' ');
    }
    under.append("^---");
    final List<String> names = new ArrayList<>();
    for (Rule r : new TreeSet<>(attempts)) {
      names.add(r.grammarName());
    }
    final String expected = names.size() == 1 ? names.get(0)
        : names.size() == 2 ? names.get(0) + " or " + names.get(1)
        : String.join(", ", names.subList(0, names.size() - 1)) + ", or "
            + names.get(names.size() - 1);
    final String space = " ".repeat(String.valueOf(line).length());
    return space + "--> " + line + ":" + (attemptPos - lineStart + 1) + "\n"
        + space + " |\n"
        + line + " | " + lineText + "\n"
        + space + " | " + under + "\n"
        + space + " |\n"
        + space + " = " + (names.isEmpty() ? "unknown parsing error" : "expected " + expected);
  }
}
