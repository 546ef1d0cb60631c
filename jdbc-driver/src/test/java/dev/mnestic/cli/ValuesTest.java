package dev.mnestic.cli;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tests {@link Values}. */
class ValuesTest {
  @Test void shortestDoubles() {
    assertEquals("0.9", Values.shortest(0.9));
    assertEquals("2.35", Values.shortest(2.35));
    assertEquals("1.0", Values.shortest(1.0));
    assertEquals("0.30000000000000004", Values.shortest(0.1 + 0.2));
    assertEquals("4147.0", Values.shortest(4147.0));
    assertEquals("-1.25", Values.shortest(-1.25));
    assertEquals("0.0", Values.shortest(0.0));
    assertEquals("-0.0", Values.shortest(-0.0));
  }

  @Test void shortestDoublesSwitchToExponentOutsideMinus7To21() {
    assertEquals("0.0001", Values.shortest(0.0001));
    assertEquals("0.0000001", Values.shortest(1e-7));
    assertEquals("1.5E-8", Values.shortest(1.5e-8));
    assertEquals("100000000000000000000.0", Values.shortest(1e20));
    assertEquals("1.0E21", Values.shortest(1e21));
    assertEquals("-1.2345E22", Values.shortest(-1.2345e22));
    assertEquals("5.0E-324", Values.shortest(Double.MIN_VALUE));
    assertEquals("1.7976931348623157E308", Values.shortest(Double.MAX_VALUE));
  }

  /** Java 17's {@link Double#toString} writes 2e23 as 1.9999999999999998E23. */
  @Test void shorterThanDoubleToString() {
    assertEquals("2.0E23", Values.shortest(2e23));
    assertEquals("1.0E23", Values.shortest(1e23));
  }

  @Test void nonFiniteDoubles() {
    assertEquals("NaN", Values.shortest(Double.NaN));
    assertEquals("Infinity", Values.shortest(Double.POSITIVE_INFINITY));
    assertEquals("-Infinity", Values.shortest(Double.NEGATIVE_INFINITY));
  }

  @Test void shortestFloats() {
    assertEquals("0.9", Values.shortest(0.9f));
    assertEquals("1.1", Values.shortest(1.1f));
    assertEquals("1.0", Values.shortest(1f));
    assertEquals("3.4028235E38", Values.shortest(Float.MAX_VALUE));
  }

  /**
   * Oracle: on random doubles, the shortest text reads back as the same
   * double and has no more significant digits than {@link Double#toString}.
   */
  @Test void shortestRoundTripsAndIsNoLongerThanDoubleToString() {
    final Random random = new Random(42);
    for (int i = 0; i < 20_000; i++) {
      final double d = i % 2 == 0
          ? Double.longBitsToDouble(random.nextLong())
          : random.nextInt(100_000) / 1000.0;
      if (!Double.isFinite(d)) {
        continue;
      }
      final String s = Values.shortest(d);
      assertEquals(d, Double.parseDouble(s), s);
      assertTrue(digits(s) <= digits(Double.toString(d)), () -> s + " vs " + d);
    }
  }

  private static int digits(String decimal) {
    return new BigDecimal(decimal).stripTrailingZeros().precision();
  }

  @Test void jsonEscapesStrings() throws SQLException {
    assertEquals("\"a\\\"b\\\\c\\u0001\\n\\t\\r\u00e9\"", Values.json("a\"b\\c\u0001\n\t\r\u00e9"));
  }

  @Test void jsonOfCompositeValues() throws SQLException {
    assertEquals("[1,null,\"x\",[2.5]]",
        Values.json(Arrays.asList(1, null, "x", new double[] {2.5})));
    assertEquals("[1,2]", Values.json(new int[] {1, 2}));
    assertEquals("{\"k\":1.0}", Values.json(Map.of("k", 1.0)));
    assertEquals("[\"NaN\",\"-Infinity\",true]",
        Values.json(List.of(Double.NaN, Double.NEGATIVE_INFINITY, true)));
    assertEquals("\"2025-07-01 00:00:00\"",
        Values.json(Timestamp.valueOf("2025-07-01 00:00:00")));
    assertEquals("\"2025-07-01 00:00:00.25\"",
        Values.json(Timestamp.valueOf("2025-07-01 00:00:00.25")));
    assertEquals("12345678901234567890.5", Values.json(new BigDecimal("1.23456789012345678905E19")));
  }

  @Test void textOfCells() throws SQLException {
    assertEquals("a\"b", Values.text("a\"b"));
    assertEquals("[\"a\",\"b\"]", Values.text(new Object[] {"a", "b"}));
    assertEquals("0aff", Values.text(new byte[] {0x0a, (byte) 0xff}));
    assertEquals("1000", Values.text(new BigDecimal("1E+3")));
  }
}
