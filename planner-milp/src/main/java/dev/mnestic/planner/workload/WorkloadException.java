package dev.mnestic.planner.workload;

/** A workload that cannot be read: the line and column of the fault, and what was expected. */
public final class WorkloadException extends RuntimeException {
  public final int line;
  public final int column;

  WorkloadException(int line, int column, String message) {
    super(line + ":" + column + ": " + message);
    this.line = line;
    this.column = column;
  }
}
