package dev.mnestic.value;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The function table and the behaviours the CozoDB conformance cases
 * ({@code datalog-frontend/src/test/resources/conformance/functions/cases.json})
 * cannot show: dispatch errors, NaN bits, and the places where CozoDB
 * crashes or never returns.
 */
class FunctionsTest {
  /** Where CozoDB panics (an empty range to draw from): an error here. */
  @Test void randomDrawsWhereCozoDbPanics() {
    ValueException e = assertThrows(ValueException.class,
        () -> Functions.apply("rand_int", List.of(5L, 1L), StopCheck.NEVER));
    assertEquals(ErrorCode.EVAL_THROW.code(), e.code());
    final Object any = Functions.apply("rand_int", List.of(Long.MIN_VALUE, Long.MAX_VALUE),
        StopCheck.NEVER);
    assertTrue(any instanceof Long);
    final Object top = Functions.apply("rand_int", List.of(Long.MAX_VALUE, Long.MAX_VALUE),
        StopCheck.NEVER);
    assertEquals(Long.MAX_VALUE, top);
  }

  @Test void dispatchChecksNameAndArity() {
    assertEquals(3L, Functions.apply("add", List.of(1L, 2L), StopCheck.NEVER));
    ValueException e = assertThrows(ValueException.class,
        () -> Functions.apply("foo", List.of(), StopCheck.NEVER));
    assertEquals(ErrorCode.EVAL_NO_IMPLEMENTATION.code(), e.code());
    assertEquals("No implementation found for op `foo`", e.getMessage());
    e = assertThrows(ValueException.class, () -> Functions.apply("sub", List.of(1L), StopCheck.NEVER));
    assertEquals(ErrorCode.PARSER_FUNC_WRONG_NUM_ARGS.code(), e.code());
    assertEquals("Wrong number of arguments for function 'sub'", e.getMessage());
    assertEquals("Need exactly 2 argument(s)", e.help());
    e = assertThrows(ValueException.class,
        () -> Functions.apply("concat", List.of(), StopCheck.NEVER));
    assertEquals("Need at least 1 argument(s)", e.help());
  }

  @Test void resolvedOnceThenApplied() {
    final CozoFunction add = Functions.resolve("add", 3);
    assertEquals(CozoFunction.ADD, add);
    assertEquals("add", add.toString());
    assertEquals(6L, add.apply(List.of(1L, 2L, 3L), StopCheck.NEVER));
    // every implemented name resolves, at its arity, to its own constant
    assertEquals(Functions.names().size(), CozoFunction.values().length);
    for (CozoFunction f : CozoFunction.values()) {
      assertEquals(f, Functions.resolve(f.cozoName, f.minArity));
    }
    final ValueException e = assertThrows(ValueException.class, () -> Functions.resolve("sub", 1));
    assertEquals(ErrorCode.PARSER_FUNC_WRONG_NUM_ARGS.code(), e.code());
    assertEquals("Need exactly 2 argument(s)", e.help());
  }

  @Test void failuresAreEvalThrow() {
    final ValueException e = assertThrows(ValueException.class, () -> Functions.add(1L, "a"));
    assertEquals(ErrorCode.EVAL_THROW.code(), e.code());
    assertEquals(ValueException.EVAL_FAILED, e.getMessage());
    assertEquals("addition requires numbers", e.help());
    assertEquals("addition requires numbers", e.reason());
  }

  @Test void directCallsMatchDispatch() {
    assertEquals(Long.MIN_VALUE, Functions.add(Long.MAX_VALUE, 1L));
    assertEquals(1L, Functions.add(1L, 0.0), "Floats summing to 0.0 leave an Int");
    assertEquals(2L, Functions.mul(2L, 0.5, 2.0));
    assertEquals("ab", Functions.concat("a", "b"));
    assertEquals(2L, Functions.coalesce(null, 2L));
    assertEquals(2L, Functions.get(List.of(1L, 2L), -1L));
    assertEquals("d", Functions.get(List.of(1L), 5L, "d"));
  }

  /** A NaN from non-NaN operands has the sign bit set; a NaN operand passes through. */
  @Test void nanBitsFollowCozoDbsPlatform() {
    final long arith = Double.doubleToRawLongBits(Values.ARITHMETIC_NAN);
    final long positive = Double.doubleToRawLongBits(Double.NaN);
    assertEquals(arith, Double.doubleToRawLongBits((Double) Functions.div(0.0, 0L)));
    assertEquals(arith, Double.doubleToRawLongBits((Double) Functions.sqrt(-1L)));
    assertEquals(arith, Double.doubleToRawLongBits((Double) Functions.ln(-1.0)));
    assertEquals(arith, Double.doubleToRawLongBits((Double) Functions.mod(1.0, 0.0)));
    assertEquals(positive, Double.doubleToRawLongBits(Functions.to_float("NAN")));
    assertEquals(positive, Double.doubleToRawLongBits((Double) Functions.acosh(0.5)));
    assertEquals(positive, Double.doubleToRawLongBits((Double) Functions.minus(Values.ARITHMETIC_NAN)));
    assertEquals(positive, Double.doubleToRawLongBits((Double) Functions.abs(Values.ARITHMETIC_NAN)));
    assertEquals(positive, Double.doubleToRawLongBits((Double) Functions.sqrt(Double.NaN)), "passes through");
    assertEquals(arith, Double.doubleToRawLongBits(Functions.to_float("-nan")));
  }

  /** Where CozoDB panics or loops, mnestic answers or fails cleanly. */
  @Test void noCrashWhereCozoDbCrashes() {
    // CozoDB: "attempt to calculate the remainder with overflow"
    assertEquals(0L, Functions.mod(Long.MIN_VALUE, -1L));
    // CozoDB: "slice index starts at 2 but ends at 1"
    final ValueException e = assertThrows(ValueException.class,
        () -> Functions.slice(List.of(1L, 2L, 3L), 2L, 1L));
    assertEquals("slice index starts at 2 but ends at 1", e.help());
    // CozoDB never returns
    assertThrows(ValueException.class, () -> Functions.int_range(StopCheck.NEVER, 0L, 10L, 0L));
    assertEquals(List.of(Long.MAX_VALUE - 1),
        Functions.int_range(StopCheck.NEVER, Long.MAX_VALUE - 1, Long.MAX_VALUE, 5L));
  }

  /** {@code int_range} checks the stop it is given every 4,096 values, and stops when told. */
  @Test void intRangeStopsWhenItsStopCheckThrows() {
    final int[] checks = {0};
    final StopCheck counting = () -> checks[0]++;
    assertEquals(10_000, ((List<?>) Functions.apply("int_range", List.of(10_000L), counting)).size());
    assertEquals(2, checks[0]);
    final IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> Functions.apply("int_range", List.of(Long.MAX_VALUE), () -> {
          throw new IllegalStateException("stopped");
        }));
    assertEquals("stopped", e.getMessage());
  }

  /** {@link Log2} is exact at powers of two and within an ulp of the true value elsewhere. */
  @Test void log2() {
    for (int k = -1074; k <= 1023; k++) {
      assertEquals(k, Log2.log2(Math.scalb(1.0, k)), "2^" + k);
    }
    assertEquals(3.321928094887362, Log2.log2(10), "CozoDB's, not log(10)/log(2)");
    final Random r = new Random(3);
    for (int i = 0; i < 10_000; i++) {
      final double x = Math.abs(Double.longBitsToDouble(r.nextLong()));
      if (!Double.isFinite(x) || x == 0) {
        continue;
      }
      final double y = Log2.log2(x);
      final double approx = StrictMath.log(x) / StrictMath.log(2);
      assertTrue(Math.abs(y - approx) <= 2 * Math.ulp(approx), x + ": " + y + " vs " + approx);
    }
    assertEquals(Double.NEGATIVE_INFINITY, Log2.log2(0.0));
    assertTrue(Double.isNaN(Log2.log2(-1.0)));
    assertEquals(Double.POSITIVE_INFINITY, Log2.log2(Double.POSITIVE_INFINITY));
  }

  @Test void comparisonsNeedOneType() {
    assertTrue(Functions.lt(List.of(1L), List.of(1.0)));
    assertTrue(Functions.lt(1L, 1.5));
    assertFalse(Functions.lt(1L, 1.0));
    assertTrue(Functions.le(1L, 1.0));
    assertTrue(Functions.eq(1L, 1.0));
    assertFalse(Functions.eq(List.of(1L), List.of(1.0)));
    final ValueException e = assertThrows(ValueException.class, () -> Functions.gt("a", List.of()));
    assertEquals("comparison can only be done between the same datatypes, got \"a\" and []", e.help());
  }
}
