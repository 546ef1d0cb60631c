package dev.mnestic.runtime;

import dev.mnestic.value.Aggregators;
import dev.mnestic.value.HeadAggregation;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runtime of {@link dev.mnestic.rel.RecursiveUnion}: semi-naive evaluation
 * of n mutually recursive relations to their least fixpoint.
 *
 * <p>State of relation i, by the names the algorithm gives it:
 * <ol>
 *   <li>{@code stable} ({@code full_i}): every tuple derived so far; for a
 *       relation with meet aggregations, each group's best row (see
 *       {@link Aggregation.MeetGroups}); for a bounded-meet one, each
 *       group's survivors ({@link Aggregation.BoundedGroups});
 *   <li>{@code recent} ({@code delta_i}): what the last round added or
 *       improved; the iterative parts read it to derive only from new tuples;
 *   <li>{@code toAdd}: this round's derivations, merged into {@code stable}
 *       after every relation's have been computed.
 * </ol>
 * The fixpoint is reached when a round changes nothing.
 *
 * <p>The rows of a relation with aggregations carry one more column, their
 * position in CozoDB's evaluation order, and each round's are merged in that
 * order. A relation whose aggregations are not of
 * {@link Aggregators#meetKind meet kind} is, as in CozoDB, aggregated once
 * from its seed and never again.
 */
public final class SemiNaive {
  /**
   * The context variable holding a {@link Progress} told of every round;
   * absent for none.
   */
  public static final String PROGRESS = "mnesticProgress";

  /**
   * The context variable that, holding {@code Boolean.FALSE}, runs every iterative part's
   * generated code even where a {@link ProbeChain} could run it (to compare the two).
   */
  public static final String FUSE = "mnesticFuse";

  /**
   * The context variable that, holding {@code Boolean.FALSE}, runs a linear relation's rounds
   * even where a {@link Traversal} (a search per source) could run instead (to compare the two).
   */
  public static final String SEARCH = "mnesticSearch";

  /**
   * The context variable that, holding an Integer, is how many threads a round of a
   * set-semantics relation's probe chains may be split between; absent for
   * {@link PartitionedSet#PROCESSORS}.
   */
  public static final String THREADS = "mnesticThreads";

  /**
   * The context variable that, holding an Integer, is the fewest rows of their first tables
   * (deltas) a round's probe chains split at; absent for {@link #SPLIT_ROWS}.
   */
  public static final String SPLIT_AT = "mnesticSplitAt";

  /**
   * The fewest delta rows a round splits at. Measured (bench/RESULTS.md, "both cores"): a
   * delta row costs 0.2 µs of CPU (the chain: one derivation each) to 0.9 µs (a random
   * graph's closure: five), and splitting every round of the chain's 999 (at most 999 rows
   * each) cost no CPU beyond the runs' spread; waking a pool thread and waiting for it takes
   * some tens of µs. At 4,096 rows a thread's half is 0.4 ms or more, ten times that.
   */
  static final int SPLIT_ROWS = 4096;

  /** Told of each round of a fixpoint. */
  public interface Progress {
    /** Round {@code round} ended; {@code deltas[i]} tuples of relation i are new. */
    void round(int round, int[] deltas);
  }

  private SemiNaive() {
  }

  /**
   * Evaluates to the fixpoint; returns relation 0's rows.
   *
   * @param chains per relation's seed, then per relation's iterative part, null or the
   *     {@link ProbeChain}s whose union is that part: run instead of it where they can run (set
   *     semantics, packed tables)
   * @throws FixpointException when a round past {@code maxIterations} would run, or when
   *     the context's cancel flag is set
   */
  public static Enumerable<Object[]> fixpoint(DataContext root,
      Enumerable<Object[]>[] seeds, Enumerable<Object[]>[] iteratives,
      ProbeChain[][] chains, RowTable[] full, RowTable[] delta, int maxIterations,
      HeadAggregation[] aggregations) {
    final int n = seeds.length;
    final int threads = root.get(THREADS) instanceof Integer t ? t : PartitionedSet.PROCESSORS;
    final int splitAt = root.get(SPLIT_AT) instanceof Integer at ? at : SPLIT_ROWS;
    final List<State> states = new ArrayList<>();
    final Set<RowTable> growing = new HashSet<>();
    final AtomicBoolean cancelled = DataContext.Variable.CANCEL_FLAG.get(root);
    final Progress progress = (Progress) root.get(PROGRESS);
    final boolean fuse = !Boolean.FALSE.equals(root.get(FUSE));
    final ProbeChain.Indexes indexes = new ProbeChain.Indexes(growing);
    for (int i = 0; i < n; i++) {
      final State state = aggregations[i] == null ? new SetState(threads, splitAt)
          : aggregations[i].boundedMeetKind() ? new FrontierState(aggregations[i])
          : aggregations[i].meetKind() ? new MeetState(aggregations[i])
          : new OnceState(aggregations[i]);
      states.add(state);
      if (state instanceof SetState) {
        growing.add(full[i]);
      }
      full[i].rows().clear();
      delta[i].rows().clear();
      // full_i = delta_i = seed_i (distinct, or each group's best)
      if (fuse && state instanceof SetState set && runnable(chains[i])) {
        set.run(chains[i], indexes, cancelled, 0);
      } else {
        for (Object[] row : seeds[i]) {
          state.offer(row);
        }
      }
      state.settle();
      state.publish(full[i].rows(), delta[i].rows());
    }
    final boolean search = !Boolean.FALSE.equals(root.get(SEARCH));
    if (n == 1 && fuse && search && states.get(0) instanceof SetState
        && runnable(chains[1])) {
      // one linear relation: a search from each source, no rounds (Traversal)
      final Traversal searches = Traversal.of(chains[1], full[0], delta[0]);
      if (searches != null) {
        searches.run(indexes, threads, cancelled, maxIterations, progress);
        delta[0].rows().clear();
        return full[0].scan(root);
      }
    }
    final int[] deltas = new int[n];
    for (int round = 1; ; round++) {
      if (round > maxIterations) {
        throw new FixpointException(FixpointException.Reason.DIVERGED, maxIterations);
      }
      // Each relation's derivations, all from the same full and delta (published below).
      indexes.nextRound();
      for (int i = 0; i < n; i++) {
        final State state = states.get(i);
        if (fuse && state instanceof SetState set && runnable(chains[n + i])) {
          set.run(chains[n + i], indexes, cancelled, round);
        } else if (!(state instanceof OnceState)) {
          for (Object[] row : iteratives[i]) {
            state.offer(row);
          }
        }
      }
      // Cancelled scans read nothing: a quiet round then proves nothing.
      if (cancelled != null && cancelled.get()) {
        throw new FixpointException(FixpointException.Reason.CANCELLED, round);
      }
      boolean changed = false;
      for (int i = 0; i < n; i++) {
        changed |= states.get(i).settle();
        states.get(i).publish(full[i].rows(), delta[i].rows());
        deltas[i] = delta[i].rows().size();
      }
      if (progress != null) {
        progress.round(round, deltas);
      }
      if (!changed) {
        return full[0].scan(root);
      }
    }
  }

  /** Whether {@code chains} are a part's probe chains, each able to run now. */
  private static boolean runnable(ProbeChain[] chains) {
    return chains != null && Arrays.stream(chains).allMatch(ProbeChain::runnable);
  }

  /**
   * A relation's tuples and what last changed. A round: {@link #offer} each
   * derivation, {@link #settle}, {@link #publish}.
   */
  private interface State {
    /** A row derived this round. */
    void offer(Object[] row);

    /** Takes this round's derivations in; returns whether anything changed. */
    boolean settle();

    /** Writes the tuples into {@code full} and the last change into {@code delta}. */
    void publish(List<Object[]> full, List<Object[]> delta);
  }

  /** A state that takes a round's derivations in all at once (in order, say). */
  private abstract static class BatchState implements State {
    private final List<Object[]> pending = new ArrayList<>();

    @Override public final void offer(Object[] row) {
      pending.add(row);
    }

    @Override public final boolean settle() {
      final boolean changed = merge(pending);
      pending.clear();
      return changed;
    }

    /** Merges derived rows; returns whether anything changed. */
    abstract boolean merge(List<Object[]> rows);
  }

  /**
   * Set semantics: a tuple is new unless seen; derivations are taken in as they come, into
   * hash partitions, one a thread a round may be split between ({@link PartitionedSet}).
   */
  private static final class SetState implements State {
    private final PartitionedSet tuples;
    private final int threads;
    private final int splitAt;

    /** A relation's state whose rounds split between {@code threads} from {@code splitAt} rows. */
    SetState(int threads, int splitAt) {
      this.tuples = new PartitionedSet(threads);
      this.threads = threads;
      this.splitAt = splitAt;
    }

    @Override public void offer(Object[] row) {
      tuples.offer(row);
    }

    /**
     * Runs {@code chains}, the relation's iterative part, over their tables' current rows:
     * split between the threads when their first tables' rows are {@link #splitAt} or more.
     */
    void run(ProbeChain[] chains, ProbeChain.Indexes indexes, AtomicBoolean cancelled,
        int round) {
      final RowIndex[][] index = new RowIndex[chains.length][];
      long rows = 0;
      for (int c = 0; c < chains.length; c++) {
        index[c] = chains[c].indexes(indexes);
        rows += chains[c].rows(index[c]);
      }
      if (threads > 1 && rows >= splitAt) {
        tuples.runSplit(chains, index, cancelled, round);
      } else {
        for (int c = 0; c < chains.length; c++) {
          chains[c].run(index[c], 0, chains[c].rows(index[c]), cancelled, round, tuples);
        }
      }
    }

    @Override public boolean settle() {
      return !tuples.isEmpty();
    }

    @Override public void publish(List<Object[]> full, List<Object[]> delta) {
      tuples.publish(full, delta);
    }
  }

  /** Meet aggregations: one row per group, improved in place. */
  private static final class MeetState extends BatchState {
    private final HeadAggregation aggregations;
    private final Aggregation.MeetGroups groups;
    private final Set<RowKey> improved = new LinkedHashSet<>();
    private boolean seeded;

    MeetState(HeadAggregation aggregations) {
      this.aggregations = aggregations;
      this.groups = new Aggregation.MeetGroups(aggregations);
    }

    @Override boolean merge(List<Object[]> rows) {
      improved.clear();
      Aggregation.order(rows, aggregations);
      for (Object[] row : rows) {
        final RowKey key = groups.merge(row);
        if (key != null) {
          improved.add(key);
        }
      }
      if (!seeded) {
        // As CozoDB's first round: a head without keys has its one group even for no rows.
        seeded = true;
        final RowKey key = groups.addEmptyGroup();
        if (key != null) {
          improved.add(key);
        }
      }
      return !improved.isEmpty();
    }

    @Override public void publish(List<Object[]> full, List<Object[]> delta) {
      full.clear();
      full.addAll(groups.rows());
      delta.clear();
      for (RowKey key : improved) {
        delta.add(groups.get(key));
      }
    }
  }

  /**
   * A bounded-meet aggregation: each group's survivors, one row each; a
   * round's change is the survivors it added that still survive (what a
   * new survivor beats leaves {@code stable}, so later rounds derive from
   * the frontier only).
   */
  private static final class FrontierState implements State {
    private final int width;
    private final Aggregation.BoundedGroups groups;
    private final List<Object[]> added = new ArrayList<>();

    FrontierState(HeadAggregation aggregations) {
      this.width = aggregations.width();
      this.groups = new Aggregation.BoundedGroups(aggregations);
    }

    @Override public void offer(Object[] row) {
      if (groups.offer(row) != null) {
        added.add(Arrays.copyOf(row, width));
      }
    }

    @Override public boolean settle() {
      added.removeIf(row -> !groups.survives(row));
      return !added.isEmpty();
    }

    @Override public void publish(List<Object[]> full, List<Object[]> delta) {
      full.clear();
      full.addAll(groups.rows());
      delta.clear();
      delta.addAll(added);
      added.clear();
    }
  }

  /** Aggregations not of meet kind: the seed's groups, aggregated once, then fixed. */
  private static final class OnceState extends BatchState {
    private final HeadAggregation aggregations;
    private List<Object[]> groups;
    private boolean fresh;

    OnceState(HeadAggregation aggregations) {
      this.aggregations = aggregations;
    }

    @Override boolean merge(List<Object[]> rows) {
      fresh = groups == null;
      if (fresh) {
        groups = Aggregation.normal(rows, aggregations);
      }
      return fresh && !groups.isEmpty();
    }

    @Override public void publish(List<Object[]> full, List<Object[]> delta) {
      full.clear();
      full.addAll(groups);
      delta.clear();
      if (fresh) {
        delta.addAll(groups);
      }
    }
  }
}
