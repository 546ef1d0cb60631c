package dev.mnestic.runtime;

import dev.mnestic.rel.RowTable;
import dev.mnestic.value.Aggregators;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runtime of {@link dev.mnestic.rel.RecursiveUnion}: semi-naive evaluation
 * of n mutually recursive relations to their least fixpoint.
 *
 * <p>State of relation i, by the names the algorithm gives it:
 * <ol>
 *   <li>{@code stable} ({@code full_i}): every tuple derived so far; for a
 *       relation with meet aggregations, each group's best row;
 *   <li>{@code recent} ({@code delta_i}): what the last round added or
 *       improved; the iterative parts read it to derive only from new tuples;
 *   <li>{@code toAdd}: this round's derivations, merged into {@code stable}
 *       after every relation's have been computed.
 * </ol>
 * The fixpoint is reached when a round changes nothing.
 */
public final class SemiNaive {
  private SemiNaive() {
  }

  /** Evaluates to the fixpoint; returns relation 0's rows. */
  public static Enumerable<Object[]> fixpoint(DataContext root,
      Enumerable<Object[]>[] seeds, Enumerable<Object[]>[] iteratives,
      RowTable[] full, RowTable[] delta, int maxIterations, String[][] aggregations) {
    final int n = seeds.length;
    final List<State> states = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      final State state = aggregations[i] == null
          ? new SetState() : new MeetState(aggregations[i]);
      states.add(state);
      full[i].rows().clear();
      delta[i].rows().clear();
      // full_i = delta_i = seed_i (distinct, or each group's best)
      final List<Object[]> rows = new ArrayList<>();
      for (Object[] row : seeds[i]) {
        rows.add(row);
      }
      state.merge(rows);
      state.publish(full[i].rows(), delta[i].rows());
    }
    final AtomicBoolean cancelled = DataContext.Variable.CANCEL_FLAG.get(root);
    for (int round = 1; ; round++) {
      if (round > maxIterations) {
        throw new IllegalStateException("recursion did not reach a fixpoint after "
            + maxIterations + " iterations");
      }
      final List<List<Object[]>> toAdd = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        final List<Object[]> rows = new ArrayList<>();
        for (Object[] row : iteratives[i]) {
          rows.add(row);
        }
        toAdd.add(rows);
      }
      // Cancelled scans read nothing: a quiet round then proves nothing.
      if (cancelled != null && cancelled.get()) {
        throw new IllegalStateException("recursion cancelled after " + round
            + " iterations (query timeout or cancel)");
      }
      boolean changed = false;
      for (int i = 0; i < n; i++) {
        changed |= states.get(i).merge(toAdd.get(i));
        states.get(i).publish(full[i].rows(), delta[i].rows());
      }
      if (!changed) {
        return Linq4j.asEnumerable(full[0].rows());
      }
    }
  }

  /** A relation's tuples and what last changed. */
  private interface State {
    /** Merges derived rows; returns whether anything changed. */
    boolean merge(List<Object[]> rows);

    /** Writes the tuples into {@code full} and the last change into {@code delta}. */
    void publish(List<Object[]> full, List<Object[]> delta);
  }

  /** Set semantics: a tuple is new unless seen. */
  private static final class SetState implements State {
    private final Set<RowKey> seen = new HashSet<>();
    private final List<Object[]> added = new ArrayList<>();

    @Override public boolean merge(List<Object[]> rows) {
      added.clear();
      for (Object[] row : rows) {
        if (seen.add(new RowKey(row))) {
          added.add(row);
        }
      }
      return !added.isEmpty();
    }

    @Override public void publish(List<Object[]> full, List<Object[]> delta) {
      full.addAll(added);
      delta.clear();
      delta.addAll(added);
    }
  }

  /** Meet aggregations: one row per group, improved in place. */
  private static final class MeetState implements State {
    private final String[] aggregations;
    private final Map<RowKey, Aggregators.Aggregator[]> groups = new LinkedHashMap<>();
    private final Map<RowKey, Object[]> best = new HashMap<>();
    private final Set<RowKey> improved = new HashSet<>();

    MeetState(String[] aggregations) {
      this.aggregations = aggregations;
    }

    @Override public boolean merge(List<Object[]> rows) {
      improved.clear();
      for (Object[] row : rows) {
        final List<Object> keyValues = new ArrayList<>();
        for (int c = 0; c < aggregations.length; c++) {
          if (aggregations[c] == null) {
            keyValues.add(row[c]);
          }
        }
        final RowKey key = new RowKey(keyValues.toArray());
        Aggregators.Aggregator[] aggs = groups.get(key);
        boolean changed = false;
        if (aggs == null) {
          aggs = new Aggregators.Aggregator[aggregations.length];
          for (int c = 0; c < aggregations.length; c++) {
            if (aggregations[c] != null) {
              aggs[c] = Aggregators.create(aggregations[c]);
            }
          }
          groups.put(key, aggs);
          changed = true;
        }
        for (int c = 0; c < aggregations.length; c++) {
          if (aggs[c] != null) {
            changed |= aggs[c].improves(row[c]);
          }
        }
        if (changed) {
          final Object[] current = row.clone();
          for (int c = 0; c < aggregations.length; c++) {
            if (aggs[c] != null) {
              current[c] = aggs[c].result();
            }
          }
          best.put(key, current);
          improved.add(key);
        }
      }
      return !improved.isEmpty();
    }

    @Override public void publish(List<Object[]> full, List<Object[]> delta) {
      full.clear();
      delta.clear();
      for (RowKey key : groups.keySet()) {
        final Object[] row = best.get(key);
        full.add(row);
        if (improved.contains(key)) {
          delta.add(row);
        }
      }
    }
  }
}
