package dev.mnestic.planner.select;

/** No plan meets every constraint, or the solver failed; the message says which. */
public final class PlanningException extends RuntimeException {
  public PlanningException(String message) {
    super(message);
  }
}
