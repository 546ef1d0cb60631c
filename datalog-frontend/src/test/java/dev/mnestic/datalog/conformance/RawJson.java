package dev.mnestic.datalog.conformance;

import dev.mnestic.value.Json;
import dev.mnestic.value.Values;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON reader that keeps each value's source text, so that tests can
 * compare mnestic's output with CozoDB's character for character (a tree
 * parser would turn CozoDB's {@code 1e16} into {@code 1.0E16} and its
 * {@code 1.0} into {@code 1}).
 */
public final class RawJson {
  /**
   * A JSON value and its exact source text. {@code value} is null, a
   * Boolean, a String, a {@link Num}, a {@code List<Node>} or a
   * {@code Map<String, Node>} (in source order).
   */
  public record Node(Object value, String text) {
    public Node get(String key) {
      @SuppressWarnings("unchecked")
      final Map<String, Node> m = (Map<String, Node>) value;
      return m.get(key);
    }

    public boolean has(String key) {
      return value instanceof Map && ((Map<?, ?>) value).containsKey(key);
    }

    @SuppressWarnings("unchecked")
    public List<Node> items() {
      return (List<Node>) value;
    }

    public String string() {
      return (String) value;
    }

    /**
     * The node as a mnestic value, as CozoDB reads JSON parameters: a
     * number with a point or an exponent is a Float, others are Ints.
     */
    public Object toValue() {
      if (value instanceof Num) {
        final String t = ((Num) value).text();
        return t.contains(".") || t.contains("e") || t.contains("E")
            ? (Object) Double.parseDouble(t) : (Object) Long.parseLong(t);
      }
      if (value instanceof List) {
        final List<Object> out = new ArrayList<>();
        items().forEach(n -> out.add(n.toValue()));
        return Values.listOf(out);
      }
      if (value instanceof Map) {
        throw new IllegalArgumentException("JSON objects are not values: " + text);
      }
      return value;
    }
  }

  /** A JSON number, by its source text. */
  public record Num(String text) {
  }

  private final String s;
  private int i;

  private RawJson(String s) {
    this.s = s;
  }

  public static Node parse(String text) {
    final RawJson r = new RawJson(text);
    final Node n = r.value();
    r.space();
    if (r.i != text.length()) {
      throw r.error("end of input");
    }
    return n;
  }

  private Node value() {
    space();
    final int start = i;
    if (i >= s.length()) {
      throw error("a value");
    }
    final char c = s.charAt(i);
    final Object v;
    if (c == '{') {
      i++;
      final Map<String, Node> m = new LinkedHashMap<>();
      space();
      if (!accept('}')) {
        do {
          space();
          final String key = string();
          space();
          expect(':');
          m.put(key, value());
          space();
        } while (accept(','));
        expect('}');
      }
      v = Collections.unmodifiableMap(m);
    } else if (c == '[') {
      i++;
      final List<Node> l = new ArrayList<>();
      space();
      if (!accept(']')) {
        do {
          l.add(value());
          space();
        } while (accept(','));
        expect(']');
      }
      v = Collections.unmodifiableList(l);
    } else if (c == '"') {
      v = string();
    } else if (s.startsWith("true", i)) {
      i += 4;
      v = Boolean.TRUE;
    } else if (s.startsWith("false", i)) {
      i += 5;
      v = Boolean.FALSE;
    } else if (s.startsWith("null", i)) {
      i += 4;
      v = null;
    } else if (c == '-' || c >= '0' && c <= '9') {
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
        i++;
      }
      v = new Num(s.substring(start, i));
    } else {
      throw error("a value");
    }
    return new Node(v, s.substring(start, i));
  }

  /** A string: its end found here, its escapes read by mnestic's own {@link Json}. */
  private String string() {
    final int start = i;
    expect('"');
    while (i < s.length() && s.charAt(i) != '"') {
      i += s.charAt(i) == '\\' ? 2 : 1;
    }
    expect('"');
    return (String) Json.parse(s.substring(start, i)).tree();
  }

  private void space() {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
  }

  private boolean accept(char c) {
    if (i < s.length() && s.charAt(i) == c) {
      i++;
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!accept(c)) {
      throw error("'" + c + "'");
    }
  }

  private IllegalArgumentException error(String expected) {
    return new IllegalArgumentException("JSON: expected " + expected + " at offset " + i);
  }
}
