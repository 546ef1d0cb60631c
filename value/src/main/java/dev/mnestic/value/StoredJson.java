package dev.mnestic.value;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Values as JSON text, the form in which the store keeps columns that hold
 * more than one SQL type can (CozoDB's Any, lists, tuples, Validity). The
 * text is JSON that SQL can read, and exactly one text stands for each
 * value, so that it can be a key:
 *
 * <ul>
 *   <li>null, Bools, Ints, Strings and lists as themselves: {@code null},
 *       {@code true}, {@code 1}, {@code "a"}, {@code [1,"a"]};</li>
 *   <li>a finite Float always with a point or an exponent, shortest form:
 *       {@code 1.0}, {@code 1e16};</li>
 *   <li>what JSON has no form for, as an object of one tagged member:
 *       {@code {"$float":"NaN"}} ({@code "-NaN"}, {@code "inf"},
 *       {@code "-inf"}), {@code {"$bytes":"AQI="}} (base64),
 *       {@code {"$uuid":"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"}},
 *       {@code {"$json":{"a":1}}} (a Json value's document),
 *       {@code {"$validity":[1700000000000000,true]}},
 *       {@code {"$vec":["F32","AACAPw=="]}} (a {@link Vector}: its element type and the
 *       base64 of its elements' little-endian bytes, exact to the bit).</li>
 * </ul>
 */
public final class StoredJson {
  private StoredJson() {
  }

  /** The text of {@code v}. */
  public static String encode(Object v) {
    final StringBuilder b = new StringBuilder();
    encode(b, v);
    return b.toString();
  }

  private static void encode(StringBuilder b, Object v) {
    if (v instanceof Double) {
      final double d = (Double) v;
      if (Double.isFinite(d)) {
        b.append(FloatFormat.json(d));
      } else {
        b.append("{\"$float\":\"").append(Double.isNaN(d)
            ? (Double.doubleToRawLongBits(d) < 0 ? "-NaN" : "NaN")
            : d > 0 ? "inf" : "-inf").append("\"}");
      }
    } else if (v instanceof String) {
      Values.appendJsonString(b, (String) v);
    } else if (v instanceof List) {
      b.append('[');
      final List<?> items = (List<?>) v;
      for (int i = 0; i < items.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        encode(b, items.get(i));
      }
      b.append(']');
    } else if (v instanceof Bytes) {
      b.append("{\"$bytes\":\"").append(((Bytes) v).base64()).append("\"}");
    } else if (v instanceof UUID) {
      b.append("{\"$uuid\":\"").append(v).append("\"}");
    } else if (v instanceof Json) {
      b.append("{\"$json\":").append(((Json) v).text()).append('}');
    } else if (v instanceof Validity) {
      b.append("{\"$validity\":").append(v).append('}');
    } else if (v instanceof Vector) {
      final Vector vec = (Vector) v;
      b.append("{\"$vec\":[\"").append(vec.elementType()).append("\",\"")
          .append(java.util.Base64.getEncoder().encodeToString(vec.littleEndianBytes()))
          .append("\"]}");
    } else if (v == null || v instanceof Boolean || v instanceof Long) {
      b.append(v);
    } else {
      throw Values.notAValue(v);
    }
  }

  /** The value of a text made by {@link #encode}. */
  public static Object decode(String text) {
    try {
      return value(Json.parseTree(text));
    } catch (IllegalArgumentException | ClassCastException | IndexOutOfBoundsException e) {
      throw new IllegalStateException("not a stored value: " + text, e);
    }
  }

  private static Object value(Object tree) {
    if (tree instanceof List) {
      final List<Object> items = new ArrayList<>();
      for (Object o : (List<?>) tree) {
        items.add(value(o));
      }
      return Collections.unmodifiableList(items);
    }
    if (!(tree instanceof Map)) {
      return tree;
    }
    final Map<?, ?> tagged = (Map<?, ?>) tree;
    if (tagged.size() != 1) {
      throw new IllegalArgumentException("an object of one tagged member");
    }
    final Map.Entry<?, ?> e = tagged.entrySet().iterator().next();
    switch ((String) e.getKey()) {
    case "$float":
      switch ((String) e.getValue()) {
      case "NaN":
        return Double.NaN;
      case "-NaN":
        return Values.ARITHMETIC_NAN;
      case "inf":
        return Double.POSITIVE_INFINITY;
      case "-inf":
        return Double.NEGATIVE_INFINITY;
      default:
        throw new IllegalArgumentException("a $float");
      }
    case "$bytes":
      final Bytes bytes = Bytes.fromBase64((String) e.getValue());
      if (bytes == null) {
        throw new IllegalArgumentException("a $bytes");
      }
      return bytes;
    case "$uuid":
      return UUID.fromString((String) e.getValue());
    case "$json":
      return Json.wrap(e.getValue());
    case "$validity":
      final List<?> v = (List<?>) e.getValue();
      return new Validity((Long) v.get(0), (Boolean) v.get(1));
    case "$vec":
      final List<?> vec = (List<?>) e.getValue();
      return Functions.fromBytes(java.util.Base64.getDecoder().decode((String) vec.get(1)),
          "F32".equals(vec.get(0)));
    default:
      throw new IllegalArgumentException("an unknown tag " + e.getKey());
    }
  }
}
