package dev.mnestic.runtime;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A linear recursion evaluated as graph searches, one per source, instead of rounds: a
 * set-semantics relation whose every iterative part is a {@link ProbeChain} that scans the
 * relation's own delta, probes only fixed tables (stored relations' copies) and passes one
 * column of the delta row to the head unchanged, such as
 * <pre>
 *   // tc[a, c] := tc[a, b], *edge[b, c]     (column a passes through)
 *   // reach[y] := reach[x], *edge[x, y]      (one column: a single search)
 * </pre>
 * derives from a tuple {@code (a, b)} only tuples {@code (a, c)}, and which c depends on b
 * alone. So the fixpoint is, for each value a of the passed column among the seed's tuples, the
 * set of values reached from a's seed values by the chains' step {@code b -> c}: one
 * breadth-first search per source, its visited set a bitset over the values' range when they
 * are close together (node ids 0..n; a hash set otherwise), no round shared between sources, no
 * dedup of pairs (two sources' tuples never collide). Sources are split between threads when
 * there are many ({@link #run}); a search's level is the round semi-naive evaluation would have
 * derived its tuples in, so the rounds and their new tuples are told as they would have been.
 */
final class Traversal {
  /** How many expansions a search makes between looks at the cancel flag. */
  private static final int CHECK_EVERY = 4096;
  /** Sources a worker claims at a time (the first sources of a chain reach the most). */
  private static final int CLAIM = 8;

  private final ProbeChain[] chains;
  private final RowTable full;
  private final int arity;
  /** The delta's column the head passes through unchanged; -1 for a relation of one column. */
  private final int through;
  /** The column the search walks: the one that is not passed through. */
  private final int walked;

  private Traversal(ProbeChain[] chains, RowTable full, int arity, int through) {
    this.chains = chains;
    this.full = full;
    this.arity = arity;
    this.through = through;
    this.walked = arity == 1 ? 0 : 1 - through;
  }

  /**
   * The searches that evaluate the iterative part {@code chains} of the relation whose tables
   * are {@code full} (holding the seed's tuples) and {@code delta}, or null unless the part has
   * the shape the type's comment says (and the seed's tuples are packed Ints).
   */
  static Traversal of(ProbeChain[] chains, RowTable full, RowTable delta) {
    final RowList seed = full.list();
    if (chains == null || chains.length == 0 || !seed.isPacked() || seed.isEmpty()) {
      return null;
    }
    final int arity = seed.arity();
    if (arity > 2) {
      return null;
    }
    int through = -1;
    for (int p = 0; p < arity && arity == 2; p++) {
      final int column = p;
      if (Arrays.stream(chains).allMatch(c -> c.head(column) == column)) {
        through = p;
      }
    }
    if (arity == 2 && through < 0) {
      return null;
    }
    for (ProbeChain chain : chains) {
      if (!chain.stepsFrom(delta, arity)) {
        return null;
      }
    }
    return new Traversal(chains, full, arity, through);
  }

  /**
   * Adds to the full table every tuple the recursion derives from its seed; splits the sources
   * between {@code threads} when there are two or more (the caller's thread and
   * {@link PartitionedSet}'s pool).
   *
   * @throws FixpointException when a search would need a round past {@code maxIterations},
   *     or when the cancel flag is set
   */
  void run(ProbeChain.Indexes indexes, int threads, AtomicBoolean cancelled, int maxIterations,
      SemiNaive.Progress progress) {
    final RowList seed = full.list();
    // The sources: the seed's tuples grouped by the passed column (one group if none).
    final long[] values;
    final int[] starts;
    if (through < 0) {
      values = Arrays.copyOf(seed.packedValues(), seed.size());
      starts = new int[] {0, values.length};
    } else {
      final RowIndex.Grouped grouped = new RowIndex.Grouped(seed, through);
      values = grouped.values;
      starts = new int[grouped.groups + 1];
      for (int g = 0; g < grouped.groups; g++) {
        starts[g + 1] = grouped.end(g);
      }
    }
    final RowIndex[][] index = new RowIndex[chains.length][];
    for (int c = 0; c < chains.length; c++) {
      index[c] = chains[c].indexes(indexes);
    }
    final long[] range = range(values, index);
    final int sources = starts.length - 1;
    final int workers = Math.max(1, Math.min(threads, sources / CLAIM));
    final Search[] searches = new Search[workers];
    final AtomicInteger next = new AtomicInteger();
    PartitionedSet.onEach(workers, w -> {
      final Search search = new Search(index, range, cancelled, maxIterations);
      searches[w] = search;
      for (int from = next.getAndAdd(CLAIM); from < sources; from = next.getAndAdd(CLAIM)) {
        for (int g = from; g < Math.min(sources, from + CLAIM); g++) {
          search.from(values, starts[g], starts[g + 1]);
        }
      }
    });
    // The derived tuples into the full table after the seed's, in one piece: each search kept
    // its sources' values reached, each writes its tuples at its place (no list per thread
    // grown and copied).
    final int[] at = new int[workers + 1];
    at[0] = seed.size() * arity;
    int depth = 0;
    for (int w = 0; w < workers; w++) {
      at[w + 1] = at[w] + searches[w].derived * arity;
      depth = Math.max(depth, searches[w].depth);
    }
    final long[] into = seed.extend((at[workers] - at[0]) / arity);
    PartitionedSet.onEach(workers, w -> searches[w].tuples(into, at[w]));
    final long[] levels = new long[depth];
    for (Search search : searches) {
      for (int l = 0; l < search.depth; l++) {
        levels[l] += search.levels[l];
      }
    }
    if (progress != null) {
      for (int l = 0; l <= levels.length; l++) {
        progress.round(l + 1, new int[] {l < levels.length ? (int) levels[l] : 0});
      }
    }
  }

  /**
   * The range [low, high] of every value a search can meet (the seed's and every probed
   * table's), or null when they lie too far apart for a bitset over it.
   */
  private long[] range(long[] seedValues, RowIndex[][] index) {
    long low = Long.MAX_VALUE;
    long high = Long.MIN_VALUE;
    long count = seedValues.length;
    for (long v : seedValues) {
      low = Math.min(low, v);
      high = Math.max(high, v);
    }
    for (RowIndex[] chainIndex : index) {
      for (RowIndex idx : chainIndex) {
        final long[] probed = ((RowIndex.Grouped) idx).values;
        count += probed.length;
        for (long v : probed) {
          low = Math.min(low, v);
          high = Math.max(high, v);
        }
      }
    }
    final long span = high - low + 1;
    // span overflows to 0 or a negative for values far apart; 64 bits a value at most
    return span > 0 && span <= 64 * count + 4096 && span < Integer.MAX_VALUE
        ? new long[] {low, high} : null;
  }

  /** One thread's searches: its visited set, frontiers and derived tuples. */
  private final class Search implements ProbeChain.Sink {
    private final RowIndex[][] index;
    private final long[][][] values;
    private final long[] frame;
    /**
     * Per chain, the probed table's column the walked value steps to when the chain is one
     * lookup of the walked slot ({@link ProbeChain#probedColumn}), else -1; and that table's width.
     */
    private final int[] stepColumn;
    private final int[] stepWidth;
    /** Per chain, its first probes that check the source ({@link ProbeChain#checks}). */
    private final int[] checks;
    /** Per chain, whether the source passed its checks. */
    private final boolean[] passed;
    private final AtomicBoolean cancelled;
    private final int maxIterations;
    /** The visited set's bits over [low, low + 64 * bits.length), or null for {@link #hashed}. */
    private final long[] bits;
    private final long low;
    private RowSet hashed;
    /**
     * The values reached from each source searched, source after source, each source's in the
     * order reached (its seed values first; also the frontiers, level by level), {@link #size}
     * in all; the current source's from {@link #base}.
     */
    private long[] reached = new long[1024];
    private int size;
    private int base;
    private long source;
    /**
     * The sources searched ({@link #searched} of them), how many seed values and values derived
     * each has in {@link #reached}; the values derived in all.
     */
    private long[] sources = new long[64];
    private int[] seeds = new int[64];
    private int[] counts = new int[64];
    private int searched;
    int derived;
    /** The new tuples per level (1: the first round's), the first {@link #depth} of them. */
    long[] levels = new long[64];
    int depth;
    private int expanded;

    Search(RowIndex[][] index, long[] range, AtomicBoolean cancelled, int maxIterations) {
      this.index = index;
      this.values = new long[chains.length][][];
      int width = 0;
      for (int c = 0; c < chains.length; c++) {
        values[c] = chains[c].values(index[c]);
        width = Math.max(width, chains[c].width());
      }
      this.frame = new long[width];
      this.stepColumn = new int[chains.length];
      this.stepWidth = new int[chains.length];
      this.checks = new int[chains.length];
      this.passed = new boolean[chains.length];
      for (int c = 0; c < chains.length; c++) {
        checks[c] = through < 0 ? 0 : chains[c].checks(through);
        stepColumn[c] = chains[c].probedColumn(checks[c], walked, walked);
        stepWidth[c] = stepColumn[c] < 0 ? 0 : chains[c].probeWidth(checks[c]);
      }
      this.cancelled = cancelled;
      this.maxIterations = maxIterations;
      this.bits = range == null ? null : new long[(int) ((range[1] - range[0]) / 64 + 1)];
      this.low = range == null ? 0 : range[0];
    }

    /** Searches from the seed tuples {@code from} to {@code to - 1} of {@code seed} (one source). */
    void from(long[] seed, int from, int to) {
      base = size;
      if (bits == null) {
        hashed = new RowSet();
      }
      source = through < 0 ? 0 : seed[from * arity + through];
      for (int c = 0; c < chains.length; c++) {
        passed[c] = true;
        for (int k = 0; k < checks[c] && passed[c]; k++) {
          passed[c] = chains[c].check(k, index[c], values[c], source);
        }
      }
      for (int r = from; r < to; r++) {
        // the seed's tuples are distinct, so are a source's values
        reach(seed[r * arity + walked]);
      }
      if (chains.length == 1 && stepColumn[0] >= 0 && bits != null) {
        walk();
      } else {
        search();
      }
      // the source's seed values are in the full table already
      if (searched == sources.length) {
        sources = Arrays.copyOf(sources, 2 * searched);
        seeds = Arrays.copyOf(seeds, 2 * searched);
        counts = Arrays.copyOf(counts, 2 * searched);
      }
      sources[searched] = source;
      seeds[searched] = to - from;
      counts[searched++] = size - base - (to - from);
      derived += size - base - (to - from);
      if (bits != null && size - base >= bits.length) {
        Arrays.fill(bits, 0);
      } else if (bits != null) {
        for (int k = base; k < size; k++) {
          final long at = reached[k] - low;
          bits[(int) (at >>> 6)] = 0;
        }
      }
    }

    /**
     * The breadth-first search from the values reached so far where the one chain is one lookup
     * of the walked value and the visited set is bits: the step and the visit inlined, the
     * search's state in locals.
     */
    private void walk() {
      final RowIndex.Grouped step = (RowIndex.Grouped) index[0][checks[0]];
      final long[] rows = step.values;
      final int w = stepWidth[0];
      final int column = stepColumn[0];
      final long[] bits = this.bits;
      final long low = this.low;
      final boolean steps = passed[0];
      long[] reached = this.reached;
      int size = this.size;
      // reached[k, end) are the values the search expands at level `level`
      int level = 1;
      int end = size;
      if (size > base && level > maxIterations) {
        throw new FixpointException(FixpointException.Reason.DIVERGED, maxIterations);
      }
      for (int k = base; k < size; k++) {
        if (k == end) {
          counted(level, size - end);
          level++;
          end = size;
          if (level > maxIterations) {
            throw new FixpointException(FixpointException.Reason.DIVERGED, maxIterations);
          }
        }
        if (cancelled != null && ++expanded % CHECK_EVERY == 0 && cancelled.get()) {
          throw new FixpointException(FixpointException.Reason.CANCELLED, level);
        }
        final int g = steps ? step.group(reached[k]) : -1;
        if (g < 0) {
          continue;
        }
        for (int r = step.start(g) * w + column, last = step.end(g) * w; r < last; r += w) {
          final long value = rows[r];
          final int at = (int) (value - low);
          final long bit = 1L << at;
          final long word = bits[at >>> 6];
          if ((word & bit) == 0) {
            bits[at >>> 6] = word | bit;
            if (size == reached.length) {
              reached = Arrays.copyOf(reached, 2 * size);
            }
            reached[size++] = value;
          }
        }
      }
      counted(level, size - end);
      this.reached = reached;
      this.size = size;
    }

    /** The breadth-first search from the values reached so far, any chains, any visited set. */
    private void search() {
      // level l's values are reached[start, end)
      for (int start = base, end = size, level = 1; start < end; start = end, end = size, level++) {
        if (level > maxIterations) {
          throw new FixpointException(FixpointException.Reason.DIVERGED, maxIterations);
        }
        final int before = size;
        for (int k = start; k < end; k++) {
          if (cancelled != null && ++expanded % CHECK_EVERY == 0 && cancelled.get()) {
            throw new FixpointException(FixpointException.Reason.CANCELLED, level);
          }
          for (int c = 0; c < chains.length; c++) {
            if (!passed[c]) {
              continue;
            }
            if (stepColumn[c] >= 0) {
              // the successors of reached[k]: the index's rows, read straight
              final RowIndex.Grouped step = (RowIndex.Grouped) index[c][checks[c]];
              final int g = step.group(reached[k]);
              if (g >= 0) {
                final long[] rows = step.values;
                final int w = stepWidth[c];
                for (int r = step.start(g) * w + stepColumn[c], last = step.end(g) * w;
                    r < last; r += w) {
                  reach(rows[r]);
                }
              }
            } else {
              if (through >= 0) {
                frame[through] = source;
              }
              frame[walked] = reached[k];
              chains[c].step(index[c], values[c], frame, this);
            }
          }
        }
        counted(level, size - before);
      }
    }

    /** Counts {@code added} new tuples at level {@code level} (the round that derives them). */
    private void counted(int level, int added) {
      if (added == 0) {
        return;
      }
      if (level > levels.length) {
        levels = Arrays.copyOf(levels, Math.max(level, 2 * levels.length));
      }
      levels[level - 1] += added;
      depth = Math.max(depth, level);
    }

    /** Writes the tuples derived, packed rows of the relation's arity, into {@code into} from {@code at}. */
    void tuples(long[] into, int at) {
      int to = at;
      for (int s = 0, k = 0; s < searched; s++) {
        k += seeds[s];
        if (through < 0) {
          System.arraycopy(reached, k, into, to, counts[s]);
          k += counts[s];
          to += counts[s];
          continue;
        }
        final long from = sources[s];
        for (final int last = k + counts[s]; k < last; k++) {
          into[to + through] = from;
          into[to + walked] = reached[k];
          to += 2;
        }
      }
    }

    /** Visits {@code value}: a new one is reached, derived and searched from. */
    private void reach(long value) {
      if (bits != null) {
        final int at = (int) (value - low);
        final long bit = 1L << at;
        final long word = bits[at >>> 6];
        if ((word & bit) != 0) {
          return;
        }
        bits[at >>> 6] = word | bit;
      } else if (!hashed.add(value)) {
        return;
      }
      if (size == reached.length) {
        reached = Arrays.copyOf(reached, 2 * size);
      }
      reached[size++] = value;
    }

    @Override public void offer(long value) {
      reach(value);
    }

    @Override public void offer(long a, long b) {
      reach(walked == 0 ? a : b);
    }

    @Override public void offer(Object[] row) {
      throw new IllegalStateException("a search derives tuples of one or two columns");
    }
  }
}
