package dev.mnestic.planner.select;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Stops a plan search from another thread: for a statement stopped while the sketch planner
 * searches, so that its search stops burning CPU for nobody. Once {@link #stop} is called, every
 * phase of {@link MilpSelector#solve} that looks at it throws a {@link PlanningException}, and
 * the solver searching now is interrupted. Made before the search starts, so a stop that comes
 * before the solver does is still seen.
 */
public final class StopSignal {
  private final AtomicBoolean stopped = new AtomicBoolean();
  /** How to interrupt the work running now ({@link #interruptibly}). */
  private final Set<Runnable> interrupts = ConcurrentHashMap.newKeySet();

  /**
   * Stops the search: sets the flag, then interrupts the work running now
   * ({@code MPSolver.interruptSolve}, which CP-SAT, SCIP and CBC honour within moments).
   */
  public void stop() {
    stopped.set(true);
    interrupts.forEach(Runnable::run);
  }

  public boolean isStopped() {
    return stopped.get();
  }

  /** Throws if {@link #stop} was called. */
  void check() {
    if (stopped.get()) {
      throw new PlanningException("the plan search was stopped");
    }
  }

  /**
   * {@code work}, with {@code interrupt} called if {@link #stop} comes while it runs; throws
   * instead if the stop came before, or during it.
   */
  <T> T interruptibly(Runnable interrupt, Supplier<T> work) {
    // stop() sets the flag before it runs the interrupts it sees: an interrupt added after
    // that sees the flag here
    interrupts.add(interrupt);
    try {
      check();
      final T result = work.get();
      check();
      return result;
    } finally {
      interrupts.remove(interrupt);
    }
  }
}
