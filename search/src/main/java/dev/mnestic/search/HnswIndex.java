package dev.mnestic.search;

import dev.mnestic.value.Bytes;
import dev.mnestic.value.Functions;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.StopCheck;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;
import dev.mnestic.value.Vector;

import org.apache.lucene.codecs.hnsw.DefaultFlatVectorScorer;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.TaskExecutor;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.hnsw.HnswConcurrentMergeBuilder;
import org.apache.lucene.util.hnsw.HnswGraph;
import org.apache.lucene.util.hnsw.HnswGraphBuilder;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.NeighborArray;
import org.apache.lucene.util.hnsw.OnHeapHnswGraph;
import org.apache.lucene.util.hnsw.RandomAccessVectorValues;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HNSW index ({@link HnswKind}) on Lucene's HNSW graph ({@link HnswGraphBuilder}, {@link
 * HnswGraphSearcher}) over vectors held in memory ({@link RandomAccessVectorValues#fromFloats}).
 *
 * <p>Why Lucene's graph and not a Lucene index of {@code KnnFloatVectorField}s: the graph
 * builder adds one vector at a time ({@code addGraphNode}), so {@link #sync} and {@link
 * #update} add only the vectors that are new, and a search takes a filter of live vectors
 * ({@link Bits}); an index writer would add segments and merge them, and answer through its
 * own document ids. Each indexed vector is an entry: a row's key, the field's position and,
 * for a list of vectors, the element's (CozoDB indexes each vector of a {@code [<F32; n>]}
 * field). An entry whose row is gone or whose vector changed is marked deleted (the graph
 * keeps it as a way through, as Lucene does with deleted documents); the same entry back with
 * the same vector (a transaction's own write taken back after its search and made again at
 * the next, a row deleted and put back) is marked live again rather than added twice; the
 * graph is built again once deleted entries outnumber live ones.
 *
 * <p>New entries wait unlinked (pending): the graph holds the entries of ords {@code [0,
 * linked)}, and a search scores every live pending entry exactly beside the graph's
 * candidates. A sync or update links them ({@link #link}) once {@link #CONCURRENT_FROM} wait
 * (the first search over a relation, a large {@code :put}, a rebuild, or smaller writes piled
 * up), with every core through Lucene's {@link HnswConcurrentMergeBuilder}: so a search after a
 * few writes does not wait for their insertion one vector at a time (about 9 ms each at m 50,
 * ef_construction 200 on 100,000 128-d vectors), and an index of fewer than 4,096 vectors has
 * no graph and is searched exactly. A read of the graph's relation ({@link #relationRows})
 * links every pending entry first, fewer than 4,096 one after the other with levels from seed
 * 42; the graph built by every core differs from run to run, one built one vector at a time
 * does not.
 *
 * <p>Every live entry is reachable by a search, whatever the changes: Lucene 9.12 builds a
 * graph one node at a time, and a node's new link can push out an older node's last link in
 * (its {@code HnswGraphBuilder.finish} no longer joins the parts, as its {@code
 * connectComponents} did), so a graph can split and a search miss what it cannot reach. So
 * searches walk the graph through {@link Connected}: at level 0 every node also links to the
 * entry node, and the entry node also to one node of each part its own links do not reach
 * (found by a walk of level 0 from the entry after nodes were added: O(links), not per search;
 * a part of deleted entries too, as one may be put back). Every live entry is then reachable
 * from wherever the search enters level 0, so a search whose {@code ef} exceeds the live
 * entries finds them all, in exact order ({@code HnswIndexTest}).
 *
 * <p>Distances: the graph ranks by Lucene's similarity of the same order (Euclidean for {@code
 * L2}, cosine for {@code Cosine}, maximum inner product for {@code IP}, on the vectors as
 * 32-bit floats); the distances returned and compared with {@code radius} are CozoDB's, computed
 * from the stored vectors in their own precision ({@link Functions#l2_dist}, {@code cos_dist},
 * {@code ip_dist}). A search takes the {@code ef} nearest candidates, as CozoDB's does: the
 * {@code ef} best, by the graph's similarity, of the graph's own candidates (live linked
 * entries) and every live pending entry; then drops those beyond the radius and those failing
 * the filter, and keeps the {@code k} nearest, nearest first (ties by the order entries were
 * added). Like CozoDB's, the answer is approximate: with a small {@code ef} a true neighbour in
 * the graph may be missed (a pending one never is), and the graph's shape (random levels)
 * differs from CozoDB's, so which one may differ.
 */
final class HnswIndex implements SearchIndex {
  /** From this many pending vectors on, a sync or update links them, with every core. */
  static final int CONCURRENT_FROM = 4096;
  private static final int WORKERS = Runtime.getRuntime().availableProcessors();
  /** Threads that build a graph beside the caller's (daemons; an idle one ends). */
  private static final ExecutorService BUILDERS = Executors.newCachedThreadPool(r -> {
    final Thread t = new Thread(r, "mnestic-hnsw-build");
    t.setDaemon(true);
    return t;
  });
  private final SearchIndex.Columns columns;
  private final SearchIndex.RowFilter filter;
  private final int dim;
  private final boolean f32;
  private final int[] fields;
  private final String distance;
  private final int m;
  private final int efConstruction;
  private final VectorSimilarityFunction similarity;

  /** Per entry (its ord): the vector as the graph has it, the exact one, its key and row. */
  private final List<float[]> graphVectors = new ArrayList<>();
  private final List<Vector> vectors = new ArrayList<>();
  private final List<Entry> entries = new ArrayList<>();
  private final List<Object[]> rowOf = new ArrayList<>();
  private final BitSet deleted = new BitSet();
  /** The live entries' ords; the ord each deleted entry last had; each key's live ords. */
  private final Map<Entry, Integer> ords = new HashMap<>();
  private final Map<Entry, Integer> gone = new HashMap<>();
  private final Map<List<Object>, List<Integer>> byKey = new HashMap<>();
  private HnswGraphBuilder builder;
  /**
   * The entries below this ord are nodes of the graph; the others are pending: a search scores
   * each live one exactly, and they wait for {@link #link} (fewer than {@link #CONCURRENT_FROM}
   * but after a stopped link).
   */
  private int linked;
  /**
   * One node of each part of level 0 the entry node's links do not reach, deleted or not (a
   * deleted entry may come back live; walked after nodes were added: null until then).
   */
  private int[] parts;

  /** An indexed vector: its row's key, the field's column, the element's place or -1. */
  private record Entry(List<Object> key, int column, int element) {
  }

  HnswIndex(SearchIndex.Definition definition, SearchIndex.Columns columns,
      SearchIndex.RowFilter filter) {
    this.columns = columns;
    this.filter = filter;
    this.dim = (int) (long) (Long) definition.option("vec_dim");
    this.f32 = "F32".equals(definition.option("dtype"));
    final List<?> positions = (List<?>) definition.option("vec_fields");
    this.fields = new int[positions.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = (int) (long) (Long) positions.get(i);
    }
    this.distance = (String) definition.option("distance");
    this.m = (int) (long) (Long) definition.option("m_neighbours");
    this.efConstruction = (int) (long) (Long) definition.option("ef_construction");
    this.similarity = switch (distance) {
      case "Cosine" -> VectorSimilarityFunction.COSINE;
      case "IP" -> VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT;
      default -> VectorSimilarityFunction.EUCLIDEAN;
    };
    builder = newBuilder();
  }

  private HnswGraphBuilder newBuilder() {
    try {
      return HnswGraphBuilder.create(scorers(), m, efConstruction, 42);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private RandomVectorScorerSupplier scorers() throws IOException {
    return DefaultFlatVectorScorer.INSTANCE.getRandomVectorScorerSupplier(similarity,
        RandomAccessVectorValues.fromFloats(graphVectors, dim));
  }

  /** Forgets every entry: an empty index with an empty graph. */
  private void clear() {
    graphVectors.clear();
    vectors.clear();
    entries.clear();
    rowOf.clear();
    deleted.clear();
    ords.clear();
    gone.clear();
    byKey.clear();
    builder = newBuilder();
    parts = null;
    linked = 0;
  }

  /** How many entries wait to be linked into the graph ({@code [linked, entries.size())}). */
  int pending() {
    return entries.size() - linked;
  }

  /**
   * Links the pending entries into the graph, from {@link #CONCURRENT_FROM} of them on with
   * every core ({@link #linkConcurrently}), else one after the other in ord order (levels from
   * seed 42: the same entries give the same graph; a stop leaves the graph with those linked,
   * the others pending). A sync or update calls it once {@link #CONCURRENT_FROM} wait, a read
   * of the graph's relation always; tests to search a graph of fewer.
   */
  void link(StopCheck stop) {
    final int to = entries.size();
    if (linked == to) {
      return;
    }
    parts = null;
    try {
      if (WORKERS > 1 && to - linked >= CONCURRENT_FROM) {
        linkConcurrently(to, stop);
        return;
      }
      for (; linked < to; linked++) {
        if (linked % 64 == 63) {
          stop.check();
        }
        builder.addGraphNode(linked);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Adds entries {@code linked} to {@code to} with Lucene's concurrent builder ({@link
   * HnswConcurrentMergeBuilder}: a worker per core, each a {@link HnswGraphBuilder} on the one
   * graph, taking the nodes in batches of 2,048, with Lucene's locks on the nodes' links), the
   * last one first and alone: a graph made without a size grows its node array when a node
   * beyond it comes, which workers must not race on. The graph differs from run to run (which
   * worker draws which node's level, and in which order nodes meet), as it does in Lucene. A
   * stop or a failure midway leaves an unknown part of them in the graph, so the index is then
   * emptied: the engine's next sync brings it up from every row.
   */
  private void linkConcurrently(int to, StopCheck stop) throws IOException {
    boolean built = false;
    try {
      builder.addGraphNode(to - 1);
      final FixedBitSet done = new FixedBitSet(to);
      done.set(0, linked);
      done.set(to - 1);
      new HnswConcurrentMergeBuilder(new TaskExecutor(BUILDERS), WORKERS,
          new Stopping(scorers(), stop), m, efConstruction, builder.getGraph(), done).build(to);
      built = true;
    } finally {
      if (!built) {
        clear();
      }
    }
    linked = to;
  }

  /** A worker's scorers, with a look at the statement's stop every few nodes. */
  private static final class Stopping implements RandomVectorScorerSupplier {
    private final RandomVectorScorerSupplier scorers;
    private final StopCheck stop;
    private int made;

    Stopping(RandomVectorScorerSupplier scorers, StopCheck stop) {
      this.scorers = scorers;
      this.stop = stop;
    }

    @Override public RandomVectorScorer scorer(int ord) throws IOException {
      if (++made % 16 == 0) {
        stop.check();
      }
      return scorers.scorer(ord);
    }

    @Override public RandomVectorScorerSupplier copy() throws IOException {
      return new Stopping(scorers.copy(), stop);
    }
  }

  /**
   * Builds the graph again from the live entries, in the order they were added, once deleted
   * ones outnumber them (each costs memory and a search's walk through it).
   */
  private void compactIfWorthIt() {
    final int dead = deleted.cardinality();
    if (dead <= entries.size() - dead) {
      return;
    }
    final List<Entry> liveEntries = new ArrayList<>();
    final List<Vector> liveVectors = new ArrayList<>();
    final List<Object[]> liveRows = new ArrayList<>();
    for (int ord = deleted.nextClearBit(0); ord < entries.size();
        ord = deleted.nextClearBit(ord + 1)) {
      liveEntries.add(entries.get(ord));
      liveVectors.add(vectors.get(ord));
      liveRows.add(rowOf.get(ord));
    }
    clear();
    for (int i = 0; i < liveEntries.size(); i++) {
      add(liveEntries.get(i), liveVectors.get(i), liveRows.get(i));
    }
  }

  @Override public void sync(List<Object[]> rows, StopCheck stop) {
    compactIfWorthIt();
    final BitSet seen = new BitSet();
    for (int r = 0; r < rows.size(); r++) {
      if (r % 4096 == 4095) {
        stop.check();
      }
      for (int ord : put(rows.get(r))) {
        seen.set(ord);
      }
    }
    for (int ord = 0; ord < entries.size(); ord++) {
      if (!seen.get(ord) && !deleted.get(ord)) {
        delete(ord);
      }
    }
    linkIfMany(stop);
  }

  @Override public void update(List<Object[]> removed, List<Object[]> added, StopCheck stop) {
    compactIfWorthIt();
    for (Object[] row : removed) {
      final List<Integer> had = byKey.get(key(row));
      if (had != null) {
        for (int ord : new ArrayList<>(had)) {
          delete(ord);
        }
      }
    }
    for (int r = 0; r < added.size(); r++) {
      if (r % 4096 == 4095) {
        stop.check();
      }
      final Object[] row = added.get(r);
      final List<Integer> had = byKey.get(key(row));
      final List<Integer> before = had == null ? List.of() : new ArrayList<>(had);
      final List<Integer> now = put(row);
      for (int ord : before) {
        if (!now.contains(ord)) {
          delete(ord);
        }
      }
    }
    linkIfMany(stop);
  }

  /** Links the pending entries once {@link #CONCURRENT_FROM} of them wait. */
  private void linkIfMany(StopCheck stop) {
    if (pending() >= CONCURRENT_FROM) {
      link(stop);
    }
  }

  private List<Object> key(Object[] row) {
    return Arrays.asList(Arrays.copyOf(row, columns.keyCount()));
  }

  /**
   * Indexes {@code row}'s vectors that are not yet (an entry's vector unchanged costs a
   * lookup); their ords. Does not delete the row's entries it no longer has.
   */
  private List<Integer> put(Object[] row) {
    if (filter != null && !filter.test(row)) {
      return List.of();
    }
    final List<Object> key = key(row);
    final List<Integer> out = new ArrayList<>();
    for (int column : fields) {
      final Object v = row[column];
      if (v instanceof Vector) {
        put(new Entry(key, column, -1), (Vector) v, row, out);
      } else if (v instanceof List) {
        final List<?> items = (List<?>) v;
        for (int e = 0; e < items.size(); e++) {
          if (items.get(e) instanceof Vector) {
            put(new Entry(key, column, e), (Vector) items.get(e), row, out);
          }
        }
      }
    }
    return out;
  }

  private void put(Entry entry, Vector v, Object[] row, List<Integer> out) {
    if (v.isF32() != f32 || v.length() != dim) {
      return;
    }
    final Integer had = ords.get(entry);
    if (had != null && vectors.get(had).equals(v)) {
      rowOf.set(had, row);
      out.add(had);
      return;
    }
    if (had != null) {
      delete(had);
    }
    final Integer back = gone.get(entry);
    if (back != null && vectors.get(back).equals(v)) {
      gone.remove(entry);
      deleted.clear(back);
      ords.put(entry, back);
      byKey.computeIfAbsent(entry.key(), k -> new ArrayList<>()).add(back);
      rowOf.set(back, row);
      out.add(back);
      return;
    }
    out.add(add(entry, v, row));
  }

  /** Adds {@code entry} as a new, pending entry (a node of the graph at {@link #link}); its ord. */
  private int add(Entry entry, Vector v, Object[] row) {
    final int ord = entries.size();
    entries.add(entry);
    vectors.add(v);
    graphVectors.add(v.toFloats());
    rowOf.add(row);
    ords.put(entry, ord);
    byKey.computeIfAbsent(entry.key(), k -> new ArrayList<>()).add(ord);
    return ord;
  }

  /** Marks live entry {@code ord} deleted. */
  private void delete(int ord) {
    final Entry entry = entries.get(ord);
    deleted.set(ord);
    ords.remove(entry);
    gone.put(entry, ord);
    final List<Integer> ofKey = byKey.get(entry.key());
    ofKey.remove((Integer) ord);
    if (ofKey.isEmpty()) {
      byKey.remove(entry.key());
    }
  }

  /**
   * The graph as CozoDB's {@code rel:idx} shows its own (mnestic's own graph: Lucene's, its
   * levels drawn from seed 42 in the order vectors were added, where CozoDB draws them at
   * random). Level {@code l} is layer {@code -l}; per live vector and layer a self row (its
   * degree as {@code dist}, the SHA-256 of its little-endian elements as {@code hash}) and per
   * pair of live vectors linked there in either direction a row each way with their distance,
   * {@code ignore_link} true for a direction Lucene's graph does not link (CozoDB keeps a link
   * it prunes so, for symmetry); and a row at layer 1, keys null, its {@code dist} the entry
   * vector's lowest layer. By the key columns, in CozoDB's value order. Links the pending
   * entries first ({@link #link}), so the rows show every live vector.
   */
  @Override public List<Object[]> relationRows(String part, StopCheck stop) {
    final List<Object[]> rows = new ArrayList<>();
    if (entries.size() == deleted.cardinality()) {
      return rows;
    }
    link(stop);
    final int keys = columns.keyCount();
    final int width = 2 * keys + 8;
    try {
      final HnswGraph graph = builder.getGraph();
      for (int level = 0; level < graph.numLevels(); level++) {
        final Map<Long, Boolean> links = new HashMap<>();
        for (var nodes = graph.getNodesOnLevel(level); nodes.hasNext(); ) {
          final int node = nodes.nextInt();
          if (deleted.get(node)) {
            continue;
          }
          int degree = 0;
          graph.seek(level, node);
          for (int to = graph.nextNeighbor(); to != DocIdSetIterator.NO_MORE_DOCS;
              to = graph.nextNeighbor()) {
            if (!deleted.get(to) && to != node) {
              degree++;
              links.put((long) node << 32 | to, true);
            }
          }
          rows.add(graphRow(width, -level, node, node, (double) degree,
              Bytes.of(sha256(vectors.get(node))), false));
        }
        for (long link : links.keySet()) {
          final int from = (int) (link >>> 32);
          final int to = (int) link;
          rows.add(graphRow(width, -level, from, to,
              distance(vectors.get(from), vectors.get(to)), null, false));
          if (!links.containsKey((long) to << 32 | from)) {
            rows.add(graphRow(width, -level, to, from,
                distance(vectors.get(to), vectors.get(from)), null, true));
          }
        }
      }
      final Object[] top = new Object[width];
      top[0] = 1L;
      top[width - 3] = (long) -(graph.numLevels() - 1);
      top[width - 1] = false;
      rows.add(top);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rows.sort((a, b) -> KeyedRows.compareKeys(Arrays.asList(a).subList(0, width - 3),
        Arrays.asList(b).subList(0, width - 3)));
    return rows;
  }

  /** A row of the graph's relation: a link at {@code layer} from entry {@code from} to {@code to}. */
  private Object[] graphRow(int width, int layer, int from, int to, Object dist, Object hash,
      boolean ignore) {
    final Object[] row = new Object[width];
    row[0] = (long) layer;
    int at = 1;
    for (int ord : new int[] {from, to}) {
      final Entry e = entries.get(ord);
      for (Object k : e.key()) {
        row[at++] = k;
      }
      row[at++] = (long) e.column();
      row[at++] = (long) e.element();
    }
    row[at] = dist;
    row[at + 1] = hash;
    row[at + 2] = ignore;
    return row;
  }

  /** CozoDB's hash of a vector: SHA-256 of its elements' little-endian bytes. */
  private static byte[] sha256(Vector v) {
    try {
      return java.security.MessageDigest.getInstance("SHA-256").digest(v.littleEndianBytes());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override public List<Hit> search(SearchIndex.Request request, Object query,
      SearchIndex.RowFilter rowFilter, StopCheck stop) {
    final HnswKind.Request r = (HnswKind.Request) request;
    if (!(query instanceof Vector)) {
      // CozoDB's message, without a code
      throw new ValueException(null, "Expected vector, got " + Values.display(query), null);
    }
    Vector q = (Vector) query;
    if (q.length() != dim) {
      throw new ValueException(null, "query vector dimension mismatch", null);
    }
    if (q.isF32() != f32) {
      q = Functions.vec(q, f32 ? "F32" : "F64");
    }
    if (entries.size() == deleted.cardinality()) {
      return List.of();
    }
    final TopDocs found;
    try {
      final RandomVectorScorer scorer = DefaultFlatVectorScorer.INSTANCE.getRandomVectorScorer(
          similarity, RandomAccessVectorValues.fromFloats(graphVectors, dim), q.toFloats());
      final TopKnnCollector collector = new TopKnnCollector(r.ef(), Integer.MAX_VALUE);
      if (linked > 0) {
        HnswGraphSearcher.search(scorer, collector, connected(), live());
      }
      // the pending entries, every live one scored: the ef best of them and the graph's
      for (int ord = deleted.nextClearBit(linked); ord < entries.size();
          ord = deleted.nextClearBit(ord + 1)) {
        collector.collect(ord, scorer.score(ord));
      }
      found = collector.topDocs();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    final List<double[]> candidates = new ArrayList<>();
    for (var d : found.scoreDocs) {
      candidates.add(new double[] {distance(q, vectors.get(d.doc)), d.doc});
    }
    candidates.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0])
        : Double.compare(a[1], b[1]));
    final List<Hit> hits = new ArrayList<>();
    // without a filter CozoDB keeps the k nearest of the candidates before the radius
    final int considered = rowFilter == null ? Math.min(r.k(), candidates.size())
        : candidates.size();
    for (int i = 0; i < considered && hits.size() < r.k(); i++) {
      final double dist = candidates.get(i)[0];
      final int ord = (int) candidates.get(i)[1];
      if (r.radius() != null && dist > r.radius()) {
        continue;
      }
      final Entry entry = entries.get(ord);
      final List<Object> binds = new ArrayList<>();
      for (String b : r.binds()) {
        binds.add(switch (b) {
          case "bind_field" -> columns.names().get(entry.column());
          case "bind_field_idx" -> entry.element() < 0 ? null : (Object) (long) entry.element();
          case "bind_distance" -> dist;
          default -> vectors.get(ord);
        });
      }
      final Object[] row = rowOf.get(ord);
      if (rowFilter != null && !rowFilter.test(withBinds(row, binds))) {
        continue;
      }
      hits.add(new Hit(row, binds));
    }
    return hits;
  }

  /**
   * The graph (the entries below {@code linked}; at least one) as searches walk it, its parts
   * found first if nodes were added since.
   */
  private HnswGraph connected() throws IOException {
    final OnHeapHnswGraph graph = builder.getGraph();
    if (parts == null) {
      final int entry = graph.entryNode();
      final BitSet reached = new BitSet(linked);
      final int[] todo = new int[linked];
      final List<Integer> found = new ArrayList<>();
      reach(graph, entry, reached, todo);
      for (int ord = reached.nextClearBit(0); ord < linked;
          ord = reached.nextClearBit(ord + 1)) {
        found.add(ord);
        reach(graph, ord, reached, todo);
      }
      parts = found.stream().mapToInt(Integer::intValue).toArray();
    }
    return new Connected(graph, parts);
  }

  /**
   * Marks what {@code from} reaches by level 0's links in {@code reached} ({@code todo}: room
   * for every node, each marked once).
   */
  private static void reach(OnHeapHnswGraph graph, int from, BitSet reached, int[] todo) {
    int size = 0;
    reached.set(from);
    todo[size++] = from;
    while (size > 0) {
      final NeighborArray links = graph.getNeighbors(0, todo[--size]);
      final int[] nodes = links.nodes();
      for (int i = 0; i < links.size(); i++) {
        if (!reached.get(nodes[i])) {
          reached.set(nodes[i]);
          todo[size++] = nodes[i];
        }
      }
    }
  }

  /**
   * Lucene's graph with links added at level 0, none stored: from every node to the entry
   * node, and from the entry node to one node of each part it does not reach ({@code parts}).
   */
  private static final class Connected extends HnswGraph {
    private final OnHeapHnswGraph graph;
    private final int[] parts;
    private final int entry;
    private int level;
    private int node;
    /** Past the graph's own links: how many added links were given (-1: not past yet). */
    private int added;

    Connected(OnHeapHnswGraph graph, int[] parts) throws IOException {
      this.graph = graph;
      this.parts = parts;
      this.entry = graph.entryNode();
    }

    @Override public void seek(int level, int target) throws IOException {
      graph.seek(level, target);
      this.level = level;
      this.node = target;
      this.added = -1;
    }

    @Override public int nextNeighbor() throws IOException {
      if (added < 0) {
        final int next = graph.nextNeighbor();
        if (next != DocIdSetIterator.NO_MORE_DOCS) {
          return next;
        }
        added = 0;
      }
      if (level != 0) {
        return DocIdSetIterator.NO_MORE_DOCS;
      }
      if (node != entry) {
        return added++ == 0 ? entry : DocIdSetIterator.NO_MORE_DOCS;
      }
      return added < parts.length ? parts[added++] : DocIdSetIterator.NO_MORE_DOCS;
    }

    @Override public int size() {
      return graph.size();
    }

    @Override public int maxNodeId() {
      return graph.maxNodeId();
    }

    @Override public int numLevels() throws IOException {
      return graph.numLevels();
    }

    @Override public int entryNode() throws IOException {
      return entry;
    }

    @Override public NodesIterator getNodesOnLevel(int level) throws IOException {
      return graph.getNodesOnLevel(level);
    }
  }

  /** {@code values}, a row, followed by a hit's bound values, as a filter reads them. */
  private static Object[] withBinds(Object[] values, List<Object> binds) {
    final Object[] out = Arrays.copyOf(values, values.length + binds.size());
    for (int i = 0; i < binds.size(); i++) {
      out[values.length + i] = binds.get(i);
    }
    return out;
  }

  private Bits live() {
    final int size = entries.size();
    return new Bits() {
      @Override public boolean get(int index) {
        return !deleted.get(index);
      }

      @Override public int length() {
        return size;
      }
    };
  }

  /** CozoDB's distance of the index between the query and a stored vector. */
  private double distance(Vector q, Vector v) {
    return switch (distance) {
      case "Cosine" -> Functions.cos_dist(q, v);
      case "IP" -> Functions.ip_dist(q, v);
      default -> Functions.l2_dist(q, v);
    };
  }
}
