package dev.mnestic.value;

import java.util.List;

/**
 * A CozoDB function mnestic implements, resolved from its name once (when a script is lowered,
 * {@link Functions#resolve}): its arity rule and its body in {@link Functions}. Generated code
 * holds the constant and calls {@link #apply} per row, so no row looks a name up.
 */
public enum CozoFunction {
  // values and lists
  LIST("list", 0, true, Functions::list),
  COALESCE("coalesce", 0, true, Functions::coalesce),
  IS_NULL("is_null", 1, a -> Functions.is_null(a.get(0))),
  IS_INT("is_int", 1, a -> Functions.is_int(a.get(0))),
  IS_FLOAT("is_float", 1, a -> Functions.is_float(a.get(0))),
  IS_NUM("is_num", 1, a -> Functions.is_num(a.get(0))),
  IS_STRING("is_string", 1, a -> Functions.is_string(a.get(0))),
  IS_LIST("is_list", 1, a -> Functions.is_list(a.get(0))),
  IS_BYTES("is_bytes", 1, a -> Functions.is_bytes(a.get(0))),
  IS_FINITE("is_finite", 1, a -> Functions.is_finite(a.get(0))),
  IS_INFINITE("is_infinite", 1, a -> Functions.is_infinite(a.get(0))),
  IS_NAN("is_nan", 1, a -> Functions.is_nan(a.get(0))),
  IS_IN("is_in", 2, a -> Functions.is_in(a.get(0), a.get(1))),
  TO_BOOL("to_bool", 1, a -> Functions.to_bool(a.get(0))),
  TO_UNITY("to_unity", 1, a -> Functions.to_unity(a.get(0))),
  TO_INT("to_int", 1, a -> Functions.to_int(a.get(0))),
  TO_FLOAT("to_float", 1, a -> Functions.to_float(a.get(0))),
  TO_STRING("to_string", 1, a -> Functions.to_string(a.get(0))),
  ASSERT("assert", 1, true, Functions::assert_),
  // arithmetic
  ADD("add", 0, true, Functions::add),
  SUB("sub", 2, a -> Functions.sub(a.get(0), a.get(1))),
  MUL("mul", 0, true, Functions::mul),
  DIV("div", 2, a -> Functions.div(a.get(0), a.get(1))),
  MOD("mod", 2, a -> Functions.mod(a.get(0), a.get(1))),
  POW("pow", 2, a -> Functions.pow(a.get(0), a.get(1))),
  MINUS("minus", 1, a -> Functions.minus(a.get(0))),
  ABS("abs", 1, a -> Functions.abs(a.get(0))),
  SIGNUM("signum", 1, a -> Functions.signum(a.get(0))),
  FLOOR("floor", 1, a -> Functions.floor(a.get(0))),
  CEIL("ceil", 1, a -> Functions.ceil(a.get(0))),
  ROUND("round", 1, a -> Functions.round(a.get(0))),
  MAX("max", 1, true, Functions::max),
  MIN("min", 1, true, Functions::min),
  SQRT("sqrt", 1, a -> Functions.sqrt(a.get(0))),
  EXP("exp", 1, a -> Functions.exp(a.get(0))),
  EXP2("exp2", 1, a -> Functions.exp2(a.get(0))),
  LN("ln", 1, a -> Functions.ln(a.get(0))),
  LOG2("log2", 1, a -> Functions.log2(a.get(0))),
  LOG10("log10", 1, a -> Functions.log10(a.get(0))),
  SIN("sin", 1, a -> Functions.sin(a.get(0))),
  COS("cos", 1, a -> Functions.cos(a.get(0))),
  TAN("tan", 1, a -> Functions.tan(a.get(0))),
  ASIN("asin", 1, a -> Functions.asin(a.get(0))),
  ACOS("acos", 1, a -> Functions.acos(a.get(0))),
  ATAN("atan", 1, a -> Functions.atan(a.get(0))),
  ATAN2("atan2", 2, a -> Functions.atan2(a.get(0), a.get(1))),
  SINH("sinh", 1, a -> Functions.sinh(a.get(0))),
  COSH("cosh", 1, a -> Functions.cosh(a.get(0))),
  TANH("tanh", 1, a -> Functions.tanh(a.get(0))),
  ASINH("asinh", 1, a -> Functions.asinh(a.get(0))),
  ACOSH("acosh", 1, a -> Functions.acosh(a.get(0))),
  ATANH("atanh", 1, a -> Functions.atanh(a.get(0))),
  DEG_TO_RAD("deg_to_rad", 1, a -> Functions.deg_to_rad(a.get(0))),
  RAD_TO_DEG("rad_to_deg", 1, a -> Functions.rad_to_deg(a.get(0))),
  HAVERSINE("haversine", 4, a -> Functions.haversine(a.get(0), a.get(1), a.get(2), a.get(3))),
  HAVERSINE_DEG_INPUT("haversine_deg_input", 4,
      a -> Functions.haversine_deg_input(a.get(0), a.get(1), a.get(2), a.get(3))),
  // comparison and logic
  EQ("eq", 2, a -> Functions.eq(a.get(0), a.get(1))),
  NEQ("neq", 2, a -> Functions.neq(a.get(0), a.get(1))),
  GT("gt", 2, a -> Functions.gt(a.get(0), a.get(1))),
  GE("ge", 2, a -> Functions.ge(a.get(0), a.get(1))),
  LT("lt", 2, a -> Functions.lt(a.get(0), a.get(1))),
  LE("le", 2, a -> Functions.le(a.get(0), a.get(1))),
  AND("and", 0, true, Functions::and),
  OR("or", 0, true, Functions::or),
  NEGATE("negate", 1, a -> Functions.negate(a.get(0))),
  // strings
  CONCAT("concat", 1, true, Functions::concat),
  STR_INCLUDES("str_includes", 2, a -> Functions.str_includes(a.get(0), a.get(1))),
  LOWERCASE("lowercase", 1, a -> Functions.lowercase(a.get(0))),
  UPPERCASE("uppercase", 1, a -> Functions.uppercase(a.get(0))),
  T2S("t2s", 1, a -> Functions.t2s(a.get(0))),
  TRIM("trim", 1, a -> Functions.trim(a.get(0))),
  TRIM_START("trim_start", 1, a -> Functions.trim_start(a.get(0))),
  TRIM_END("trim_end", 1, a -> Functions.trim_end(a.get(0))),
  STARTS_WITH("starts_with", 2, a -> Functions.starts_with(a.get(0), a.get(1))),
  ENDS_WITH("ends_with", 2, a -> Functions.ends_with(a.get(0), a.get(1))),
  UNICODE_NORMALIZE("unicode_normalize", 2, a -> Functions.unicode_normalize(a.get(0), a.get(1))),
  CHARS("chars", 1, a -> Functions.chars(a.get(0))),
  SLICE_STRING("slice_string", 3, a -> Functions.slice_string(a.get(0), a.get(1), a.get(2))),
  FROM_SUBSTRINGS("from_substrings", 1, a -> Functions.from_substrings(a.get(0))),
  REGEX_MATCHES("regex_matches", 2, a -> Functions.regex_matches(a.get(0), a.get(1))),
  REGEX_REPLACE("regex_replace", 3,
      a -> Functions.regex_replace(a.get(0), a.get(1), a.get(2))),
  REGEX_REPLACE_ALL("regex_replace_all", 3,
      a -> Functions.regex_replace_all(a.get(0), a.get(1), a.get(2))),
  REGEX_EXTRACT("regex_extract", 2, a -> Functions.regex_extract(a.get(0), a.get(1))),
  REGEX_EXTRACT_FIRST("regex_extract_first", 2,
      a -> Functions.regex_extract_first(a.get(0), a.get(1))),
  // lists
  LENGTH("length", 1, a -> Functions.length(a.get(0))),
  SORTED("sorted", 1, a -> Functions.sorted(a.get(0))),
  REVERSE("reverse", 1, a -> Functions.reverse(a.get(0))),
  APPEND("append", 2, a -> Functions.append(a.get(0), a.get(1))),
  PREPEND("prepend", 2, a -> Functions.prepend(a.get(0), a.get(1))),
  FIRST("first", 1, a -> Functions.first(a.get(0))),
  LAST("last", 1, a -> Functions.last(a.get(0))),
  GET("get", 2, true, Functions::get),
  MAYBE_GET("maybe_get", 2, a -> Functions.maybe_get(a.get(0), a.get(1))),
  SLICE("slice", 3, a -> Functions.slice(a.get(0), a.get(1), a.get(2))),
  CHUNKS("chunks", 2, a -> Functions.chunks(a.get(0), a.get(1))),
  CHUNKS_EXACT("chunks_exact", 2, a -> Functions.chunks_exact(a.get(0), a.get(1))),
  WINDOWS("windows", 2, a -> Functions.windows(a.get(0), a.get(1))),
  INT_RANGE("int_range", 1, (a, stop) -> Functions.int_range(stop, a.toArray())),
  UNION("union", 1, true, Functions::union),
  INTERSECTION("intersection", 1, true, Functions::intersection),
  DIFFERENCE("difference", 2, true, Functions::difference),
  // bytes
  BIT_AND("bit_and", 2, a -> Functions.bit_and(a.get(0), a.get(1))),
  BIT_OR("bit_or", 2, a -> Functions.bit_or(a.get(0), a.get(1))),
  BIT_XOR("bit_xor", 2, a -> Functions.bit_xor(a.get(0), a.get(1))),
  BIT_NOT("bit_not", 1, a -> Functions.bit_not(a.get(0))),
  PACK_BITS("pack_bits", 1, a -> Functions.pack_bits(a.get(0))),
  UNPACK_BITS("unpack_bits", 1, a -> Functions.unpack_bits(a.get(0))),
  ENCODE_BASE64("encode_base64", 1, a -> Functions.encode_base64(a.get(0))),
  DECODE_BASE64("decode_base64", 1, a -> Functions.decode_base64(a.get(0))),
  // Uuids, Json, Validity, the clock
  IS_UUID("is_uuid", 1, a -> Functions.is_uuid(a.get(0))),
  IS_JSON("is_json", 1, a -> Functions.is_json(a.get(0))),
  TO_UUID("to_uuid", 1, a -> Functions.to_uuid(a.get(0))),
  RAND_UUID_V1("rand_uuid_v1", 0, a -> Functions.rand_uuid_v1()),
  RAND_UUID_V4("rand_uuid_v4", 0, a -> Functions.rand_uuid_v4()),
  UUID_TIMESTAMP("uuid_timestamp", 1, a -> Functions.uuid_timestamp(a.get(0))),
  JSON("json", 1, a -> Functions.json(a.get(0))),
  PARSE_JSON("parse_json", 1, a -> Functions.parse_json(a.get(0))),
  DUMP_JSON("dump_json", 1, a -> Functions.dump_json(a.get(0))),
  JSON_OBJECT("json_object", 0, true, Functions::json_object),
  JSON_TO_SCALAR("json_to_scalar", 1, a -> Functions.json_to_scalar(a.get(0))),
  SET_JSON_PATH("set_json_path", 3,
      a -> Functions.set_json_path(a.get(0), a.get(1), a.get(2))),
  REMOVE_JSON_PATH("remove_json_path", 2, a -> Functions.remove_json_path(a.get(0), a.get(1))),
  VALIDITY("validity", 1, true, Functions::validity),
  NOW("now", 0, a -> Functions.now()),
  FORMAT_TIMESTAMP("format_timestamp", 1, true, Functions::format_timestamp),
  PARSE_TIMESTAMP("parse_timestamp", 1, a -> Functions.parse_timestamp(a.get(0))),
  // vectors
  IS_VEC("is_vec", 1, a -> Functions.is_vec(a.get(0))),
  VEC("vec", 1, true, Functions::vec),
  RAND_VEC("rand_vec", 1, true, Functions::rand_vec),
  L2_NORMALIZE("l2_normalize", 1, a -> Functions.l2_normalize(a.get(0))),
  L2_DIST("l2_dist", 2, a -> Functions.l2_dist(a.get(0), a.get(1))),
  IP_DIST("ip_dist", 2, a -> Functions.ip_dist(a.get(0), a.get(1))),
  COS_DIST("cos_dist", 2, a -> Functions.cos_dist(a.get(0), a.get(1))),
  // random draws
  RAND_FLOAT("rand_float", 0, a -> Functions.rand_float()),
  RAND_BERNOULLI("rand_bernoulli", 1, a -> Functions.rand_bernoulli(a.get(0))),
  RAND_INT("rand_int", 2, a -> Functions.rand_int(a.get(0), a.get(1))),
  RAND_CHOOSE("rand_choose", 1, a -> Functions.rand_choose(a.get(0)));

  /** The function's name in CozoScript. */
  public final String cozoName;
  /** The fewest arguments it takes; with {@link #vararg}, also more. */
  final int minArity;
  /** Whether it takes {@link #minArity} or more arguments, not exactly that many. */
  final boolean vararg;
  private final Impl impl;

  /** A function body over its (already counted) arguments, stopped through {@code stop}. */
  @FunctionalInterface
  private interface Impl {
    Object apply(List<Object> a, StopCheck stop);
  }

  /** A function body that makes nothing large enough to need a stop check. */
  @FunctionalInterface
  private interface PlainImpl {
    Object apply(List<Object> a);
  }

  /** A vararg method reference. */
  @FunctionalInterface
  private interface VarImpl {
    Object apply(Object[] args);
  }

  CozoFunction(String cozoName, int arity, PlainImpl impl) {
    this(cozoName, (a, stop) -> impl.apply(a), arity, false);
  }

  CozoFunction(String cozoName, int minArity, boolean vararg, VarImpl impl) {
    this(cozoName, (a, stop) -> impl.apply(a.toArray()), minArity, vararg);
  }

  CozoFunction(String cozoName, int minArity, Impl impl) {
    this(cozoName, impl, minArity, true);
  }

  private CozoFunction(String cozoName, Impl impl, int minArity, boolean vararg) {
    this.cozoName = cozoName;
    this.minArity = minArity;
    this.vararg = vararg;
    this.impl = impl;
  }

  /**
   * Applies the function to {@code args}, whose count {@link Functions#resolve} checked; a
   * function that builds a large value calls {@code stop} as it goes.
   *
   * @throws ValueException if the function fails on the arguments ({@code eval::throw})
   */
  public Object apply(List<Object> args, StopCheck stop) {
    return impl.apply(args, stop);
  }

  /** The CozoScript name, as EXPLAIN shows it. */
  @Override public String toString() {
    return cozoName;
  }
}
