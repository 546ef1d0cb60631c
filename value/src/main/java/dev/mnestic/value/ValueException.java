package dev.mnestic.value;

/**
 * A function failed, reported as CozoDB reports it: a code, a message and
 * CozoDB's help text. A function applied to values it does not take is
 * {@code eval::throw}, "Evaluation of expression failed", with the reason as
 * help ("addition requires numbers"); {@link #reason()} is that reason.
 */
public final class ValueException extends RuntimeException {
  /** Message CozoDB gives with {@link ErrorCode#EVAL_THROW}. */
  public static final String EVAL_FAILED = "Evaluation of expression failed";

  private final ErrorCode code;
  private final String help;

  public ValueException(ErrorCode code, String message, String help) {
    super(message);
    this.code = code;
    this.help = help;
  }

  /**
   * A failure CozoDB reports without a code or help, only a message (an
   * aggregation's, such as {@code cannot compute 'sum': encountered value "a"}).
   */
  static ValueException uncoded(String message) {
    return new ValueException(null, message, null);
  }

  /** A function failed on its arguments: {@code eval::throw} with {@code reason} as help. */
  static ValueException eval(String reason) {
    return new ValueException(ErrorCode.EVAL_THROW, EVAL_FAILED, reason);
  }

  /** CozoDB's error code, such as {@code eval::throw}; null for an error CozoDB gives none. */
  public String code() {
    return code == null ? null : code.code();
  }

  /** {@link #code()} from the catalog; null for an error CozoDB gives none. */
  public ErrorCode errorCode() {
    return code;
  }

  /** CozoDB's help text, or null. */
  public String help() {
    return help;
  }

  /** What went wrong in particular: the help if there is one, else the message. */
  public String reason() {
    return help != null ? help : getMessage();
  }

  @Override public String toString() {
    return "ValueException[" + code() + "]: " + getMessage() + (help == null ? "" : " (" + help + ")");
  }
}
