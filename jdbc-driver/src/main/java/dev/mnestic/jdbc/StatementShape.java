package dev.mnestic.jdbc;

import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;

/**
 * Checks on an SQL statement's text made before it is parsed: it is not
 * empty, and its parentheses and brackets nest at most {@link #MAX_DEPTH}
 * levels. Parsing, validating and planning recurse once per level; a deeper
 * statement is refused here, at the place it passes the limit, rather than
 * when a stack runs out. (Preparation runs on a {@link DeepStack} thread,
 * which takes the limit, and chains of operators as long, with room.)
 */
final class StatementShape {
  /** Deepest nesting of parentheses and brackets a statement may have. */
  static final int MAX_DEPTH = 2_000;

  private StatementShape() {
  }

  /**
   * Throws (SQLSTATE 42601) if {@code sql} holds nothing but blanks and comments, or (54001)
   * if its parentheses and brackets, outside literals, quoted names and comments, nest deeper
   * than {@link #MAX_DEPTH}, naming the line and column where they do.
   */
  static void check(String sql) throws SQLException {
    final int n = sql.length();
    boolean empty = true;
    int depth = 0;
    int line = 1;
    int lineStart = 0;
    for (int i = 0; i < n; i++) {
      final char c = sql.charAt(i);
      if (c == '\n') {
        line++;
        lineStart = i + 1;
        continue;
      }
      if (Character.isWhitespace(c)) {
        continue;
      }
      if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i + 1 < n && sql.charAt(i + 1) != '\n') {
          i++;
        }
        continue;
      }
      if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        final int end = sql.indexOf("*/", i + 2);
        final int stop = end < 0 ? n : end + 2;
        for (int j = i; j < stop; j++) {
          if (sql.charAt(j) == '\n') {
            line++;
            lineStart = j + 1;
          }
        }
        i = stop - 1;
        continue;
      }
      empty = false;
      if (c == '\'' || c == '"' || c == '`') {
        // A quote doubled inside is the quote itself: the scan resumes at the next one.
        int j = i + 1;
        while (j < n && sql.charAt(j) != c) {
          if (sql.charAt(j) == '\n') {
            line++;
            lineStart = j + 1;
          }
          j++;
        }
        i = j;
      } else if (c == '(' || c == '[') {
        if (++depth > MAX_DEPTH) {
          throw new SQLException("At line " + line + ", column " + (i - lineStart + 1)
              + ": expressions nested deeper than the limit of " + MAX_DEPTH + " levels",
              SqlFailures.TOO_COMPLEX);
        }
      } else if ((c == ')' || c == ']') && depth > 0) {
        depth--;
      }
    }
    if (empty) {
      throw new SQLSyntaxErrorException("empty statement: nothing to run", "42601");
    }
  }
}
