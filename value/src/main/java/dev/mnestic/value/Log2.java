package dev.mnestic.value;

/**
 * Base-2 logarithm with the bits of the {@code libm} that CozoDB's
 * WebAssembly build links (FreeBSD msun's {@code e_log2.c}), where
 * {@code log(x) / log(2)} would be off by an ulp ({@code log2(10)} is
 * {@code 3.321928094887362}, not {@code 3.3219280948873626}).
 *
 * <p>The method: write {@code x = 2^k * (1 + f)} with {@code 1 + f} in
 * {@code [sqrt(2)/2, sqrt(2))}; then {@code log2(x) = k + log(1 + f) / ln 2},
 * where {@code log(1 + f) = f - f^2/2 + s*(f^2/2 + R(s^2))},
 * {@code s = f / (2 + f)} and {@code R} is fdlibm's minimax polynomial. The
 * leading part {@code f - f^2/2} is split into a high half (low 32 bits
 * cleared) and a rest, so that multiplying by {@code 1/ln 2}, itself split
 * into {@code IVLN2HI + IVLN2LO}, loses nothing before the final sum.
 */
final class Log2 {
  private static final double TWO54 = 0x1.0p54;
  private static final double IVLN2HI = 0x1.71547652p0; // 1/ln 2, high 33 bits
  private static final double IVLN2LO = 0x1.705fc2eefa2p-33; // 1/ln 2 - IVLN2HI
  private static final double LG1 = 6.666666666666735130e-01;
  private static final double LG2 = 3.999999999940941908e-01;
  private static final double LG3 = 2.857142874366239149e-01;
  private static final double LG4 = 2.222219843214978396e-01;
  private static final double LG5 = 1.818357216161805012e-01;
  private static final double LG6 = 1.531383769920937332e-01;
  private static final double LG7 = 1.479819860511658591e-01;

  private Log2() {
  }

  static double log2(double x) {
    long bits = Double.doubleToRawLongBits(x);
    int hx = (int) (bits >> 32);
    int k = 0;
    if (hx < 0x00100000) { // x < 2^-1022, zero, or negative
      if ((bits & Long.MAX_VALUE) == 0) {
        return Double.NEGATIVE_INFINITY;
      }
      if (hx < 0) {
        return Values.ARITHMETIC_NAN;
      }
      k -= 54; // subnormal: scale up
      x *= TWO54;
      bits = Double.doubleToRawLongBits(x);
      hx = (int) (bits >> 32);
    }
    if (hx >= 0x7ff00000) {
      return x + x; // infinity or NaN
    }
    if (x == 1.0) {
      return 0.0;
    }
    k += (hx >> 20) - 1023;
    hx &= 0x000fffff;
    final int i = (hx + 0x95f64) & 0x100000; // whether the mantissa is >= sqrt(2)
    final long high = (long) (hx | (i ^ 0x3ff00000)) << 32;
    x = Double.longBitsToDouble(high | (bits & 0xffffffffL)); // 1 + f, or (1 + f) / 2
    k += i >> 20;
    final double y = k;
    final double f = x - 1.0;
    final double hfsq = 0.5 * f * f;
    final double r = log1pRest(f);
    final double hi = Double.longBitsToDouble(Double.doubleToRawLongBits(f - hfsq) & 0xffffffff00000000L);
    final double lo = (f - hi) - hfsq + r;
    double valHi = hi * IVLN2HI;
    double valLo = (lo + hi) * IVLN2LO + lo * IVLN2HI;
    final double w = y + valHi;
    valLo += (y - w) + valHi;
    valHi = w;
    return valLo + valHi;
  }

  /** {@code log(1 + f) - (f - f^2/2)} for {@code 1 + f} in {@code [sqrt(2)/2, sqrt(2))}. */
  private static double log1pRest(double f) {
    final double s = f / (2.0 + f);
    final double z = s * s;
    final double w = z * z;
    final double t1 = w * (LG2 + w * (LG4 + w * LG6));
    final double t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    final double hfsq = 0.5 * f * f;
    return s * (hfsq + (t2 + t1));
  }
}
