package dev.mnestic.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a SQL script into statements at the semicolons that the SQL lexer
 * would see as semicolons.
 *
 * <p>A semicolon does not end a statement inside
 * <ul>
 *   <li>a string: {@code 'it''s; fine'}, where {@code ''} is a quote, or a
 *       C-style string {@code E'it\'s'}, where a backslash escapes;
 *   <li>a quoted identifier: {@code "a;b"}, where {@code ""} is a quote;
 *   <li>a line comment, from {@code --} or {@code //} (both are comments to
 *       Calcite's lexer) to the end of the line;
 *   <li>a block comment, {@code /* ... *}{@code /}.
 * </ul>
 *
 * <p>Each statement runs from its first to its last character outside
 * comments and white space, so comments before and after a statement are
 * dropped, and a statement that holds nothing else (such as the empty one
 * after a final semicolon) is skipped. An unterminated string, identifier or
 * comment runs to the end of the script; the parser then reports it.
 */
final class SqlScript {
  private final String script;
  private final List<Statement> statements = new ArrayList<>();
  /** Offset of the first significant character of the current statement, or -1. */
  private int start = -1;
  /** Offset just past the last significant character of the current statement. */
  private int end;
  /** Line and column of {@link #cursor}; advanced only forwards. */
  private int cursor;
  private int line = 1;
  private int column = 1;

  private SqlScript(String script) {
    this.script = script;
  }

  /** A statement, and the line and column (both from 1) of the script where it starts. */
  record Statement(String text, int line, int column) {
  }

  /** The statements of {@code script}, in order. */
  static List<Statement> split(String script) {
    return new SqlScript(script).split();
  }

  private List<Statement> split() {
    final int n = script.length();
    int i = 0;
    while (i < n) {
      final char c = script.charAt(i);
      final char next = i + 1 < n ? script.charAt(i + 1) : '\0';
      if (c == '\'' || c == '"') {
        i = significant(i, quoted(i, c, c == '\'' && isCStylePrefix(i)));
      } else if (c == '-' && next == '-' || c == '/' && next == '/') {
        i = lineEnd(i);
      } else if (c == '/' && next == '*') {
        final int close = script.indexOf("*/", i + 2);
        i = close < 0 ? n : close + 2;
      } else if (c == ';') {
        endStatement();
        i++;
      } else if (Character.isWhitespace(c)) {
        i++;
      } else {
        i = significant(i, i + 1);
      }
    }
    endStatement();
    return statements;
  }

  /** Marks {@code [from, to)} part of the current statement; returns {@code to}. */
  private int significant(int from, int to) {
    if (start < 0) {
      start = from;
    }
    end = to;
    return to;
  }

  private void endStatement() {
    if (start >= 0) {
      advanceTo(start);
      statements.add(new Statement(script.substring(start, end), line, column));
      start = -1;
    }
  }

  /** The offset just past the quoted string or identifier that opens at {@code open}. */
  private int quoted(int open, char quote, boolean backslashEscapes) {
    final int n = script.length();
    int i = open + 1;
    while (i < n) {
      final char c = script.charAt(i);
      if (backslashEscapes && c == '\\') {
        i += 2;
      } else if (c != quote) {
        i++;
      } else if (i + 1 < n && script.charAt(i + 1) == quote) {
        i += 2;
      } else {
        return i + 1;
      }
    }
    return n;
  }

  /** Whether the quote at {@code quote} opens a C-style string: {@code E'...'}. */
  private boolean isCStylePrefix(int quote) {
    return quote >= 1
        && (script.charAt(quote - 1) == 'E' || script.charAt(quote - 1) == 'e')
        && (quote == 1 || !Character.isJavaIdentifierPart(script.charAt(quote - 2)));
  }

  private int lineEnd(int from) {
    int i = from;
    while (i < script.length() && script.charAt(i) != '\n' && script.charAt(i) != '\r') {
      i++;
    }
    return i;
  }

  /**
   * Moves {@link #cursor} to {@code offset}, counting lines as Calcite's
   * parser does: {@code \n}, {@code \r} and {@code \r\n} each end a line, and
   * a tab is one column.
   */
  private void advanceTo(int offset) {
    for (; cursor < offset; cursor++) {
      final char c = script.charAt(cursor);
      if (c == '\n' || c == '\r' && !(cursor + 1 < script.length() && script.charAt(cursor + 1) == '\n')) {
        line++;
        column = 1;
      } else if (c != '\r') {
        column++;
      }
    }
  }
}
