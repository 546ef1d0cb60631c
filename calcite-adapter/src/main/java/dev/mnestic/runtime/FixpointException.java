package dev.mnestic.runtime;

/**
 * A fixpoint ({@link SemiNaive#fixpoint}) that did not finish: it still
 * changed after its bound on rounds, or it was stopped (a query timeout or a
 * cancel) between rounds. Its caller tells the two apart by {@link #reason},
 * never by the message.
 */
public final class FixpointException extends IllegalStateException {
  /** Why the fixpoint did not finish. */
  public enum Reason {
    /** Its rounds kept changing past the bound. */
    DIVERGED,
    /** It was stopped: its cancel flag was set. */
    CANCELLED
  }

  private final Reason reason;
  private final int rounds;

  FixpointException(Reason reason, int rounds) {
    super(reason == Reason.DIVERGED
        ? "recursion did not reach a fixpoint after " + rounds + " iterations"
        : "recursion cancelled after " + rounds + " iterations (query timeout or cancel)");
    this.reason = reason;
    this.rounds = rounds;
  }

  public Reason reason() {
    return reason;
  }

  /** The rounds run: the bound when {@link Reason#DIVERGED}, else the round stopped in. */
  public int rounds() {
    return rounds;
  }
}
