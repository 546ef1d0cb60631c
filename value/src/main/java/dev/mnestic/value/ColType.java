package dev.mnestic.value;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * The type of a stored relation's column, CozoDB's {@code NullableColType}
 * ({@code cozo-core/src/data/relation.rs}): a kind, the element types of a
 * list ({@code [Int]}, {@code [Int; 3]}) or a tuple ({@code (Int, String)}),
 * and whether null is allowed ({@code Int?}); a vector's element type and length ({@code
 * <F32; 128>}). {@link #coerce} turns a value
 * written into the column into the value stored, or fails with CozoDB's
 * error; {@link #toString} is CozoDB's text of the type ({@code [Int;3]?}).
 */
public record ColType(Kind kind, List<ColType> elements, Integer length, boolean nullable) {
  /** The kinds of column type. */
  public enum Kind {
    ANY("Any"), BOOL("Bool"), INT("Int"), FLOAT("Float"), STRING("String"), BYTES("Bytes"),
    UUID("Uuid"), LIST(null), TUPLE(null), VALIDITY("Validity"), JSON("Json"),
    /** {@code <F32; n>}: a {@link Vector} of {@code length} 32-bit floats. */
    VEC_F32(null),
    /** {@code <F64; n>}: a {@link Vector} of {@code length} 64-bit floats. */
    VEC_F64(null);

    private final String cozoName;

    Kind(String cozoName) {
      this.cozoName = cozoName;
    }

    /** The kind named {@code name} in CozoScript ({@code Int}), or null. */
    public static Kind named(String name) {
      for (Kind k : values()) {
        if (name.equals(k.cozoName)) {
          return k;
        }
      }
      return null;
    }
  }

  /** CozoDB's type of a column declared without one. */
  public static final ColType ANY = new ColType(Kind.ANY, List.of(), null, true);

  public ColType {
    elements = List.copyOf(elements);
  }

  /** A scalar type ({@code Int}, {@code Any}, ...). */
  public static ColType scalar(Kind kind, boolean nullable) {
    return new ColType(kind, List.of(), null, nullable);
  }

  /** A vector type, {@code <F32; length>} or {@code <F64; length>}. */
  public static ColType vector(boolean f32, int length, boolean nullable) {
    return new ColType(f32 ? Kind.VEC_F32 : Kind.VEC_F64, List.of(), length, nullable);
  }

  /** Whether this is a vector type. */
  public boolean isVector() {
    return kind == Kind.VEC_F32 || kind == Kind.VEC_F64;
  }

  /** This type, nullable or not. */
  public ColType withNullable(boolean nullable) {
    return new ColType(kind, elements, length, nullable);
  }

  @Override public String toString() {
    final StringBuilder b = new StringBuilder();
    switch (kind) {
    case LIST:
      b.append('[').append(elements.get(0));
      if (length != null) {
        b.append(';').append(length);
      }
      b.append(']');
      break;
    case TUPLE:
      b.append('(');
      for (int i = 0; i < elements.size(); i++) {
        b.append(i > 0 ? "," : "").append(elements.get(i));
      }
      b.append(')');
      break;
    case VEC_F32:
    case VEC_F64:
      b.append(kind == Kind.VEC_F32 ? "<F32;" : "<F64;").append(length).append('>');
      break;
    default:
      b.append(kind.cozoName);
    }
    return b.append(nullable ? "?" : "").toString();
  }

  /**
   * The value {@code v} as stored in a column of this type, as CozoDB
   * coerces it: an Int into a Float column becomes a Float, a Float with an
   * integral value into an Int column an Int, a string into a Bytes column is
   * decoded from base64, into a Uuid column parsed, into a Validity column
   * read as {@code ASSERT}, {@code RETRACT} or an RFC 3339 time ({@code ~}
   * before it: a retraction); {@code [timestamp, assertion]} is a Validity
   * too; anything becomes Json. Lists and tuples coerce their elements.
   *
   * @param nowMicros the time of {@code ASSERT} and {@code RETRACT}, in
   *     microseconds since the epoch
   * @throws ValueException with CozoDB's code ({@code eval::coercion_failed},
   *     {@code eval::coercion_null}, {@code eval::coercion_bad_list_len},
   *     {@code eval::coercion_bad_base_64}, {@code eval::invalid_validity})
   */
  public Object coerce(Object v, long nowMicros) {
    if (v == null) {
      if (nullable) {
        return null;
      }
      throw new ValueException(ErrorCode.EVAL_COERCION_NULL,
          "encountered null value for non-null type " + this, null);
    }
    switch (kind) {
    case ANY:
      return v;
    case BOOL:
      if (v instanceof Boolean) {
        return v;
      }
      throw failed(v);
    case INT:
      final Long integer = intOf(v);
      if (integer == null) {
        throw failed(v);
      }
      return integer;
    case FLOAT:
      if (v instanceof Long) {
        return ((Long) v).doubleValue();
      }
      if (v instanceof Double) {
        return v;
      }
      throw failed(v);
    case STRING:
      if (v instanceof String) {
        return v;
      }
      throw failed(v);
    case BYTES:
      if (v instanceof Bytes) {
        return v;
      }
      if (v instanceof String) {
        final Bytes decoded = Bytes.fromBase64((String) v);
        if (decoded == null) {
          throw new ValueException(ErrorCode.EVAL_COERCION_BAD_BASE_64,
              "cannot decode string as base64-encoded bytes: " + Values.display(v), null);
        }
        return decoded;
      }
      throw failed(v);
    case UUID:
      if (v instanceof UUID) {
        return v;
      }
      final UUID u = v instanceof String ? Values.parseUuid((String) v) : null;
      if (u == null) {
        throw failed(v);
      }
      return u;
    case LIST:
    case TUPLE:
      if (!(v instanceof List)) {
        throw failed(v);
      }
      final List<?> items = (List<?>) v;
      final Integer expected = kind == Kind.TUPLE ? (Integer) elements.size() : length;
      if (expected != null && expected != items.size()) {
        throw new ValueException(ErrorCode.EVAL_COERCION_BAD_LIST_LEN, "bad list length: expected"
            + " datatype " + this + ", got length " + items.size(), null);
      }
      final List<Object> coerced = new ArrayList<>(items.size());
      for (int i = 0; i < items.size(); i++) {
        coerced.add(elements.get(kind == Kind.TUPLE ? i : 0).coerce(items.get(i), nowMicros));
      }
      return Collections.unmodifiableList(coerced);
    case VALIDITY:
      return validity(v, nowMicros);
    case VEC_F32:
    case VEC_F64:
      return vector(v);
    default: // JSON
      return json(v, nowMicros);
    }
  }

  /** CozoDB's Json coercion: as {@link Json#of}, but the elements of a list are coerced to this type (so a null in them needs {@code Json?}). */
  private Json json(Object v, long nowMicros) {
    if (!(v instanceof List)) {
      return Json.of(v);
    }
    final List<Object> items = new ArrayList<>();
    for (Object o : (List<?>) v) {
      items.add(coerce(o, nowMicros));
    }
    return Json.of(items);
  }

  /**
   * CozoDB's vector coercion: a list of numbers of the length (else {@code
   * eval::coercion_bad_list_len}), a vector of this type, or the Base64 text of its elements'
   * little-endian bytes.
   */
  private Vector vector(Object v) {
    final boolean f32 = kind == Kind.VEC_F32;
    if (v instanceof List) {
      final List<?> items = (List<?>) v;
      if (items.size() != length) {
        throw new ValueException(ErrorCode.EVAL_COERCION_BAD_LIST_LEN, "bad list length: expected"
            + " datatype " + this + ", got length " + items.size(), null);
      }
      for (Object o : items) {
        if (!(o instanceof Long || o instanceof Double)) {
          throw failed(v);
        }
      }
      return Functions.vec(v, f32 ? "F32" : "F64");
    }
    if (v instanceof Vector && ((Vector) v).isF32() == f32 && ((Vector) v).length() == length) {
      return (Vector) v;
    }
    if (v instanceof String) {
      final Bytes bytes = Bytes.fromBase64((String) v);
      if (bytes != null && bytes.toByteArray().length == length * (f32 ? 4 : 8)) {
        return Functions.fromBytes(bytes.toByteArray(), f32);
      }
    }
    throw failed(v);
  }

  private static Validity validity(Object v, long nowMicros) {
    if (v instanceof Validity) {
      return (Validity) v;
    }
    if (v instanceof String) {
      final String s = (String) v;
      if (s.equals("ASSERT") || s.equals("RETRACT")) {
        return new Validity(nowMicros, s.equals("ASSERT"));
      }
      final boolean assertion = !s.startsWith("~");
      try {
        final OffsetDateTime t = parseRfc3339(assertion ? s : s.substring(1));
        final long micros = Math.addExact(Math.multiplyExact(t.toEpochSecond(), 1_000_000L),
            t.getNano() / 1000);
        return new Validity(micros, assertion);
      } catch (DateTimeParseException | ArithmeticException e) {
        throw invalidValidity(v);
      }
    }
    if (v instanceof List && ((List<?>) v).size() == 2) {
      final Object ts = ((List<?>) v).get(0);
      final Object assertion = ((List<?>) v).get(1);
      final Long micros = intOf(ts);
      if (micros != null && assertion instanceof Boolean
          && micros != Long.MAX_VALUE && micros != Long.MIN_VALUE) {
        return new Validity(micros, (Boolean) assertion);
      }
    }
    throw invalidValidity(v);
  }

  /** CozoDB's {@code get_int}: an Int, or a Float with an integral value (saturated), else null. */
  private static Long intOf(Object v) {
    if (v instanceof Long) {
      return (Long) v;
    }
    if (v instanceof Double && Math.rint((Double) v) == (Double) v) {
      return (long) (double) (Double) v;
    }
    return null;
  }

  /**
   * An RFC 3339 time as CozoDB (chrono's {@code parse_from_rfc3339}) reads it: {@code T}, {@code t}
   * or a space between date and time, {@code Z} or {@code z} for UTC.
   *
   * @throws DateTimeParseException if {@code s} is no such time
   */
  static OffsetDateTime parseRfc3339(String s) {
    return OffsetDateTime.parse(rfc3339(s), DateTimeFormatter.ISO_OFFSET_DATE_TIME);
  }

  /** RFC 3339 as {@code java.time} reads it: {@code T} and {@code Z} in upper case, a space allowed for {@code T}. */
  private static String rfc3339(String s) {
    if (s.length() > 10 && (s.charAt(10) == ' ' || s.charAt(10) == 't')) {
      s = s.substring(0, 10) + 'T' + s.substring(11);
    }
    return s.endsWith("z") ? s.substring(0, s.length() - 1) + 'Z' : s;
  }

  private static ValueException invalidValidity(Object v) {
    return new ValueException(ErrorCode.EVAL_INVALID_VALIDITY,
        Values.display(v) + " cannot be coerced into validity", null);
  }

  private ValueException failed(Object v) {
    return new ValueException(ErrorCode.EVAL_COERCION_FAILED, "data coercion failed: expected type "
        + this + ", got value " + Values.display(v), null);
  }
}
