package dev.mnestic.datalog.error;

import dev.mnestic.value.ErrorCode;

/**
 * An error in a script, reported as CozoDB reports it: a code such as
 * {@code parser::pest} or {@code eval::unbound_symb_in_head} (null for the
 * errors CozoDB gives without one, such as an aggregation's), a message, and
 * where it is (1-based line and column; 0 when the error has no place).
 */
public final class DatalogException extends RuntimeException {
  private final ErrorCode code;
  private final int line;
  private final int column;
  private final String help;

  public DatalogException(ErrorCode code, String message, int line, int column, String help) {
    super(message);
    this.code = code;
    this.line = line;
    this.column = column;
    this.help = help;
  }

  public DatalogException(ErrorCode code, String message, int line, int column) {
    this(code, message, line, column, null);
  }

  /** The code as CozoDB shows it, such as {@code parser::pest}; null for none. */
  public String code() {
    return code == null ? null : code.code();
  }

  /** {@link #code()} from the catalog; null for none. */
  public ErrorCode errorCode() {
    return code;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  /** Advice beyond the message, or null. */
  public String help() {
    return help;
  }

  /**
   * The error as a person reads it: {@code line:column: message [code]} (no
   * {@code [code]} when there is none), the
   * offending source line and a caret under the column, then any help.
   */
  public String render(String source) {
    final StringBuilder b = new StringBuilder();
    if (line > 0) {
      b.append(line).append(':').append(column).append(": ");
    }
    b.append(getMessage());
    if (code != null) {
      b.append(" [").append(code.code()).append(']');
    }
    if (line > 0 && source != null) {
      final String[] lines = source.split("\n", -1);
      if (line <= lines.length) {
        b.append('\n').append(lines[line - 1].replace('\t', ' '));
        b.append('\n').append(" ".repeat(Math.max(0, column - 1))).append('^');
      }
    }
    if (help != null) {
      b.append("\nhelp: ").append(help);
    }
    return b.toString();
  }

  /** Width to which {@link #report} fills the message and the help. */
  private static final int REPORT_WIDTH = 80;

  /**
   * The error as CozoDB's command line shows it (miette's report, without
   * colours): the code, a blank line, the message after {@code ×}, the
   * offending source line under its {@code line:column} with {@code ▲} at
   * the column, then the help; message and help filled to 80 columns, their
   * line breaks taken as spaces.
   *
   * <pre>
   * eval::unstratifiable
   *
   *   × Query is unstratifiable
   *   help: The rule 'dominated' is in the strongly connected component
   *         ["dominated", "reach"], and is involved in at least one forbidden
   *         dependency (negation, non-meet aggregation, or algorithm-application).
   * </pre>
   */
  public String report(String source) {
    final StringBuilder b = new StringBuilder();
    if (code != null) {
      b.append(code.code()).append("\n\n");
    }
    fill(b, "  × ", "    ", getMessage());
    final String[] lines = source == null ? new String[0] : source.split("\n", -1);
    if (line > 0 && line <= lines.length) {
      final String number = Integer.toString(line);
      final String gutter = " ".repeat(number.length() + 2);
      b.append(gutter).append("╭─[").append(line).append(':').append(column).append("]\n");
      b.append(' ').append(number).append(" │ ").append(lines[line - 1].replace('\t', ' '))
          .append('\n');
      b.append(gutter).append("· ").append(" ".repeat(Math.max(0, column - 1))).append("▲\n");
      b.append(gutter).append("╰────\n");
    }
    if (help != null) {
      fill(b, "  help: ", "        ", help);
    }
    return b.toString();
  }

  /** Appends {@code text}'s words, filled to {@link #REPORT_WIDTH} columns after {@code first} and then {@code indent}. */
  private static void fill(StringBuilder b, String first, String indent, String text) {
    final StringBuilder line = new StringBuilder(first);
    boolean empty = true;
    for (String word : text.trim().split("\\s+")) {
      if (!empty && line.length() + 1 + word.length() > REPORT_WIDTH) {
        b.append(line).append('\n');
        line.setLength(0);
        line.append(indent);
        empty = true;
      }
      line.append(empty ? "" : " ").append(word);
      empty = false;
    }
    b.append(line).append('\n');
  }
}
