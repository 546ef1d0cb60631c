package dev.mnestic.value;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/**
 * CozoDB's values ({@code DataValue} in {@code cozo-core/src/data/value.rs})
 * as plain Java objects:
 *
 * <table>
 *   <caption>Value model</caption>
 *   <tr><th>CozoDB</th><th>Java</th></tr>
 *   <tr><td>{@code null}</td><td>{@code null}</td></tr>
 *   <tr><td>Bool</td><td>{@link Boolean}</td></tr>
 *   <tr><td>Int (i64; arithmetic wraps)</td><td>{@link Long}</td></tr>
 *   <tr><td>Float (f64)</td><td>{@link Double}</td></tr>
 *   <tr><td>String</td><td>{@link String}</td></tr>
 *   <tr><td>Bytes</td><td>{@link Bytes}</td></tr>
 *   <tr><td>Uuid</td><td>{@link UUID}</td></tr>
 *   <tr><td>List</td><td>an unmodifiable {@link List} of values (nulls allowed)</td></tr>
 *   <tr><td>Set (made only by the meet aggregations union and
 *       intersection)</td><td>{@link ValueSet}</td></tr>
 *   <tr><td>Json</td><td>{@link Json}</td></tr>
 *   <tr><td>Validity</td><td>{@link Validity}</td></tr>
 * </table>
 *
 * <p>The order ({@link #compare}) is CozoDB's total order: by type first,
 * {@code null < Bool < number < String < Bytes < Uuid < List < Set < Json < Validity},
 * then by value (Uuids by their time-high, time-mid and time-low fields, then the rest). Numbers of
 * either kind compare by their {@code f64} value in IEEE total order, and an
 * Int equal to a Float sorts just below it: {@code 1 < 1.0 < 2}. So Int
 * {@code 1} and Float {@code 1.0} are different values, as are {@code 0.0}
 * and {@code -0.0}, and NaNs with different sign bits. {@link #equal} and
 * {@link #hash} agree with that order; the {@code eq} <em>function</em> is
 * looser (see {@link Functions#eq}).
 *
 * <p>NaN's sign bit is observable in that order. CozoDB's reference build
 * (WebAssembly on x86-64) makes arithmetic produce a NaN with the sign bit
 * set ({@link #ARITHMETIC_NAN}), which sorts below every number, while
 * {@code to_float('NAN')} gives the positive NaN, which sorts above
 * infinity. {@link Functions} reproduces that.
 */
public final class Values {
  /** Rank of each type in the order: CozoDB's enum order (no Regex values here). */
  private static final int NULL = 0;
  private static final int BOOL = 1;
  private static final int NUM = 2;
  private static final int STR = 3;
  private static final int BYTES = 4;
  private static final int UUID_RANK = 5;
  private static final int LIST = 7;
  private static final int SET = 8;
  private static final int VEC = 9;
  private static final int JSON = 10;
  private static final int VALIDITY = 11;

  /**
   * The NaN that CozoDB's arithmetic produces from non-NaN operands
   * ({@code 0.0 / 0.0}, {@code sqrt(-1)}): sign bit set, as x86-64 makes it.
   */
  public static final double ARITHMETIC_NAN = Double.longBitsToDouble(0xfff8000000000000L);

  /** CozoDB's total order on values. */
  public static final Comparator<Object> ORDER = Values::compare;

  private Values() {
  }

  /** CozoDB's total order; see the class comment. */
  public static int compare(Object a, Object b) {
    final int ra = rank(a);
    final int rb = rank(b);
    if (ra != rb) {
      return Integer.compare(ra, rb);
    }
    switch (ra) {
    case NULL:
      return 0;
    case BOOL:
      return Boolean.compare((Boolean) a, (Boolean) b);
    case NUM:
      return compareNumbers(a, b);
    case STR:
      return compareStrings((String) a, (String) b);
    case BYTES:
      return ((Bytes) a).compareTo((Bytes) b);
    case UUID_RANK:
      return compareUuids((UUID) a, (UUID) b);
    case SET:
      return compareLists(((ValueSet) a).elements(), ((ValueSet) b).elements());
    case VEC:
      return ((Vector) a).compareTo((Vector) b);
    case JSON:
      return ((Json) a).compareTo((Json) b);
    case VALIDITY:
      return ((Validity) a).compareTo((Validity) b);
    default:
      return compareLists((List<?>) a, (List<?>) b);
    }
  }

  /** Whether two values are the same value: {@code compare(a, b) == 0}. */
  public static boolean equal(Object a, Object b) {
    return compare(a, b) == 0;
  }

  /** A hash code consistent with {@link #equal}. */
  public static int hash(Object v) {
    if (v == null) {
      return 0;
    }
    if (v instanceof Double) {
      final long bits = Double.doubleToRawLongBits((Double) v);
      return 31 + (int) (bits ^ (bits >>> 32));
    }
    if (v instanceof List) {
      int h = 1;
      for (Object o : (List<?>) v) {
        h = 31 * h + hash(o);
      }
      return h;
    }
    return v.hashCode();
  }

  /**
   * The CozoDB type of a value: Null, Bool, Int, Float, String, Bytes, Uuid, List, Set, Vec,
   * Json or Validity.
   */
  public static String typeName(Object v) {
    if (v == null) {
      return "Null";
    }
    if (v instanceof Boolean) {
      return "Bool";
    }
    if (v instanceof Long) {
      return "Int";
    }
    if (v instanceof Double) {
      return "Float";
    }
    if (v instanceof String) {
      return "String";
    }
    if (v instanceof Bytes) {
      return "Bytes";
    }
    if (v instanceof List) {
      return "List";
    }
    if (v instanceof ValueSet) {
      return "Set";
    }
    if (v instanceof UUID) {
      return "Uuid";
    }
    if (v instanceof Vector) {
      return "Vec";
    }
    if (v instanceof Json) {
      return "Json";
    }
    if (v instanceof Validity) {
      return "Validity";
    }
    throw notAValue(v);
  }

  /** Whether {@code v} is a value of this model, all the way down. */
  public static boolean isValue(Object v) {
    if (v == null || v instanceof Boolean || v instanceof Long || v instanceof Double
        || v instanceof String || v instanceof Bytes || v instanceof UUID || v instanceof Json
        || v instanceof Validity || v instanceof Vector) {
      return true;
    }
    if (v instanceof List || v instanceof ValueSet) {
      for (Object o : v instanceof ValueSet ? ((ValueSet) v).elements() : (List<?>) v) {
        if (!isValue(o)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  /**
   * Converts a Java object into a value: {@link Integer}, {@link Short} and
   * {@link Byte} become Int, {@link Float} becomes Float, {@code byte[]}
   * becomes Bytes, collections and {@code Object[]} become unmodifiable
   * lists (recursively). Callers holding Calcite's {@code ByteString} pass
   * its bytes.
   */
  public static Object of(Object o) {
    if (o == null || o instanceof Boolean || o instanceof Long || o instanceof Double
        || o instanceof String || o instanceof Bytes || o instanceof ValueSet
        || o instanceof UUID || o instanceof Json || o instanceof Validity
        || o instanceof Vector) {
      return o;
    }
    if (o instanceof byte[]) {
      return Bytes.of((byte[]) o);
    }
    if (o instanceof Integer || o instanceof Short || o instanceof Byte) {
      return ((Number) o).longValue();
    }
    if (o instanceof Float) {
      return ((Float) o).doubleValue();
    }
    if (o instanceof Collection || o instanceof Object[]) {
      final Collection<?> c = o instanceof Collection ? (Collection<?>) o : Arrays.asList((Object[]) o);
      final List<Object> items = new ArrayList<>(c.size());
      for (Object item : c) {
        items.add(of(item));
      }
      return Collections.unmodifiableList(items);
    }
    throw notAValue(o);
  }

  /**
   * The value with every Set made a List of its elements, as CozoDB hands
   * values out of a query (results and writes to stored relations).
   */
  public static Object setsAsLists(Object v) {
    if (v instanceof ValueSet) {
      return setsAsLists(((ValueSet) v).elements());
    }
    if (v instanceof List) {
      final List<?> l = (List<?>) v;
      List<Object> out = null;
      for (int i = 0; i < l.size(); i++) {
        final Object o = setsAsLists(l.get(i));
        if (out == null && o != l.get(i)) {
          out = new ArrayList<>(l.subList(0, i));
        }
        if (out != null) {
          out.add(o);
        }
      }
      return out == null ? l : Collections.unmodifiableList(out);
    }
    return v;
  }

  /** An unmodifiable list of the given values (which may be null). */
  public static List<Object> list(Object... items) {
    return Collections.unmodifiableList(Arrays.asList(items.clone()));
  }

  /** An unmodifiable list holding the values of {@code items}. */
  public static List<Object> listOf(Collection<?> items) {
    return Collections.unmodifiableList(new ArrayList<>(items));
  }

  /**
   * The value as CozoDB writes it in a query result (its JSON): Int as an
   * integer; a finite Float always with a point or an exponent, in the
   * shortest form that reads back as the same double ({@code 1.0},
   * {@code 1e16}, {@code 1e-7}, {@code -0.0}); NaN as {@code null}; the
   * infinities as the strings {@code "INFINITY"} and {@code "NEGATIVE_INFINITY"};
   * strings with JSON escapes; Bytes as their Base64 text; lists and sets as
   * arrays without spaces; a Uuid as its hyphenated text, a Json value as
   * its document, a Validity as {@code [timestamp, assertion]}.
   */
  public static String toJson(Object v) {
    final StringBuilder b = new StringBuilder();
    appendJson(b, v);
    return b.toString();
  }

  /**
   * The value as CozoDB's {@code to_string} writes it (its
   * {@code serde_json} text): as {@link #toJson} except that a string stands
   * for itself at the top level (so does a Json string), every non-finite
   * Float is {@code null}, and Bytes and Uuids are arrays of their byte values
   * ({@code [1,255]}).
   */
  public static String toJsonText(Object v) {
    if (v instanceof String) {
      return (String) v;
    }
    final Json json = Json.of(v);
    return json.tree() instanceof String ? (String) json.tree() : json.text();
  }

  /**
   * The value as CozoDB shows it in error messages (Rust's {@code Debug} of
   * {@code DataValue}): {@code 1}, {@code 1.5} (a Float without exponent and
   * without {@code .0}), {@code "a"} (quoted, escaped), {@code [1, "a"]},
   * {@code to_float("NAN")}, {@code to_float("INF")}, {@code decode_base64("AQI=")}.
   */
  public static String display(Object v) {
    final StringBuilder b = new StringBuilder();
    appendDisplay(b, v);
    return b.toString();
  }

  // order

  private static int rank(Object v) {
    if (v == null) {
      return NULL;
    }
    if (v instanceof Boolean) {
      return BOOL;
    }
    if (v instanceof Long || v instanceof Double) {
      return NUM;
    }
    if (v instanceof String) {
      return STR;
    }
    if (v instanceof Bytes) {
      return BYTES;
    }
    if (v instanceof List) {
      return LIST;
    }
    if (v instanceof ValueSet) {
      return SET;
    }
    if (v instanceof UUID) {
      return UUID_RANK;
    }
    if (v instanceof Vector) {
      return VEC;
    }
    if (v instanceof Json) {
      return JSON;
    }
    if (v instanceof Validity) {
      return VALIDITY;
    }
    throw notAValue(v);
  }

  /** Uuids as CozoDB orders them: time-high, time-mid, time-low (unsigned), then the last 8 bytes. */
  static int compareUuids(UUID a, UUID b) {
    final long x = a.getMostSignificantBits();
    final long y = b.getMostSignificantBits();
    int c = Long.compare(x & 0xffff, y & 0xffff);
    if (c == 0) {
      c = Long.compare((x >>> 16) & 0xffff, (y >>> 16) & 0xffff);
    }
    if (c == 0) {
      c = Long.compare(x >>> 32, y >>> 32);
    }
    return c != 0 ? c : Long.compareUnsigned(a.getLeastSignificantBits(),
        b.getLeastSignificantBits());
  }

  /**
   * A Uuid from its text as CozoDB reads it (the {@code uuid} crate's
   * {@code try_parse}): 32 hexadecimal digits, plain or hyphenated
   * 8-4-4-4-12, the hyphenated form also braced or after {@code urn:uuid:};
   * null for anything else.
   */
  public static UUID parseUuid(String s) {
    if (s.length() == 45 && s.startsWith("urn:uuid:")) {
      s = s.substring(9);
    } else if (s.length() == 38 && s.charAt(0) == '{' && s.charAt(37) == '}') {
      s = s.substring(1, 37);
    }
    final String hex;
    if (s.length() == 36) {
      for (int at : new int[] {8, 13, 18, 23}) {
        if (s.charAt(at) != '-') {
          return null;
        }
      }
      hex = s.substring(0, 8) + s.substring(9, 13) + s.substring(14, 18) + s.substring(19, 23)
          + s.substring(24);
    } else if (s.length() == 32) {
      hex = s;
    } else {
      return null;
    }
    for (int i = 0; i < 32; i++) {
      if (Character.digit(hex.charAt(i), 16) < 0 || hex.charAt(i) > 'f') {
        return null;
      }
    }
    return new UUID(Long.parseUnsignedLong(hex.substring(0, 16), 16),
        Long.parseUnsignedLong(hex.substring(16), 16));
  }

  /** The 16 bytes of a Uuid, most significant first. */
  static byte[] uuidBytes(UUID u) {
    final byte[] bytes = new byte[16];
    for (int i = 0; i < 8; i++) {
      bytes[i] = (byte) (u.getMostSignificantBits() >>> (56 - 8 * i));
      bytes[8 + i] = (byte) (u.getLeastSignificantBits() >>> (56 - 8 * i));
    }
    return bytes;
  }

  private static int compareNumbers(Object a, Object b) {
    if (a instanceof Long) {
      if (b instanceof Long) {
        return Long.compare((Long) a, (Long) b);
      }
      final int c = totalCompare((double) (Long) a, (Double) b);
      return c == 0 ? -1 : c;
    }
    if (b instanceof Long) {
      final int c = totalCompare((Double) a, (double) (Long) b);
      return c == 0 ? 1 : c;
    }
    return totalCompare((Double) a, (Double) b);
  }

  /**
   * IEEE 754 total order on the raw bits, as Rust's {@code f64::total_cmp}:
   * {@code -NaN < -Inf < ... < -0.0 < 0.0 < ... < Inf < NaN}.
   */
  public static int totalCompare(double a, double b) {
    long x = Double.doubleToRawLongBits(a);
    long y = Double.doubleToRawLongBits(b);
    x ^= (x >> 63) >>> 1;
    y ^= (y >> 63) >>> 1;
    return Long.compare(x, y);
  }

  /** Strings by code point (the order of their UTF-8 bytes), not by UTF-16 unit. */
  static int compareStrings(String a, String b) {
    final int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        if (x >= 0xd800 && y >= 0xd800) {
          // Surrogates (supplementary code points) go above U+E000..U+FFFF.
          x += x >= 0xe000 ? -0x800 : 0x2000;
          y += y >= 0xe000 ? -0x800 : 0x2000;
        }
        return Integer.compare(x, y);
      }
    }
    return Integer.compare(a.length(), b.length());
  }

  private static int compareLists(List<?> a, List<?> b) {
    final int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      final int c = compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  // JSON

  private static void appendJson(StringBuilder b, Object v) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof Boolean || v instanceof Long) {
      b.append(v);
    } else if (v instanceof Double) {
      final double d = (Double) v;
      if (Double.isNaN(d)) {
        b.append("null");
      } else if (Double.isInfinite(d)) {
        b.append(d > 0 ? "\"INFINITY\"" : "\"NEGATIVE_INFINITY\"");
      } else {
        b.append(FloatFormat.json(d));
      }
    } else if (v instanceof String) {
      appendJsonString(b, (String) v);
    } else if (v instanceof Bytes) {
      b.append('"').append(((Bytes) v).base64()).append('"');
    } else if (v instanceof UUID) {
      b.append('"').append(v).append('"');
    } else if (v instanceof Json || v instanceof Validity) {
      b.append(v);
    } else if (v instanceof Vector) {
      ((Vector) v).appendJson(b);
    } else if (v instanceof List || v instanceof ValueSet) {
      b.append('[');
      boolean first = true;
      for (Object o : v instanceof ValueSet ? ((ValueSet) v).elements() : (List<?>) v) {
        if (!first) {
          b.append(',');
        }
        first = false;
        appendJson(b, o);
      }
      b.append(']');
    } else {
      throw notAValue(v);
    }
  }

  /** A JSON string as {@code serde_json} writes it: only {@code "}, {@code \} and control characters escaped. */
  static void appendJsonString(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      switch (c) {
      case '"':
        b.append("\\\"");
        break;
      case '\\':
        b.append("\\\\");
        break;
      case '\b':
        b.append("\\b");
        break;
      case '\f':
        b.append("\\f");
        break;
      case '\n':
        b.append("\\n");
        break;
      case '\r':
        b.append("\\r");
        break;
      case '\t':
        b.append("\\t");
        break;
      default:
        if (c < 0x20 || Character.isSurrogate(c) && !validSurrogateAt(s, i)) {
          b.append(String.format("\\u%04x", (int) c));
        } else {
          b.append(c);
        }
      }
    }
    b.append('"');
  }

  private static boolean validSurrogateAt(String s, int i) {
    final char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }

  // Rust Debug

  private static void appendDisplay(StringBuilder b, Object v) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof Boolean || v instanceof Long) {
      b.append(v);
    } else if (v instanceof Double) {
      final double d = (Double) v;
      if (Double.isNaN(d)) {
        b.append("to_float(\"NAN\")");
      } else if (Double.isInfinite(d)) {
        b.append(d > 0 ? "to_float(\"INF\")" : "to_float(\"NEG_INF\")");
      } else {
        b.append(FloatFormat.plain(d));
      }
    } else if (v instanceof String) {
      appendDebugString(b, (String) v);
    } else if (v instanceof Bytes) {
      b.append("decode_base64(\"").append(((Bytes) v).base64()).append("\")");
    } else if (v instanceof UUID) {
      b.append("to_uuid(\"").append(v).append("\")");
    } else if (v instanceof Vector) {
      b.append(v);
    } else if (v instanceof Json) {
      final Json j = (Json) v;
      b.append(j.tree() instanceof java.util.Map ? j.text() : "json(" + j.text() + ")");
    } else if (v instanceof Validity) {
      b.append("Validity { timestamp: Reverse(").append(((Validity) v).timestamp()).append(")")
          .append(", retracted: Reverse(").append(((Validity) v).assertion()).append(") }");
    } else if (v instanceof List || v instanceof ValueSet) {
      b.append('[');
      boolean first = true;
      for (Object o : v instanceof ValueSet ? ((ValueSet) v).elements() : (List<?>) v) {
        if (!first) {
          b.append(", ");
        }
        first = false;
        appendDisplay(b, o);
      }
      b.append(']');
    } else {
      throw notAValue(v);
    }
  }

  /** A string as Rust's {@code Debug} writes it: quoted; quotes, backslashes, control and unprintable characters escaped. */
  private static void appendDebugString(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); ) {
      final int c = s.codePointAt(i);
      i += Character.charCount(c);
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
      case '\r':
        b.append("\\r");
        break;
      case '\t':
        b.append("\\t");
        break;
      case 0:
        b.append("\\0");
        break;
      default:
        if (printable(c)) {
          b.appendCodePoint(c);
        } else {
          b.append("\\u{").append(Integer.toHexString(c)).append('}');
        }
      }
    }
    b.append('"');
  }

  private static boolean printable(int c) {
    if (c == ' ') {
      return true;
    }
    switch (Character.getType(c)) {
    case Character.CONTROL:
    case Character.FORMAT:
    case Character.UNASSIGNED:
    case Character.SURROGATE:
    case Character.PRIVATE_USE:
    case Character.LINE_SEPARATOR:
    case Character.PARAGRAPH_SEPARATOR:
    case Character.SPACE_SEPARATOR:
      return false;
    default:
      return true;
    }
  }

  static IllegalArgumentException notAValue(Object v) {
    return new IllegalArgumentException("not a mnestic value: " + v.getClass().getName()
        + " (values are null, Boolean, Long, Double, String, Bytes, UUID, List, ValueSet, Json"
        + " and Validity)");
  }
}
