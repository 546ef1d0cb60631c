package dev.mnestic.value;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Writes finite doubles as CozoDB's Rust code does, from the shortest
 * decimal that reads back as the same double (the closest such decimal when
 * there are several):
 *
 * <ul>
 *   <li>{@link #json}: {@code serde_json}, which uses the {@code ryu} crate:
 *       {@code 1.0}, {@code 1000000000000000.0}, {@code 1e16}, {@code 0.0001},
 *       {@code 1e-5}, {@code 1.2345678901234568e17}, {@code -0.0};</li>
 *   <li>{@link #plain}: Rust's {@code Display} for {@code f64}, never with an
 *       exponent and without a {@code .0}: {@code 1}, {@code 0.00001}, {@code -0}.</li>
 * </ul>
 *
 * <p>Java 17's {@link Double#toString} is not always the shortest (it gives
 * {@code 4.9E-324} for {@code 5e-324}), so the digits are found here: start
 * from its digit count and shorten while some decimal of one digit fewer
 * still reads back as the same double.
 */
public final class FloatFormat {
  private FloatFormat() {
  }

  /** Shortest digits {@code d1 d2 ... dn} and exponent {@code e}: |value| = 0.d1d2...dn × 10^e. */
  private record Decimal(String digits, int exponent) {
  }

  static String json(double d) {
    final StringBuilder b = new StringBuilder();
    if (Double.doubleToRawLongBits(d) < 0) {
      b.append('-');
    }
    if (d == 0) {
      return b.append("0.0").toString();
    }
    final Decimal dec = shortest(Math.abs(d));
    final String ds = dec.digits();
    final int n = ds.length();
    final int kk = dec.exponent(); // 10^(kk-1) <= |d| < 10^kk
    final int k = kk - n; // |d| = digits × 10^k
    if (0 <= k && kk <= 16) {
      b.append(ds).append("0".repeat(k)).append(".0");
    } else if (0 < kk && kk <= 16) {
      b.append(ds, 0, kk).append('.').append(ds, kk, n);
    } else if (-5 < kk && kk <= 0) {
      b.append("0.").append("0".repeat(-kk)).append(ds);
    } else if (n == 1) {
      b.append(ds).append('e').append(kk - 1);
    } else {
      b.append(ds, 0, 1).append('.').append(ds, 1, n).append('e').append(kk - 1);
    }
    return b.toString();
  }

  static String plain(double d) {
    final StringBuilder b = new StringBuilder();
    if (Double.doubleToRawLongBits(d) < 0) {
      b.append('-');
    }
    if (d == 0) {
      return b.append('0').toString();
    }
    final Decimal dec = shortest(Math.abs(d));
    final String ds = dec.digits();
    final int n = ds.length();
    final int kk = dec.exponent();
    if (kk <= 0) {
      b.append("0.").append("0".repeat(-kk)).append(ds);
    } else if (kk >= n) {
      b.append(ds).append("0".repeat(kk - n));
    } else {
      b.append(ds, 0, kk).append('.').append(ds, kk, n);
    }
    return b.toString();
  }

  /**
   * The shortest decimal that reads back as {@code d} (finite, non-zero),
   * signed as {@code d}; of two as short, the closer.
   */
  public static BigDecimal shortestDecimal(double d) {
    final Decimal dec = shortest(Math.abs(d));
    final BigDecimal v = new BigDecimal(new java.math.BigInteger(dec.digits()),
        dec.digits().length() - dec.exponent());
    return d < 0 ? v.negate() : v;
  }

  /** The shortest decimal that reads back as {@code v} (positive, finite). */
  private static Decimal shortest(double v) {
    if (v < 0x1.0p53 && v == Math.rint(v)) {
      // An integer below 2^53: its own digits (other integers are other doubles).
      final String s = Long.toString((long) v);
      int n = s.length();
      while (n > 1 && s.charAt(n - 1) == '0') {
        n--;
      }
      return new Decimal(s.substring(0, n), s.length());
    }
    final BigDecimal exact = new BigDecimal(v);
    int p = significantDigits(Double.toString(v));
    BigDecimal best = candidate(exact, p, v);
    if (best == null) {
      // Double.toString always reads back; this is only a safety net.
      p = 17;
      best = candidate(exact, p, v);
    }
    while (p > 1) {
      final BigDecimal shorter = candidate(exact, p - 1, v);
      if (shorter == null) {
        break;
      }
      best = shorter;
      p--;
    }
    final BigDecimal stripped = best.stripTrailingZeros();
    final String digits = stripped.unscaledValue().toString();
    return new Decimal(digits, digits.length() - stripped.scale());
  }

  /**
   * Of the two {@code p}-digit decimals around {@code exact}, the one that
   * reads back as {@code v} (the closer one if both do), or null.
   */
  private static BigDecimal candidate(BigDecimal exact, int p, double v) {
    final BigDecimal down = exact.round(new MathContext(p, RoundingMode.FLOOR));
    final BigDecimal up = exact.round(new MathContext(p, RoundingMode.CEILING));
    final boolean downOk = Double.parseDouble(down.toString()) == v;
    final boolean upOk = Double.parseDouble(up.toString()) == v;
    if (downOk && upOk) {
      final int c = exact.subtract(down).compareTo(up.subtract(exact));
      if (c != 0) {
        return c < 0 ? down : up;
      }
      return down.unscaledValue().testBit(0) ? up : down;
    }
    return downOk ? down : upOk ? up : null;
  }

  /** Significant digits of Java's {@code Double.toString} output such as {@code 1.2345E-7}. */
  private static int significantDigits(String s) {
    final int e = s.indexOf('E');
    final String mantissa = (e < 0 ? s : s.substring(0, e)).replace(".", "");
    int start = 0;
    while (start < mantissa.length() - 1 && mantissa.charAt(start) == '0') {
      start++;
    }
    int end = mantissa.length();
    while (end > start + 1 && mantissa.charAt(end - 1) == '0') {
      end--;
    }
    return Math.max(1, Math.min(17, end - start));
  }
}
