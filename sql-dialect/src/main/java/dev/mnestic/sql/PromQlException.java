package dev.mnestic.sql;

/**
 * A PromQL expression outside mnestic's subset ({@link PromQl}): its message starts with the
 * line and column ({@code 1:27: }), as Prometheus's parse errors do, then says what was expected
 * or what is unsupported.
 */
public final class PromQlException extends RuntimeException {
  public final int line;
  public final int column;
  /** The message without its place. */
  public final String what;

  public PromQlException(int line, int column, String what) {
    super(line + ":" + column + ": " + what);
    this.line = line;
    this.column = column;
    this.what = what;
  }
}
