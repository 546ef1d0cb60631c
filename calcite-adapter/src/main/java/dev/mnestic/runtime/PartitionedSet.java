package dev.mnestic.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * A set-semantics relation's tuples in {@code n} hash partitions (by the hash of a tuple's
 * first value), each with its own dedup set and its own new tuples of the round; a round's new
 * tuples are the union of the partitions'. Serially, a tuple goes to its partition's set. A
 * round whose probe chains read many rows is split ({@link #runSplit}) between {@code n}
 * threads (the caller's and a small fixed pool's), each partition written by one only:
 * <ol>
 *   <li>worker w runs every chain over its w-th share of the chain's first table (a delta),
 *       probing the indexes all share, read-only; a tuple of its own partition w goes into
 *       w's set, one of another partition p into its outbox for p;
 *   <li>once all have run, worker p adds the outboxes for p into p's set.
 * </ol>
 * No lock: a set is written by one thread in each phase, and the phases are ordered by the
 * caller waiting for every worker's end ({@link Future#get}).
 */
final class PartitionedSet implements ProbeChain.Sink {
  /** The processors a split round may use (at most 8: deltas rarely pay for more). */
  static final int PROCESSORS = Math.min(8, Runtime.getRuntime().availableProcessors());

  /** The caller's helpers in a split round: one thread fewer than the processors, one at least. */
  private static final class Pool {
    private static final AtomicInteger MADE = new AtomicInteger();
    static final ExecutorService POOL = Executors.newFixedThreadPool(Math.max(1, PROCESSORS - 1),
        task -> {
          final Thread t = new Thread(task, "mnestic-round-" + MADE.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
  }

  private final int n;
  private final Part[] parts;

  /** A relation's empty set in {@code n} partitions ({@code n} the threads a round may use). */
  PartitionedSet(int n) {
    this.n = n;
    parts = new Part[n];
    for (int p = 0; p < n; p++) {
      parts[p] = new Part(n);
    }
  }

  /** The partition of a tuple whose first value is {@code a}: a hash's top bits, scaled to n. */
  private int part(long a) {
    return (int) ((((a * 0x9E3779B97F4A7C15L) >>> 32) * n) >>> 32);
  }

  private int part(Object[] row) {
    return row.length == 0 ? 0
        : row[0] instanceof Long a ? part((long) a) : part(Objects.hashCode(row[0]));
  }

  @Override public void offer(long value) {
    parts[part(value)].offer(value);
  }

  @Override public void offer(long a, long b) {
    parts[part(a)].offer(a, b);
  }

  @Override public void offer(Object[] row) {
    parts[part(row)].offer(row);
  }

  /** Whether this round added nothing. */
  boolean isEmpty() {
    for (Part part : parts) {
      if (!part.added.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** Appends this round's new tuples to {@code full}, makes them {@code delta}, starts anew. */
  void publish(List<Object[]> full, List<Object[]> delta) {
    delta.clear();
    for (Part part : parts) {
      full.addAll(part.added);
      delta.addAll(part.added);
      part.added.clear();
    }
  }

  /**
   * Runs {@code chains} (probing {@code index}, per chain its {@link ProbeChain#indexes}) split
   * between the partitions' threads, as the type's comment says.
   */
  void runSplit(ProbeChain[] chains, RowIndex[][] index, AtomicBoolean cancelled, int round) {
    onEach(w -> {
      final Worker worker = new Worker(w);
      for (int c = 0; c < chains.length; c++) {
        final long rows = chains[c].rows(index[c]);
        chains[c].run(index[c], (int) (rows * w / n), (int) (rows * (w + 1) / n), cancelled,
            round, worker);
      }
    });
    onEach(p -> {
      for (Part from : parts) {
        parts[p].take(from.outbox[p]);
      }
    });
  }

  private void onEach(IntConsumer task) {
    onEach(n, task);
  }

  /** Runs {@code task} for 0 to n - 1, 0 in this thread, the others in the pool; waits for all. */
  static void onEach(int n, IntConsumer task) {
    final List<Future<?>> helpers = new ArrayList<>();
    for (int w = 1; w < n; w++) {
      final int worker = w;
      helpers.add(Pool.POOL.submit(() -> task.accept(worker)));
    }
    RuntimeException failed = null;
    try {
      task.accept(0);
    } catch (RuntimeException e) {
      failed = e;
    }
    // Every helper ends before the sets are read again, failed or not.
    for (Future<?> helper : helpers) {
      try {
        helper.get();
      } catch (ExecutionException e) {
        if (failed == null) {
          failed = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        if (failed == null) {
          failed = new IllegalStateException("interrupted while a round ran", e);
        }
      }
    }
    if (failed != null) {
      throw failed;
    }
  }

  /** One partition: its dedup set, its tuples new this round, its outboxes of a split round. */
  private static final class Part {
    final RowSet seen = new RowSet();
    /** Packed while the rows are Ints: a round's new rows are not kept as objects. */
    final RowList added = new RowList();
    /** In a split round, the tuples this partition's worker derived for partition p. */
    final RowList[] outbox;

    Part(int n) {
      outbox = new RowList[n];
      for (int p = 0; p < n; p++) {
        outbox[p] = new RowList();
      }
    }

    void offer(Object[] row) {
      if (seen.add(row)) {
        added.add(row);
      }
    }

    void offer(long value) {
      if (seen.add(value)) {
        if (added.isPacked()) {
          added.addPacked(value);
        } else {
          added.add(new Object[] {value});
        }
      }
    }

    void offer(long a, long b) {
      if (seen.add(a, b)) {
        if (added.isPacked()) {
          added.addPacked(a, b);
        } else {
          added.add(new Object[] {a, b});
        }
      }
    }

    /** Offers the tuples of {@code box} (then empties it). */
    void take(RowList box) {
      final int size = box.size();
      if (size > 0 && box.isPacked() && box.arity() == 1) {
        final long[] values = box.packedValues();
        for (int r = 0; r < size; r++) {
          offer(values[r]);
        }
      } else if (size > 0 && box.isPacked() && box.arity() == 2) {
        final long[] values = box.packedValues();
        for (int r = 0; r < size; r++) {
          offer(values[2 * r], values[2 * r + 1]);
        }
      } else {
        for (Object[] row : box) {
          offer(row);
        }
      }
      box.clear();
    }
  }

  /** Worker w of a split round: its partition's tuples go in, the others to its outboxes. */
  private final class Worker implements ProbeChain.Sink {
    private final int w;
    private final Part own;

    Worker(int w) {
      this.w = w;
      this.own = parts[w];
    }

    @Override public void offer(long value) {
      final int p = part(value);
      if (p == w) {
        own.offer(value);
      } else {
        own.outbox[p].addPacked(value);
      }
    }

    @Override public void offer(long a, long b) {
      final int p = part(a);
      if (p == w) {
        own.offer(a, b);
      } else {
        own.outbox[p].addPacked(a, b);
      }
    }

    @Override public void offer(Object[] row) {
      final int p = part(row);
      if (p == w) {
        own.offer(row);
      } else {
        own.outbox[p].add(row);
      }
    }
  }
}
