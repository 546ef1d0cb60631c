package dev.mnestic.datalog;

/**
 * An error in a script, reported as CozoDB reports it: a code such as
 * {@code parser::pest} or {@code eval::unbound_symb_in_head} (null for the
 * errors CozoDB gives without one, such as an aggregation's), a message, and
 * where it is (1-based line and column; 0 when the error has no place).
 */
public final class DatalogException extends RuntimeException {
  private final String code;
  private final int line;
  private final int column;
  private final String help;

  public DatalogException(String code, String message, int line, int column, String help) {
    super(message);
    this.code = code;
    this.line = line;
    this.column = column;
    this.help = help;
  }

  public DatalogException(String code, String message, int line, int column) {
    this(code, message, line, column, null);
  }

  public String code() {
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
      b.append(" [").append(code).append(']');
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
}
