package dev.mnestic.runtime;

import dev.mnestic.value.CozoFunction;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.Functions;
import dev.mnestic.value.Json;
import dev.mnestic.value.StopCheck;
import dev.mnestic.value.StoredJson;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;
import dev.mnestic.value.Vector;

import org.apache.calcite.avatica.util.ByteString;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * What generated code calls to evaluate CozoScript expressions: every
 * function as lowering resolved it ({@link Functions#resolve}), one entry per arity,
 * over values of CozoDB's model ({@link Values}).
 */
public final class CozoCalls {
  /** The stop check of a CozoDB function: the statement running on this thread ({@link RunningStatement}). */
  public static final StopCheck STOP = RunningStatement::checkCurrent;

  private CozoCalls() {
  }

  public static Object call0(CozoFunction f) {
    return f.apply(Arrays.asList(), STOP);
  }

  public static Object call1(CozoFunction f, Object a) {
    return f.apply(Arrays.asList(a), STOP);
  }

  public static Object call2(CozoFunction f, Object a, Object b) {
    return f.apply(Arrays.asList(a, b), STOP);
  }

  public static Object call3(CozoFunction f, Object a, Object b, Object c) {
    return f.apply(Arrays.asList(a, b, c), STOP);
  }

  public static Object call4(CozoFunction f, Object a, Object b, Object c, Object d) {
    return f.apply(Arrays.asList(a, b, c, d), STOP);
  }

  public static Object call5(CozoFunction f, Object a, Object b, Object c, Object d, Object e) {
    return f.apply(Arrays.asList(a, b, c, d, e), STOP);
  }

  public static Object call6(CozoFunction f, Object a, Object b, Object c, Object d, Object e,
      Object g) {
    return f.apply(Arrays.asList(a, b, c, d, e, g), STOP);
  }

  /** The most arguments {@code callN} takes. */
  public static final int MAX_ARITY = 6;

  /** A filter's verdict: the value must be a Boolean, as CozoDB requires. */
  public static boolean test(Object v) {
    if (v instanceof Boolean) {
      return (Boolean) v;
    }
    throw new ValueException(ErrorCode.EVAL_PREDICATE_NOT_BOOL, "Predicate must have boolean return type",
        "got " + Values.display(v));
  }

  /**
   * The elements {@code x in v} binds {@code x} to: {@code v} must be a List
   * (not a Set), as CozoDB's spread unification requires.
   */
  public static List<?> spread(Object v) {
    if (v instanceof List) {
      return (List<?>) v;
    }
    throw new ValueException(ErrorCode.EVAL_INVALID_SPREAD_UNIF, "Invalid spread unification",
        "Spread unification requires a list at the right");
  }

  /** {@link #spread}, each element {@code e} at index {@code i} as the pair {@code [i, e]}. */
  public static List<?> spreadIndexed(Object v) {
    final List<?> elements = spread(v);
    final List<Object> pairs = new ArrayList<>(elements.size());
    for (int i = 0; i < elements.size(); i++) {
      pairs.add(Values.list((long) i, elements.get(i)));
    }
    return pairs;
  }

  /** Whether two values are the same value (CozoDB's identity: 1 and 1.0 differ). */
  public static boolean same(Object a, Object b) {
    return Values.equal(a, b);
  }

  /** A stored (SQL) value as a CozoDB value: integers are Int, DECIMAL and REAL are Float, binaries Bytes. */
  public static Object value(Object sql) {
    if (sql instanceof BigDecimal) {
      return ((BigDecimal) sql).doubleValue();
    }
    if (sql instanceof ByteString) {
      return Values.of(((ByteString) sql).getBytes());
    }
    return Values.of(sql);
  }

  /** How a column the store keeps in a form of its own holds CozoDB values. */
  public enum Codec {
    /** A text column holding values as {@link StoredJson} text. */
    STORED_JSON("json"),
    /** A text column holding the documents of Json values. */
    JSON_DOCUMENT("document"),
    /** A 16-byte (SQL UUID) column holding Uuids. */
    UUID_BYTES("uuid"),
    /** A {@code DOUBLE ARRAY} column holding F32 vectors (each element a float exactly). */
    VECTOR_F32("f32"),
    /** A {@code DOUBLE ARRAY} column holding F64 vectors. */
    VECTOR_F64("f64");

    /** The codec's name in plans ({@code COZO_STORED($0, 'json')}). */
    public final String planName;

    Codec(String planName) {
      this.planName = planName;
    }

    /** The CozoDB value a stored (SQL) value of this codec holds; null stays null. */
    public Object decode(Object sql) {
      if (sql == null) {
        return null;
      }
      switch (this) {
      case STORED_JSON:
        return StoredJson.decode((String) sql);
      case JSON_DOCUMENT:
        return Json.parse((String) sql);
      case VECTOR_F32:
      case VECTOR_F64:
        return vector(sql, this == VECTOR_F32);
      default:
        if (sql instanceof UUID) {
          return sql;
        }
        final ByteBuffer b = ByteBuffer.wrap(sql instanceof ByteString
            ? ((ByteString) sql).getBytes() : (byte[]) sql);
        return new UUID(b.getLong(), b.getLong());
      }
    }
  }

  /** A stored DOUBLE ARRAY (a list, an array, or JDBC's {@code Array}) as a vector. */
  private static Vector vector(Object sql, boolean f32) {
    final Object[] elements;
    try {
      elements = sql instanceof java.sql.Array ? (Object[]) ((java.sql.Array) sql).getArray()
          : sql instanceof List ? ((List<?>) sql).toArray() : (Object[]) sql;
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
    if (f32) {
      final float[] out = new float[elements.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = ((Number) elements[i]).floatValue();
      }
      return Vector.f32(out);
    }
    final double[] out = new double[elements.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = ((Number) elements[i]).doubleValue();
    }
    return Vector.f64(out);
  }

  /** A stored value kept in a form of its own, decoded by {@code codec}. */
  public static Object stored(Object sql, Codec codec) {
    return codec.decode(sql);
  }

  /** A Float constant written as text (NaN and the infinities have no SQL literal). */
  public static Object floatOf(String text) {
    return Double.parseDouble(text);
  }
}
