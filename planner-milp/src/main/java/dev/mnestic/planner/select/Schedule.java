package dev.mnestic.planner.select;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * When each phase of {@link MilpSelector#solve} must end, on an injected {@link Ticker}: the
 * time limit from the moment the schedule is made, shared among the phases and the parts of the
 * plan space as docs/planner.md, (c), states; and the search's {@link StopSignal}. It decides
 * times only; what runs in them is the selector's. Every phase asks it before each step whether
 * to go on, and a loop of steps stops when its longest step so far would end past its end
 * ({@link #steps}), so none runs past its end by more than a step longer than all before it: growing each part's plan query by
 * query (a plan of every query is the least a search returns) grows the parts not started by its
 * deadline on tables not updated after each query, at most the plan without sharing
 * ({@link #growthDeadline}, {@link TreePlans#grown}). A Lagrangian bound's build is started only when the
 * average build time so far says it ends in time, and stopped unfinished when it does not
 * ({@link #buildDeadline}).
 *
 * <ol>
 *   <li>The known plans' local search ({@link #startKnownPlans}) gets half of the time left once
 *   the plans are grown: each part starting on a core gets its cores' share of what is left of
 *   that window among the parts not yet started ({@link #knownDeadline}).
 *   <li>Pruning gets a quarter of the time then left ({@link #pruningDeadline}).
 *   <li>The Lagrangian bounds ({@link #startBounds}) get a quarter of the time left after
 *   pruning, or, when that is too short to give every part {@link #MIN_SEARCH} of CP-SAT, all of
 *   it but {@link #MIN_SEARCH} (so that CP-SAT still searches the part with the widest gap) or,
 *   under 2 {@link #MIN_SEARCH}, all of it; less a fiftieth kept for a bound's last step and
 *   for joining the parts' plans. Each part starting on a core gets its cores' share of what is
 *   left of that window among the parts not yet started ({@link #boundDeadline}); a part whose
 *   bound would not be built before the end (at the average time a build took so far; under a
 *   short limit, before the window closes, so that a build leaves CP-SAT its round) gets none.
 *   <li>Each part still open then, the widest gap first, gets an equal share of the time left
 *   among the open parts, and at least {@link #MIN_SEARCH} while that much is left
 *   ({@link #partShare}): a part proven early leaves its time to the ones after it.
 *   <li>Within a part, CP-SAT's first round gets a quarter of the part's time left, at least
 *   {@link #MIN_SEARCH} ({@link #firstRound}); a cheaper plan found buys the bound a quarter of
 *   the time then left ({@link #refineDeadline}); the next round gets the rest. Building a
 *   round's model comes out of the round's time ({@link #searchLimit}).
 * </ol>
 */
final class Schedule {
  /**
   * The least time CP-SAT is run on a part, whatever the time limit: with less, the part keeps
   * its known plan. CP-SAT returns nothing before its search starts, and its presolve took
   * 0.25-0.6 s on the pruned parts of the generated dashboards (3-9k variables, 800 queries,
   * load 6 on 2 cores); a run stopped before it ends only wastes the time.
   */
  static final Duration MIN_SEARCH = Duration.ofSeconds(1);
  /** The growth of the plans keeps this fraction of the time left for what its cut leaves ({@link #growthDeadline}). */
  static final int GROWTH_RESERVE = 8;
  /** Returned by {@link #boundDeadline} for a part that gets no bound. */
  static final long NO_BOUND = Long.MIN_VALUE;

  private final Ticker ticker;
  private final StopSignal stop;
  private final long deadline;
  /** The end of the bounds' phase ({@link #startBounds}): the deadline less a fiftieth. */
  private long end;
  /**
   * When a bound must be built by to be started: {@link #end}, or under a short limit the
   * bounds' window's close, so that a build (which is not cut) leaves CP-SAT its round.
   */
  private long buildBy;
  /** The known plans' window ({@link #startKnownPlans}) and the bounds' ({@link #startBounds}). */
  private Window known;
  private Window bounds;
  /** Nanoseconds spent building bounds so far, and how many were built. */
  private final AtomicLong building = new AtomicLong();
  private final AtomicInteger built = new AtomicInteger();

  /** A schedule of {@code limit} from now on {@code ticker}, stopped by {@code stop}. */
  Schedule(Ticker ticker, Duration limit, StopSignal stop) {
    this.ticker = ticker;
    this.stop = stop;
    this.deadline = ticker.read() + limit.toNanos();
  }

  long now() {
    return ticker.read();
  }

  /** The time limit's end. */
  long deadline() {
    return deadline;
  }

  /** Nanoseconds until the deadline, at least 0. */
  long left() {
    return Math.max(0, deadline - now());
  }

  StopSignal stop() {
    return stop;
  }

  /** Throws if the search was stopped. */
  void checkStopped() {
    stop.check();
  }

  /** Whether a loop with its own {@code until} may take another step. */
  boolean goesOn(long until) {
    return now() < until && !stop.isStopped();
  }

  /**
   * The check of one loop (asked by one thread before each of its steps) with its own
   * {@code until}: another step only when the longest step so far (the time between two checks
   * of this loop, or of another loop of its phase sharing {@code longest}), taken from now,
   * still ends by then, so the loop stops before a step that would run past its end rather
   * than after it. A step of a bound or a pruning pass took up to 0.2 s on the 800-query
   * dashboard at load 14, past an end a check before each step keeps; the parts of a phase
   * share what their steps took, so a part's first step is foreseen too.
   */
  BooleanSupplier steps(long until, AtomicLong longest) {
    return new BooleanSupplier() {
      private long last = Long.MIN_VALUE;

      @Override public boolean getAsBoolean() {
        final long now = now();
        if (last != Long.MIN_VALUE) {
          longest.accumulateAndGet(now - last, Math::max);
        }
        last = now;
        return now + longest.get() < until && !stop.isStopped();
      }
    };
  }

  /** {@link #steps(long, AtomicLong)} for a loop that shares its steps' times with no other. */
  BooleanSupplier steps(long until) {
    return steps(until, new AtomicLong());
  }

  /**
   * A window shared among the parts of a phase run one part per core: each part starting on
   * one of {@code threads} cores gets its cores' share of what is left of the window among the
   * parts not yet started, so a part done early leaves its time to the ones after it.
   */
  private final class Window {
    private final long close;
    private final int parts;
    private final AtomicInteger started = new AtomicInteger();

    Window(long close, int parts) {
      this.close = close;
      this.parts = parts;
    }

    /** Until when the next part to start may run. */
    long next(int threads) {
      final int waiting = Math.max(1, parts - started.getAndIncrement());
      final long begin = now();
      return Math.min(begin + Math.max(0, close - begin) * Math.min(threads, waiting) / waiting, close);
    }
  }

  /**
   * Until when a part's plan may start to be grown over every candidate: the deadline less a
   * {@link #GROWTH_RESERVE}th of the time left when the growth starts, kept for growing the parts
   * not started by then on tables not updated after each query ({@link TreePlans#grown},
   * about four fifths of the work) and for joining the plans.
   */
  long growthDeadline() {
    return deadline - left() / GROWTH_RESERVE;
  }

  /** Opens the known plans' window for {@code parts} parts, from now: half of the time left. */
  void startKnownPlans(int parts) {
    known = new Window(now() + left() / 2, parts);
  }

  /** For the next part starting on one of {@code threads} cores: until when its local search may move. */
  long knownDeadline(int threads) {
    return known.next(threads);
  }

  /** Until when pruning may take another pass, from now: a quarter of the time left. */
  long pruningDeadline() {
    return now() + left() / 4;
  }

  /** Opens the bounds' window for {@code parts} parts, from now (pruning done). */
  void startBounds(int parts) {
    final long pruned = now();
    final long remaining = Math.max(0, deadline - pruned);
    final long search = MIN_SEARCH.toNanos();
    this.end = deadline - remaining / 50;
    final boolean roomy = remaining >= parts * search;
    final long close = roomy ? pruned + remaining / 4 : remaining >= 2 * search ? end - search : end;
    this.bounds = new Window(close, parts);
    this.buildBy = roomy ? end : close;
  }

  /**
   * For the next part starting on one of {@code threads} cores: until when its bound may step,
   * or {@link #NO_BOUND} when a bound would not be built in time at the average build time so
   * far: before the bounds' phase ends, or under a short limit before its window closes. Call
   * {@link #built} once its bound is built.
   */
  long boundDeadline(int threads) {
    final long until = bounds.next(threads);
    if (now() + building.get() / Math.max(1, built.get()) >= buildBy) {
      return NO_BOUND;
    }
    return until;
  }

  /**
   * When a bound's build must stop, unfinished (the part then gets none): when the bounds'
   * phase ends, or under a short limit when its window closes ({@link #boundDeadline}'s rule for
   * starting one, which the average build time so far cannot make sure of under load).
   */
  long buildDeadline() {
    return buildBy;
  }

  /** A part's bound took {@code nanos} to build. */
  void built(long nanos) {
    building.addAndGet(nanos);
    built.incrementAndGet();
  }

  /**
   * The time of the next of {@code open} parts still open: an equal share of the time left, and
   * at least {@link #MIN_SEARCH} while that much is left.
   */
  Duration partShare(int open) {
    final long left = left();
    return Duration.ofNanos(Math.min(left, Math.max(left / open, MIN_SEARCH.toNanos())));
  }

  /** Whether {@code nanos} is too short for a round of CP-SAT. */
  static boolean tooShort(long nanos) {
    return nanos < MIN_SEARCH.toNanos();
  }

  /** A part's first CP-SAT round of its {@code left}: a quarter, at least {@link #MIN_SEARCH}. */
  static Duration firstRound(long left) {
    return Duration.ofNanos(Math.max(left / 4, MIN_SEARCH.toNanos()));
  }

  /**
   * What a CP-SAT round asked {@code round} may be given now, its model built, so as to end by
   * {@code until}: at most {@code round}, and nothing once {@code until} has passed.
   */
  Duration searchLimit(Duration round, long until) {
    return Duration.ofNanos(Math.max(0, Math.min(round.toNanos(), until - now())));
  }

  /** Until when a bound may step towards a cheaper plan found before {@code partDeadline}. */
  long refineDeadline(long partDeadline) {
    final long now = now();
    return now + (partDeadline - now) / 4;
  }
}
