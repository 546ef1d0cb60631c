package dev.mnestic.value;

/**
 * How a function that builds a large value lets the statement it runs for stop it: the
 * function calls {@link #check} every 4,096 elements it makes ({@code int_range}), and
 * {@code check} throws (an unchecked exception of the caller's choosing) once that statement
 * was cancelled, timed out or ran out of memory. The caller passes it in with each
 * {@link Functions#apply}, so the value module knows no statement of its own. It must answer
 * from any thread, not only the statement's: a search index building on every core looks from
 * its workers' threads ({@code search.HnswIndex}).
 */
@FunctionalInterface
public interface StopCheck {
  /** For work that belongs to no statement: never stops. */
  StopCheck NEVER = () -> { };

  /** Returns if the work may go on; throws if its statement was stopped. */
  void check();
}
