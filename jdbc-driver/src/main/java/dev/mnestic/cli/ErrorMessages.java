package dev.mnestic.cli;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one message the CLI prints for an exception.
 *
 * <p>Calcite wraps every failure of a statement in
 * {@code SQLException("Error while executing SQL \"...\": <cause>")}, and the
 * store's own failures (HSQLDB's) are {@link SQLException}s deeper in the
 * chain. So the message is that of the deepest {@code SQLException} in the
 * cause chain, without Calcite's prefix:
 * <ul>
 *   <li>parse errors: {@code parse failed: Encountered "FORM" at line 1,
 *       column 10.}, followed by the expected tokens on the same line when
 *       there are at most {@value #MAX_EXPECTED} of them;
 *   <li>validation errors: {@code From line 1, column 15 to line 1, column
 *       20: Object 'x' not found};
 *   <li>store errors: HSQLDB's message, such as {@code integrity constraint
 *       violation: unique constraint or index violation ; SYS_PK_10092
 *       table: "t"}.
 * </ul>
 * A chain without a {@code SQLException} (Calcite lets exceptions of
 * generated code escape from {@code ResultSet.next()} unwrapped) gives its
 * root cause, such as {@code ArithmeticException: / by zero}; just the
 * message if that is an {@code IllegalArgumentException} or
 * {@code IllegalStateException}, which mnestic throws with messages meant
 * for the user.
 */
final class ErrorMessages {
  /** Longest list of expected tokens worth printing after a parse error. */
  static final int MAX_EXPECTED = 16;

  private static final Pattern POSITION = Pattern.compile("line (\\d+), column (\\d+)");

  private ErrorMessages() {
  }

  /** The message for {@code e}, thrown by a statement or by connecting. */
  static String of(Throwable e) {
    return of(e, null);
  }

  /**
   * The message for {@code e}, thrown by {@code statement}; positions
   * ("line 2, column 5") are turned from positions in the statement into
   * positions in the script that it came from.
   */
  static String of(Throwable e, SqlScript.Statement statement) {
    SQLException deepest = null;
    Throwable root = e;
    int depth = 0;
    for (Throwable t = e; t != null && depth < 100; t = t.getCause(), depth++) {
      if (t instanceof SQLException && t.getMessage() != null) {
        deepest = (SQLException) t;
      }
      root = t;
    }
    String message;
    if (deepest != null) {
      message = deepest.getMessage();
      final String prefix = statement == null ? null
          : "Error while executing SQL \"" + statement.text() + "\": ";
      if (prefix != null && message.startsWith(prefix)) {
        message = message.substring(prefix.length());
      }
    } else if (root.getMessage() != null && (root.getClass() == IllegalArgumentException.class
        || root.getClass() == IllegalStateException.class)) {
      // Thrown on purpose, with a message meant for the user.
      message = root.getMessage();
    } else {
      message = root.getClass().getSimpleName()
          + (root.getMessage() != null ? ": " + root.getMessage() : "");
    }
    message = compactExpected(message);
    return statement == null ? message : shift(message, statement.line(), statement.column());
  }

  /** Joins a parse error's "Was expecting one of:" list onto one line, or drops a long one. */
  private static String compactExpected(String message) {
    final int at = message.indexOf("\nWas expecting");
    if (at < 0) {
      return message;
    }
    final String[] lines = message.substring(at + 1).split("\n");
    final List<String> expected = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      final String token = lines[i].trim().replaceFirst("\\s*\\.\\.\\.$", "");
      if (!token.isEmpty()) {
        expected.add(token);
      }
    }
    final String head = message.substring(0, at);
    if (expected.isEmpty() || expected.size() > MAX_EXPECTED) {
      return head;
    }
    return head + " Was expecting " + (expected.size() == 1 ? "" : "one of: ")
        + String.join(", ", expected);
  }

  /** Adds the statement's offset in its script to every "line L, column C". */
  private static String shift(String message, int line, int column) {
    if (line == 1 && column == 1) {
      return message;
    }
    final Matcher matcher = POSITION.matcher(message);
    final StringBuilder b = new StringBuilder();
    while (matcher.find()) {
      final int l = Integer.parseInt(matcher.group(1));
      final int c = Integer.parseInt(matcher.group(2));
      matcher.appendReplacement(b,
          "line " + (l + line - 1) + ", column " + (l == 1 ? c + column - 1 : c));
    }
    matcher.appendTail(b);
    return b.toString();
  }
}
