package dev.mnestic.value;

/**
 * CozoDB's vector value ({@code DataValue::Vec}, {@code cozo-core/src/data/value.rs}): a
 * fixed-length array of 32-bit ({@code F32}) or 64-bit ({@code F64}) floats, made by {@code
 * vec(...)}, {@code rand_vec} or a write into a {@code <F32; n>} column. Immutable.
 *
 * <p>In {@link Values}' order a vector comes after lists and sets and before Json; two
 * vectors compare F32 before F64, then by length, then element by element in the floats'
 * total order (CozoDB's {@code OrderedFloat}: every NaN equal, and above infinity). F32
 * arithmetic ({@link #dot}) is done in single precision, summed as CozoDB's {@code ndarray}
 * 0.15 sums a dot product without BLAS (eight running sums, then the rest), so distances
 * have CozoDB's bits.
 */
public final class Vector {
  private final float[] f32;
  private final double[] f64;

  private Vector(float[] f32, double[] f64) {
    this.f32 = f32;
    this.f64 = f64;
  }

  /** An F32 vector of {@code values} (copied). */
  public static Vector f32(float[] values) {
    return new Vector(values.clone(), null);
  }

  /** An F64 vector of {@code values} (copied). */
  public static Vector f64(double[] values) {
    return new Vector(null, values.clone());
  }

  /** Whether the elements are 32-bit floats. */
  public boolean isF32() {
    return f32 != null;
  }

  /** The number of elements. */
  public int length() {
    return f32 != null ? f32.length : f64.length;
  }

  /** Element {@code i}, widened to a double (exactly) for an F32 vector. */
  public double get(int i) {
    return f32 != null ? f32[i] : f64[i];
  }

  /** The elements as 32-bit floats (a copy; an F64 vector's rounded). */
  public float[] toFloats() {
    if (f32 != null) {
      return f32.clone();
    }
    final float[] out = new float[f64.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = (float) f64[i];
    }
    return out;
  }

  /** The elements as doubles (a copy; an F32 vector's widened exactly). */
  public double[] toDoubles() {
    if (f64 != null) {
      return f64.clone();
    }
    final double[] out = new double[f32.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = f32[i];
    }
    return out;
  }

  /** The elements' little-endian bytes (4 or 8 an element), as CozoDB's {@code vec(text)} reads them. */
  public byte[] littleEndianBytes() {
    final java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(length() * (f32 != null ? 4 : 8))
        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    if (f32 != null) {
      b.asFloatBuffer().put(f32);
    } else {
      b.asDoubleBuffer().put(f64);
    }
    return b.array();
  }

  /** CozoDB's name of the element type, {@code F32} or {@code F64}. */
  public String elementType() {
    return f32 != null ? "F32" : "F64";
  }

  /**
   * The dot product of this vector with {@code other} (same element type and length), in the
   * element type's precision and CozoDB's summation order, widened to a double.
   */
  public double dot(Vector other) {
    return f32 != null ? dot(f32, other.f32) : dot(f64, other.f64);
  }

  /** The squared Euclidean distance to {@code other}, as CozoDB's {@code l2_dist}. */
  public double l2Squared(Vector other) {
    if (f32 != null) {
      final float[] diff = new float[f32.length];
      for (int i = 0; i < diff.length; i++) {
        diff[i] = f32[i] - other.f32[i];
      }
      return dot(diff, diff);
    }
    final double[] diff = new double[f64.length];
    for (int i = 0; i < diff.length; i++) {
      diff[i] = f64[i] - other.f64[i];
    }
    return dot(diff, diff);
  }

  /** The element-wise operations of CozoDB's vector arithmetic, in each element type. */
  public interface Op {
    float apply(float a, float b);

    double apply(double a, double b);
  }

  /**
   * {@code op} applied to each element of this vector and {@code b}'s, as {@code ndarray}'s
   * arithmetic: in single precision if both are F32, else in double (an F32 widened); a vector
   * of length 1 is broadcast to the other's length.
   *
   * @throws ValueException when the lengths differ and neither is 1 ({@code ndarray} panics)
   */
  public Vector zip(Vector b, Op op) {
    final int n = length() == 1 ? b.length() : length();
    if (b.length() != n && b.length() != 1) {
      throw ValueException.eval("vectors of lengths " + length() + " and " + b.length()
          + " cannot be combined element-wise");
    }
    if (f32 != null && b.f32 != null) {
      final float[] out = new float[n];
      for (int i = 0; i < n; i++) {
        out[i] = op.apply(f32[f32.length == 1 ? 0 : i], b.f32[b.f32.length == 1 ? 0 : i]);
      }
      return new Vector(out, null);
    }
    final double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      out[i] = op.apply(get(length() == 1 ? 0 : i), b.get(b.length() == 1 ? 0 : i));
    }
    return new Vector(null, out);
  }

  /**
   * {@code op} applied to each element and {@code x}: in single precision ({@code x} rounded to
   * a float first, as CozoDB's {@code f as f32}) for an F32 vector; {@code swap} puts {@code x}
   * first.
   */
  public Vector withScalar(double x, boolean swap, Op op) {
    if (f32 != null) {
      final float y = (float) x;
      final float[] out = new float[f32.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = swap ? op.apply(y, f32[i]) : op.apply(f32[i], y);
      }
      return new Vector(out, null);
    }
    final double[] out = new double[f64.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = swap ? op.apply(x, f64[i]) : op.apply(f64[i], x);
    }
    return new Vector(null, out);
  }

  /**
   * {@code f} of each element, in the element type: an F32 element's result is the double
   * result rounded to a float (CozoDB computes it with the single-precision function, which may
   * differ in the last bit).
   */
  public Vector map(java.util.function.DoubleUnaryOperator f) {
    if (f32 != null) {
      final float[] out = new float[f32.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = (float) f.applyAsDouble(f32[i]);
      }
      return new Vector(out, null);
    }
    final double[] out = new double[f64.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = f.applyAsDouble(f64[i]);
    }
    return new Vector(null, out);
  }

  /** This vector divided by its Euclidean norm, as CozoDB's {@code l2_normalize}. */
  public Vector l2Normalized() {
    if (f32 != null) {
      final float norm = (float) Math.sqrt(dot(f32, f32));
      final float[] out = new float[f32.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = f32[i] / norm;
      }
      return new Vector(out, null);
    }
    final double norm = Math.sqrt(dot(f64, f64));
    final double[] out = new double[f64.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = f64[i] / norm;
    }
    return new Vector(null, out);
  }

  /** {@code ndarray}'s {@code unrolled_dot} in single precision. */
  static float dot(float[] x, float[] y) {
    final int len = Math.min(x.length, y.length);
    float p0 = 0;
    float p1 = 0;
    float p2 = 0;
    float p3 = 0;
    float p4 = 0;
    float p5 = 0;
    float p6 = 0;
    float p7 = 0;
    int i = 0;
    for (; len - i >= 8; i += 8) {
      p0 = p0 + x[i] * y[i];
      p1 = p1 + x[i + 1] * y[i + 1];
      p2 = p2 + x[i + 2] * y[i + 2];
      p3 = p3 + x[i + 3] * y[i + 3];
      p4 = p4 + x[i + 4] * y[i + 4];
      p5 = p5 + x[i + 5] * y[i + 5];
      p6 = p6 + x[i + 6] * y[i + 6];
      p7 = p7 + x[i + 7] * y[i + 7];
    }
    float sum = 0;
    sum = sum + (p0 + p4);
    sum = sum + (p1 + p5);
    sum = sum + (p2 + p6);
    sum = sum + (p3 + p7);
    for (; i < len; i++) {
      sum = sum + x[i] * y[i];
    }
    return sum;
  }

  /** {@code ndarray}'s {@code unrolled_dot} in double precision. */
  static double dot(double[] x, double[] y) {
    final int len = Math.min(x.length, y.length);
    double p0 = 0;
    double p1 = 0;
    double p2 = 0;
    double p3 = 0;
    double p4 = 0;
    double p5 = 0;
    double p6 = 0;
    double p7 = 0;
    int i = 0;
    for (; len - i >= 8; i += 8) {
      p0 = p0 + x[i] * y[i];
      p1 = p1 + x[i + 1] * y[i + 1];
      p2 = p2 + x[i + 2] * y[i + 2];
      p3 = p3 + x[i + 3] * y[i + 3];
      p4 = p4 + x[i + 4] * y[i + 4];
      p5 = p5 + x[i + 5] * y[i + 5];
      p6 = p6 + x[i + 6] * y[i + 6];
      p7 = p7 + x[i + 7] * y[i + 7];
    }
    double sum = 0;
    sum = sum + (p0 + p4);
    sum = sum + (p1 + p5);
    sum = sum + (p2 + p6);
    sum = sum + (p3 + p7);
    for (; i < len; i++) {
      sum = sum + x[i] * y[i];
    }
    return sum;
  }

  /** CozoDB's order on vectors (see the class comment). */
  int compareTo(Vector o) {
    if (isF32() != o.isF32()) {
      return isF32() ? -1 : 1;
    }
    final int c = Integer.compare(length(), o.length());
    if (c != 0) {
      return c;
    }
    for (int i = 0; i < length(); i++) {
      final int e = orderedCompare(get(i), o.get(i));
      if (e != 0) {
        return e;
      }
    }
    return 0;
  }

  /** {@code OrderedFloat}'s order: NaNs equal each other and above every number; 0.0 == -0.0. */
  private static int orderedCompare(double a, double b) {
    final boolean na = Double.isNaN(a);
    final boolean nb = Double.isNaN(b);
    if (na || nb) {
      return na == nb ? 0 : na ? 1 : -1;
    }
    return a < b ? -1 : a > b ? 1 : 0;
  }

  @Override public boolean equals(Object o) {
    return o instanceof Vector && compareTo((Vector) o) == 0;
  }

  @Override public int hashCode() {
    int h = isF32() ? 1 : 2;
    for (int i = 0; i < length(); i++) {
      final double e = get(i);
      h = 31 * h + (Double.isNaN(e) ? 7 : Double.hashCode(e == 0 ? 0.0 : e));
    }
    return h;
  }

  /**
   * The elements as CozoDB's JSON writes them: each as a double ({@code serde_json} widens an
   * F32 element, so {@code 0.1} in F32 is {@code 0.10000000149011612}).
   */
  void appendJson(StringBuilder b) {
    b.append('[');
    for (int i = 0; i < length(); i++) {
      if (i > 0) {
        b.append(',');
      }
      final double e = get(i);
      if (Double.isNaN(e) || Double.isInfinite(e)) {
        b.append("null");
      } else {
        b.append(FloatFormat.json(e));
      }
    }
    b.append(']');
  }

  /**
   * CozoDB's {@code Debug} text: {@code vec([1.0, 2.0])}, {@code vec([1.0], "F64")} (elements
   * written as in JSON; Rust's {@code Debug} switches to an exponent at other magnitudes).
   */
  @Override public String toString() {
    final StringBuilder b = new StringBuilder("vec([");
    for (int i = 0; i < length(); i++) {
      b.append(i > 0 ? ", " : "");
      final double e = get(i);
      b.append(Double.isNaN(e) ? "NaN" : Double.isInfinite(e) ? (e > 0 ? "inf" : "-inf")
          : FloatFormat.json(e));
    }
    return b.append(f32 != null ? "])" : "], \"F64\")").toString();
  }

  /** Whether two vectors have the same element type and length. */
  static boolean sameShape(Vector a, Vector b) {
    return a.isF32() == b.isF32() && a.length() == b.length();
  }
}
