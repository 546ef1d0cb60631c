package dev.mnestic.value;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * CozoDB's Json value: a JSON document ({@code serde_json}'s {@code Value}).
 * The document is a tree of {@code null}, {@link Boolean}, {@link Long},
 * finite {@link Double}, {@link String}, unmodifiable {@link List}s and
 * unmodifiable {@link SortedMap}s with keys in code point order (as
 * {@code serde_json}'s {@code BTreeMap}). Json values compare, as in CozoDB,
 * by their compact JSON text ({@link #text()}).
 */
public final class Json implements Comparable<Json> {
  private final Object tree;
  private final String text;

  private Json(Object tree) {
    this.tree = tree;
    final StringBuilder b = new StringBuilder();
    write(b, tree);
    this.text = b.toString();
  }

  /**
   * A value as JSON, as CozoDB's {@code json} function makes it: lists are
   * arrays, a Json value is its document, Bytes and Uuids are arrays of
   * their bytes, a Validity is {@code [timestamp, assertion]}, and a Float
   * that is not finite is {@code null}.
   */
  public static Json of(Object value) {
    return value instanceof Json ? (Json) value : new Json(tree(value));
  }

  private static Object tree(Object v) {
    if (v == null || v instanceof Boolean || v instanceof Long || v instanceof String) {
      return v;
    }
    if (v instanceof Double) {
      final double d = (Double) v;
      return Double.isFinite(d) ? v : null;
    }
    if (v instanceof List) {
      final List<Object> items = new ArrayList<>();
      for (Object o : (List<?>) v) {
        items.add(tree(o));
      }
      return Collections.unmodifiableList(items);
    }
    if (v instanceof Json) {
      return ((Json) v).tree;
    }
    if (v instanceof ValueSet) {
      return tree(((ValueSet) v).elements());
    }
    if (v instanceof Vector) {
      final List<Object> items = new ArrayList<>();
      for (double d : ((Vector) v).toDoubles()) {
        items.add(Double.isFinite(d) ? d : null);
      }
      return Collections.unmodifiableList(items);
    }
    if (v instanceof Bytes) {
      return byteList(((Bytes) v).toByteArray());
    }
    if (v instanceof UUID) {
      return byteList(Values.uuidBytes((UUID) v));
    }
    if (v instanceof Validity) {
      return List.of(((Validity) v).timestamp(), ((Validity) v).assertion());
    }
    throw Values.notAValue(v);
  }

  private static List<Object> byteList(byte[] bytes) {
    final List<Object> items = new ArrayList<>(bytes.length);
    for (byte x : bytes) {
      items.add((long) (x & 0xff));
    }
    return Collections.unmodifiableList(items);
  }

  /** The document of a JSON text (CozoDB's {@code parse_json}); fails on anything else. */
  public static Json parse(String text) {
    return new Json(parseTree(text));
  }

  /** A JSON text's document, or {@link IllegalArgumentException} saying what is wrong where. */
  static Object parseTree(String text) {
    final Reader r = new Reader(text);
    final Object tree = r.value();
    r.end();
    return tree;
  }

  /** The document as it is, without copying: {@code tree} must be a document as the class comment says. */
  public static Json wrap(Object tree) {
    return new Json(tree);
  }

  /** An object of the given members (CozoDB's {@code json_object}); keys are values' {@code to_string}. */
  public static Json object(Map<String, Object> members) {
    final SortedMap<String, Object> map = new TreeMap<>(Values::compareStrings);
    members.forEach((k, v) -> map.put(k, tree(v)));
    return new Json(Collections.unmodifiableSortedMap(map));
  }

  /** The document. */
  public Object tree() {
    return tree;
  }

  /** The compact JSON text, as {@code serde_json} writes it. */
  public String text() {
    return text;
  }

  /**
   * The document as a value where it is a scalar (CozoDB's
   * {@code json_to_scalar}): null, a Bool, an Int, a Float or a String;
   * arrays and objects stay Json.
   */
  public Object scalar() {
    return tree instanceof List || tree instanceof Map ? this : tree;
  }

  /**
   * A JSON document as CozoDB reads a JSON value into its own (query
   * parameters, imported rows): arrays become lists, objects become Json,
   * integers Ints and other numbers Floats.
   */
  public static Object toValue(Object tree) {
    if (tree instanceof List) {
      final List<Object> items = new ArrayList<>();
      for (Object o : (List<?>) tree) {
        items.add(toValue(o));
      }
      return Collections.unmodifiableList(items);
    }
    if (tree instanceof Map) {
      return new Json(tree);
    }
    return tree;
  }

  @Override public int compareTo(Json o) {
    return Values.compareStrings(text, o.text);
  }

  @Override public boolean equals(Object o) {
    return o instanceof Json && text.equals(((Json) o).text);
  }

  @Override public int hashCode() {
    return text.hashCode();
  }

  @Override public String toString() {
    return text;
  }

  private static void write(StringBuilder b, Object v) {
    if (v instanceof String) {
      Values.appendJsonString(b, (String) v);
    } else if (v instanceof Double) {
      b.append(FloatFormat.json((Double) v));
    } else if (v instanceof List) {
      b.append('[');
      final List<?> items = (List<?>) v;
      for (int i = 0; i < items.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        write(b, items.get(i));
      }
      b.append(']');
    } else if (v instanceof Map) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (!first) {
          b.append(',');
        }
        first = false;
        Values.appendJsonString(b, (String) e.getKey());
        b.append(':');
        write(b, e.getValue());
      }
      b.append('}');
    } else {
      b.append(v);
    }
  }

  /** A strict JSON reader (RFC 8259), numbers as {@code serde_json} reads them. */
  private static final class Reader {
    private final String s;
    private int at;

    Reader(String s) {
      this.s = s;
    }

    Object value() {
      skipSpace();
      if (at >= s.length()) {
        throw fail("EOF while parsing a value");
      }
      final char c = s.charAt(at);
      switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return word("true", Boolean.TRUE);
      case 'f':
        return word("false", Boolean.FALSE);
      case 'n':
        return word("null", null);
      default:
        if (c == '-' || c >= '0' && c <= '9') {
          return number();
        }
        throw fail("expected value");
      }
    }

    void end() {
      skipSpace();
      if (at < s.length()) {
        throw fail("trailing characters");
      }
    }

    private Object object() {
      at++;
      final SortedMap<String, Object> map = new TreeMap<>(Values::compareStrings);
      skipSpace();
      if (peek() == '}') {
        at++;
        return Collections.unmodifiableSortedMap(map);
      }
      while (true) {
        skipSpace();
        if (at >= s.length()) {
          throw fail("EOF while parsing an object");
        }
        if (peek() != '"') {
          throw fail(peek() == '}' && !map.isEmpty() ? "trailing comma" : "key must be a string");
        }
        final String key = string();
        skipSpace();
        separator(':', "expected `:`", "EOF while parsing an object");
        map.put(key, value());
        skipSpace();
        if (peek() == ',') {
          at++;
        } else {
          separator('}', "expected `,` or `}`", "EOF while parsing an object");
          return Collections.unmodifiableSortedMap(map);
        }
      }
    }

    private Object array() {
      at++;
      final List<Object> items = new ArrayList<>();
      skipSpace();
      if (peek() == ']') {
        at++;
        return Collections.unmodifiableList(items);
      }
      while (true) {
        skipSpace();
        if (peek() == ']' && !items.isEmpty()) {
          throw fail("trailing comma");
        }
        if (at >= s.length()) {
          throw fail("EOF while parsing a list");
        }
        items.add(value());
        skipSpace();
        if (peek() == ',') {
          at++;
        } else {
          separator(']', "expected `,` or `]`", "EOF while parsing a list");
          return Collections.unmodifiableList(items);
        }
      }
    }

    private String string() {
      at++;
      final StringBuilder b = new StringBuilder();
      while (true) {
        if (at >= s.length()) {
          throw fail("EOF while parsing a string");
        }
        final char c = s.charAt(at++);
        if (c == '"') {
          return b.toString();
        }
        if (c < 0x20) {
          at--;
          throw fail("control character (\\u0000-\\u001F) found while parsing a string");
        }
        if (c != '\\') {
          b.append(c);
          continue;
        }
        if (at >= s.length()) {
          throw fail("EOF while parsing a string");
        }
        final char e = s.charAt(at++);
        switch (e) {
        case '"':
        case '\\':
        case '/':
          b.append(e);
          break;
        case 'b':
          b.append('\b');
          break;
        case 'f':
          b.append('\f');
          break;
        case 'n':
          b.append('\n');
          break;
        case 'r':
          b.append('\r');
          break;
        case 't':
          b.append('\t');
          break;
        case 'u':
          if (at + 4 > s.length()) {
            throw fail("EOF while parsing a string");
          }
          try {
            b.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
          } catch (NumberFormatException x) {
            throw fail("invalid escape");
          }
          at += 4;
          break;
        default:
          throw fail("invalid escape");
        }
      }
    }

    private Object number() {
      final int start = at;
      if (peek() == '-') {
        at++;
      }
      if (peek() == '0') {
        at++;
        if (peek() >= '0' && peek() <= '9') {
          throw fail("invalid number");
        }
      } else if (digits() == 0) {
        throw fail("invalid number");
      }
      boolean integral = true;
      if (peek() == '.') {
        at++;
        integral = false;
        if (digits() == 0) {
          throw fail("invalid number");
        }
      }
      if (peek() == 'e' || peek() == 'E') {
        at++;
        integral = false;
        if (peek() == '+' || peek() == '-') {
          at++;
        }
        if (digits() == 0) {
          throw fail("invalid number");
        }
      }
      final String text = s.substring(start, at);
      if (integral) {
        try {
          return Long.parseLong(text);
        } catch (NumberFormatException e) {
          // beyond i64: serde_json reads it as f64
        }
      }
      final double d = Double.parseDouble(text);
      if (Double.isInfinite(d)) {
        throw fail("number out of range");
      }
      return d;
    }

    private int digits() {
      final int start = at;
      while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9') {
        at++;
      }
      return at - start;
    }

    private Object word(String w, Object v) {
      for (int i = 0; i < w.length(); i++, at++) {
        if (at >= s.length()) {
          throw fail("EOF while parsing a value");
        }
        if (s.charAt(at) != w.charAt(i)) {
          throw fail("expected ident");
        }
      }
      return v;
    }

    /** Past {@code c}, or {@code serde_json}'s error: {@code eof} at the end, else {@code wrong}. */
    private void separator(char c, String wrong, String eof) {
      if (at >= s.length()) {
        throw fail(eof);
      }
      if (peek() != c) {
        throw fail(wrong);
      }
      at++;
    }

    private char peek() {
      return at < s.length() ? s.charAt(at) : '\0';
    }

    private void skipSpace() {
      while (at < s.length() && " \t\n\r".indexOf(s.charAt(at)) >= 0) {
        at++;
      }
    }

    /**
     * What is wrong, and where as {@code serde_json} says it: the line and the column (in UTF-8
     * bytes) of the character at {@code at}, or of the last one at the end of the text.
     */
    private IllegalArgumentException fail(String what) {
      final int end = Math.min(at + 1, s.length());
      final int lineStart = s.lastIndexOf('\n', end - 1) + 1;
      final long line = 1 + s.substring(0, lineStart).chars().filter(c -> c == '\n').count();
      final int column = s.substring(lineStart, end)
          .getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      return new IllegalArgumentException(what + " at line " + line + " column " + column);
    }
  }
}
