package dev.mnestic.planner.select;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Schedule}'s time arithmetic on a hand-advanced {@link Ticker}: what each phase of
 * {@link MilpSelector#solve} gets of the time limit (docs/planner.md, (c)), with no sleep.
 */
class ScheduleTest {
  private static final long SECOND = 1_000_000_000L;

  /** A clock that moves only when told. */
  private static final class FakeTicker implements Ticker {
    long now = 7 * SECOND;

    @Override public long read() {
      return now;
    }

    void advance(double seconds) {
      now += (long) (seconds * SECOND);
    }
  }

  @Test void theBoundsGetAQuarterOfWhatPruningLeftSharedAsPartsStart() {
    final FakeTicker clock = new FakeTicker();
    final Schedule s = new Schedule(clock, Duration.ofSeconds(100), new StopSignal());
    clock.advance(20);
    s.startBounds(4);
    // 80 s left: the window closes 20 s from now; 2 cores, 4 parts waiting: half of it each
    assertEquals(clock.now + 10 * SECOND, s.boundDeadline(2));
    s.built(SECOND);
    clock.advance(10);
    // 3 waiting, 10 s of the window left: two thirds of it
    assertEquals(clock.now + 10 * SECOND * 2 / 3, s.boundDeadline(2));
  }

  @Test void aShortLimitLeavesCpSatOneRoundAndTheBoundsTheRest() {
    final FakeTicker clock = new FakeTicker();
    final Schedule s = new Schedule(clock, Duration.ofSeconds(3), new StopSignal());
    // 3 s for 4 parts is under MIN_SEARCH each: the bounds are what narrows most gaps, but
    // CP-SAT keeps one MIN_SEARCH for the part they leave the widest gap
    s.startBounds(4);
    final long end = clock.now + 3 * SECOND - 3 * SECOND / 50;
    assertEquals(end - Schedule.MIN_SEARCH.toNanos(), s.boundDeadline(4));
    // a bound that would not be built before the window closes is not started: CP-SAT keeps its round
    s.built(SECOND);
    clock.advance(1);
    // 2 s in, builds take 1 s: done at 3 s, past the window's close at 1.94 s (not the 2.94 s end)
    assertEquals(Schedule.NO_BOUND, s.boundDeadline(4));
    // under 2 MIN_SEARCH, the bounds get all of it but a fiftieth
    final Schedule shorter = new Schedule(clock, Duration.ofMillis(1500), new StopSignal());
    shorter.startBounds(4);
    assertEquals(clock.now + 1500_000_000L - 1500_000_000L / 50, shorter.boundDeadline(4));
  }

  @Test void theKnownPlansGetHalfOfWhatIsLeftSharedAsPartsStart() {
    final FakeTicker clock = new FakeTicker();
    final Schedule s = new Schedule(clock, Duration.ofSeconds(10), new StopSignal());
    clock.advance(2);
    s.startKnownPlans(4);
    // 8 s left, the window closes 4 s from now; 2 cores, 4 parts waiting: half of it each
    assertEquals(clock.now + 2 * SECOND, s.knownDeadline(2));
    clock.advance(1);
    // the first part done in 1 s: 3 waiting share the 3 s left of the window
    assertEquals(clock.now + 2 * SECOND, s.knownDeadline(2));
    clock.advance(3);
    assertEquals(clock.now, s.knownDeadline(2));
    assertFalse(s.goesOn(s.knownDeadline(2)));
    // pruning: a quarter of the time then left
    assertEquals(clock.now + SECOND, s.pruningDeadline());
  }

  @Test void buildingAModelComesOutOfItsRound() {
    final FakeTicker clock = new FakeTicker();
    final Schedule s = new Schedule(clock, Duration.ofSeconds(10), new StopSignal());
    final long until = clock.now + 4 * SECOND;
    clock.advance(1.5);
    assertEquals(Duration.ofSeconds(2), s.searchLimit(Duration.ofSeconds(2), until));
    assertEquals(Duration.ofMillis(2500), s.searchLimit(Duration.ofSeconds(9), until));
    clock.advance(3);
    assertEquals(Duration.ZERO, s.searchLimit(Duration.ofSeconds(9), until));
  }

  @Test void aBoundThatWouldNotBeBuiltInTimeIsNotStarted() {
    final FakeTicker clock = new FakeTicker();
    final Schedule s = new Schedule(clock, Duration.ofSeconds(10), new StopSignal());
    s.startBounds(3);
    assertTrue(s.boundDeadline(1) > clock.now);
    s.built(5 * SECOND);
    clock.advance(5);
    // 4.8 s to the window's end, builds take 5 s on average
    assertEquals(Schedule.NO_BOUND, s.boundDeadline(1));
  }

  @Test void openPartsShareTheTimeLeftWithAtLeastMinSearch() {
    final FakeTicker clock = new FakeTicker();
    final Schedule s = new Schedule(clock, Duration.ofSeconds(30), new StopSignal());
    clock.advance(10);
    assertEquals(Duration.ofSeconds(5), s.partShare(4));
    clock.advance(18);
    // 2 s left among 4: each still gets MIN_SEARCH while that much is left
    assertEquals(Schedule.MIN_SEARCH, s.partShare(4));
    clock.advance(1.5);
    assertEquals(Duration.ofMillis(500), s.partShare(4));
    clock.advance(1);
    assertEquals(Duration.ZERO, s.partShare(4));
    assertEquals(0, s.left());
  }

  @Test void roundsWithinAPart() {
    final FakeTicker clock = new FakeTicker();
    final Schedule s = new Schedule(clock, Duration.ofSeconds(60), new StopSignal());
    assertEquals(Duration.ofSeconds(5), Schedule.firstRound(20 * SECOND));
    assertEquals(Schedule.MIN_SEARCH, Schedule.firstRound(2 * SECOND));
    assertTrue(Schedule.tooShort(SECOND - 1));
    assertFalse(Schedule.tooShort(SECOND));
    final long partDeadline = clock.now + 40 * SECOND;
    clock.advance(20);
    assertEquals(clock.now + 5 * SECOND, s.refineDeadline(partDeadline));
    final long until = clock.now + SECOND;
    assertTrue(s.goesOn(until));
    clock.advance(1);
    assertFalse(s.goesOn(until));
  }

  @Test void aStopEndsTheStepsInterruptsTheWorkAndThrows() {
    final FakeTicker clock = new FakeTicker();
    final StopSignal stop = new StopSignal();
    final Schedule s = new Schedule(clock, Duration.ofSeconds(60), stop);
    final AtomicInteger interrupted = new AtomicInteger();
    final PlanningException during = assertThrows(PlanningException.class,
        () -> stop.interruptibly(interrupted::incrementAndGet, () -> {
          stop.stop();
          return "found";
        }));
    assertEquals("the plan search was stopped", during.getMessage());
    assertEquals(1, interrupted.get());
    assertFalse(s.goesOn(Long.MAX_VALUE));
    assertThrows(PlanningException.class, s::checkStopped);
    // a stop before the work: it does not run
    assertThrows(PlanningException.class, () -> stop.interruptibly(() -> { }, () -> {
      throw new AssertionError("ran after the stop");
    }));
  }

  /**
   * A loop's steps stop before the one that would end past its end at the longest step so far:
   * with 10 s to go, steps of 1 s and 3 s are taken at 0, 1 and 4 s, and none at 7 s (another
   * 3 s would end at the end, not before it), where a check of the end alone would start one
   * there. A fresh loop, no step timed, goes on until a step of its own is timed.
   */
  @Test void aLoopStopsBeforeAStepLongerThanWhatIsLeft() {
    final FakeTicker clock = new FakeTicker();
    final Schedule s = new Schedule(clock, Duration.ofSeconds(60), new StopSignal());
    final long until = clock.now + 10 * SECOND;
    final java.util.function.BooleanSupplier steps = s.steps(until);
    assertTrue(steps.getAsBoolean());
    clock.advance(1);
    assertTrue(steps.getAsBoolean());
    clock.advance(3);
    // at 4 s, the longest step 3 s: ends at 7 s
    assertTrue(steps.getAsBoolean());
    clock.advance(3);
    // at 7 s: another 3 s step would end at 10 s, the end
    assertFalse(steps.getAsBoolean());
    assertTrue(s.goesOn(until));
    // a fresh loop with no step timed goes on until the end itself
    final java.util.function.BooleanSupplier fresh = s.steps(until);
    assertTrue(fresh.getAsBoolean());
    clock.advance(2.5);
    // at 9.5 s, its step 2.5 s
    assertFalse(fresh.getAsBoolean());
  }
}
