package dev.mnestic.runtime;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A recursive rule's join, projection and deduplication fused into one loop over packed rows:
 * each row of a first table (a recursive relation's delta) binds the first slots of a frame of
 * {@code long}s; each probe looks one slot's value up in a {@link RowIndex} of another table
 * (a stored relation's copy, indexed once; a recursive relation's full table, indexed as it
 * grows) and binds that table's columns in the next slots for each matching row; the rule's
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
  private final int firstWidth;
  /** The first table's column whose value {@link #lookupValue} picks its rows; -1 for all. */
  private final int lookupColumn;
  private final long lookupValue;
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
    this(first, firstWidth, -1, 0, probes, head);
  }

  /**
   * The chain that reads the rows of {@code first} whose column {@code lookupColumn} holds
   * {@code lookupValue} (a fixed table's, looked up in its index: a seed such as
   * {@code reach[y] := *edge[0, y]}), then probes in order, and offers the slots {@code head}.
   */
  public ProbeChain(RowTable first, int firstWidth, int lookupColumn, long lookupValue,
      List<Probe> probes, int[] head) {
    this.first = first;
    this.firstWidth = firstWidth;
    this.lookupColumn = lookupColumn;
    this.lookupValue = lookupValue;
    this.probes = probes.toArray(new Probe[0]);
    this.head = head.clone();
    int w = firstWidth;
    for (Probe p : probes) {
      w += p.width();
    }
    this.width = w;
  }

  /**
   * Whether every table the chain reads holds packed Ints only (or nothing), and a first table
   * it looks rows up in is fixed (so indexed once, grouped).
   */
  boolean runnable() {
    if (!first.list().isPacked() || lookupColumn >= 0 && !first.fixed()) {
      return false;
    }
    for (Probe p : probes) {
      if (!p.table().list().isPacked()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the chain scans all of {@code delta}'s rows ({@code arity} columns), probes only
   * fixed tables and offers heads of {@code arity} columns: a step from a delta row to the head
   * tuples it derives, which depends on that row alone ({@link Traversal}).
   */
  boolean stepsFrom(RowTable delta, int arity) {
    if (first != delta || lookupColumn >= 0 || firstWidth != arity || head.length != arity) {
      return false;
    }
    for (Probe p : probes) {
      if (!p.table().fixed()) {
        return false;
      }
    }
    return true;
  }

  /** The slot head column {@code k} takes its value from (the first table's are 0 to its width). */
  int head(int k) {
    return head[k];
  }

  /**
   * How many of the first probes only check slot {@code slot}'s value: each looks that slot
   * up in all its columns and binds nothing a later probe or the head reads (a magic set's
   * {@code tc|Ibf[a]}), so whether it matches is the same for every row with that value.
   */
  int checks(int slot) {
    int k = 0;
    for (int bound = firstWidth; k < probes.length; bound += probes[k++].width()) {
      final int from = bound;
      final int to = bound + probes[k].width();
      if (Arrays.stream(probes[k].slots()).anyMatch(s -> s != slot)
          || Arrays.stream(head).anyMatch(h -> h >= from && h < to)
          || Arrays.stream(probes, k + 1, probes.length)
              .anyMatch(p -> Arrays.stream(p.slots()).anyMatch(s -> s >= from && s < to))) {
        break;
      }
    }
    return k;
  }

  /** Whether check probe {@code k} ({@link #checks}) has a row whose columns all hold {@code value}. */
  boolean check(int k, RowIndex[] index, long[][] values, long value) {
    final RowIndex.Grouped grouped = (RowIndex.Grouped) index[k];
    final int g = grouped.group(value);
    if (g < 0) {
      return false;
    }
    final int[] columns = probes[k].columns();
    final int w = probes[k].width();
    rows:
    for (int r = grouped.start(g); r < grouped.end(g); r++) {
      for (int c = 1; c < columns.length; c++) {
        if (values[k][r * w + columns[c]] != value) {
          continue rows;
        }
      }
      return true;
    }
    return false;
  }

  /**
   * When the probes after the first {@code checks} are one that looks slot {@code slot} up
   * and the head's column {@code k} is a column of that probed table: that column (a step is
   * then a read of the index's rows, {@link Traversal}); else -1.
   */
  int probedColumn(int checks, int slot, int k) {
    int offset = firstWidth;
    for (int p = 0; p < checks; p++) {
      offset += probes[p].width();
    }
    if (probes.length != checks + 1 || probes[checks].columns().length != 1
        || probes[checks].slots()[0] != slot || head[k] < offset) {
      return -1;
    }
    return head[k] - offset;
  }

  /** The width of probe {@code p}'s table. */
  int probeWidth(int p) {
    return probes[p].width();
  }

  /** The slots a run binds: the first table's columns, then each probe's. */
  int width() {
    return width;
  }

  /**
   * Offers to {@code sink} the heads derived from one row of the first table, bound in
   * {@code frame}'s first slots, probing {@code index} ({@link #indexes}) and reading the rows
   * of their {@link #values}.
   */
  void step(RowIndex[] index, long[][] values, long[] frame, Sink sink) {
    probe(0, firstWidth, index, values, frame, sink);
  }

  /** The packed values each probe's index reads its rows from, one array a probe. */
  long[][] values(RowIndex[] index) {
    final long[][] values = new long[probes.length][];
    for (int p = 0; p < probes.length; p++) {
      values[p] = index[p] instanceof RowIndex.Grouped grouped ? grouped.values
          : ((RowIndex.Growing) index[p]).values();
    }
    return values;
  }

  /**
   * The indexes of a fixpoint's tables: a fixed table keeps its own across rounds and runs; a
   * table that only grows during the fixpoint (a set-semantics relation's full table) keeps one
   * that each round links its new rows into; any other is indexed anew each round.
   */
  static final class Indexes {
    private final Set<RowTable> growing;
    private final Map<RowTable, Map<Integer, RowIndex.Growing>> kept = new HashMap<>();
    private final Map<RowTable, Map<Integer, RowIndex>> round = new HashMap<>();

    /** Indexes for a fixpoint in which the tables {@code growing} only grow. */
    Indexes(Set<RowTable> growing) {
      this.growing = growing;
    }

    RowIndex get(RowTable table, int column) {
      if (table.fixed()) {
        return table.index(column);
      }
      if (growing.contains(table)) {
        return kept.computeIfAbsent(table, t -> new HashMap<>())
            .computeIfAbsent(column, c -> new RowIndex.Growing(table.list(), c)).catchUp();
      }
      return round.computeIfAbsent(table, t -> new HashMap<>())
          .computeIfAbsent(column, c -> new RowIndex.Grouped(table.list(), c));
    }

    /** Forgets the indexes of the tables whose rows a round replaces. */
    void nextRound() {
      round.clear();
    }
  }

  /**
   * How many rows of the first table a run over {@code index} ({@link #indexes}) reads: all,
   * or those its lookup picks (a run may read a part of them: {@link #run}).
   */
  int rows(RowIndex[] index) {
    if (lookupColumn < 0) {
      return first.list().size();
    }
    final RowIndex.Grouped picked = (RowIndex.Grouped) index[probes.length];
    final int g = picked.group(lookupValue);
    return g < 0 ? 0 : picked.end(g) - picked.start(g);
  }

  /**
   * The indexes a run probes, one a probe, from {@code indexes}, and last the first table's
   * that a lookup picks its rows from: got before the round's runs, which only read them (so
   * runs over parts of the first table's rows may share them).
   */
  RowIndex[] indexes(Indexes indexes) {
    final RowIndex[] index = new RowIndex[probes.length + (lookupColumn < 0 ? 0 : 1)];
    for (int p = 0; p < probes.length; p++) {
      index[p] = indexes.get(probes[p].table(), probes[p].columns()[0]);
    }
    if (lookupColumn >= 0) {
      index[probes.length] = indexes.get(first, lookupColumn);
    }
    return index;
  }

  /**
   * Runs the chain over rows {@code from} to {@code to - 1} of the first table's (of those its
   * lookup picks), probing {@code index} ({@link #indexes}), offering each head to
   * {@code sink}.
   */
  void run(RowIndex[] index, int from, int to, AtomicBoolean cancelled, int round, Sink sink) {
    if (from >= to) {
      return;
    }
    final RowList rows = first.list();
    final long[][] values = values(index);
    final long[] packed;
    final int base;
    if (lookupColumn < 0) {
      packed = rows.packedValues();
      base = 0;
    } else {
      final RowIndex.Grouped picked = (RowIndex.Grouped) index[probes.length];
      packed = picked.values;
      base = picked.start(picked.group(lookupValue));
    }
    final int arity = rows.arity();
    final long[] frame = new long[width];
    for (int r = from; r < to; r++) {
      if (cancelled != null && (r - from) % CHECK_EVERY == 0 && cancelled.get()) {
        throw new FixpointException(FixpointException.Reason.CANCELLED, round);
      }
      System.arraycopy(packed, (base + r) * arity, frame, 0, arity);
      probe(0, arity, index, values, frame, sink);
    }
  }

  private void probe(int p, int bound, RowIndex[] index, long[][] values, long[] frame,
      Sink sink) {
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
    final RowIndex idx = index[p];
    final int g = idx.group(frame[probes[p].slots()[0]]);
    if (g < 0) {
      return;
    }
    final int arity = probes[p].width();
    if (idx instanceof RowIndex.Grouped grouped) {
      for (int r = grouped.start(g), end = grouped.end(g); r < end; r++) {
        bind(p, bound, r * arity, index, values, frame, sink);
      }
    } else {
      final int[] next = ((RowIndex.Growing) idx).next;
      for (int r = ((RowIndex.Growing) idx).first(g); r >= 0; r = next[r]) {
        bind(p, bound, r * arity, index, values, frame, sink);
      }
    }
  }

  /** Binds probe {@code p}'s row at {@code at} of its values if its other columns match. */
  private void bind(int p, int bound, int at, RowIndex[] index, long[][] values, long[] frame,
      Sink sink) {
    final long[] row = values[p];
    final int[] columns = probes[p].columns();
    final int[] slots = probes[p].slots();
    for (int k = 1; k < columns.length; k++) {
      if (row[at + columns[k]] != frame[slots[k]]) {
        return;
      }
    }
    final int arity = probes[p].width();
    System.arraycopy(row, at, frame, bound, arity);
    probe(p + 1, bound + arity, index, values, frame, sink);
  }
}
