package dev.mnestic.datalog.lower;

import dev.mnestic.datalog.fixed.FixedRules;
import dev.mnestic.runtime.SemiNaive;
import dev.mnestic.value.HostAggregations;

import java.io.PrintStream;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * How a query's strata are planned ({@link StratumPlanner}) and run (the
 * runner, {@code dev.mnestic.datalog.StrataRunner}).
 *
 * @param host the aggregations the engine's host registered
 * @param deadline {@link System#nanoTime()} by which the whole evaluation must end
 *     ({@code :timeout}, a statement's query timeout), 0 for none: each plan runs with what
 *     is left, as a query timeout, and fails when it is gone
 * @param cancelFlag when another thread sets it, the running plan is cancelled and the
 *     evaluation fails as on its deadline; null for none
 * @param progress where a long evaluation shows its progress line (a terminal); null for
 *     nowhere
 * @param rounds told of every round of every fixpoint (a benchmark counting tuples); null
 *     for none
 * @param maxEpochs rounds a recursion through a bounded-meet aggregation may keep changing
 *     its result before it fails ({@code mnestic::frontier_diverges})
 * @param storedTables the store table of each stored relation (empty: there is none), as a
 *     script that made relations sees them; null: the store's table of the relation's name
 * @param now what {@code 'NOW'} means in a time-travel read ({@code *rel{...} @ 'NOW'}), in
 *     µs since the Unix epoch: the time of the script's {@code 'ASSERT'} and {@code 'RETRACT'}
 *     writes, as in CozoDB
 * @param fixedRules the fixed rules ({@code <~}) scripts may apply
 * @param genericJoins whether a rule body's cyclic part (a triangle {@code e[a, b], e[b, c],
 *     e[a, c]}) outside a fixpoint is joined by a worst-case optimal generic join
 *     ({@code rel.GenericJoin}); else pairwise, atom by atom, as every other body
 */
public record StrataOptions(HostAggregations host, long deadline, AtomicBoolean cancelFlag,
    PrintStream progress, SemiNaive.Progress rounds, int maxEpochs,
    Function<String, Optional<String>> storedTables, long now, FixedRules fixedRules,
    boolean genericJoins) {
  /**
   * Rounds a recursion through a bounded-meet aggregation may keep changing
   * its result unless {@code :max_epochs} says otherwise: a recursive
   * {@code pareto_min} over a cycle whose every lap adds an incomparable
   * point never settles, and stops with {@code mnestic::frontier_diverges}.
   */
  public static final int MAX_EPOCHS = 4096;

  /**
   * No deadline, no cancel, no progress, {@value #MAX_EPOCHS} epochs, the store's tables,
   * {@code 'NOW'} the time of this call, and generic joins.
   */
  public static StrataOptions of(HostAggregations host) {
    return new StrataOptions(host, 0, null, null, null, MAX_EPOCHS, null,
        System.currentTimeMillis() * 1000, FixedRules.DEFAULT, true);
  }

  /** These options, stopped when {@code deadline} (0: none) passes or {@code cancelFlag} is set. */
  public StrataOptions stoppedBy(long deadline, AtomicBoolean cancelFlag) {
    return new StrataOptions(host, deadline, cancelFlag, progress, rounds, maxEpochs,
        storedTables, now, fixedRules, genericJoins);
  }

  /** These options, showing progress on {@code terminal}. */
  public StrataOptions showingProgressOn(PrintStream terminal) {
    return new StrataOptions(host, deadline, cancelFlag, terminal, rounds, maxEpochs,
        storedTables, now, fixedRules, genericJoins);
  }

  /** These options, telling {@code rounds} of every round. */
  public StrataOptions reportingRoundsTo(SemiNaive.Progress rounds) {
    return new StrataOptions(host, deadline, cancelFlag, progress, rounds, maxEpochs,
        storedTables, now, fixedRules, genericJoins);
  }

  /** These options with the host's aggregations {@code host}. */
  public StrataOptions withHost(HostAggregations host) {
    return new StrataOptions(host, deadline, cancelFlag, progress, rounds, maxEpochs,
        storedTables, now, fixedRules, genericJoins);
  }

  /** These options with a script's {@code :max_epochs}. */
  public StrataOptions withMaxEpochs(int maxEpochs) {
    return new StrataOptions(host, deadline, cancelFlag, progress, rounds, maxEpochs,
        storedTables, now, fixedRules, genericJoins);
  }

  /** These options, reading stored relations from the tables {@code tables} names. */
  public StrataOptions readingStoredFrom(Function<String, Optional<String>> tables) {
    return new StrataOptions(host, deadline, cancelFlag, progress, rounds, maxEpochs, tables,
        now, fixedRules, genericJoins);
  }

  /** These options, {@code 'NOW'} being {@code now} (µs since the Unix epoch). */
  public StrataOptions at(long now) {
    return new StrataOptions(host, deadline, cancelFlag, progress, rounds, maxEpochs,
        storedTables, now, fixedRules, genericJoins);
  }

  /** These options with the fixed rules {@code fixedRules}. */
  public StrataOptions withFixedRules(FixedRules fixedRules) {
    return new StrataOptions(host, deadline, cancelFlag, progress, rounds, maxEpochs,
        storedTables, now, fixedRules, genericJoins);
  }

  /** These options, joining cyclic rule bodies by a generic join or ({@code false}) pairwise. */
  public StrataOptions withGenericJoins(boolean genericJoins) {
    return new StrataOptions(host, deadline, cancelFlag, progress, rounds, maxEpochs,
        storedTables, now, fixedRules, genericJoins);
  }
}
