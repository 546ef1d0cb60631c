package dev.mnestic.sql;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * The PromQL that standing queries are written in ({@code CREATE STANDING QUERY name AS
 * PROMQL '...'}, {@link SqlPromQl}) and that the server's Prometheus query API reads: the
 * subset
 * <pre>
 * expr     := term (('+' | '-') term)*
 * term     := unary (('*' | '/') unary)*
 * unary    := '-' number | primary
 * primary  := number | '(' expr ')'
 *           | 'quantile_over_time' '(' number ',' selector '[' duration ']' ')'
 * selector := metric ['{' [matcher (',' matcher)* [',']] '}']
 * matcher  := label ('=' | '!=' | '=~' | '!~') string
 * </pre>
 * Durations are Prometheus's: one or more of {@code <integer><unit>}, units {@code y w d h m s
 * ms} in that order ({@code 1h30m}; a year is 365 days). A binary operator between two vectors
 * matches them one-to-one on their whole label sets (Prometheus's default vector matching;
 * {@code quantile_over_time} drops {@code __name__}); between a vector and a number it applies
 * to each element. Anything else of PromQL (other functions, aggregations, {@code offset},
 * {@code @}, subqueries, {@code on}/{@code ignoring}/{@code group_left}, {@code bool},
 * comparisons, {@code %}, {@code ^}, string literals, a selector outside
 * {@code quantile_over_time}) fails with a {@link PromQlException} naming it and its place.
 *
 * <p>{@link Expr#toString} is the expression's canonical text (matchers sorted, durations and
 * numbers in one form, parentheses only where needed): two expressions with the same text ask
 * the same.
 */
public final class PromQl {
  private PromQl() {
  }

  /** An expression; {@link #toString} is its canonical text. */
  public sealed interface Expr {
    /** Where it starts in the text, 1-based. */
    int line();

    int column();
  }

  /** A number literal. */
  public record Number(double value, int line, int column) implements Expr {
    @Override public String toString() {
      return format(value);
    }
  }

  /** {@code quantile_over_time(phi, selector[range])}. */
  public record Quantile(double phi, Selector selector, Duration range, int line, int column)
      implements Expr {
    @Override public String toString() {
      return "quantile_over_time(" + format(phi) + ", " + selector + "[" + duration(range)
          + "])";
    }
  }

  /** {@code left op right}, op one of {@code + - * /}. */
  public record Binary(char op, Expr left, Expr right, int line, int column) implements Expr {
    @Override public String toString() {
      return operand(left, false) + " " + op + " " + operand(right, true);
    }

    private String operand(Expr e, boolean right) {
      return e instanceof Binary b && (precedence(b.op) < precedence(op)
          || right && precedence(b.op) == precedence(op)) ? "(" + e + ")" : e.toString();
    }

    static int precedence(char op) {
      return op == '+' || op == '-' ? 1 : 2;
    }

    /** {@code l op r}, as Prometheus applies the operator to two sample values. */
    public double apply(double l, double r) {
      switch (op) {
      case '+':
        return l + r;
      case '-':
        return l - r;
      case '*':
        return l * r;
      default:
        return l / r;
      }
    }
  }

  /** A metric's name and its label matchers, sorted. */
  public record Selector(String metric, List<Matcher> matchers) {
    @Override public String toString() {
      return metric + (matchers.isEmpty() ? "" : matchers.stream().map(Matcher::toString)
          .collect(Collectors.joining(", ", "{", "}")));
    }

    /** Whether a series of this metric whose labels (but {@code __name__}) are {@code labels} is selected. */
    public boolean matches(java.util.Map<String, String> labels) {
      return matchers.stream().allMatch(m -> m.matches(labels.getOrDefault(m.label(), "")));
    }
  }

  /** {@code label op "value"}; a regular expression is anchored at both ends, as Prometheus's. */
  public record Matcher(String label, String op, String value, Pattern pattern) {
    public boolean matches(String labelValue) {
      switch (op) {
      case "=":
        return labelValue.equals(value);
      case "!=":
        return !labelValue.equals(value);
      case "=~":
        return pattern.matcher(labelValue).matches();
      default:
        return !pattern.matcher(labelValue).matches();
      }
    }

    @Override public boolean equals(Object o) {
      return o instanceof Matcher m && m.label.equals(label) && m.op.equals(op)
          && m.value.equals(value);
    }

    @Override public int hashCode() {
      return label.hashCode() * 31 + value.hashCode();
    }

    @Override public String toString() {
      return label + op + quote(value);
    }
  }

  /** PromQL's functions and aggregations (2.42) that the subset leaves out, to name them. */
  private static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "group",
      "stddev", "stdvar", "count", "count_values", "bottomk", "topk", "quantile");
  private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring",
      "group_left", "group_right", "bool", "offset", "and", "or", "unless", "atan2");

  /**
   * Parses {@code text}.
   *
   * @throws PromQlException naming the line and column of what is not in the subset, and what
   *     was expected there
   */
  public static Expr parse(String text) {
    final Parser p = new Parser(text);
    final Expr e = p.expr();
    p.skipSpace();
    if (p.pos < text.length()) {
      throw p.unexpected("an operator (+ - * /) or the end of the expression");
    }
    return e;
  }

  /** A double as Go's {@code strconv.FormatFloat(v, 'f', -1, 64)} writes it, as Prometheus does. */
  public static String format(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0" : "0";
    }
    return new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
  }

  /** A duration as Prometheus writes it ({@code 1h30m}). */
  public static String duration(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    final StringBuilder b = new StringBuilder();
    for (int i = 0; i < UNITS.length; i++) {
      if (ms >= UNIT_MILLIS[i]) {
        b.append(ms / UNIT_MILLIS[i]).append(UNITS[i]);
        ms %= UNIT_MILLIS[i];
      }
    }
    return b.toString();
  }

  private static final String[] UNITS = {"y", "w", "d", "h", "m", "s", "ms"};
  private static final long[] UNIT_MILLIS = {365L * 86_400_000, 7L * 86_400_000, 86_400_000,
      3_600_000, 60_000, 1_000, 1};

  /**
   * Prometheus's duration ({@code 5m}, {@code 1h30m}, {@code 250ms}): one or more of
   * {@code <integer><unit>}, units in decreasing order, each once.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static Duration parseDuration(String s) {
    final Parser p = new Parser(s);
    final Duration d = p.duration();
    if (p.pos < s.length()) {
      throw new IllegalArgumentException("not a duration (such as 5m or 1h30m): " + s);
    }
    return d;
  }

  private static String quote(String s) {
    final StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
      case '"':
        b.append("\\\"");
        break;
      case '\\':
        b.append("\\\\");
        break;
      case '\n':
        b.append("\\n");
        break;
      default:
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  /** A recursive-descent parser over the text, keeping line and column. */
  private static final class Parser {
    private final String text;
    private int pos;

    Parser(String text) {
      this.text = text;
    }

    int line(int at) {
      int line = 1;
      for (int i = 0; i < at; i++) {
        if (text.charAt(i) == '\n') {
          line++;
        }
      }
      return line;
    }

    int column(int at) {
      final int newline = text.lastIndexOf('\n', at - 1);
      return at - newline;
    }

    PromQlException error(int at, String message) {
      return new PromQlException(line(at), column(at), message);
    }

    PromQlException unexpected(String expected) {
      final String found = pos >= text.length() ? "end of input"
          : "\"" + text.substring(pos, Math.min(text.length(), pos + 12)).split("\\s")[0] + "\"";
      return error(pos, "parse error: unexpected " + found + ", expected " + expected);
    }

    PromQlException unsupported(int at, String what) {
      return error(at, "unsupported: " + what + " (mnestic's standing PromQL is"
          + " quantile_over_time(φ, metric{matchers}[range]), numbers, and + - * / between them)");
    }

    void skipSpace() {
      while (pos < text.length()) {
        final char c = text.charAt(pos);
        if (c == '#') {
          while (pos < text.length() && text.charAt(pos) != '\n') {
            pos++;
          }
        } else if (Character.isWhitespace(c)) {
          pos++;
        } else {
          return;
        }
      }
    }

    boolean peek(String s) {
      skipSpace();
      return text.startsWith(s, pos);
    }

    void expect(String s, String expected) {
      if (!peek(s)) {
        throw unexpected(expected);
      }
      pos += s.length();
    }

    Expr expr() {
      Expr left = term();
      while (true) {
        skipSpace();
        final int at = pos;
        if (peek("+") || peek("-")) {
          final char op = text.charAt(pos++);
          modifiers();
          left = new Binary(op, left, term(), line(at), column(at));
        } else {
          operatorsLeftOut();
          return left;
        }
      }
    }

    Expr term() {
      Expr left = unary();
      while (true) {
        skipSpace();
        final int at = pos;
        if (peek("*") || peek("/")) {
          final char op = text.charAt(pos++);
          modifiers();
          left = new Binary(op, left, unary(), line(at), column(at));
        } else {
          return left;
        }
      }
    }

    /** Comparison, set and other arithmetic operators: named as unsupported. */
    void operatorsLeftOut() {
      skipSpace();
      for (String op : List.of("==", "!=", ">=", "<=", ">", "<", "%", "^")) {
        if (peek(op)) {
          throw unsupported(pos, "the operator " + op);
        }
      }
      final int at = pos;
      final String word = identifier();
      if (word != null && KEYWORDS.contains(word.toLowerCase(Locale.ROOT))) {
        throw unsupported(at, word.equals("offset") ? "offset" : "the operator or modifier "
            + word);
      }
      pos = at;
    }

    /** After a binary operator: {@code bool}, {@code on(...)} and the like are unsupported. */
    void modifiers() {
      skipSpace();
      final int at = pos;
      final String word = identifier();
      if (word != null && Set.of("bool", "on", "ignoring", "group_left", "group_right")
          .contains(word) && (word.equals("bool") || peek("("))) {
        throw unsupported(at, "vector matching modifier " + word
            + " (vectors match one-to-one on their whole label sets)");
      }
      pos = at;
    }

    Expr unary() {
      skipSpace();
      final int at = pos;
      if (peek("-") || peek("+")) {
        final boolean minus = text.charAt(pos++) == '-';
        skipSpace();
        final Expr e = primary();
        if (!(e instanceof Number n)) {
          throw unsupported(at, "a unary " + (minus ? "-" : "+") + " before a vector"
              + " (write -1 * ...)");
        }
        return new Number(minus ? -n.value() : n.value(), line(at), column(at));
      }
      return primary();
    }

    Expr primary() {
      skipSpace();
      final int at = pos;
      if (pos >= text.length()) {
        throw unexpected("a number, quantile_over_time(...) or (");
      }
      final char c = text.charAt(pos);
      if (c == '(') {
        pos++;
        final Expr e = expr();
        expect(")", "\")\"");
        return afterOperand(e);
      }
      if (c == '"' || c == '\'' || c == '`') {
        throw unsupported(at, "a string literal");
      }
      if (c == '{') {
        throw unsupported(at, "a selector outside quantile_over_time");
      }
      if (Character.isDigit(c) || c == '.') {
        return afterOperand(new Number(number(), line(at), column(at)));
      }
      final String word = identifier();
      if (word == null) {
        throw unexpected("a number, quantile_over_time(...) or (");
      }
      if (word.equalsIgnoreCase("inf") || word.equalsIgnoreCase("nan")) {
        return afterOperand(new Number(word.equalsIgnoreCase("nan") ? Double.NaN
            : Double.POSITIVE_INFINITY, line(at), column(at)));
      }
      if (peek("(") || AGGREGATIONS.contains(word) && (peek("by") || peek("without"))) {
        if (!word.equals("quantile_over_time")) {
          throw unsupported(at, (AGGREGATIONS.contains(word) ? "the aggregation " : "the function ")
              + word);
        }
        return afterOperand(quantile(at));
      }
      throw unsupported(at, "a selector outside quantile_over_time (" + word + ")");
    }

    /** After an operand: {@code offset}, {@code @} and subqueries are unsupported. */
    Expr afterOperand(Expr e) {
      skipSpace();
      if (peek("@")) {
        throw unsupported(pos, "the @ modifier");
      }
      if (peek("[")) {
        throw unsupported(pos, "a subquery");
      }
      final int at = pos;
      if ("offset".equals(identifier())) {
        throw unsupported(at, "offset");
      }
      pos = at;
      return e;
    }

    /** {@code quantile_over_time(φ, selector[range])}, its name read. */
    Expr quantile(int at) {
      expect("(", "\"(\"");
      skipSpace();
      final int phiAt = pos;
      final Expr phiExpr = unary();
      if (!(phiExpr instanceof Number phi)) {
        throw error(phiAt, "parse error: quantile_over_time's φ is a number literal");
      }
      expect(",", "\",\" and a range selector");
      skipSpace();
      final Selector selector = selector();
      skipSpace();
      if (peek("offset") || peek("@")) {
        throw unsupported(pos, peek("@") ? "the @ modifier" : "offset");
      }
      expect("[", "a range \"[duration]\" after the selector");
      skipSpace();
      final int rangeAt = pos;
      final Duration range;
      try {
        range = duration();
      } catch (IllegalArgumentException e) {
        throw error(rangeAt, "parse error: " + e.getMessage());
      }
      if (peek(":")) {
        throw unsupported(pos, "a subquery");
      }
      expect("]", "\"]\"");
      skipSpace();
      if (peek("offset") || peek("@")) {
        throw unsupported(pos, peek("@") ? "the @ modifier" : "offset");
      }
      expect(")", "\")\"");
      return new Quantile(phi.value(), selector, range, line(at), column(at));
    }

    Selector selector() {
      final int at = pos;
      String metric = null;
      if (!peek("{")) {
        metric = metricName();
        if (metric == null) {
          throw unexpected("a metric's name");
        }
      }
      final List<Matcher> matchers = new ArrayList<>();
      if (peek("{")) {
        pos++;
        while (!peek("}")) {
          skipSpace();
          final int labelAt = pos;
          final String label = identifier();
          if (label == null) {
            throw unexpected("a label name or \"}\"");
          }
          skipSpace();
          final String op = peek("=~") ? "=~" : peek("!~") ? "!~" : peek("!=") ? "!="
              : peek("=") ? "=" : null;
          if (op == null) {
            throw unexpected("a matcher (= != =~ !~)");
          }
          pos += op.length();
          skipSpace();
          final String value = string();
          if (label.equals("__name__")) {
            if (!op.equals("=") || metric != null) {
              throw unsupported(labelAt, "a __name__ matcher other than one __name__=\"...\""
                  + " without a metric name");
            }
            metric = value;
            continue;
          }
          Pattern pattern = null;
          if (op.length() == 2 && op.charAt(1) == '~') {
            try {
              pattern = Pattern.compile("(?:" + value + ")", Pattern.DOTALL);
            } catch (PatternSyntaxException e) {
              throw error(labelAt, "parse error: invalid regular expression " + quote(value)
                  + ": " + e.getDescription());
            }
          }
          matchers.add(new Matcher(label, op, value, pattern));
          if (!peek(",")) {
            break;
          }
          pos++;
        }
        expect("}", "\",\" or \"}\"");
      }
      if (metric == null) {
        throw error(at, "parse error: a selector names its metric");
      }
      matchers.sort(Comparator.comparing(Matcher::label).thenComparing(Matcher::op)
          .thenComparing(Matcher::value));
      return new Selector(metric, List.copyOf(matchers));
    }

    String identifier() {
      skipSpace();
      final int start = pos;
      while (pos < text.length() && (Character.isLetter(text.charAt(pos))
          || text.charAt(pos) == '_' || pos > start && Character.isDigit(text.charAt(pos)))) {
        pos++;
      }
      return pos == start ? null : text.substring(start, pos);
    }

    String metricName() {
      skipSpace();
      final int start = pos;
      while (pos < text.length() && (Character.isLetter(text.charAt(pos))
          || text.charAt(pos) == '_' || text.charAt(pos) == ':'
          || pos > start && Character.isDigit(text.charAt(pos)))) {
        pos++;
      }
      return pos == start ? null : text.substring(start, pos);
    }

    /** A string literal, {@code "..."} or {@code '...'} with Go's escapes, or {@code `...`} raw. */
    String string() {
      if (pos >= text.length() || "\"'`".indexOf(text.charAt(pos)) < 0) {
        throw unexpected("a string (\"...\")");
      }
      final int at = pos;
      final char quote = text.charAt(pos++);
      final StringBuilder b = new StringBuilder();
      while (pos < text.length() && text.charAt(pos) != quote) {
        char c = text.charAt(pos++);
        if (c == '\\' && quote != '`' && pos < text.length()) {
          c = text.charAt(pos++);
          switch (c) {
          case 'n':
            c = '\n';
            break;
          case 't':
            c = '\t';
            break;
          case 'r':
            c = '\r';
            break;
          case '\\':
          case '"':
          case '\'':
            break;
          default:
            // a regular expression's escape, kept for the pattern
            b.append('\\');
          }
        } else if (c == '\n' && quote != '`') {
          throw error(at, "parse error: unterminated string");
        }
        b.append(c);
      }
      if (pos >= text.length()) {
        throw error(at, "parse error: unterminated string");
      }
      pos++;
      return b.toString();
    }

    double number() {
      final int start = pos;
      while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos))
          || text.charAt(pos) == '.' || (text.charAt(pos) == '+' || text.charAt(pos) == '-')
          && (text.charAt(pos - 1) == 'e' || text.charAt(pos - 1) == 'E')
          && !text.substring(start, pos).toLowerCase(Locale.ROOT).startsWith("0x"))) {
        pos++;
      }
      final String s = text.substring(start, pos);
      try {
        if (s.toLowerCase(Locale.ROOT).startsWith("0x")) {
          return Long.parseLong(s.substring(2), 16);
        }
        return Double.parseDouble(s);
      } catch (NumberFormatException e) {
        if (s.matches("[0-9]+[a-z]+.*")) {
          throw error(start, "parse error: a duration (" + s + ") is only a range's length,"
              + " in [...]");
        }
        throw error(start, "parse error: bad number " + s);
      }
    }

    Duration duration() {
      final int start = pos;
      long ms = 0;
      int last = -1;
      while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        final int digits = pos;
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
          pos++;
        }
        final long n = Long.parseLong(text.substring(digits, pos));
        int unit = -1;
        for (int i = UNITS.length - 1; i >= 0; i--) {
          if (text.startsWith(UNITS[i], pos) && (unit < 0
              || UNITS[i].length() > UNITS[unit].length())) {
            unit = i;
          }
        }
        if (unit < 0) {
          throw new IllegalArgumentException("a duration's number takes a unit (ms s m h d w y):"
              + " " + text.substring(start, pos));
        }
        if (unit <= last) {
          throw new IllegalArgumentException("a duration's units come once each, largest first"
              + " (1h30m): " + text.substring(start, pos + UNITS[unit].length()));
        }
        pos += UNITS[unit].length();
        last = unit;
        ms = Math.addExact(ms, Math.multiplyExact(n, UNIT_MILLIS[unit]));
      }
      if (last < 0) {
        throw new IllegalArgumentException("expected a duration (such as 5m or 1h30m)");
      }
      if (ms == 0) {
        throw new IllegalArgumentException("a range is longer than 0s");
      }
      return Duration.ofMillis(ms);
    }
  }
}
