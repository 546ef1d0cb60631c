package dev.mnestic.runtime;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A recursive rule's join, projection and deduplication fused into one loop over packed rows:
 * each row of a first table (a recursive relation's delta) binds the first slots of a frame of
 * {@code long}s; each probe looks one slot's value up in a {@link RowIndex} of another table
 * (a stored relation's copy, indexed once; a recursive relation's full table, indexed once a
 * round) and binds that table's columns in the next slots for each matching row; the rule's
 * head, some of the slots, goes straight to the relation's dedup set ({@link Sink}). No row,
 * key or boxed value is made between the scan and the set. This is what
 * {@code rel.EnumerableRecursiveUnion} runs for an iterative part made only of scans of row
 * tables, inner equi-joins and projections of columns; it runs only over tables whose rows are
 * all packed Ints ({@link #runnable}); otherwise the part's generated code runs.
 */
public final class ProbeChain {
  /** How often, in rows of the first table, a run looks at the cancel flag. */
  private static final int CHECK_EVERY = 4096;

  private final RowTable first;
  private final Probe[] probes;
  private final int[] head;
  private final int width;

  /**
   * One probe: {@code table}'s rows of {@code width} columns whose column {@code columns[k]}
   * equals slot {@code slots[k]} for every k (the first pair is looked up, the others checked);
   * each binds the table's columns to the slots after those bound before it.
   */
  public record Probe(RowTable table, int width, int[] columns, int[] slots) {
    public Probe {
      if (columns.length == 0 || columns.length != slots.length) {
        throw new IllegalArgumentException("a probe needs as many slots as columns, at least one");
      }
    }
  }

  /** Where a run's head tuples go. */
  interface Sink {
    /** A head of one column. */
    void offer(long value);

    /** A head of two columns. */
    void offer(long a, long b);

    /** A head of any other width, boxed. */
    void offer(Object[] row);
  }

  /**
   * The chain that scans {@code first} (its columns the slots from 0), then probes in order,
   * and offers the slots {@code head}.
   */
  public ProbeChain(RowTable first, int firstWidth, List<Probe> probes, int[] head) {
    this.first = first;
    this.probes = probes.toArray(new Probe[0]);
    this.head = head.clone();
    int w = firstWidth;
    for (Probe p : probes) {
      w += p.width();
    }
    this.width = w;
  }

  /** Whether every table the chain reads holds packed Ints only (or nothing). */
  boolean runnable() {
    if (!first.list().isPacked()) {
      return false;
    }
    for (Probe p : probes) {
      if (!p.table().list().isPacked()) {
        return false;
      }
    }
    return true;
  }

  /** The indexes of the tables of a round: a fixed table keeps its own across rounds and runs. */
  static final class Indexes {
    private final Map<RowTable, Map<Integer, RowIndex>> round = new HashMap<>();

    RowIndex get(RowTable table, int column) {
      return table.fixed() ? table.index(column)
          : round.computeIfAbsent(table, t -> new HashMap<>())
              .computeIfAbsent(column, c -> new RowIndex(table.list(), c));
    }

    /** Forgets the indexes of tables that are not fixed: their rows change between rounds. */
    void nextRound() {
      round.clear();
    }
  }

  /** Runs the chain over the tables' current rows, offering each head to {@code sink}. */
  void run(Indexes indexes, AtomicBoolean cancelled, int round, Sink sink) {
    final RowList rows = first.list();
    final int size = rows.size();
    if (size == 0) {
      return;
    }
    final RowIndex[] index = new RowIndex[probes.length];
    for (int p = 0; p < probes.length; p++) {
      index[p] = indexes.get(probes[p].table(), probes[p].columns()[0]);
    }
    final long[] packed = rows.packedValues();
    final int arity = rows.arity();
    final long[] frame = new long[width];
    for (int r = 0; r < size; r++) {
      if (cancelled != null && r % CHECK_EVERY == 0 && cancelled.get()) {
        throw new FixpointException(FixpointException.Reason.CANCELLED, round);
      }
      System.arraycopy(packed, r * arity, frame, 0, arity);
      probe(0, arity, index, frame, sink);
    }
  }

  private void probe(int p, int bound, RowIndex[] index, long[] frame, Sink sink) {
    if (p == probes.length) {
      switch (head.length) {
        case 1 -> sink.offer(frame[head[0]]);
        case 2 -> sink.offer(frame[head[0]], frame[head[1]]);
        default -> {
          final Object[] row = new Object[head.length];
          for (int k = 0; k < head.length; k++) {
            row[k] = frame[head[k]];
          }
          sink.offer(row);
        }
      }
      return;
    }
    final Probe probe = probes[p];
    final RowIndex idx = index[p];
    final int g = idx.group(frame[probe.slots()[0]]);
    if (g < 0) {
      return;
    }
    final long[] values = idx.values;
    final int arity = idx.arity;
    final int[] columns = probe.columns();
    final int[] slots = probe.slots();
    rows:
    for (int r = idx.start(g), end = idx.end(g); r < end; r++) {
      final int at = r * arity;
      for (int k = 1; k < columns.length; k++) {
        if (values[at + columns[k]] != frame[slots[k]]) {
          continue rows;
        }
      }
      System.arraycopy(values, at, frame, bound, arity);
      probe(p + 1, bound + arity, index, frame, sink);
    }
  }
}
