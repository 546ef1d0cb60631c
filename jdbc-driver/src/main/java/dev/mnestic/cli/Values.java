package dev.mnestic.cli;

import dev.mnestic.value.FloatFormat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Struct;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * How the CLI writes one value of an SQL result set: as text (a table or CSV
 * cell) and as JSON. (A Datalog script's values are written as CozoDB writes
 * them, by {@link dev.mnestic.value.Values#toJson}: see {@link Rows}.)
 *
 * <ul>
 *   <li>{@code Double} and {@code Float}: the shortest decimal that reads back
 *       as the same value ({@link #shortest(double)}), so {@code 0.9} and not
 *       {@code 0.8999999761581421}, and always with a point or an exponent
 *       ({@code 1.0}). {@code NaN}, {@code Infinity} and {@code -Infinity} are
 *       written as those words (in JSON, as strings).
 *   <li>{@code BigDecimal}: plain notation, never an exponent.
 *   <li>Dates, times and timestamps: their SQL literal text, such as
 *       {@code 2025-07-01 00:00:00} (fractional seconds only when non-zero).
 *   <li>Binary strings: lower-case hexadecimal, as Calcite prints them.
 *   <li>Arrays ({@link Array}, {@code Object[]}, primitive arrays, {@link List})
 *       and structs: JSON arrays; maps: JSON objects whose keys are the keys'
 *       text. In a table or CSV cell these appear as their JSON text.
 * </ul>
 */
final class Values {
  private static final String[] JSON_ESCAPES = new String[128];

  static {
    for (int c = 0; c < 0x20; c++) {
      JSON_ESCAPES[c] = String.format("\\u%04x", c);
    }
    JSON_ESCAPES['\b'] = "\\b";
    JSON_ESCAPES['\t'] = "\\t";
    JSON_ESCAPES['\n'] = "\\n";
    JSON_ESCAPES['\f'] = "\\f";
    JSON_ESCAPES['\r'] = "\\r";
    JSON_ESCAPES['"'] = "\\\"";
    JSON_ESCAPES['\\'] = "\\\\";
  }

  private Values() {
  }

  /**
   * The shortest decimal that reads back as {@code d}
   * ({@link FloatFormat#shortestDecimal}).
   *
   * <p>Plain notation when the decimal exponent is in [-7, 21), with at least
   * one digit after the point ({@code 1.0}, {@code 4147.0}, {@code 0.0001});
   * otherwise Java's scientific form ({@code 1.0E21}, {@code 1.5E-8}).
   * {@code -0.0} stays {@code -0.0}. (Java 17's {@link Double#toString} is
   * not always the shortest: it writes {@code 2e23} as {@code 1.9999999999999998E23}.)
   */
  static String shortest(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return Double.toString(d);
    }
    if (d == 0) {
      return Double.doubleToRawLongBits(d) < 0 ? "-0.0" : "0.0";
    }
    return decimalText(FloatFormat.shortestDecimal(d));
  }

  /** As {@link #shortest(double)}, for a {@code float}: at most 9 digits read back as {@code f}. */
  static String shortest(float f) {
    if (Float.isNaN(f) || Float.isInfinite(f)) {
      return Float.toString(f);
    }
    if (f == 0) {
      return Float.floatToRawIntBits(f) < 0 ? "-0.0" : "0.0";
    }
    final BigDecimal exact = new BigDecimal(f);
    for (int p = 1; ; p++) {
      final BigDecimal rounded = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
      if (p == 9 || rounded.floatValue() == f) {
        return decimalText(rounded);
      }
    }
  }

  /** Writes a non-zero decimal as {@link #shortest(double)} describes. */
  private static String decimalText(BigDecimal value) {
    final BigDecimal v = value.stripTrailingZeros();
    final int exponent = v.precision() - v.scale() - 1;
    if (exponent >= -7 && exponent < 21) {
      final String plain = v.toPlainString();
      return plain.indexOf('.') < 0 ? plain + ".0" : plain;
    }
    final String digits = v.unscaledValue().abs().toString();
    return (v.signum() < 0 ? "-" : "") + digits.charAt(0) + "."
        + (digits.length() > 1 ? digits.substring(1) : "0") + "E" + exponent;
  }

  /** The text of a non-null value in a table or CSV cell. */
  static String text(Object value) throws SQLException {
    final Object v = normalize(value);
    if (v instanceof String) {
      return (String) v;
    }
    if (v instanceof List || v instanceof Map) {
      return json(v);
    }
    return scalarText(v);
  }

  /** The JSON text of a value. */
  static String json(Object value) throws SQLException {
    final StringBuilder b = new StringBuilder();
    appendJson(b, value);
    return b.toString();
  }

  /** Appends the JSON text of a value. */
  static void appendJson(StringBuilder b, Object value) throws SQLException {
    final Object v = normalize(value);
    if (v == null) {
      b.append("null");
    } else if (v instanceof Boolean || v instanceof Number && isFinite((Number) v)) {
      b.append(scalarText(v));
    } else if (v instanceof List) {
      b.append('[');
      String sep = "";
      for (Object element : (List<?>) v) {
        b.append(sep);
        appendJson(b, element);
        sep = ",";
      }
      b.append(']');
    } else if (v instanceof Map) {
      b.append('{');
      String sep = "";
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) v).entrySet()) {
        b.append(sep);
        appendJsonString(b, entry.getKey() == null ? "null" : text(entry.getKey()));
        b.append(':');
        appendJson(b, entry.getValue());
        sep = ",";
      }
      b.append('}');
    } else {
      appendJsonString(b, v instanceof String ? (String) v : scalarText(v));
    }
  }

  /** Appends {@code s} as a JSON string: quotes, backslashes and control characters escaped. */
  static void appendJsonString(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      if (c < JSON_ESCAPES.length && JSON_ESCAPES[c] != null) {
        b.append(JSON_ESCAPES[c]);
      } else {
        b.append(c);
      }
    }
    b.append('"');
  }

  private static boolean isFinite(Number n) {
    return !(n instanceof Double && !Double.isFinite((Double) n)
        || n instanceof Float && !Float.isFinite((Float) n));
  }

  /**
   * Turns the composite values of JDBC ({@link Array}, {@link Struct}, Java
   * arrays) into lists, and {@code Character} into {@code String}; returns
   * other values as they are.
   */
  private static Object normalize(Object v) throws SQLException {
    if (v instanceof Array) {
      return elements((Array) v);
    }
    if (v instanceof Struct) {
      return Arrays.asList(((Struct) v).getAttributes());
    }
    if (v instanceof Object[]) {
      return Arrays.asList((Object[]) v);
    }
    if (v != null && v.getClass().isArray() && !(v instanceof byte[])) {
      final int n = java.lang.reflect.Array.getLength(v);
      final List<Object> list = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        list.add(java.lang.reflect.Array.get(v, i));
      }
      return list;
    }
    if (v instanceof Character) {
      return v.toString();
    }
    return v;
  }

  /** The text of a value that is neither null, a string nor composite. */
  private static String scalarText(Object v) {
    if (v instanceof Double) {
      return shortest((double) (Double) v);
    }
    if (v instanceof Float) {
      return shortest((float) (Float) v);
    }
    if (v instanceof BigDecimal) {
      return ((BigDecimal) v).toPlainString();
    }
    if (v instanceof Timestamp) {
      // Timestamp.toString() is "2025-07-01 00:00:00.0"; SQL writes no ".0".
      final String s = v.toString();
      return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }
    if (v instanceof LocalDateTime) {
      return v.toString().replace('T', ' ');
    }
    if (v instanceof byte[]) {
      return HexFormat.of().formatHex((byte[]) v);
    }
    // Date and Time print their SQL text (yyyy-mm-dd, hh:mm:ss); integers
    // and booleans their Java text.
    return v.toString();
  }

  /**
   * The elements of a JDBC array.
   *
   * <p>Calcite's arrays ({@code ArrayImpl}) fail in {@link Array#getArray()}
   * when the elements are arrays, dates, times or timestamps (it casts them to
   * their internal representation), so in that case this reads the array's
   * result set instead, one typed getter per element type.
   */
  static List<Object> elements(Array array) throws SQLException {
    final Object elements;
    try {
      elements = array.getArray();
    } catch (SQLException | ClassCastException e) {
      return elementsFromResultSet(array);
    }
    final List<Object> list = new ArrayList<>();
    for (int i = 0, n = java.lang.reflect.Array.getLength(elements); i < n; i++) {
      list.add(java.lang.reflect.Array.get(elements, i));
    }
    return list;
  }

  private static List<Object> elementsFromResultSet(Array array) throws SQLException {
    final List<Object> list = new ArrayList<>();
    try (ResultSet rs = array.getResultSet()) {
      // JDBC puts the index in column 1 and the value in column 2; Avatica
      // gives only the value.
      final int column = rs.getMetaData().getColumnCount();
      final int type = rs.getMetaData().getColumnType(column);
      while (rs.next()) {
        final Object element = element(rs, column, type);
        list.add(rs.wasNull() ? null : element);
      }
    }
    return list;
  }

  private static Object element(ResultSet rs, int column, int type) throws SQLException {
    switch (type) {
    case Types.ARRAY:
      return rs.getArray(column);
    case Types.DATE:
      return rs.getDate(column);
    case Types.TIME:
      return rs.getTime(column);
    case Types.TIMESTAMP:
      return rs.getTimestamp(column);
    case Types.BOOLEAN:
      return rs.getBoolean(column);
    case Types.TINYINT:
    case Types.SMALLINT:
    case Types.INTEGER:
    case Types.BIGINT:
      return rs.getLong(column);
    case Types.REAL:
      return rs.getFloat(column);
    case Types.FLOAT:
    case Types.DOUBLE:
      return rs.getDouble(column);
    case Types.DECIMAL:
    case Types.NUMERIC:
      return rs.getBigDecimal(column);
    default:
      return rs.getString(column);
    }
  }
}
