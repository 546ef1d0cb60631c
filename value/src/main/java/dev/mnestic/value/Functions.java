package dev.mnestic.value;

import java.text.Normalizer;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.DoubleUnaryOperator;
import java.util.regex.Pattern;

/**
 * CozoDB's scalar functions ({@code cozo-core/src/data/functions.rs},
 * version 0.7.6) on {@link Values} (arguments must be values). Each is a public static method named
 * exactly as in CozoScript ({@code add}, {@code starts_with}, ...; only
 * {@code assert} is {@link #assert_}), so that generated code can call it;
 * {@link #apply} dispatches by name, checking arity as CozoDB's parser does.
 *
 * <p>CozoDB's rules, some of them surprising, kept here on purpose:
 * <ul>
 *   <li>Int arithmetic wraps ({@code 9223372036854775807 + 1} is the smallest
 *       Int; {@code abs} and {@code -} of it give it back).</li>
 *   <li>{@code add} and {@code mul} sum (multiply) the Ints and the Floats
 *       separately and answer an Int when the Floats sum to {@code 0.0}
 *       (multiply to {@code 1.0}): {@code 1 + 0.0} is {@code 1},
 *       {@code 1.5 + -1.5} is {@code 0}, {@code 2 * 0.5 * 2.0} is {@code 2}.</li>
 *   <li>{@code div} and {@code pow} always answer a Float; Int {@code mod}
 *       by zero is an error, Float {@code mod} by zero is NaN; {@code mod}
 *       takes the sign of the dividend.</li>
 *   <li>{@code eq}/{@code neq} compare an Int with a Float by value
 *       ({@code 1 == 1.0}), everything else as the same value in
 *       {@link Values}' order ({@code [1] != [1.0]}, {@code -0.0 != 0.0},
 *       NaN equals a NaN with the same sign). {@code lt}, {@code le},
 *       {@code gt}, {@code ge} fail on operands of different types
 *       ({@code 1 < 'a'}), compare Int with Float by value and everything
 *       else in {@link Values}' order ({@code [1] < [1.0]}).</li>
 *   <li>{@code and}/{@code or} take booleans and stop at the first
 *       {@code false}/{@code true}, so {@code and(false, 1)} is {@code false}
 *       but {@code and(true, 1)} fails.</li>
 * </ul>
 *
 * <p>Math functions use {@link StrictMath} (fdlibm): CozoDB's WebAssembly
 * build uses a FreeBSD-derived {@code libm}, and the two gave the same bits
 * on every conformance case ({@code log2} has its own port, {@link Log2};
 * {@code exp2} may still differ in the last bit).
 * A NaN made from non-NaN operands has its sign bit set ({@link
 * Values#ARITHMETIC_NAN}), an operand's NaN passes through, as on CozoDB's
 * reference platform.
 *
 * <p>Vectors ({@link Vector}): {@code vec}, {@code rand_vec}, {@code is_vec}, {@code
 * l2_normalize}, {@code l2_dist}, {@code ip_dist}, {@code cos_dist}, in the vector's own
 * precision as CozoDB computes them; {@code length}, {@code to_bool}, {@code to_unity} of a
 * vector; and CozoDB 0.7.6's element-wise arithmetic ({@code + - * /} of two vectors, or of a
 * vector and a number, an F32 vector staying F32 and a mixed pair F64; {@code minus}, {@code
 * abs}, {@code pow(v, x)}) and math ({@code sqrt}, {@code exp}, {@code ln}, the trigonometric
 * and hyperbolic functions...) on vectors, with its quirks ({@code v1 * v2 * v3} is {@code
 * (v1 + v2) * v3}). An F32 element's math function is the f64 one rounded to f32 (CozoDB's
 * single-precision libm may differ in the last bit); where CozoDB panics (two vectors of
 * different lengths, neither 1, subtracted or divided) mnestic fails with an error. {@code t2s} converts with the {@code fast2s} crate's table, as CozoDB does.
 * {@code now}, {@code rand_*} read the
 * clock and a random source, as CozoDB's do. A regex argument is Rust's syntax run by
 * {@link java.util.regex} ({@link #regex}).
 */
public final class Functions {
  /** The implemented functions by name. */
  private static final Map<String, CozoFunction> DEFS = new TreeMap<>();

  static {
    for (CozoFunction f : CozoFunction.values()) {
      DEFS.put(f.cozoName, f);
    }
  }

  private Functions() {
  }

  // dispatch

  /** Whether mnestic implements the CozoDB function {@code name}. */
  public static boolean isDefined(String name) {
    return DEFS.containsKey(name);
  }

  /** The names of the implemented functions, sorted. */
  public static Set<String> names() {
    return Collections.unmodifiableSet(DEFS.keySet());
  }

  /**
   * Checks that {@code name} takes {@code count} arguments, as CozoDB's
   * parser does: code {@code parser::func_wrong_num_args}, message "Wrong number of
   * arguments for function 'sub'", help "Need exactly 2 argument(s)" or
   * "Need at least 1 argument(s)".
   *
   * @throws ValueException if not, or if there is no such function
   */
  public static void checkArity(String name, int count) {
    resolve(name, count);
  }

  /**
   * The CozoDB function {@code name} of {@code count} arguments, resolved once for every row
   * that applies it.
   *
   * @throws ValueException as {@link #apply} does when there is no such function or the
   *     arity is wrong
   */
  public static CozoFunction resolve(String name, int count) {
    final CozoFunction def = def(name);
    if (def.vararg ? count < def.minArity : count != def.minArity) {
      throw new ValueException(ErrorCode.PARSER_FUNC_WRONG_NUM_ARGS,
          "Wrong number of arguments for function '" + name + "'",
          "Need " + (def.vararg ? "at least " : "exactly ") + def.minArity + " argument(s)");
    }
    return def;
  }

  /**
   * Applies the CozoDB function {@code name} to {@code args}; a function that builds a large
   * value calls {@code stop} as it goes, so that the statement it runs for can stop it.
   *
   * @throws ValueException if there is no such function ({@code
   *     eval::no_implementation}), the arity is wrong ({@code parser::func_wrong_num_args}),
   *     or the function fails on the arguments ({@code eval::throw})
   */
  public static Object apply(String name, List<Object> args, StopCheck stop) {
    return resolve(name, args.size()).apply(args, stop);
  }

  private static CozoFunction def(String name) {
    final CozoFunction def = DEFS.get(name);
    if (def == null) {
      throw new ValueException(ErrorCode.EVAL_NO_IMPLEMENTATION,
          "No implementation found for op `" + name + "`", null);
    }
    return def;
  }

  // values and lists

  /** {@code list(a, ...)}, also {@code [a, ...]}. */
  public static List<Object> list(Object... args) {
    return Values.list(args);
  }

  /** {@code coalesce(a, ...)}, also {@code a ~ b}: the first argument that is not null, else null. */
  public static Object coalesce(Object... args) {
    for (Object a : args) {
      if (a != null) {
        return a;
      }
    }
    return null;
  }

  /** A vararg-free form of {@link #coalesce(Object...)}. */
  public static Object coalesce(Object a, Object b) {
    return a != null ? a : b;
  }

  public static Boolean is_null(Object a) {
    return a == null;
  }

  public static Boolean is_int(Object a) {
    return a instanceof Long;
  }

  public static Boolean is_float(Object a) {
    return a instanceof Double;
  }

  public static Boolean is_num(Object a) {
    return a instanceof Long || a instanceof Double;
  }

  public static Boolean is_string(Object a) {
    return a instanceof String;
  }

  /** Whether {@code a} is a List or a Set. */
  public static Boolean is_list(Object a) {
    return a instanceof List || a instanceof ValueSet;
  }

  public static Boolean is_bytes(Object a) {
    return a instanceof Bytes;
  }

  public static Boolean is_finite(Object a) {
    return a instanceof Long || a instanceof Double && Double.isFinite((Double) a);
  }

  public static Boolean is_infinite(Object a) {
    return a instanceof Double && Double.isInfinite((Double) a);
  }

  public static Boolean is_nan(Object a) {
    return a instanceof Double && Double.isNaN((Double) a);
  }

  /** Whether {@code x} is an element of {@code list}, as the same value (so {@code 1} is not in {@code [1.0]}). */
  public static Boolean is_in(Object x, Object list) {
    if (!(list instanceof List)) {
      throw ValueException.eval("right hand side of 'is_in' must be a list");
    }
    for (Object o : (List<?>) list) {
      if (Values.equal(x, o)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Truthiness: false for null, {@code false}, a number that is an integral 0, empty strings,
   * bytes, lists and sets, the nil Uuid and a retraction (a Validity whose assertion is
   * false); a Json value by its document: false for null, {@code false}, the integer 0 (not
   * the float {@code 0.0}, as serde_json's {@code as_i64}), an empty string, array or object.
   */
  public static Boolean to_bool(Object a) {
    if (a == null) {
      return false;
    }
    if (a instanceof Boolean) {
      return (Boolean) a;
    }
    if (a instanceof Long || a instanceof Double) {
      final Long i = integral(a);
      return i == null || i != 0;
    }
    if (a instanceof String) {
      return !((String) a).isEmpty();
    }
    if (a instanceof Bytes) {
      return ((Bytes) a).length() > 0;
    }
    if (a instanceof UUID) {
      final UUID u = (UUID) a;
      return u.getMostSignificantBits() != 0 || u.getLeastSignificantBits() != 0;
    }
    if (a instanceof Validity) {
      return ((Validity) a).assertion();
    }
    if (a instanceof Vector) {
      return true;
    }
    if (a instanceof Json) {
      final Object doc = ((Json) a).tree();
      return doc instanceof Long ? (Long) doc != 0
          : doc instanceof Double || doc instanceof Boolean ? !Boolean.FALSE.equals(doc)
          : doc instanceof String ? !((String) doc).isEmpty()
          : doc instanceof List ? !((List<?>) doc).isEmpty()
          : doc instanceof Map ? !((Map<?, ?>) doc).isEmpty()
          : false;
    }
    return !elements(a).isEmpty();
  }

  /** 1 for a true-ish value, else 0; a number is true-ish when not {@code == 0}. */
  public static Long to_unity(Object a) {
    if (a instanceof Long || a instanceof Double) {
      return toDouble(a) != 0 ? 1L : 0L;
    }
    return to_bool(a) ? 1L : 0L;
  }

  /**
   * Int of a number (a Float truncated toward zero and saturated; NaN is 0),
   * of a boolean (0/1), of null (0), of a string in Rust's {@code i64}
   * syntax ({@code '+42'}, not {@code '4.0'} nor {@code ' 4'}) and of a
   * Validity (its timestamp).
   */
  public static Long to_int(Object a) {
    if (a instanceof Long) {
      return (Long) a;
    }
    if (a instanceof Double) {
      return (long) (double) (Double) a;
    }
    if (a == null) {
      return 0L;
    }
    if (a instanceof Boolean) {
      return (Boolean) a ? 1L : 0L;
    }
    if (a instanceof String) {
      final String s = (String) a;
      if (INT_SYNTAX.matcher(s).matches()) {
        try {
          return Long.parseLong(s);
        } catch (NumberFormatException e) {
          // out of range: the same error as CozoDB's
        }
      }
      throw ValueException.eval("The string cannot be interpreted as int");
    }
    if (a instanceof Validity) {
      return ((Validity) a).timestamp();
    }
    throw ValueException.eval("'to_int' does not recognize " + Values.display(a));
  }

  private static final Pattern INT_SYNTAX = Pattern.compile("[+-]?[0-9]+");
  /** Rust's {@code f64::from_str}: decimal with optional point and exponent, or inf/infinity/nan in any case. */
  private static final Pattern FLOAT_SYNTAX = Pattern.compile(
      "[+-]?(?:(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))");

  /**
   * Float of a number, of a boolean (0.0/1.0), of null (0.0) and of a
   * string: Rust's float syntax, or {@code 'PI'}, {@code 'E'}, {@code 'NAN'},
   * {@code 'INF'}, {@code 'NEG_INF'}.
   */
  public static Double to_float(Object a) {
    if (a instanceof Long || a instanceof Double) {
      return toDouble(a);
    }
    if (a == null) {
      return 0.0;
    }
    if (a instanceof Boolean) {
      return (Boolean) a ? 1.0 : 0.0;
    }
    if (a instanceof String) {
      final String s = (String) a;
      switch (s) {
      case "PI":
        return Math.PI;
      case "E":
        return Math.E;
      case "NAN":
        return Double.NaN;
      case "INF":
        return Double.POSITIVE_INFINITY;
      case "NEG_INF":
        return Double.NEGATIVE_INFINITY;
      default:
        break;
      }
      if (!FLOAT_SYNTAX.matcher(s).matches()) {
        throw ValueException.eval("The string cannot be interpreted as float");
      }
      final boolean negative = s.startsWith("-");
      final String body = s.replaceFirst("^[+-]", "").toLowerCase(Locale.ROOT);
      final double d;
      if (body.equals("nan")) {
        d = Double.NaN;
      } else if (body.startsWith("inf")) {
        d = Double.POSITIVE_INFINITY;
      } else {
        d = Double.parseDouble(body);
      }
      return negative ? negateBits(d) : d;
    }
    throw ValueException.eval("'to_float' does not recognize " + Values.display(a));
  }

  /** A string as itself; any other value as its JSON text ({@code 1.0}, {@code [1,"a"]}; non-finite Floats as {@code null}). */
  public static String to_string(Object a) {
    return Values.toJsonText(a);
  }

  /** {@code assert(true, ...)} is true; anything else fails with the arguments. */
  public static Boolean assert_(Object... args) {
    if (Boolean.TRUE.equals(args[0])) {
      return true;
    }
    throw ValueException.eval("assertion failed: " + Values.display(Arrays.asList(args)));
  }

  // arithmetic

  /** {@code add(a, ...)}, also {@code a + b}; see the class comment for when the sum is an Int. */
  public static Object add(Object... args) {
    long ints = 0;
    double floats = 0.0;
    for (Object a : args) {
      if (a instanceof Long) {
        ints += (Long) a;
      } else if (a instanceof Double) {
        final double f = (Double) a;
        floats = nan(floats + f, floats, f);
      } else if (a instanceof Vector) {
        return addVectors(args, args.length, false);
      } else {
        throw ValueException.eval("addition requires numbers");
      }
    }
    if (floats == 0.0) {
      return ints;
    }
    return nan(ints + floats, floats);
  }

  /** {@code a + b} without varargs. */
  public static Object add(Object a, Object b) {
    if (a instanceof Long && b instanceof Long) {
      return (Long) a + (Long) b;
    }
    return add(new Object[] {a, b});
  }

  /**
   * The vector sum ({@code mul}: product) of {@code args[0, n)}, as CozoDB's {@code add_vecs}
   * and {@code mul_vecs}: the first {@code n - 1} summed (also for a product: CozoDB's
   * {@code mul_vecs} sums them), then the last added (multiplied) element-wise, or as a number
   * to each element. So {@code add(1, 2, v)} fails ("addition requires numbers") where
   * {@code add(v, 1, 2)} does not.
   */
  private static Object addVectors(Object[] args, int n, boolean mul) {
    if (n == 1) {
      return args[0];
    }
    final Object first = addVectors(args, n - 1, false);
    final Object last = args[n - 1];
    final Vector.Op op = mul ? MUL : ADD;
    if (first instanceof Vector && last instanceof Vector) {
      if (((Vector) first).length() != ((Vector) last).length()) {
        throw ValueException.eval("can only add vectors of the same length");
      }
      return ((Vector) first).zip((Vector) last, op);
    }
    if (first instanceof Vector || last instanceof Vector) {
      final Object number = first instanceof Vector ? last : first;
      if (!isNum(number)) {
        throw ValueException.eval("can only add numbers to vectors");
      }
      final Vector v = (Vector) (first instanceof Vector ? first : last);
      return v.withScalar(toDouble(number), false, op);
    }
    throw ValueException.eval("addition requires numbers");
  }

  private static final Vector.Op ADD = new Vector.Op() {
    @Override public float apply(float a, float b) {
      return a + b;
    }

    @Override public double apply(double a, double b) {
      return a + b;
    }
  };

  private static final Vector.Op SUB = new Vector.Op() {
    @Override public float apply(float a, float b) {
      return a - b;
    }

    @Override public double apply(double a, double b) {
      return a - b;
    }
  };

  private static final Vector.Op MUL = new Vector.Op() {
    @Override public float apply(float a, float b) {
      return a * b;
    }

    @Override public double apply(double a, double b) {
      return a * b;
    }
  };

  private static final Vector.Op DIV = new Vector.Op() {
    @Override public float apply(float a, float b) {
      return a / b;
    }

    @Override public double apply(double a, double b) {
      return a / b;
    }
  };

  /**
   * {@code a - b}: Int if both are Ints (wrapping), else Float; element-wise for vectors (a
   * number minus a vector is {@code -(v - x)}, as CozoDB computes it).
   */
  public static Object sub(Object a, Object b) {
    if (a instanceof Long && b instanceof Long) {
      return (Long) a - (Long) b;
    }
    if (isNum(a) && isNum(b)) {
      final double x = toDouble(a);
      final double y = toDouble(b);
      return nan(x - y, x, y);
    }
    if (a instanceof Vector && b instanceof Vector) {
      return ((Vector) a).zip((Vector) b, SUB);
    }
    if (a instanceof Vector) {
      if (!isNum(b)) {
        throw ValueException.eval("can only subtract numbers from vectors");
      }
      return ((Vector) a).withScalar(toDouble(b), false, SUB);
    }
    if (b instanceof Vector) {
      if (!isNum(a)) {
        throw ValueException.eval("can only subtract vectors from numbers");
      }
      return ((Vector) b).withScalar(toDouble(a), false, SUB).map(x -> -x);
    }
    throw ValueException.eval("subtraction requires numbers");
  }

  /** {@code mul(a, ...)}, also {@code a * b}; an Int when the Floats multiply to {@code 1.0}. */
  public static Object mul(Object... args) {
    long ints = 1;
    double floats = 1.0;
    for (Object a : args) {
      if (a instanceof Long) {
        ints *= (Long) a;
      } else if (a instanceof Double) {
        final double f = (Double) a;
        floats = nan(floats * f, floats, f);
      } else if (a instanceof Vector) {
        return addVectors(args, args.length, true);
      } else {
        throw ValueException.eval("multiplication requires numbers");
      }
    }
    if (floats == 1.0) {
      return ints;
    }
    return nan(ints * floats, floats);
  }

  /** {@code a * b} without varargs. */
  public static Object mul(Object a, Object b) {
    if (a instanceof Long && b instanceof Long) {
      return (Long) a * (Long) b;
    }
    return mul(new Object[] {a, b});
  }

  /**
   * {@code a / b}: always a Float ({@code 1 / 0} is infinity); element-wise for vectors, with
   * CozoDB's messages (which say "subtract").
   */
  public static Object div(Object a, Object b) {
    if (isNum(a) && isNum(b)) {
      final double x = toDouble(a);
      final double y = toDouble(b);
      return nan(x / y, x, y);
    }
    if (a instanceof Vector && b instanceof Vector) {
      return ((Vector) a).zip((Vector) b, DIV);
    }
    if (a instanceof Vector) {
      if (!isNum(b)) {
        throw ValueException.eval("can only subtract numbers from vectors");
      }
      return ((Vector) a).withScalar(toDouble(b), false, DIV);
    }
    if (b instanceof Vector) {
      if (!isNum(a)) {
        throw ValueException.eval("can only subtract vectors from numbers");
      }
      return ((Vector) b).withScalar(toDouble(a), true, DIV);
    }
    throw ValueException.eval("division requires numbers");
  }

  /** {@code a % b}, the sign of {@code a}: Int for Ints (zero divisor fails), else Float. */
  public static Object mod(Object a, Object b) {
    if (a instanceof Long && b instanceof Long) {
      final long y = (Long) b;
      if (y == 0) {
        throw ValueException.eval("'mod' requires non-zero divisor");
      }
      // CozoDB panics on Long.MIN_VALUE % -1 (Rust's overflow check); the remainder is 0.
      return y == -1 ? 0L : (Long) a % y;
    }
    if (isNum(a) && isNum(b)) {
      final double x = toDouble(a);
      final double y = toDouble(b);
      return nan(x % y, x, y);
    }
    throw ValueException.eval("'mod' requires numbers");
  }

  /** {@code a ^ b}: always a Float; each element of a vector {@code a} to the power {@code b}. */
  public static Object pow(Object a, Object b) {
    if (a instanceof Vector && isNum(b)) {
      final Vector v = (Vector) a;
      final double y = v.isF32() ? (float) toDouble(b) : toDouble(b);
      return v.map(x -> StrictMath.pow(x, y));
    }
    if (!isNum(a) || !isNum(b)) {
      throw ValueException.eval("'pow' requires numbers");
    }
    final double x = toDouble(a);
    final double y = toDouble(b);
    return nan(StrictMath.pow(x, y), x, y);
  }

  /** {@code -a} (wrapping for Ints). */
  public static Object minus(Object a) {
    if (a instanceof Long) {
      return -(Long) a;
    }
    if (a instanceof Double) {
      return negateBits((Double) a);
    }
    if (a instanceof Vector) {
      return ((Vector) a).map(x -> 0.0 - x);
    }
    throw ValueException.eval("minus can only be applied to numbers");
  }

  /** {@code |a|} (wrapping for the smallest Int). */
  public static Object abs(Object a) {
    if (a instanceof Long) {
      final long i = (Long) a;
      return i < 0 ? -i : i;
    }
    if (a instanceof Double) {
      return Double.longBitsToDouble(Double.doubleToRawLongBits((Double) a) & Long.MAX_VALUE);
    }
    if (a instanceof Vector) {
      return ((Vector) a).map(Math::abs);
    }
    throw ValueException.eval("'abs' requires numbers");
  }

  /** -1, 0 or 1 as an Int (also for Floats; {@code signum(-0.0)} is -1), NaN for NaN. */
  public static Object signum(Object a) {
    if (a instanceof Long) {
      return (long) Long.signum((Long) a);
    }
    if (a instanceof Double) {
      final double f = (Double) a;
      if (Double.isNaN(f)) {
        return Double.NaN;
      }
      if (Double.doubleToRawLongBits(f) < 0) {
        return -1L;
      }
      return f == 0 ? 0L : 1L;
    }
    throw ValueException.eval("'signum' requires numbers");
  }

  /** Floor; an Int stays an Int. */
  public static Object floor(Object a) {
    return rounding(a, "floor", f -> nan(Math.floor(f), f));
  }

  /** Ceiling; an Int stays an Int. */
  public static Object ceil(Object a) {
    return rounding(a, "ceil", f -> nan(Math.ceil(f), f));
  }

  /** Rounds half away from zero ({@code round(-2.5)} is {@code -3.0}); an Int stays an Int. */
  public static Object round(Object a) {
    return rounding(a, "round", Functions::roundHalfAway);
  }

  /** A rounding function: an Int stays as it is, a Float goes through {@code f}. */
  private static Object rounding(Object a, String function, DoubleUnaryOperator f) {
    if (a instanceof Long) {
      return a;
    }
    if (a instanceof Double) {
      return f.applyAsDouble((Double) a);
    }
    throw ValueException.eval("'" + function + "' requires numbers");
  }

  /** Rust's {@code f64::round}: half away from zero, the sign kept ({@code -0.4} gives {@code -0.0}). */
  private static double roundHalfAway(double f) {
    if (Double.isNaN(f) || Double.isInfinite(f)) {
      return f;
    }
    final double m = Math.abs(f);
    double r = Math.floor(m);
    if (m - r >= 0.5) {
      r += 1;
    }
    return Math.copySign(r, f);
  }

  /** The largest argument in {@link Values}' order (all must be numbers; of {@code 1} and {@code 1.0}, {@code 1.0}). */
  public static Object max(Object... args) {
    Object best = null;
    for (Object a : args) {
      if (!isNum(a)) {
        throw ValueException.eval("'max can only be applied to numbers'");
      }
      if (best == null || Values.compare(best, a) <= 0) {
        best = a;
      }
    }
    return best;
  }

  /** The smallest argument in {@link Values}' order (all must be numbers; of {@code 1} and {@code 1.0}, {@code 1}). */
  public static Object min(Object... args) {
    Object best = null;
    for (Object a : args) {
      if (!isNum(a)) {
        throw ValueException.eval("'min' can only be applied to numbers");
      }
      if (best == null || Values.compare(best, a) > 0) {
        best = a;
      }
    }
    return best;
  }

  /** A one-argument math function: of a number, or of each element of a vector. */
  private static Object math(Object a, String function, DoubleUnaryOperator f) {
    if (a instanceof Vector) {
      return ((Vector) a).map(f);
    }
    return f.applyAsDouble(number(a, function));
  }

  public static Object sqrt(Object a) {
    return math(a, "sqrt", x -> nan(Math.sqrt(x), x));
  }

  public static Object exp(Object a) {
    return math(a, "exp", x -> nan(StrictMath.exp(x), x));
  }

  /** 2 to the power {@code a}; may differ from CozoDB in the last bit for non-integral {@code a}. */
  public static Object exp2(Object a) {
    return math(a, "exp2", x -> nan(StrictMath.pow(2.0, x), x));
  }

  public static Object ln(Object a) {
    return math(a, "ln", x -> nan(StrictMath.log(x), x));
  }

  public static Object log2(Object a) {
    return math(a, "log2", x -> nan(Log2.log2(x), x));
  }

  public static Object log10(Object a) {
    return math(a, "log10", x -> nan(StrictMath.log10(x), x));
  }

  public static Object sin(Object a) {
    return math(a, "sin", x -> nan(StrictMath.sin(x), x));
  }

  public static Object cos(Object a) {
    return math(a, "cos", x -> nan(StrictMath.cos(x), x));
  }

  public static Object tan(Object a) {
    return math(a, "tan", x -> nan(StrictMath.tan(x), x));
  }

  public static Object asin(Object a) {
    return math(a, "asin", x -> nan(StrictMath.asin(x), x));
  }

  public static Object acos(Object a) {
    return math(a, "acos", x -> nan(StrictMath.acos(x), x));
  }

  public static Object atan(Object a) {
    return math(a, "atan", x -> nan(StrictMath.atan(x), x));
  }

  public static Double atan2(Object a, Object b) {
    final double y = number(a, "atan2");
    final double x = number(b, "atan2");
    return nan(StrictMath.atan2(y, x), y, x);
  }

  public static Object sinh(Object a) {
    return math(a, "sinh", x -> nan(StrictMath.sinh(x), x));
  }

  public static Object cosh(Object a) {
    return math(a, "cosh", x -> nan(StrictMath.cosh(x), x));
  }

  public static Object tanh(Object a) {
    return math(a, "tanh", x -> nan(StrictMath.tanh(x), x));
  }

  /** Inverse hyperbolic sine, by the formula of Rust's standard library. */
  public static Object asinh(Object a) {
    return math(a, "asinh", Functions::asinh);
  }

  private static double asinh(double x) {
    final double ax = Math.abs(x);
    final double ix = 1.0 / ax;
    return nan(Math.copySign(StrictMath.log1p(ax + ax / (StrictMath.hypot(1.0, ix) + ix)), x), x);
  }

  /** Inverse hyperbolic cosine, by the formula of Rust's standard library (positive NaN below 1). */
  public static Object acosh(Object a) {
    return math(a, "acosh", Functions::acosh);
  }

  private static double acosh(double x) {
    if (x < 1.0) {
      return Double.NaN;
    }
    return nan(StrictMath.log(x + Math.sqrt(x - 1.0) * Math.sqrt(x + 1.0)), x);
  }

  /** Inverse hyperbolic tangent, by the formula of Rust's standard library. */
  public static Object atanh(Object a) {
    return math(a, "atanh", x -> nan(0.5 * StrictMath.log1p(2.0 * x / (1.0 - x)), x));
  }

  public static Double deg_to_rad(Object a) {
    return number(a, "deg_to_rad") * Math.PI / 180.0;
  }

  public static Double rad_to_deg(Object a) {
    return number(a, "rad_to_deg") * 180.0 / Math.PI;
  }

  /** Great-circle distance on the unit sphere between two (latitude, longitude) points in radians. */
  public static Double haversine(Object lat1, Object lon1, Object lat2, Object lon2) {
    return haversineRad(number(lat1, "haversine"), number(lon1, "haversine"),
        number(lat2, "haversine"), number(lon2, "haversine"));
  }

  /** {@link #haversine} with the angles in degrees. */
  public static Double haversine_deg_input(Object lat1, Object lon1, Object lat2, Object lon2) {
    final String f = "haversine_deg_input";
    return haversineRad(number(lat1, f) * Math.PI / 180.0, number(lon1, f) * Math.PI / 180.0,
        number(lat2, f) * Math.PI / 180.0, number(lon2, f) * Math.PI / 180.0);
  }

  private static double haversineRad(double lat1, double lon1, double lat2, double lon2) {
    final double sinLat = StrictMath.sin((lat1 - lat2) / 2.0);
    final double sinLon = StrictMath.sin((lon1 - lon2) / 2.0);
    return 2.0 * StrictMath.asin(Math.sqrt(sinLat * sinLat
        + StrictMath.cos(lat1) * StrictMath.cos(lat2) * (sinLon * sinLon)));
  }

  // comparison and logic

  /** {@code a == b}: Int and Float by value, all else as the same value. Never fails. */
  public static Boolean eq(Object a, Object b) {
    if (a instanceof Long && b instanceof Double) {
      return (double) (Long) a == (Double) b;
    }
    if (a instanceof Double && b instanceof Long) {
      return (Double) a == (double) (Long) b;
    }
    return Values.equal(a, b);
  }

  /** {@code a != b}: the negation of {@link #eq}. */
  public static Boolean neq(Object a, Object b) {
    return !eq(a, b);
  }

  /** {@code a > b}; see {@link #lt}. */
  public static Boolean gt(Object a, Object b) {
    sameType(a, b);
    if (mixedNumbers(a, b)) {
      return toDouble(a) > toDouble(b);
    }
    return Values.compare(a, b) > 0;
  }

  /** {@code a >= b}; see {@link #lt}. */
  public static Boolean ge(Object a, Object b) {
    sameType(a, b);
    if (mixedNumbers(a, b)) {
      return toDouble(a) >= toDouble(b);
    }
    return Values.compare(a, b) >= 0;
  }

  /**
   * {@code a < b}: fails unless both are of one type (numbers of either
   * kind count as one); an Int and a Float compare by value, as IEEE does
   * ({@code 1 < 1.0} is false, nothing is below NaN); all else in
   * {@link Values}' order ({@code -0.0 < 0.0}, {@code [1] < [1.0]}).
   */
  public static Boolean lt(Object a, Object b) {
    sameType(a, b);
    if (mixedNumbers(a, b)) {
      return toDouble(a) < toDouble(b);
    }
    return Values.compare(a, b) < 0;
  }

  /** {@code a <= b}; see {@link #lt}. */
  public static Boolean le(Object a, Object b) {
    sameType(a, b);
    if (mixedNumbers(a, b)) {
      return toDouble(a) <= toDouble(b);
    }
    return Values.compare(a, b) <= 0;
  }

  /** {@code a && ...}: false at the first false; every argument before it must be a boolean. */
  public static Boolean and(Object... args) {
    for (Object a : args) {
      if (!(a instanceof Boolean)) {
        throw ValueException.eval("'and' requires booleans");
      }
      if (!(Boolean) a) {
        return false;
      }
    }
    return true;
  }

  /** {@code a || ...}: true at the first true; every argument before it must be a boolean. */
  public static Boolean or(Object... args) {
    for (Object a : args) {
      if (!(a instanceof Boolean)) {
        throw ValueException.eval("'or' requires booleans");
      }
      if ((Boolean) a) {
        return true;
      }
    }
    return false;
  }

  /** {@code !a}. */
  public static Boolean negate(Object a) {
    if (!(a instanceof Boolean)) {
      throw ValueException.eval("'negate' requires booleans");
    }
    return !(Boolean) a;
  }

  // strings

  /** {@code a ++ ...}: strings joined, or lists concatenated (the first argument decides). */
  public static Object concat(Object... args) {
    if (args[0] instanceof String) {
      final StringBuilder b = new StringBuilder();
      for (Object a : args) {
        if (!(a instanceof String)) {
          throw ValueException.eval("'concat' requires strings, or lists");
        }
        b.append((String) a);
      }
      return b.toString();
    }
    if (args[0] instanceof List || args[0] instanceof ValueSet) {
      final List<Object> out = new ArrayList<>();
      for (Object a : args) {
        out.addAll(listOrSet(a, "'concat' requires strings, or lists"));
      }
      return Collections.unmodifiableList(out);
    }
    if (args[0] instanceof Json) {
      Object merged = null;
      for (Object a : args) {
        if (!(a instanceof Json)) {
          throw ValueException.eval("'concat' requires strings, lists, or JSON objects");
        }
        merged = deepMerge(merged, ((Json) a).tree());
      }
      return Json.wrap(merged);
    }
    throw ValueException.eval("'concat' requires strings, lists, or JSON objects");
  }

  /**
   * CozoDB's merge of two documents for {@code concat}: objects merge member by member (a
   * member of {@code b} merged into {@code a}'s of the same key, or into null), arrays are
   * appended, anything else is {@code b}.
   */
  private static Object deepMerge(Object a, Object b) {
    if (a instanceof Map && b instanceof Map) {
      final java.util.SortedMap<String, Object> out = new java.util.TreeMap<>(Values::compareStrings);
      for (Map.Entry<?, ?> e : ((Map<?, ?>) a).entrySet()) {
        out.put((String) e.getKey(), e.getValue());
      }
      for (Map.Entry<?, ?> e : ((Map<?, ?>) b).entrySet()) {
        out.put((String) e.getKey(), deepMerge(out.get(e.getKey()), e.getValue()));
      }
      return Collections.unmodifiableSortedMap(out);
    }
    if (a instanceof List && b instanceof List) {
      final List<Object> out = new ArrayList<>((List<?>) a);
      out.addAll((List<?>) b);
      return Collections.unmodifiableList(out);
    }
    return b;
  }

  /** {@code a ++ b} without varargs. */
  public static Object concat(Object a, Object b) {
    if (a instanceof String && b instanceof String) {
      return (String) a + b;
    }
    return concat(new Object[] {a, b});
  }

  public static Boolean str_includes(Object a, Object b) {
    if (a instanceof String && b instanceof String) {
      return ((String) a).contains((String) b);
    }
    throw ValueException.eval("'str_includes' requires strings");
  }

  /** Unicode lower case, the same in every locale. */
  public static String lowercase(Object a) {
    return str(a, "lowercase").toLowerCase(Locale.ROOT);
  }

  /** Unicode upper case, the same in every locale ({@code 'ß'} becomes {@code 'SS'}). */
  public static String uppercase(Object a) {
    return str(a, "uppercase").toUpperCase(Locale.ROOT);
  }

  /**
   * A string with its traditional Chinese characters made simplified, as CozoDB's
   * ({@link T2s}); any other value as it is.
   */
  public static Object t2s(Object a) {
    return a instanceof String s ? T2s.convert(s) : a;
  }

  /** Without Unicode white space (Rust's {@code char::is_whitespace}) at both ends. */
  public static String trim(Object a) {
    final String s = str(a, "trim");
    return s.substring(whiteStart(s), whiteEnd(s));
  }

  public static String trim_start(Object a) {
    if (!(a instanceof String)) {
      throw ValueException.eval("'trim_start' requires strings, got " + Values.display(a));
    }
    final String s = (String) a;
    return s.substring(whiteStart(s));
  }

  public static String trim_end(Object a) {
    final String s = str(a, "trim_end");
    return s.substring(0, whiteEnd(s));
  }

  public static Boolean starts_with(Object a, Object b) {
    if (a instanceof String && b instanceof String) {
      return ((String) a).startsWith((String) b);
    }
    if (a instanceof Bytes && b instanceof Bytes) {
      return ((Bytes) a).startsWith((Bytes) b);
    }
    throw ValueException.eval("'starts_with' requires strings or bytes");
  }

  public static Boolean ends_with(Object a, Object b) {
    if (a instanceof String && b instanceof String) {
      return ((String) a).endsWith((String) b);
    }
    if (a instanceof Bytes && b instanceof Bytes) {
      return ((Bytes) a).endsWith((Bytes) b);
    }
    throw ValueException.eval("'ends_with' requires strings or bytes");
  }

  /** {@code unicode_normalize(s, 'nfc')}; also nfd, nfkc, nfkd. */
  public static String unicode_normalize(Object a, Object form) {
    if (!(a instanceof String) || !(form instanceof String)) {
      throw ValueException.eval("'unicode_normalize' requires strings");
    }
    final Normalizer.Form f;
    switch ((String) form) {
    case "nfc":
      f = Normalizer.Form.NFC;
      break;
    case "nfd":
      f = Normalizer.Form.NFD;
      break;
    case "nfkc":
      f = Normalizer.Form.NFKC;
      break;
    case "nfkd":
      f = Normalizer.Form.NFKD;
      break;
    default:
      throw ValueException.eval("unknown normalization " + form + " for 'unicode_normalize'");
    }
    return Normalizer.normalize((String) a, f);
  }

  /** The characters (code points) of a string, each as a string. */
  public static List<Object> chars(Object a) {
    if (!(a instanceof String)) {
      throw ValueException.eval("'chars' requires strings");
    }
    final List<Object> out = new ArrayList<>();
    ((String) a).codePoints().forEach(c -> out.add(new String(Character.toChars(c))));
    return Collections.unmodifiableList(out);
  }

  /** Characters {@code from} (inclusive, >= 0) to {@code to} (exclusive, >= from), clipped to the string. */
  public static String slice_string(Object a, Object from, Object to) {
    if (!(a instanceof String)) {
      throw ValueException.eval("first argument to 'slice_string' mut be a string");
    }
    final Long m = integral(from);
    if (m == null) {
      throw ValueException.eval("second argument to 'slice_string' mut be an integer");
    }
    if (m < 0) {
      throw ValueException.eval("second argument to 'slice_string' mut be a positive integer");
    }
    final Long n = integral(to);
    if (n == null) {
      throw ValueException.eval("third argument to 'slice_string' mut be an integer");
    }
    if (n < m) {
      throw ValueException.eval("third argument to 'slice_string' mut be a positive integer"
          + " greater than the second argument");
    }
    final String s = (String) a;
    final int count = s.codePointCount(0, s.length());
    final int start = (int) Math.min(m, count);
    final int end = (int) Math.min(n, count);
    return s.substring(s.offsetByCodePoints(0, start), s.offsetByCodePoints(0, end));
  }

  /** The strings of a list (or set) joined. */
  public static String from_substrings(Object a) {
    final StringBuilder b = new StringBuilder();
    for (Object o : listOrSet(a, "'from_substring' requires a list of strings")) {
      if (!(o instanceof String)) {
        throw ValueException.eval("'from_substring' requires a list of strings");
      }
      b.append((String) o);
    }
    return b.toString();
  }

  // lists

  /** Elements of a list or set, characters (code points) of a string, bytes of Bytes. */
  public static Long length(Object a) {
    if (a instanceof List || a instanceof ValueSet) {
      return (long) elements(a).size();
    }
    if (a instanceof Bytes) {
      return (long) ((Bytes) a).length();
    }
    if (a instanceof String) {
      final String s = (String) a;
      return (long) s.codePointCount(0, s.length());
    }
    if (a instanceof Vector) {
      return (long) ((Vector) a).length();
    }
    throw ValueException.eval("'length' requires lists");
  }

  /** The list in {@link Values}' order. */
  public static List<Object> sorted(Object a) {
    final List<Object> out = new ArrayList<>(listArg(a, "'sort' requires lists"));
    out.sort(Values.ORDER);
    return Collections.unmodifiableList(out);
  }

  public static List<Object> reverse(Object a) {
    final List<Object> out = new ArrayList<>(listArg(a, "'reverse' requires lists"));
    Collections.reverse(out);
    return Collections.unmodifiableList(out);
  }

  public static List<Object> append(Object list, Object x) {
    final List<Object> out = new ArrayList<>(
        listOrSet(list, "'append' requires first argument to be a list"));
    out.add(x);
    return Collections.unmodifiableList(out);
  }

  public static List<Object> prepend(Object list, Object x) {
    final List<?> l = listOrSet(list, "'prepend' requires first argument to be a list");
    final List<Object> out = new ArrayList<>(l.size() + 1);
    out.add(x);
    out.addAll(l);
    return Collections.unmodifiableList(out);
  }

  /** The first element, or null for {@code []}. */
  public static Object first(Object a) {
    final List<?> l = listArg(a, "'first' requires lists");
    return l.isEmpty() ? null : l.get(0);
  }

  /** The last element, or null for {@code []}. */
  public static Object last(Object a) {
    final List<?> l = listArg(a, "'last' requires lists");
    return l.isEmpty() ? null : l.get(l.size() - 1);
  }

  /**
   * {@code get(list, i)}: the element at {@code i} (negative counts from the
   * end; an integral Float will do); fails out of range, unless a third
   * argument is given, which is then the answer for any failure.
   */
  public static Object get(Object... args) {
    try {
      return getImpl(args[0], args[1]);
    } catch (ValueException e) {
      if (args.length > 2) {
        return args[2];
      }
      throw e;
    }
  }

  /** {@code get(list, i)} without varargs. */
  public static Object get(Object list, Object index) {
    return getImpl(list, index);
  }

  /** {@code list -> i}: {@link #get}, or null for any failure. */
  public static Object maybe_get(Object list, Object index) {
    try {
      return getImpl(list, index);
    } catch (ValueException e) {
      return null;
    }
  }

  private static Object getImpl(Object list, Object index) {
    if (list instanceof Json) {
      return jsonGet(((Json) list).tree(), index);
    }
    if (!(list instanceof List)) {
      throw ValueException.eval("first argument to 'get' mut be a list or json");
    }
    final List<?> l = (List<?>) list;
    final Long i = integral(index);
    if (i == null) {
      throw ValueException.eval("second argument to 'get' mut be an integer");
    }
    return l.get(index(i, l.size(), false));
  }

  /** Elements {@code from} (inclusive) to {@code to} (exclusive); negative indices count from the end. */
  public static List<Object> slice(Object list, Object from, Object to) {
    final List<?> l = listArg(list, "first argument to 'slice' mut be a list");
    final Long m = integral(from);
    if (m == null) {
      throw ValueException.eval("second argument to 'slice' mut be an integer");
    }
    final Long n = integral(to);
    if (n == null) {
      throw ValueException.eval("third argument to 'slice' mut be an integer");
    }
    final int start = index(m, l.size(), false);
    final int end = index(n, l.size(), true);
    if (start > end) {
      // CozoDB panics here (a Rust slice with start > end).
      throw ValueException.eval("slice index starts at " + start + " but ends at " + end);
    }
    return Collections.unmodifiableList(new ArrayList<>(l.subList(start, end)));
  }

  /** CozoDB's index rule: negative counts from the end; {@code upper} allows {@code size}. */
  private static int index(long i, int size, boolean upper) {
    if (i < 0) {
      i += size;
    }
    if (i < 0 || i > size || !upper && i == size) {
      throw ValueException.eval("index " + i + " out of bound");
    }
    return (int) i;
  }

  /** The list cut into lists of {@code n} (the last may be shorter). */
  public static List<Object> chunks(Object list, Object n) {
    return cut(list, n, "chunks", false);
  }

  /** The list cut into lists of exactly {@code n} (a shorter rest is dropped). */
  public static List<Object> chunks_exact(Object list, Object n) {
    return cut(list, n, "chunks_exact", true);
  }

  private static List<Object> cut(Object list, Object size, String name, boolean exact) {
    final List<?> l = listArg(list, "first argument of '" + name + "' must be a list");
    final int n = positive(size, name);
    final List<Object> out = new ArrayList<>();
    for (int i = 0; i < l.size(); i += n) {
      if (exact && i + n > l.size()) {
        break;
      }
      out.add(Collections.unmodifiableList(new ArrayList<>(l.subList(i, Math.min(l.size(), i + n)))));
    }
    return Collections.unmodifiableList(out);
  }

  /** Every run of {@code n} consecutive elements. */
  public static List<Object> windows(Object list, Object size) {
    final List<?> l = listArg(list, "first argument of 'windows' must be a list");
    final int n = positive(size, "windows");
    final List<Object> out = new ArrayList<>();
    for (int i = 0; i + n <= l.size(); i++) {
      out.add(Collections.unmodifiableList(new ArrayList<>(l.subList(i, i + n))));
    }
    return Collections.unmodifiableList(out);
  }

  private static int positive(Object size, String name) {
    final Long n = integral(size);
    if (n == null) {
      throw ValueException.eval("second argument of '" + name + "' must be an integer");
    }
    if (n <= 0) {
      throw ValueException.eval("second argument to '" + name + "' must be positive");
    }
    return (int) Math.min(n, Integer.MAX_VALUE);
  }

  /**
   * {@code int_range(end)}, {@code int_range(start, end)},
   * {@code int_range(start, end, step)}: the Ints from start (0) up to but
   * excluding end; with a negative step, down to but excluding end.
   * A step of 0 fails here (CozoDB does not terminate). {@code stop} is checked every 4,096
   * values.
   */
  public static List<Object> int_range(StopCheck stop, Object... args) {
    if (args.length > 3) {
      throw ValueException.eval("'int_range' requires 1 to 3 argument");
    }
    final long start;
    final long end;
    if (args.length == 1) {
      start = 0;
      end = intArg(args[0], "'int_range' requires integer argument for end");
    } else {
      start = intArg(args[0], "'int_range' requires integer argument for start");
      end = intArg(args[1], "'int_range' requires integer argument for end");
    }
    final long step = args.length == 3 ? intArg(args[2], "'int_range' requires integer argument for step") : 1;
    if (step == 0) {
      throw ValueException.eval("'int_range' requires a non-zero step");
    }
    final List<Object> out = new ArrayList<>();
    for (long i = start; step > 0 ? i < end : i > end; ) {
      // A range of 10^8 takes seconds and gigabytes: it stops with its statement.
      if ((out.size() & 4095) == 4095) {
        stop.check();
      }
      out.add(i);
      final long next = i + step;
      if ((next > i) != (step > 0)) {
        break;
      }
      i = next;
    }
    return Collections.unmodifiableList(out);
  }

  /** The distinct elements of all the lists (or sets), in {@link Values}' order. */
  public static List<Object> union(Object... args) {
    final TreeSet<Object> set = new TreeSet<>(Values.ORDER);
    for (Object a : args) {
      set.addAll(listOrSet(a, "'union' requires lists"));
    }
    return Values.listOf(set);
  }

  /** The distinct elements common to all the lists (or sets), in {@link Values}' order. */
  public static List<Object> intersection(Object... args) {
    final TreeSet<Object> set = new TreeSet<>(Values.ORDER);
    set.addAll(listOrSet(args[0], "'intersection' requires lists"));
    for (int i = 1; i < args.length; i++) {
      final TreeSet<Object> other = new TreeSet<>(Values.ORDER);
      other.addAll(listOrSet(args[i], "'intersection' requires lists"));
      set.retainAll(other);
    }
    return Values.listOf(set);
  }

  /** The distinct elements of the first list (or set) that are in none of the others, in {@link Values}' order. */
  public static List<Object> difference(Object... args) {
    final TreeSet<Object> set = new TreeSet<>(Values.ORDER);
    set.addAll(listOrSet(args[0], "'difference' requires lists"));
    for (int i = 1; i < args.length; i++) {
      listOrSet(args[i], "'difference' requires lists").forEach(set::remove);
    }
    return Values.listOf(set);
  }

  // bytes

  /** Bytewise and of two Bytes of one length. */
  public static Bytes bit_and(Object a, Object b) {
    return bitwise(a, b, "bit_and", (x, y) -> x & y);
  }

  /** Bytewise or of two Bytes of one length. */
  public static Bytes bit_or(Object a, Object b) {
    return bitwise(a, b, "bit_or", (x, y) -> x | y);
  }

  /** Bytewise exclusive or of two Bytes of one length. */
  public static Bytes bit_xor(Object a, Object b) {
    return bitwise(a, b, "bit_xor", (x, y) -> x ^ y);
  }

  /** Every bit flipped. */
  public static Bytes bit_not(Object a) {
    if (!(a instanceof Bytes)) {
      throw ValueException.eval("'bit_not' requires bytes");
    }
    final byte[] out = ((Bytes) a).toByteArray();
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) ~out[i];
    }
    return Bytes.of(out);
  }

  private static Bytes bitwise(Object a, Object b, String name,
      java.util.function.IntBinaryOperator op) {
    if (!(a instanceof Bytes) || !(b instanceof Bytes)) {
      throw ValueException.eval("'" + name + "' requires bytes");
    }
    final Bytes l = (Bytes) a;
    final Bytes r = (Bytes) b;
    if (l.length() != r.length()) {
      throw ValueException.eval("operands of '" + name + "' must have the same lengths");
    }
    final byte[] out = new byte[l.length()];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) op.applyAsInt(l.get(i), r.get(i));
    }
    return Bytes.of(out);
  }

  /** A list (or set) of booleans as bits, the first the highest bit of the first byte. */
  public static Bytes pack_bits(Object a) {
    if (!(a instanceof List || a instanceof ValueSet)) {
      throw ValueException.eval("'pack_bits' requires list of booleans");
    }
    final List<?> bits = elements(a);
    final byte[] out = new byte[(bits.size() + 7) / 8];
    for (int i = 0; i < bits.size(); i++) {
      if (!(bits.get(i) instanceof Boolean)) {
        throw ValueException.eval("'pack_bits' requires list of booleans");
      }
      if ((Boolean) bits.get(i)) {
        out[i / 8] |= (byte) (0x80 >>> (i % 8));
      }
    }
    return Bytes.of(out);
  }

  /** The bits of Bytes as booleans, the highest bit of each byte first. */
  public static List<Object> unpack_bits(Object a) {
    if (!(a instanceof Bytes)) {
      throw ValueException.eval("'unpack_bits' requires bytes");
    }
    final Bytes b = (Bytes) a;
    final List<Object> out = new ArrayList<>(b.length() * 8);
    for (int i = 0; i < b.length() * 8; i++) {
      out.add((b.get(i / 8) & (0x80 >>> (i % 8))) != 0);
    }
    return Collections.unmodifiableList(out);
  }

  /** Bytes as standard Base64 text with padding. */
  public static String encode_base64(Object a) {
    if (!(a instanceof Bytes)) {
      throw ValueException.eval("'encode_base64' requires bytes");
    }
    return ((Bytes) a).base64();
  }

  /** Standard Base64 text (padded, canonical) as Bytes. */
  public static Bytes decode_base64(Object a) {
    if (!(a instanceof String)) {
      throw ValueException.eval("'decode_base64' requires strings");
    }
    final Bytes b = Bytes.fromBase64((String) a);
    if (b == null) {
      throw ValueException.eval("Data is not properly encoded");
    }
    return b;
  }

  // vectors

  public static Boolean is_vec(Object a) {
    return a instanceof Vector;
  }

  /**
   * {@code vec(x)}, {@code vec(x, type)}: a vector of type {@code 'F32'} (also {@code 'Float'},
   * the default) or {@code 'F64'} ({@code 'Double'}) from a list of numbers, a Json array of
   * numbers, a vector, or the Base64 text of the elements' little-endian bytes.
   */
  public static Vector vec(Object... args) {
    final boolean f32 = vecType(args.length > 1 ? args[1] : null, "vec");
    final Object a = args[0];
    if (a instanceof Vector) {
      final Vector v = (Vector) a;
      return v.isF32() == f32 ? v : f32 ? Vector.f32(v.toFloats()) : Vector.f64(v.toDoubles());
    }
    if (a instanceof String) {
      final byte[] bytes;
      try {
        bytes = java.util.Base64.getDecoder().decode((String) a);
      } catch (IllegalArgumentException e) {
        throw ValueException.eval("Data is not base64 encoded");
      }
      return fromBytes(bytes, f32);
    }
    final List<?> items = a instanceof List ? (List<?>) a
        : a instanceof Json && ((Json) a).tree() instanceof List ? (List<?>) ((Json) a).tree()
        : null;
    if (items == null) {
      throw ValueException.eval("'vec' requires a list or a vector");
    }
    final double[] values = new double[items.size()];
    for (int i = 0; i < values.length; i++) {
      final Object e = items.get(i);
      if (!(e instanceof Long || e instanceof Double)) {
        throw ValueException.eval("'vec' requires a list of numbers");
      }
      values[i] = ((Number) e).doubleValue();
    }
    return f32 ? Vector.f32(narrow(values)) : Vector.f64(values);
  }

  /** The vector whose elements' little-endian bytes are {@code bytes} (a partial last element dropped). */
  public static Vector fromBytes(byte[] bytes, boolean f32) {
    final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes)
        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    if (f32) {
      final float[] out = new float[bytes.length / 4];
      b.asFloatBuffer().get(out);
      return Vector.f32(out);
    }
    final double[] out = new double[bytes.length / 8];
    b.asDoubleBuffer().get(out);
    return Vector.f64(out);
  }

  /** {@code rand_vec(n)}, {@code rand_vec(n, type)}: {@code n} elements uniform in [0, 1). */
  public static Vector rand_vec(Object... args) {
    if (!(args[0] instanceof Long)) {
      throw ValueException.eval("'rand_vec' requires an integer");
    }
    final boolean f32 = vecType(args.length > 1 ? args[1] : null, "vec");
    final java.util.Random random = java.util.concurrent.ThreadLocalRandom.current();
    final double[] values = new double[(int) (long) (Long) args[0]];
    for (int i = 0; i < values.length; i++) {
      values[i] = random.nextDouble();
    }
    return f32 ? Vector.f32(narrow(values)) : Vector.f64(values);
  }

  public static Vector l2_normalize(Object a) {
    if (!(a instanceof Vector)) {
      throw ValueException.eval("'l2_normalize' requires a vector");
    }
    return ((Vector) a).l2Normalized();
  }

  /** {@code l2_dist(a, b)}: the squared Euclidean distance, as CozoDB's HNSW uses it. */
  public static Double l2_dist(Object a, Object b) {
    return pair(a, b, "l2_dist").l2Squared((Vector) b);
  }

  /** {@code ip_dist(a, b)}: {@code 1 - a·b}. */
  public static Double ip_dist(Object a, Object b) {
    return 1. - pair(a, b, "ip_dist").dot((Vector) b);
  }

  /** {@code cos_dist(a, b)}: {@code 1 - a·b / sqrt(a·a × b·b)}. */
  public static Double cos_dist(Object a, Object b) {
    final Vector x = pair(a, b, "cos_dist");
    final Vector y = (Vector) b;
    return 1. - x.dot(y) / Math.sqrt(x.dot(x) * y.dot(y));
  }

  private static Vector pair(Object a, Object b, String name) {
    if (!(a instanceof Vector && b instanceof Vector)
        || ((Vector) a).isF32() != ((Vector) b).isF32()) {
      throw ValueException.eval("'" + name + "' requires two vectors of the same type");
    }
    if (((Vector) a).length() != ((Vector) b).length()) {
      throw ValueException.eval("'" + name + "' requires two vectors of the same length");
    }
    return (Vector) a;
  }

  private static boolean vecType(Object t, String name) {
    if (t == null) {
      return true;
    }
    if (!(t instanceof String)) {
      throw ValueException.eval("'" + name + "' requires a string as second argument");
    }
    switch ((String) t) {
    case "F32":
    case "Float":
      return true;
    case "F64":
    case "Double":
      return false;
    default:
      throw ValueException.eval("'" + name + "' does not recognize type " + t);
    }
  }

  private static float[] narrow(double[] values) {
    final float[] out = new float[values.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = (float) values[i];
    }
    return out;
  }

  // helpers

  private static boolean isNum(Object a) {
    return a instanceof Long || a instanceof Double;
  }

  private static double toDouble(Object a) {
    return a instanceof Long ? (double) (Long) a : (Double) a;
  }

  /** A number's {@code f64} value for the one-argument math functions, or the function's error. */
  private static double number(Object a, String function) {
    if (!isNum(a)) {
      throw ValueException.eval("'" + function + "' requires numbers");
    }
    return toDouble(a);
  }

  /** CozoDB's {@code get_int}: an Int, or a Float with an integral value (saturated); else null. */
  private static Long integral(Object a) {
    if (a instanceof Long) {
      return (Long) a;
    }
    if (a instanceof Double) {
      final double f = (Double) a;
      return roundHalfAway(f) == f ? (long) f : null;
    }
    return null;
  }

  private static long intArg(Object a, String error) {
    final Long i = integral(a);
    if (i == null) {
      throw ValueException.eval(error);
    }
    return i;
  }

  private static String str(Object a, String function) {
    if (!(a instanceof String)) {
      throw ValueException.eval("'" + function + "' requires strings");
    }
    return (String) a;
  }

  private static List<?> listArg(Object a, String error) {
    if (!(a instanceof List)) {
      throw ValueException.eval(error);
    }
    return (List<?>) a;
  }

  /** A List's elements, or a Set's (for the functions CozoDB lets take a Set as a list). */
  private static List<?> listOrSet(Object a, String error) {
    if (a instanceof ValueSet) {
      return ((ValueSet) a).elements();
    }
    return listArg(a, error);
  }

  private static List<?> elements(Object listOrSet) {
    return listOrSet instanceof ValueSet ? ((ValueSet) listOrSet).elements() : (List<?>) listOrSet;
  }

  /** CozoDB compares only nulls, Bools, numbers, Strings, Bytes, Lists or Sets with their own kind. */
  private static void sameType(Object a, Object b) {
    final boolean same = a == null ? b == null
        : isNum(a) ? isNum(b)
        : a instanceof Json || a instanceof UUID || a instanceof Validity ? false
        : b != null && a.getClass() == b.getClass()
            || a instanceof List && b instanceof List;
    if (!same) {
      throw ValueException.eval("comparison can only be done between the same datatypes, got "
          + Values.display(a) + " and " + Values.display(b));
    }
  }

  private static boolean mixedNumbers(Object a, Object b) {
    return a instanceof Long && b instanceof Double || a instanceof Double && b instanceof Long;
  }

  private static double negateBits(double d) {
    return Double.longBitsToDouble(Double.doubleToRawLongBits(d) ^ Long.MIN_VALUE);
  }

  /** {@code r}, or if it is NaN: the operand's NaN if it is one, else {@link Values#ARITHMETIC_NAN}. */
  private static double nan(double r, double x) {
    if (!Double.isNaN(r)) {
      return r;
    }
    return Double.isNaN(x) ? x : Values.ARITHMETIC_NAN;
  }

  /** {@code r}, or if it is NaN: the first NaN operand, else {@link Values#ARITHMETIC_NAN}. */
  private static double nan(double r, double x, double y) {
    if (!Double.isNaN(r)) {
      return r;
    }
    return Double.isNaN(x) ? x : Double.isNaN(y) ? y : Values.ARITHMETIC_NAN;
  }

  private static int whiteStart(String s) {
    int i = 0;
    while (i < s.length()) {
      final int c = s.codePointAt(i);
      if (!isWhiteSpace(c)) {
        break;
      }
      i += Character.charCount(c);
    }
    return i;
  }

  private static int whiteEnd(String s) {
    int i = s.length();
    while (i > 0) {
      final int c = s.codePointBefore(i);
      if (!isWhiteSpace(c)) {
        break;
      }
      i -= Character.charCount(c);
    }
    return i;
  }

  /** Unicode's White_Space property, which Rust's {@code trim} uses (unlike {@link Character#isWhitespace}). */
  private static boolean isWhiteSpace(int c) {
    return c >= 0x09 && c <= 0x0d || c == 0x20 || c == 0x85 || c == 0xa0 || c == 0x1680
        || c >= 0x2000 && c <= 0x200a || c == 0x2028 || c == 0x2029 || c == 0x202f
        || c == 0x205f || c == 0x3000;
  }

  // Uuids, Json, Validity, the clock

  public static Boolean is_uuid(Object a) {
    return a instanceof UUID;
  }

  public static Boolean is_json(Object a) {
    return a instanceof Json;
  }

  public static UUID to_uuid(Object a) {
    if (a instanceof UUID) {
      return (UUID) a;
    }
    if (!(a instanceof String)) {
      throw ValueException.eval("'to_uuid' requires a string");
    }
    final UUID u = Values.parseUuid((String) a);
    if (u == null) {
      throw ValueException.eval("invalid UUID");
    }
    return u;
  }

  /** Offset of the Unix epoch from the Gregorian one of version-1 Uuids, in 100 ns ticks. */
  private static final long GREGORIAN_TO_UNIX_TICKS = 0x01B21DD213814000L;

  /** A version-1 (time-based) Uuid of now, with a random clock sequence and node, as CozoDB makes it. */
  public static UUID rand_uuid_v1() {
    final java.time.Instant now = java.time.Instant.now();
    final long ticks = now.getEpochSecond() * 10_000_000L + now.getNano() / 100
        + GREGORIAN_TO_UNIX_TICKS;
    final long msb = (ticks & 0xffffffffL) << 32 | ((ticks >>> 32) & 0xffff) << 16
        | 0x1000 | ((ticks >>> 48) & 0x0fff);
    final java.util.concurrent.ThreadLocalRandom random =
        java.util.concurrent.ThreadLocalRandom.current();
    final long lsb = (0x8000L | (random.nextLong() & 0x3fff)) << 48
        | (random.nextLong() & 0xffffffffffffL);
    return new UUID(msb, lsb);
  }

  public static UUID rand_uuid_v4() {
    return UUID.randomUUID();
  }

  /** The time of a version-1 Uuid in seconds (with CozoDB's fraction: nanoseconds / 10^7); null for other versions. */
  public static Object uuid_timestamp(Object a) {
    if (!(a instanceof UUID)) {
      throw ValueException.eval("not an UUID");
    }
    final UUID u = (UUID) a;
    if (u.version() != 1) {
      return null;
    }
    final long ticks = u.timestamp() - GREGORIAN_TO_UNIX_TICKS;
    return Math.floorDiv(ticks, 10_000_000L) + Math.floorMod(ticks, 10_000_000L) * 100 / 1e7;
  }

  public static Json json(Object a) {
    return Json.of(a);
  }

  public static Json parse_json(Object a) {
    if (!(a instanceof String)) {
      throw ValueException.eval("parse_json requires a string argument");
    }
    try {
      return Json.parse((String) a);
    } catch (IllegalArgumentException e) {
      throw ValueException.eval(e.getMessage());
    }
  }

  public static String dump_json(Object a) {
    if (a instanceof Json) {
      return ((Json) a).text();
    }
    throw ValueException.eval("dump_json requires a json argument");
  }

  /** {@code json_object(k1, v1, ...)}: keys are their {@code to_string}, values their JSON. */
  public static Json json_object(Object... args) {
    if (args.length % 2 != 0) {
      throw ValueException.eval("json_object requires an even number of arguments");
    }
    final Map<String, Object> members = new java.util.LinkedHashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      members.put(Values.toJsonText(args[i]), args[i + 1]);
    }
    return Json.object(members);
  }

  /**
   * {@code get(json, key)}: an object's member by string key, an array's element by integer
   * index, or the node at a path (a list of keys and indices); arrays and objects found stay
   * Json, scalars become values.
   */
  private static Object jsonGet(Object tree, Object key) {
    final Object found;
    if (key instanceof String) {
      found = tree instanceof Map ? ((Map<?, ?>) tree).get(key) : null;
      if (found == null && !(tree instanceof Map && ((Map<?, ?>) tree).containsKey(key))) {
        throw ValueException.eval("key '" + key + "' not found in json");
      }
    } else if (key instanceof Long || key instanceof Double) {
      final Long i = integral(key);
      if (i == null || !(tree instanceof List) || i < 0 || i >= ((List<?>) tree).size()) {
        throw ValueException.eval("index '" + (i == null ? Values.display(key) : i)
            + "' not found in json");
      }
      found = ((List<?>) tree).get(i.intValue());
    } else if (key instanceof List) {
      Object node = tree;
      for (Object k : (List<?>) key) {
        if (node instanceof Map) {
          final String name = Values.toJsonText(k);
          if (!((Map<?, ?>) node).containsKey(name)) {
            throw ValueException.eval("json path does not exist");
          }
          node = ((Map<?, ?>) node).get(name);
        } else if (node instanceof List) {
          final int i = jsonIndex(k);
          if (i < 0 || i >= ((List<?>) node).size()) {
            throw ValueException.eval("json path does not exist");
          }
          node = ((List<?>) node).get(i);
        } else {
          throw ValueException.eval("json path does not exist");
        }
      }
      found = node;
    } else {
      throw ValueException.eval("second argument to 'get' mut be a string or integer");
    }
    return found instanceof List || found instanceof Map ? Json.wrap(found) : found;
  }

  /** An array index in a JSON path; a negative one is past every array (CozoDB casts to usize). */
  private static int jsonIndex(Object key) {
    final Long i = integral(key);
    if (i == null) {
      throw ValueException.eval("json path must be a string or a number");
    }
    return i < 0 || i > Integer.MAX_VALUE - 1 ? -1 : i.intValue();
  }

  private static List<?> jsonPath(Object path) {
    if (!(path instanceof List)) {
      throw ValueException.eval("json path must be a string");
    }
    return (List<?>) path;
  }

  /**
   * {@code set_json_path(json, path, value)}: the document of {@code json} (any value, as
   * {@code json} makes it) with the node at {@code path} replaced by {@code value}'s JSON;
   * missing object members on the way are made (as {@code {}}), arrays are padded with nulls.
   */
  public static Json set_json_path(Object json, Object path, Object value) {
    final List<?> keys = jsonPath(path);
    return Json.wrap(editPath(Json.of(json).tree(), keys, 0, Json.of(value).tree(), false));
  }

  /**
   * {@code remove_json_path(json, path)}: the document without the node at {@code path};
   * missing object members before the last key are made (as {@code {}}), as in CozoDB.
   */
  public static Json remove_json_path(Object json, Object path) {
    final List<?> keys = jsonPath(path);
    if (keys.isEmpty()) {
      throw ValueException.eval("json path must not be empty");
    }
    return Json.wrap(editPath(Json.of(json).tree(), keys, 0, null, true));
  }

  /** A copy of {@code node} with {@code keys[at..]} set to {@code value} or removed. */
  private static Object editPath(Object node, List<?> keys, int at, Object value, boolean remove) {
    if (!remove && at == keys.size()) {
      return value;
    }
    final boolean last = remove && at == keys.size() - 1;
    final Object key = keys.get(at);
    if (node instanceof Map) {
      final String name = Values.toJsonText(key);
      final java.util.SortedMap<String, Object> out = new java.util.TreeMap<>(Values::compareStrings);
      for (Map.Entry<?, ?> e : ((Map<?, ?>) node).entrySet()) {
        out.put((String) e.getKey(), e.getValue());
      }
      if (last) {
        out.remove(name);
      } else {
        final Object child = out.containsKey(name) ? out.get(name)
            : Collections.unmodifiableSortedMap(new java.util.TreeMap<String, Object>());
        out.put(name, editPath(child, keys, at + 1, value, remove));
      }
      return Collections.unmodifiableSortedMap(out);
    }
    if (node instanceof List) {
      final int i = jsonIndex(key);
      final List<Object> out = new ArrayList<>((List<?>) node);
      if (i < 0 || last && i >= out.size()) {
        // CozoDB panics here (an index past the array's end).
        throw ValueException.eval("json path index " + Values.display(key)
            + " is past the array's end");
      }
      if (last) {
        out.remove(i);
      } else {
        while (out.size() <= i) {
          out.add(null);
        }
        out.set(i, editPath(out.get(i), keys, at + 1, value, remove));
      }
      return Collections.unmodifiableList(out);
    }
    throw ValueException.eval("json path does not exist");
  }

  public static Object json_to_scalar(Object a) {
    return a instanceof Json ? ((Json) a).scalar() : a;
  }

  /** {@code validity(timestamp[, assertion])}: a Validity, asserted unless said otherwise. */
  public static Validity validity(Object... args) {
    final Object ts = args[0];
    if (!(ts instanceof Long || ts instanceof Double && Math.rint((Double) ts) == (Double) ts)) {
      throw ValueException.eval("'validity' expects an integer");
    }
    if (args.length > 1 && !(args[1] instanceof Boolean)) {
      throw ValueException.eval("'validity' expects a boolean as second argument");
    }
    return new Validity(((Number) ts).longValue(), args.length == 1 || (Boolean) args[1]);
  }

  /** The years chrono's dates span, outside which {@code format_timestamp} fails. */
  private static final int CHRONO_MIN_YEAR = -262144;
  private static final int CHRONO_MAX_YEAR = 262143;

  /**
   * {@code format_timestamp(t[, zone])}: RFC 3339 text of a time, as CozoDB's chrono writes it
   * ({@code 2021-03-04T13:06:07.123+08:00}: milliseconds when not zero, the year signed past
   * 9999 or before 0), in UTC or the IANA time zone named. {@code t} is seconds since the Unix
   * epoch (a number) or a Validity's timestamp (µs), truncated to milliseconds.
   */
  public static String format_timestamp(Object... args) {
    final long millis;
    if (args[0] instanceof Validity) {
      millis = ((Validity) args[0]).timestamp() / 1000;
    } else if (args[0] instanceof Long || args[0] instanceof Double) {
      // Rust's (f * 1000.) as i64: truncated, saturated, NaN 0
      millis = (long) (((Number) args[0]).doubleValue() * 1000);
    } else {
      throw ValueException.eval("'format_timestamp' expects a number");
    }
    ZoneId zone = ZoneOffset.UTC;
    if (args.length > 1) {
      if (!(args[1] instanceof String)) {
        throw ValueException.eval("'format_timestamp' timezone specification requires a string");
      }
      // chrono-tz knows IANA names only, no offsets such as +08:00
      if (!ZoneId.getAvailableZoneIds().contains((String) args[1])) {
        throw ValueException.eval("bad timezone specification: " + args[1]);
      }
      zone = ZoneId.of((String) args[1]);
    }
    final Instant instant = Instant.ofEpochMilli(millis);
    final int utcYear = instant.atZone(ZoneOffset.UTC).getYear();
    if (utcYear < CHRONO_MIN_YEAR || utcYear > CHRONO_MAX_YEAR) {
      throw ValueException.eval("bad time: " + Values.display(args[0]));
    }
    final ZonedDateTime t = instant.atZone(zone);
    final int year = t.getYear();
    final StringBuilder b = new StringBuilder();
    b.append(year >= 0 && year <= 9999 ? String.format(Locale.ROOT, "%04d", year)
        : String.format(Locale.ROOT, "%+05d", year));
    b.append(String.format(Locale.ROOT, "-%02d-%02dT%02d:%02d:%02d", t.getMonthValue(),
        t.getDayOfMonth(), t.getHour(), t.getMinute(), t.getSecond()));
    if (t.getNano() != 0) {
      b.append(String.format(Locale.ROOT, ".%03d", t.getNano() / 1_000_000));
    }
    final int offset = t.getOffset().getTotalSeconds();
    b.append(offset < 0 ? '-' : '+').append(String.format(Locale.ROOT, "%02d:%02d",
        Math.abs(offset) / 3600, Math.abs(offset) / 60 % 60));
    return b.toString();
  }

  /** {@code parse_timestamp(s)}: the seconds since the Unix epoch of an RFC 3339 time, a Float. */
  public static Double parse_timestamp(Object a) {
    if (!(a instanceof String)) {
      throw ValueException.eval("'parse_timestamp' expects a string");
    }
    final OffsetDateTime t;
    try {
      t = ColType.parseRfc3339((String) a);
    } catch (DateTimeParseException e) {
      throw ValueException.eval("bad datetime: " + a);
    }
    // Rust's Duration::as_secs_f64
    return (double) t.toEpochSecond() + t.getNano() / 1e9;
  }

  /** Seconds since the Unix epoch, as a Float. */
  public static Double now() {
    return System.currentTimeMillis() / 1000.0;
  }

  /** {@code rand_float()}: uniform in [0, 1). */
  public static Double rand_float() {
    return java.util.concurrent.ThreadLocalRandom.current().nextDouble();
  }

  /** {@code rand_bernoulli(p)}: true with probability {@code p}. */
  public static Boolean rand_bernoulli(Object p) {
    if (!isNum(p) || !(toDouble(p) >= 0. && toDouble(p) <= 1.)) {
      throw ValueException.eval("'rand_bernoulli' requires number between 0. and 1.");
    }
    final double f = toDouble(p);
    return f == 1. || java.util.concurrent.ThreadLocalRandom.current().nextDouble() < f;
  }

  /**
   * {@code rand_int(lower, upper)}: uniform over both bounds included. {@code lower > upper}
   * is an error (CozoDB panics).
   */
  public static Long rand_int(Object lower, Object upper) {
    final long lo = intArg(lower, "'rand_int' requires integers");
    final long hi = intArg(upper, "'rand_int' requires integers");
    if (lo > hi) {
      throw ValueException.eval("'rand_int' requires the lower bound to be at most the upper");
    }
    final java.util.concurrent.ThreadLocalRandom r = java.util.concurrent.ThreadLocalRandom.current();
    return hi == Long.MAX_VALUE ? (lo == Long.MIN_VALUE ? r.nextLong() : r.nextLong(lo - 1, hi) + 1)
        : r.nextLong(lo, hi + 1);
  }

  /** {@code rand_choose(list)}: an element drawn uniformly; null for an empty list. */
  public static Object rand_choose(Object a) {
    final List<?> l = listArg(a, "'rand_choice' requires lists");
    return l.isEmpty() ? null
        : l.get(java.util.concurrent.ThreadLocalRandom.current().nextInt(l.size()));
  }

  /**
   * CozoDB's regex argument: Rust's {@code regex} syntax as Java runs it (Unicode classes, as
   * Rust's {@code \d}, {@code \w}, {@code \s} and {@code \b} are; {@code (?P<name>...)}
   * as {@code (?<name>...)}); look-around and back-references, which Rust's engine does not
   * have, are refused as it refuses them. Compiled patterns are kept, a few hundred.
   */
  static Pattern regex(Object reg) {
    if (!(reg instanceof String)) {
      throw ValueException.eval("'regex' requires strings");
    }
    final String source = (String) reg;
    synchronized (REGEXES) {
      final Pattern kept = REGEXES.get(source);
      if (kept != null) {
        return kept;
      }
    }
    rustRefuses(source);
    final Pattern p;
    try {
      p = Pattern.compile(source.replace("(?P<", "(?<"), Pattern.UNICODE_CHARACTER_CLASS);
    } catch (java.util.regex.PatternSyntaxException e) {
      final String d = e.getDescription();
      if (d.startsWith("Unclosed group")) {
        throw regexError(source, unmatchedOpen(source), 1, "unclosed group");
      }
      if (d.startsWith("Unmatched closing ')'")) {
        throw regexError(source, Math.max(0, e.getIndex() - 1), 1, "unopened group");
      }
      if (d.startsWith("Dangling meta character")) {
        throw regexError(source, Math.max(0, e.getIndex()), 1,
            "repetition operator missing expression");
      }
      throw regexError(source, Math.max(0, Math.min(e.getIndex(), source.length() - 1)), 1,
          d.toLowerCase(Locale.ROOT));
    }
    synchronized (REGEXES) {
      REGEXES.put(source, p);
    }
    return p;
  }

  /**
   * Refuses what Rust's engine does not have and Java's does: look-around and
   * back-references, outside character classes, as Rust reports them.
   */
  private static void rustRefuses(String source) {
    int classDepth = 0;
    for (int i = 0; i < source.length(); i++) {
      final char c = source.charAt(i);
      if (c == '\\') {
        if (classDepth == 0 && i + 1 < source.length()
            && source.charAt(i + 1) >= '1' && source.charAt(i + 1) <= '9') {
          throw regexError(source, i, 2, "backreferences are not supported");
        }
        i++;
      } else if (c == '[') {
        classDepth++;
      } else if (c == ']' && classDepth > 0) {
        classDepth--;
      } else if (classDepth == 0 && source.startsWith("(?", i)) {
        final String rest = source.substring(i + 2);
        if (rest.startsWith("=") || rest.startsWith("!")) {
          throw regexError(source, i, 3, LOOK_AROUND);
        }
        if (rest.startsWith("<=") || rest.startsWith("<!")) {
          throw regexError(source, i, 4, LOOK_AROUND);
        }
      }
    }
  }

  private static final String LOOK_AROUND =
      "look-around, including look-ahead and look-behind, is not supported";

  /** The offset of the first {@code (} that no {@code )} closes, outside classes and escapes. */
  private static int unmatchedOpen(String source) {
    final java.util.ArrayDeque<Integer> open = new java.util.ArrayDeque<>();
    int classDepth = 0;
    for (int i = 0; i < source.length(); i++) {
      final char c = source.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '[') {
        classDepth++;
      } else if (c == ']' && classDepth > 0) {
        classDepth--;
      } else if (classDepth == 0 && c == '(') {
        open.push(i);
      } else if (classDepth == 0 && c == ')' && !open.isEmpty()) {
        open.pop();
      }
    }
    return open.isEmpty() ? 0 : open.peekLast();
  }

  /** Rust's regex parse error as CozoDB shows it: the pattern, carets under the span, the kind. */
  private static ValueException regexError(String source, int at, int length, String kind) {
    return ValueException.eval("The string cannot be interpreted as regex: regex parse error:\n    "
        + source + "\n    " + " ".repeat(at) + "^".repeat(length) + "\nerror: " + kind);
  }

  private static final Map<String, Pattern> REGEXES =
      new java.util.LinkedHashMap<String, Pattern>(64, 0.75f, true) {
        @Override protected boolean removeEldestEntry(Map.Entry<String, Pattern> eldest) {
          return size() > 256;
        }
      };

  public static Boolean regex_matches(Object x, Object reg) {
    final Pattern p = regex(reg);
    return p.matcher(str(x, "regex_matches")).find();
  }

  public static String regex_replace(Object x, Object reg, Object with) {
    return replace(x, reg, with, false);
  }

  public static String regex_replace_all(Object x, Object reg, Object with) {
    return replace(x, reg, with, true);
  }

  private static String replace(Object x, Object reg, Object with, boolean all) {
    final Pattern p = regex(reg);
    if (!(x instanceof String) || !(with instanceof String)) {
      throw ValueException.eval("'regex_replace' requires strings");
    }
    final java.util.regex.Matcher m = p.matcher((String) x);
    final StringBuilder out = new StringBuilder();
    int done = 0;
    while (m.find()) {
      out.append((String) x, done, m.start());
      expand((String) with, m, out);
      done = m.end();
      if (!all) {
        break;
      }
    }
    return out.append(((String) x).substring(done)).toString();
  }

  /**
   * Rust's replacement syntax: {@code $name} (the longest run of letters, digits and
   * {@code _}) or {@code ${name}}, a group by number or name, empty when there is none;
   * {@code $$} a dollar.
   */
  private static void expand(String with, java.util.regex.Matcher m, StringBuilder out) {
    int i = 0;
    while (i < with.length()) {
      final char c = with.charAt(i);
      if (c != '$' || i + 1 == with.length()) {
        out.append(c);
        i++;
        continue;
      }
      if (with.charAt(i + 1) == '$') {
        out.append('$');
        i += 2;
        continue;
      }
      final String name;
      if (with.charAt(i + 1) == '{') {
        final int close = with.indexOf('}', i + 2);
        if (close < 0) {
          out.append(c);
          i++;
          continue;
        }
        name = with.substring(i + 2, close);
        i = close + 1;
      } else {
        int j = i + 1;
        while (j < with.length()
            && (Character.isLetterOrDigit(with.charAt(j)) || with.charAt(j) == '_')
            && with.charAt(j) < 128) {
          j++;
        }
        if (j == i + 1) {
          out.append(c);
          i++;
          continue;
        }
        name = with.substring(i + 1, j);
        i = j;
      }
      String group = null;
      try {
        group = name.chars().allMatch(Character::isDigit)
            ? (Integer.parseInt(name) <= m.groupCount() ? m.group(Integer.parseInt(name)) : null)
            : m.group(name);
      } catch (IllegalArgumentException e) {
        // no such group: empty, as in Rust
      }
      if (group != null) {
        out.append(group);
      }
    }
  }

  public static List<Object> regex_extract(Object x, Object reg) {
    final Pattern p = regex(reg);
    final java.util.regex.Matcher m = p.matcher(str(x, "regex_extract"));
    final List<Object> found = new ArrayList<>();
    while (m.find()) {
      found.add(m.group());
    }
    return Collections.unmodifiableList(found);
  }

  public static Object regex_extract_first(Object x, Object reg) {
    final Pattern p = regex(reg);
    final java.util.regex.Matcher m = p.matcher(str(x, "regex_extract_first"));
    return m.find() ? m.group() : null;
  }
}
