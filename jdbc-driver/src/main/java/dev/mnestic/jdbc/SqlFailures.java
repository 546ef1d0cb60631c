package dev.mnestic.jdbc;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.ValueException;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.util.DateTimeUtils;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.apache.calcite.util.Static;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.time.DateTimeException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a JDBC caller sees of a failed statement: an {@link SQLException}
 * with a SQLSTATE and a message meant for a person, whatever the parser,
 * the validator, the planner, generated code or the store threw. The
 * driver's {@code Meta} passes every failure through {@link #of}, so no
 * other {@code Throwable} reaches a caller (embedded, or a thin client
 * through the server).
 *
 * <p>SQLSTATEs, from the first exception of the cause chain that has one:
 * <ul>
 *   <li>an {@code SQLException} with a SQLSTATE (the store's, such as
 *       23505 for a duplicate key; HYT00 for a query timeout): its own;
 *   <li>a parse error: 42601, its message saying the line and column; a
 *       statement nested deeper than the parser's limit or too large to
 *       compile: 54001;
 *   <li>a validation error: 42S02 for an unknown table, 42S22 for an
 *       unknown column, 23502 for NULL written to a NOT NULL column, 42000
 *       otherwise; a standing query's: 42000;
 *   <li>a script's error ({@code lang=datalog}): by its CozoDB code, which
 *       its message keeps ({@link #DATALOG_STATES}): 42601 for
 *       {@code parser::*}, 42S02 and 42S22 for an unknown relation or
 *       column, 22000 for a value that cannot be coerced, 23502 for a NULL
 *       key, 2BP01 for a table a standing query reads that a script would drop, 42501 for
 *       what a relation's access level forbids,
 *       0A000 for what mnestic does not implement, 42000 for other
 *       {@code eval::*}; 22000 for a function failing on its values;
 *   <li>computing a row: 22012 division by zero, 22003 numeric overflow,
 *       22018 a string that is no number, 22007 a bad date or time, 22000
 *       another failure of a function on its arguments (their messages
 *       name no Java exception);
 *   <li>a plan Calcite cannot implement, or a statement it parses and does not implement
 *       ({@code TABLE t}): 0A000; a parameter not set: 07002;
 *   <li>out of memory: 53200; stack exhausted: 54001;
 *   <li>anything else, an internal error: XX000, with the first line of the
 *       exception's message (never generated code), and its class only when
 *       it has no message or {@value #DEBUG_PROPERTY} is set.
 * </ul>
 * The vendor code is that of the SQLException that gave the SQLSTATE (the
 * store's, such as HSQLDB's -104 for a unique constraint), else 0.
 */
final class SqlFailures {
  /** Longest message passed on; past it the message is cut. */
  static final int MAX_MESSAGE = 4_000;

  /**
   * The system property that, set to true, has an internal error's message name its Java
   * exception (for a bug report); otherwise no message names one.
   */
  static final String DEBUG_PROPERTY = "mnestic.debug";

  private static final boolean DEBUG = Boolean.getBoolean(DEBUG_PROPERTY);

  /** Internal error: a failure mnestic did not expect. */
  static final String INTERNAL = "XX000";

  /** Statement too complex (nested too deep, too large to compile). */
  static final String TOO_COMPLEX = "54001";

  /**
   * Calcite's validator failing on an unknown table (not one unknown within a schema, which
   * stays 42000). Its exceptions carry no code, so the patterns are made from Calcite's own
   * message templates ({@link #validatorMessages}), not copied text.
   */
  private static final Pattern UNKNOWN_TABLE = validatorMessages(
      Static.RESOURCE.objectNotFound("\0").str(),
      Static.RESOURCE.objectNotFoundDidYouMean("\0", "\0").str(),
      Static.RESOURCE.tableNameNotFound("\0").str(),
      Static.RESOURCE.tableNameNotFoundDidYouMean("\0", "\0").str(),
      Static.RESOURCE.tableNotFound("\0").str());

  /** Calcite's validator failing on an unknown column or field. */
  private static final Pattern UNKNOWN_COLUMN = validatorMessages(
      Static.RESOURCE.columnNotFound("\0").str(),
      Static.RESOURCE.columnNotFoundDidYouMean("\0", "\0").str(),
      Static.RESOURCE.columnNotFoundInTable("\0", "\0").str(),
      Static.RESOURCE.columnNotFoundInTableDidYouMean("\0", "\0", "\0").str(),
      Static.RESOURCE.unknownField("\0").str());

  /** Feature not supported: a statement the planner cannot implement. */
  static final String NOT_SUPPORTED = "0A000";

  /** Calcite's validator refusing NULL for a NOT NULL column. */
  private static final Pattern NOT_NULLABLE = validatorMessages(
      Static.RESOURCE.columnNotNullable("\0").str());

  /**
   * The SQLSTATE of a script's error by its CozoDB code; codes not listed are 42601 for
   * {@code parser::*}, 42000 for the others.
   */
  static final Map<ErrorCode, String> DATALOG_STATES = Map.ofEntries(
      Map.entry(ErrorCode.PARSER_PARAM_NOT_FOUND, "07002"),
      Map.entry(ErrorCode.PARSER_AGGR_NOT_FOUND, "42883"),
      Map.entry(ErrorCode.PARSER_TOO_DEEP, TOO_COMPLEX),
      Map.entry(ErrorCode.MNESTIC_TOO_DEEP, TOO_COMPLEX),
      Map.entry(ErrorCode.QUERY_RELATION_NOT_FOUND, "42S02"),
      Map.entry(ErrorCode.EVAL_RULE_NOT_FOUND, "42S02"),
      Map.entry(ErrorCode.EVAL_STORED_RELATION_CONFLICT, "42S01"),
      Map.entry(ErrorCode.EVAL_REL_NAME_CONFLICT, "42S01"),
      Map.entry(ErrorCode.MNESTIC_TABLE_READ_ELSEWHERE, "2BP01"),
      Map.entry(ErrorCode.TX_INSUFFICIENT_ACCESS_LEVEL, "42501"),
      Map.entry(ErrorCode.QUERY_SORT_KEY_NOT_FOUND, "42S22"),
      Map.entry(ErrorCode.EVAL_NAMED_FIELD_NOT_FOUND, "42S22"),
      Map.entry(ErrorCode.EVAL_REQUIRED_COL_NOT_FOUND, "42S22"),
      Map.entry(ErrorCode.EVAL_COERCION_NULL, "23502"),
      Map.entry(ErrorCode.MNESTIC_NULL_KEY, "23502"),
      Map.entry(ErrorCode.EVAL_REQUIRED_COL_NOT_PROVIDED, "23502"),
      Map.entry(ErrorCode.EVAL_COERCION_FAILED, "22000"),
      Map.entry(ErrorCode.EVAL_COERCION_BAD_LIST_LEN, "22000"),
      Map.entry(ErrorCode.EVAL_COL_TYPE_MISMATCH, "22000"),
      Map.entry(ErrorCode.EVAL_THROW, "22000"),
      Map.entry(ErrorCode.IMPORT_BAD_JSON, "22032"),
      Map.entry(ErrorCode.FIXED_RULE_ARG_WRONG, "22023"),
      Map.entry(ErrorCode.MNESTIC_AGGREGATE_OVERFLOW, "22003"),
      Map.entry(ErrorCode.EVAL_ASSERT_NONE_FAILURE, "23000"),
      Map.entry(ErrorCode.EVAL_ASSERT_SOME_FAILURE, "23000"),
      Map.entry(ErrorCode.TRANSACT_ASSERTION_FAILURE, "23000"),
      Map.entry(ErrorCode.MNESTIC_UNSUPPORTED, NOT_SUPPORTED),
      Map.entry(ErrorCode.EVAL_NO_IMPLEMENTATION, NOT_SUPPORTED),
      Map.entry(ErrorCode.MNESTIC_NO_FIXPOINT, "54000"),
      Map.entry(ErrorCode.MNESTIC_FRONTIER_DIVERGES, "54000"),
      Map.entry(ErrorCode.MNESTIC_INTERNAL, INTERNAL));

  private static final Pattern POSITION = Pattern.compile("line \\d+, column \\d+");

  private static final Pattern TOO_LARGE = Pattern.compile(
      "code too large|too many constants|grows beyond 64 KB|too large", Pattern.CASE_INSENSITIVE);

  private SqlFailures() {
  }

  /**
   * The SQLException a caller gets for {@code e}: {@code e} itself when it is one with a
   * SQLSTATE, otherwise a new one (with {@code e} as its cause) as the class Javadoc says.
   */
  static SQLException of(Throwable e) {
    if (e instanceof SQLException sql && sql.getSQLState() != null) {
      return sql;
    }
    String state = null;
    Throwable stated = null;
    for (Throwable t = e; t != null && stated == null; t = next(t)) {
      state = stateOf(t);
      stated = state != null ? t : null;
    }
    if (stated == null) {
      state = INTERNAL;
    }
    final String message = switch (state) {
      case INTERNAL -> internal(root(e));
      case TOO_COMPLEX -> stated instanceof StackOverflowError || isTooLarge(stated)
          ? tooComplex(stated) : messageOf(e);
      case NOT_SUPPORTED -> stated != null && isUnplannable(stated)
          ? "not supported: the planner has no implementation for " + firstLine(
              String.valueOf(stated.getMessage()).replaceFirst("^Unable to implement ", "")
              .replaceFirst(": rowcount = .*", ""))
          : stated != null && isUnimplemented(stated)
          ? "not supported: "
              + String.valueOf(stated.getMessage()).replaceFirst("^class \\S+: ", "")
          : messageOf(e);
      case "53200" -> "statement ran out of memory (" + stated.getMessage() + ") and was stopped";
      case "42601" -> stated instanceof SqlParseException parse ? parseMessage(parse)
          : messageOf(e);
      default -> stated != null && dataMessage(stated) != null ? named(e, stated)
          : messageOf(e);
    };
    if (stated instanceof SQLTimeoutException timeout && stated == e) {
      return timeout;
    }
    return new SQLException(cut(message), state,
        stated instanceof SQLException sql ? sql.getErrorCode() : 0, e);
  }

  /**
   * Throws {@link #of}{@code (e)} from a method that declares no SQLException (Avatica's
   * {@code Meta} methods), so it reaches the caller as it is: Avatica wraps only runtime
   * exceptions (into an SQLException without a SQLSTATE).
   */
  static RuntimeException raise(Throwable e) {
    throw SqlFailures.<RuntimeException>sneaky(of(e));
  }

  /** Throws a checked exception through a method that does not declare it. */
  @SuppressWarnings("unchecked")
  static <E extends Throwable> E sneaky(Throwable e) throws E {
    throw (E) e;
  }

  /** The SQLSTATE that {@code t} itself stands for, or null when its cause should say. */
  private static String stateOf(Throwable t) {
    if (t instanceof SQLException sql) {
      return sql.getSQLState();
    }
    if (t instanceof AvaticaClientRuntimeException avatica) {
      return avatica.getSqlState();
    }
    if (t instanceof StackOverflowError || isTooLarge(t)) {
      return TOO_COMPLEX;
    }
    if (t instanceof OutOfMemoryError) {
      return "53200";
    }
    if (t instanceof SqlParseException) {
      return "42601";
    }
    if (t instanceof CalciteContextException || t instanceof SqlValidatorException) {
      final String message = String.valueOf(t.getMessage());
      return UNKNOWN_TABLE.matcher(message).find() ? "42S02"
          : UNKNOWN_COLUMN.matcher(message).find() ? "42S22"
          : NOT_NULLABLE.matcher(message).find() ? "23502"
          : "42000";
    }
    if (Standing.queries().isQueryError(t)) {
      return "42000";
    }
    if (t instanceof DatalogException d) {
      return datalogState(d.errorCode());
    }
    if (t instanceof ValueException) {
      return "22000";
    }
    if (t instanceof ArithmeticException) {
      return String.valueOf(t.getMessage()).toLowerCase().contains("zero") ? "22012" : "22003";
    }
    if (t instanceof NumberFormatException) {
      return "22018";
    }
    if (t instanceof DateTimeException || isDateTimeParse(t)) {
      return "22007";
    }
    if (t.getCause() == null && String.valueOf(t.getMessage()).endsWith("unbound parameter")) {
      // Calcite's generated code reading a parameter the PreparedStatement never set.
      return "07002";
    }
    if (isUnplannable(t) || isUnimplemented(t)) {
      return NOT_SUPPORTED;
    }
    if (t.getCause() == null && t instanceof RuntimeException
        && String.valueOf(t.getMessage()).startsWith("parse failed: ")) {
      // Calcite's parser's own complaints (a non-query in a query's place) come so.
      return "42601";
    }
    return null;
  }

  /** {@link #DATALOG_STATES}' state for a script error's code. */
  static String datalogState(ErrorCode code) {
    if (code == null) {
      return "42000";
    }
    return DATALOG_STATES.getOrDefault(code, code.namespace().equals("parser") ? "42601" : "42000");
  }

  /**
   * A date, time or timestamp literal or cast that is no valid one: Avatica's DateTimeUtils
   * (which Calcite's generated code calls) says so with a plain IllegalArgumentException,
   * so where it was thrown tells it apart.
   */
  private static boolean isDateTimeParse(Throwable t) {
    final StackTraceElement[] stack = t.getStackTrace();
    return t instanceof IllegalArgumentException && stack.length > 0
        && stack[0].getClassName().equals(DateTimeUtils.class.getName());
  }

  /**
   * The message for a failure computing a value whose Java exception's message needs its
   * class to be understood ("/ by zero"), or null for any other failure.
   */
  private static String dataMessage(Throwable t) {
    final String m = String.valueOf(t.getMessage());
    if (t instanceof ArithmeticException) {
      return m.toLowerCase(Locale.ROOT).contains("zero") || m.equals("Division undefined")
          ? "division by zero" : "numeric value out of range: " + m;
    }
    if (t instanceof NumberFormatException) {
      return "invalid number: " + m;
    }
    if (t instanceof DateTimeException || isDateTimeParse(t)) {
      return "invalid date, time or timestamp: " + m;
    }
    return null;
  }

  /**
   * The message of data error {@code stated} ({@link #dataMessage}) after what mnestic was
   * doing when it failed, where an {@link IllegalStateException} of its own in {@code e}'s
   * chain says so before the failure's own message ("standing query b cannot be read: " +
   * the message), so that the reader learns which standing query failed.
   */
  private static String named(Throwable e, Throwable stated) {
    final String raw = String.valueOf(stated.getMessage());
    for (Throwable t = e; t != null && t != stated; t = next(t)) {
      final String m = t.getMessage();
      if (t.getClass() == IllegalStateException.class && m != null && m.endsWith(": " + raw)) {
        return m.substring(0, m.length() - raw.length()) + dataMessage(stated);
      }
    }
    return dataMessage(stated);
  }

  /**
   * A parse error's message, always with its line and column: Calcite's own checks (such as
   * its refusal of {@code SELEC 1}, a name where a statement should be) leave them out.
   */
  private static String parseMessage(SqlParseException e) {
    final String m = String.valueOf(e.getMessage());
    final SqlParserPos pos = e.getPos();
    return pos == null || POSITION.matcher(m).find() ? "parse failed: " + m
        : "parse failed at line " + pos.getLineNum() + ", column " + pos.getColumnNum() + ": "
            + m;
  }

  /**
   * A pattern for the messages of the Calcite resources {@code messages}, whose arguments are
   * each {@code \0}: the whole message of a validator exception, or what follows the position
   * a {@code CalciteContextException} puts before it ("From line 1, column 15 to ...: ").
   */
  private static Pattern validatorMessages(String... messages) {
    return Pattern.compile(Arrays.stream(messages)
        .map(m -> Arrays.stream(m.split("\0", -1)).map(Pattern::quote)
            .collect(Collectors.joining(".*?")))
        .collect(Collectors.joining("|", "(?:^|: )(?:", ")$")), Pattern.DOTALL);
  }

  /**
   * The planner's failure to implement a valid plan (TUMBLE outside a stream, shapes no rule
   * implements): Calcite's "Unable to implement" and CannotPlanException, whose messages dump
   * the whole plan.
   */
  private static boolean isUnplannable(Throwable t) {
    return t.getClass().getSimpleName().equals("CannotPlanException")
        || t instanceof IllegalStateException
        && String.valueOf(t.getMessage()).startsWith("Unable to implement ");
  }

  /**
   * Calcite's {@code Util.needToImplement}: a statement it parses but does not implement (such
   * as {@code TABLE t}), whose message names the parse tree's class, then its text.
   */
  private static boolean isUnimplemented(Throwable t) {
    final StackTraceElement[] stack = t.getStackTrace();
    return t instanceof UnsupportedOperationException && stack.length > 0
        && stack[0].getClassName().equals("org.apache.calcite.util.Util")
        && stack[0].getMethodName().equals("needToImplement");
  }

  /**
   * Janino's failure on generated code too large for a method or a class file (its other
   * failures are mnestic's or Calcite's bugs: internal errors).
   */
  private static boolean isTooLarge(Throwable t) {
    return t.getClass().getName().startsWith("org.codehaus.")
        && TOO_LARGE.matcher(String.valueOf(t.getMessage())).find();
  }

  private static Throwable next(Throwable t) {
    return t.getCause() == t ? null : t.getCause();
  }

  private static Throwable root(Throwable e) {
    Throwable root = e;
    for (int depth = 0; next(root) != null && depth < 100; depth++) {
      root = next(root);
    }
    return root;
  }

  /**
   * The outermost message of the chain that says more than its cause's class and message
   * (a wrapper made with {@code new RuntimeException(cause)} says nothing of its own).
   */
  private static String messageOf(Throwable e) {
    for (Throwable t = e; t != null; t = next(t)) {
      final String m = t.getMessage();
      if (m != null && !m.isEmpty() && !(next(t) != null && m.equals(next(t).toString()))) {
        // Java's own exceptions' messages ("/ by zero", "For input string: \"x\"") need
        // their class to be understood; mnestic's and Calcite's are sentences of their own.
        final boolean bare = t.getClass().getName().startsWith("java.")
            && !(t instanceof SQLException) && t.getClass() != RuntimeException.class
            && t.getClass() != IllegalStateException.class
            && t.getClass() != IllegalArgumentException.class;
        return bare ? t.getClass().getSimpleName() + ": " + m : m;
      }
    }
    return internal(root(e));
  }

  private static String internal(Throwable root) {
    if (root.getMessage() == null || DEBUG) {
      return "internal error: " + root.getClass().getName()
          + (root.getMessage() == null ? "" : ": " + firstLine(root.getMessage()));
    }
    return "internal error: " + firstLine(root.getMessage())
        + " (a bug of mnestic; -D" + DEBUG_PROPERTY + "=true names its Java exception)";
  }

  private static String tooComplex(Throwable t) {
    return t instanceof StackOverflowError
        ? "statement too complex: its expressions are nested too deeply or chained too long"
            + " for the stack (limit: " + StatementShape.MAX_DEPTH + " levels of nesting)"
        : "statement too complex: the code generated for it exceeds the JVM's limit on the"
            + " size of a method; split it into smaller statements";
  }

  private static String firstLine(String s) {
    final int nl = s.indexOf('\n');
    return cut(nl < 0 ? s : s.substring(0, nl));
  }

  /** {@code s}, cut to {@link #MAX_MESSAGE} characters and an ellipsis when longer. */
  static String cut(String s) {
    return s.length() <= MAX_MESSAGE ? s : s.substring(0, MAX_MESSAGE) + "…";
  }
}
