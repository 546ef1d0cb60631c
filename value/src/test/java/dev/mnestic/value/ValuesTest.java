package dev.mnestic.value;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CozoDB's value order and JSON text. The expected texts are CozoDB's own
 * (see {@code datalog-frontend/src/test/resources/conformance/functions/cases.json},
 * which checks the same through CozoDB queries).
 */
class ValuesTest {
  private static final double NEG_NAN = Values.ARITHMETIC_NAN;
  private static final double NAN = Double.NaN;

  /** Values in CozoDB's order, each strictly below the next. */
  private static final List<Object> ASCENDING = Values.list(
      null, false, true,
      NEG_NAN, Double.NEGATIVE_INFINITY, Long.MIN_VALUE, -1.5, -1L, -1.0, -0.0, 0L, 0.0,
      1L, 1.0, 9007199254740992L, 9007199254740993L, 9007199254740992.0, Long.MAX_VALUE,
      Double.POSITIVE_INFINITY, NAN,
      "", "B", "a", "ab", "b", "é", "\uffff", "😀",
      Bytes.of(new byte[0]), Bytes.of(new byte[] {1}), Bytes.of(new byte[] {1, 0}),
      Bytes.of(new byte[] {(byte) 0xff}),
      // Uuids by time-high, time-mid, time-low, then the rest
      UUID.fromString("00000000-0000-0000-0000-000000000001"),
      UUID.fromString("ffffffff-0000-0000-0000-000000000000"),
      UUID.fromString("00000000-ffff-0000-0000-000000000000"),
      UUID.fromString("00000000-0000-0001-0000-000000000000"),
      Values.list(), Values.list((Object) null), Values.list(false), Values.list(1L), Values.list(1L, 0L),
      Values.list(1.0), Values.list(Values.list()),
      // Json by its text
      Json.of("a"), Json.of(1L), Json.of(Values.list(1L)), Json.parse("{\"a\":1}"), Json.parse("{}"),
      // Validity: newest first, an assertion before a retraction
      new Validity(20, true), new Validity(10, true), new Validity(10, false));

  @Test void orderIsCozoDbs() {
    for (int i = 0; i < ASCENDING.size(); i++) {
      for (int j = 0; j < ASCENDING.size(); j++) {
        final Object a = ASCENDING.get(i);
        final Object b = ASCENDING.get(j);
        assertEquals(Integer.signum(Integer.compare(i, j)), Integer.signum(Values.compare(a, b)),
            () -> Values.display(a) + " vs " + Values.display(b));
      }
    }
    final List<Object> shuffled = new ArrayList<>(ASCENDING);
    Collections.shuffle(shuffled, new Random(7));
    shuffled.sort(Values.ORDER);
    assertEquals(Values.toJson(ASCENDING), Values.toJson(shuffled));
  }

  @Test void intAndFloatAreDifferentValues() {
    assertTrue(Values.compare(1L, 1.0) < 0);
    assertTrue(Values.compare(1.0, 1L) > 0);
    assertFalse(Values.equal(1L, 1.0));
    assertFalse(Values.equal(0.0, -0.0));
    assertFalse(Values.equal(NAN, NEG_NAN));
    assertTrue(Values.equal(NEG_NAN, 0.0 / zero()));
    assertTrue(Values.equal(Values.list(1L, "a", null), Arrays.asList(1L, "a", null)));
    assertFalse(Values.equal(Values.list(1L), Values.list(1.0)));
  }

  @Test void equalValuesHaveEqualHashes() {
    final List<Object> copies = Values.list(
        null, true, 1L, 1.0, -0.0, NAN, NEG_NAN, "x", Arrays.asList(1L, null, Arrays.asList("y")));
    for (Object v : copies) {
      final Object copy = v instanceof List ? new ArrayList<>((List<?>) v) : v;
      assertTrue(Values.equal(v, copy));
      assertEquals(Values.hash(v), Values.hash(copy));
    }
    assertNotEquals(Values.hash(0.0), Values.hash(-0.0));
  }

  @Test void setsInOrderDeduplicateAsCozoDb() {
    final TreeSet<Object> set = new TreeSet<>(Values.ORDER);
    set.addAll(Values.list(2L, 1.0, 1L, 1L, null, "x", Values.list(1L), true));
    assertEquals("[null,true,1,1.0,2,\"x\",[1]]", Values.toJson(Values.listOf(set)));
  }

  @Test void orderIsATotalOrder() {
    final Random r = new Random(42);
    final List<Object> vs = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      vs.add(randomValue(r, 2));
    }
    for (Object a : vs) {
      for (Object b : vs) {
        final int ab = Values.compare(a, b);
        assertEquals(-Integer.signum(ab), Integer.signum(Values.compare(b, a)));
        assertEquals(ab == 0, Values.equal(a, b));
        if (ab == 0) {
          assertEquals(Values.hash(a), Values.hash(b));
        }
      }
    }
    final List<Object> sorted = new ArrayList<>(vs);
    sorted.sort(Values.ORDER);
    for (int i = 0; i + 2 < sorted.size(); i++) {
      assertTrue(Values.compare(sorted.get(i), sorted.get(i + 2)) <= 0, "transitive");
    }
  }

  @Test void jsonIsCozoDbs() {
    assertEquals("null", Values.toJson(null));
    assertEquals("true", Values.toJson(true));
    assertEquals("-9223372036854775808", Values.toJson(Long.MIN_VALUE));
    assertEquals("1.0", Values.toJson(1.0));
    assertEquals("-0.0", Values.toJson(-0.0));
    assertEquals("0.0", Values.toJson(0.0));
    assertEquals("2.5", Values.toJson(2.5));
    assertEquals("1000000000000000.0", Values.toJson(1.0e15));
    assertEquals("1e16", Values.toJson(1e16));
    assertEquals("1.2345678901234568e17", Values.toJson(123456789012345678.0));
    assertEquals("1e21", Values.toJson(1e21));
    assertEquals("0.0001", Values.toJson(0.0001));
    assertEquals("0.00001", Values.toJson(0.00001));
    assertEquals("0.000015", Values.toJson(1.5e-5));
    assertEquals("1e-6", Values.toJson(1e-6));
    assertEquals("1e-7", Values.toJson(1e-7));
    assertEquals("-2.5e-10", Values.toJson(-2.5e-10));
    assertEquals("0.30000000000000004", Values.toJson(0.1 + 0.2));
    assertEquals("5e-324", Values.toJson(Double.MIN_VALUE), "Java 17 says 4.9E-324");
    assertEquals("1.7976931348623157e308", Values.toJson(Double.MAX_VALUE));
    assertEquals("2.2250738585072014e-308", Values.toJson(Double.MIN_NORMAL));
    assertEquals("null", Values.toJson(NAN));
    assertEquals("null", Values.toJson(NEG_NAN));
    assertEquals("\"INFINITY\"", Values.toJson(Double.POSITIVE_INFINITY));
    assertEquals("\"NEGATIVE_INFINITY\"", Values.toJson(Double.NEGATIVE_INFINITY));
    assertEquals("\"q\\\" b\\\\ n\\n t\\t c\\u0001 d\u007f é 😀\"",
        Values.toJson("q\" b\\ n\n t\t c\u0001 d\u007f é 😀"));
    assertEquals("[1,1.0,null,\"a\",[[]]]",
        Values.toJson(Values.list(1L, 1.0, null, "a", Values.list(Values.list()))));
  }

  @Test void toStringTextHasNoInfinities() {
    assertEquals("x", Values.toJsonText("x"));
    assertEquals("[\"x\",null,null,1e16]",
        Values.toJsonText(Values.list("x", Double.POSITIVE_INFINITY, NAN, 1e16)));
  }

  /** Every double is written in a form that reads back as itself, and no longer than Java's. */
  @Test void floatsReadBack() {
    final Random r = new Random(1);
    for (int i = 0; i < 20_000; i++) {
      final double d = i % 2 == 0 ? Double.longBitsToDouble(r.nextLong())
          : r.nextDouble() * Math.pow(10, r.nextInt(40) - 20);
      if (!Double.isFinite(d)) {
        continue;
      }
      final String json = Values.toJson(d);
      assertEquals(d, Double.parseDouble(json), json);
      assertEquals(Double.doubleToRawLongBits(d), Double.doubleToRawLongBits(Double.parseDouble(json)));
      assertTrue(json.contains(".") || json.contains("e"), json);
      assertTrue(digits(json) <= digits(Double.toString(d)), json + " vs " + d);
    }
  }

  @Test void displayIsRustsDebug() {
    assertEquals("[1, 1000000000000000000000, 0.0000001, -0, to_float(\"NAN\"), \"a\\n'\\t\\u{1}é\\\"\"]",
        Values.display(Values.list(1.0, 1e21, 1e-7, -0.0, NAN, "a\n'\t\u0001é\"")));
    assertEquals("[null, true, 2.5, to_float(\"INF\"), to_float(\"NEG_INF\"), []]", Values.display(
        Values.list(null, true, 2.5, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Values.list())));
  }

  @SuppressWarnings("unchecked") // a list value, cast to try adding to it
  @Test void javaObjectsBecomeValues() {
    assertEquals(1L, Values.of(1));
    assertEquals(1.5, Values.of(1.5f));
    final Object list = Values.of(new Object[] {1, List.of((short) 2), null});
    assertEquals("[1,[2],null]", Values.toJson(list));
    assertThrows(UnsupportedOperationException.class, () -> ((List<Object>) list).add(3L));
    assertThrows(IllegalArgumentException.class, () -> Values.of(new Object()));
    assertTrue(Values.isValue(Values.list(1L, Values.list("a"))));
    assertFalse(Values.isValue(List.of(1)));
    assertEquals("Int", Values.typeName(1L));
    assertEquals("Float", Values.typeName(1.0));
    assertEquals("List", Values.typeName(List.of()));
    assertEquals("Null", Values.typeName(null));
  }

  private static int digits(String s) {
    final String m = s.replaceAll("[eE].*", "").replace("-", "").replace(".", "")
        .replaceFirst("^0+", "");
    return Math.max(1, m.replaceFirst("0+$", "").length());
  }

  private static Object randomValue(Random r, int depth) {
    switch (r.nextInt(depth > 0 ? 8 : 7)) {
    case 0:
      return null;
    case 1:
      return r.nextBoolean();
    case 2:
      return (long) (r.nextInt(7) - 3);
    case 3:
      return (double) (r.nextInt(7) - 3) / 2;
    case 4:
      return new double[] {-0.0, NAN, NEG_NAN, Double.POSITIVE_INFINITY, 1e300}[r.nextInt(5)];
    case 5:
      return new String[] {"", "a", "b", "é", "😀", "\uffff"}[r.nextInt(6)];
    case 6:
      return r.nextInt(3) == 0 ? Long.MAX_VALUE : (long) (r.nextInt(5) - 2);
    default:
      final List<Object> l = new ArrayList<>();
      for (int i = r.nextInt(3); i > 0; i--) {
        l.add(randomValue(r, depth - 1));
      }
      return Values.listOf(l);
    }
  }

  private static double zero() {
    return 0.0;
  }
}
