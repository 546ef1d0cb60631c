package dev.mnestic.planner.select;

/**
 * A source of nanoseconds for Stage 3's time limit: {@link #SYSTEM} in use, a hand-advanced one in
 * tests of the schedule ({@code ScheduleTest}), so no test sleeps to see a deadline pass.
 */
@FunctionalInterface
public interface Ticker {
  /** {@link System#nanoTime}. */
  Ticker SYSTEM = System::nanoTime;

  /** Nanoseconds since some fixed origin; only differences mean anything. */
  long read();
}
