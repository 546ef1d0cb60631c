package dev.mnestic.search;

import dev.mnestic.value.Functions;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.StopCheck;
import dev.mnestic.value.ValueException;
import dev.mnestic.value.Values;
import dev.mnestic.value.Vector;

import org.apache.lucene.codecs.hnsw.DefaultFlatVectorScorer;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.hnsw.HnswGraphBuilder;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.RandomAccessVectorValues;
import org.apache.lucene.util.hnsw.RandomVectorScorer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An HNSW index ({@link HnswKind}) on Lucene's HNSW graph ({@link HnswGraphBuilder}, {@link
 * HnswGraphSearcher}) over vectors held in memory ({@link RandomAccessVectorValues#fromFloats}).
 *
 * <p>Why Lucene's graph and not a Lucene index of {@code KnnFloatVectorField}s: the graph
 * builder adds one vector at a time ({@code addGraphNode}), so {@link #sync} adds only the
 * vectors that are new, and a search takes a filter of live vectors ({@link Bits}); an index
 * writer would add segments and merge them, and answer through its own document ids. Each
 * indexed vector is an entry: a row's key, the field's position and, for a list of vectors,
 * the element's (CozoDB indexes each vector of a {@code [<F32; n>]} field). An entry whose row
 * is gone or whose vector changed is marked deleted (the graph keeps it as a way through, as
 * Lucene does with deleted documents); the graph is built again once deleted entries outnumber
 * live ones.
 *
 * <p>Distances: the graph ranks by Lucene's similarity of the same order (Euclidean for {@code
 * L2}, cosine for {@code Cosine}, maximum inner product for {@code IP}, on the vectors as
 * 32-bit floats); the distances returned and compared with {@code radius} are CozoDB's, computed
 * from the stored vectors in their own precision ({@link Functions#l2_dist}, {@code cos_dist},
 * {@code ip_dist}). A search takes the {@code ef} nearest candidates the graph finds, as CozoDB's
 * does, then drops those beyond the radius and those failing the filter, and keeps the {@code k}
 * nearest, nearest first (ties by the order entries were added). Like CozoDB's, the answer is
 * approximate: with a small {@code ef} a true neighbour may be missed, and the graph's shape
 * (random levels) differs from CozoDB's, so which one may differ.
 */
final class HnswIndex implements SearchIndex {
  private final SearchIndex.Columns columns;
  private final SearchIndex.RowFilter filter;
  private final int dim;
  private final boolean f32;
  private final int[] fields;
  private final String distance;
  private final int m;
  private final int efConstruction;
  private final VectorSimilarityFunction similarity;

  /** Per entry (its ord): the vector as the graph has it, the exact one, its key and place. */
  private final List<float[]> graphVectors = new ArrayList<>();
  private final List<Vector> vectors = new ArrayList<>();
  private final List<Entry> entries = new ArrayList<>();
  /** Each entry's row in the last sync, and that sync's rows. */
  private int[] rowOf = new int[0];
  private List<Object[]> rows = List.of();
  private final BitSet deleted = new BitSet();
  private final Map<Entry, Integer> ords = new HashMap<>();
  private HnswGraphBuilder builder;

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
    reset();
  }

  private void reset() {
    graphVectors.clear();
    vectors.clear();
    entries.clear();
    ords.clear();
    deleted.clear();
    try {
      builder = HnswGraphBuilder.create(DefaultFlatVectorScorer.INSTANCE
          .getRandomVectorScorerSupplier(similarity,
              RandomAccessVectorValues.fromFloats(graphVectors, dim)), m, efConstruction, 42);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override public void sync(List<Object[]> rows, StopCheck stop) {
    this.rows = rows;
    final int live = entries.size() - deleted.cardinality();
    if (deleted.cardinality() > Math.max(1024, live)) {
      reset();
    }
    final BitSet seen = new BitSet();
    final List<int[]> placed = new ArrayList<>();
    for (int r = 0; r < rows.size(); r++) {
      final Object[] row = rows.get(r);
      if (r % 4096 == 4095) {
        stop.check();
      }
      if (filter != null && !filter.test(row)) {
        continue;
      }
      final List<Object> key = Arrays.asList(row).subList(0, columns.keyCount());
      for (int column : fields) {
        final Object v = row[column];
        if (v instanceof Vector) {
          placed.add(new int[] {index(new Entry(key, column, -1), (Vector) v, seen), r});
        } else if (v instanceof List) {
          final List<?> items = (List<?>) v;
          for (int e = 0; e < items.size(); e++) {
            if (items.get(e) instanceof Vector) {
              placed.add(new int[] {index(new Entry(key, column, e), (Vector) items.get(e), seen),
                  r});
            }
          }
        }
      }
    }
    for (int ord = 0; ord < entries.size(); ord++) {
      if (!seen.get(ord) && !deleted.get(ord)) {
        deleted.set(ord);
        ords.remove(entries.get(ord));
      }
    }
    rowOf = new int[entries.size()];
    for (int[] p : placed) {
      if (p[0] >= 0) {
        rowOf[p[0]] = p[1];
      }
    }
  }

  /** The entry's ord, added (or added again, its vector changed) as needed; -1 if not indexable. */
  private int index(Entry entry, Vector v, BitSet seen) {
    if (v.isF32() != f32 || v.length() != dim) {
      return -1;
    }
    final Integer had = ords.get(entry);
    if (had != null && vectors.get(had).equals(v)) {
      seen.set(had);
      return had;
    }
    if (had != null) {
      deleted.set(had);
    }
    final int ord = entries.size();
    entries.add(entry);
    vectors.add(v);
    graphVectors.add(v.toFloats());
    ords.put(entry, ord);
    try {
      builder.addGraphNode(ord);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    seen.set(ord);
    return ord;
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
      HnswGraphSearcher.search(scorer, collector, builder.getGraph(), live());
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
      if (rowFilter != null && !rowFilter.test(withBinds(rowOf[ord], binds))) {
        continue;
      }
      hits.add(new Hit(rowOf[ord], binds));
    }
    return hits;
  }

  /** Row {@code row} of the last sync followed by a hit's bound values, as a filter reads it. */
  private Object[] withBinds(int row, List<Object> binds) {
    final Object[] values = rows.get(row);
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
