package dev.mnestic.bench;

import org.apache.lucene.codecs.hnsw.DefaultFlatVectorScorer;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.util.hnsw.HnswGraphBuilder;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.RandomAccessVectorValues;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;

/**
 * The HNSW graph mnestic builds ({@code search.HnswIndex}: Lucene 9.12's {@link
 * HnswGraphBuilder} and {@link HnswGraphSearcher}, seed 42) against CozoDB 0.7.6's own
 * algorithm ({@code cozo-core/src/runtime/hnsw.rs}, ported here in memory: levels drawn with
 * multiplier 1/ln m, {@code m_max0} 2m, the search at each level taking {@code ef_construction}
 * candidates, CozoDB's neighbour heuristic with its {@code extend_candidates} and {@code
 * keep_pruned_connections} switches, a neighbour's links shrunk by the same heuristic, the
 * search greedy above level 0 and {@code ef} wide at it), at the same parameters on the same
 * vectors as {@link HnswBench} (N random 128-d F32, uniform in [0, 1), seed 18, then Q
 * queries): recall@10 against exact search (squared L2, CozoDB's index distance) and distances
 * computed per query, for each {@code ef}. Only the graphs are compared: no store, no planner,
 * so sizes the engine's bench takes long to build run here in minutes.
 *
 * <p>Reproduce: {@code bench/run HnswGraphBench [N] [Q] [M] [EF_CONSTRUCTION] [EF,...]
 * [GRAPHS]} (defaults 20000, 100, 50, 200, 10,20,50,100; GRAPHS a comma list of {@code
 * lucene}, {@code cozo}, {@code cozo-extend}, {@code cozo-keep}, default {@code lucene,cozo}).
 */
public final class HnswGraphBench {
  private static final int DIM = 128;

  private HnswGraphBench() {
  }

  public static void main(String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    final int queries = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    final int m = args.length > 2 ? Integer.parseInt(args[2]) : 50;
    final int efConstruction = args.length > 3 ? Integer.parseInt(args[3]) : 200;
    final int[] efs = Arrays.stream((args.length > 4 ? args[4] : "10,20,50,100").split(","))
        .mapToInt(Integer::parseInt).toArray();
    final String[] graphs = (args.length > 5 ? args[5] : "lucene,cozo").split(",");
    // HnswBench's vectors: the data, then the queries, from one generator
    final Random random = new Random(18);
    final List<float[]> data = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      data.add(HnswBench.vector(random));
    }
    final List<float[]> qs = new ArrayList<>();
    for (int i = 0; i < queries; i++) {
      qs.add(HnswBench.vector(random));
    }
    final List<Set<Integer>> truth = new ArrayList<>();
    for (float[] q : qs) {
      truth.add(new HashSet<>(nearest(data, q, allOf(n), 10)));
    }
    System.out.printf(Locale.ROOT, "N = %d vectors of %d F32, m %d, ef_construction %d, %d"
        + " queries, k 10%n%n", n, DIM, m, efConstruction, queries);
    System.out.println("| graph | build s | ef | recall@10 | distances per query |");
    System.out.println("|---|---|---|---|---|");
    for (String graph : graphs) {
      final long t0 = System.nanoTime();
      final Searcher searcher = graph.equals("lucene") ? lucene(data, m, efConstruction)
          : cozo(data, m, efConstruction, graph.contains("extend"), graph.contains("keep"));
      final double build = (System.nanoTime() - t0) / 1e9;
      for (int ef : efs) {
        int right = 0;
        long distances = 0;
        for (int i = 0; i < queries; i++) {
          final long[] counted = new long[1];
          for (int found : searcher.search(qs.get(i), ef, counted)) {
            right += truth.get(i).contains(found) ? 1 : 0;
          }
          distances += counted[0];
        }
        System.out.printf(Locale.ROOT, "| %s | %.0f | %d | %.3f | %d |%n", graph, build, ef,
            right / (10.0 * queries), distances / queries);
      }
    }
  }

  /** A built graph: the 10 nearest it finds for a query at {@code ef}, counting distances. */
  private interface Searcher {
    List<Integer> search(float[] q, int ef, long[] distances) throws Exception;
  }

  /** mnestic's graph: as {@code search.HnswIndex} builds and searches it. */
  private static Searcher lucene(List<float[]> data, int m, int efConstruction)
      throws Exception {
    final RandomAccessVectorValues values = RandomAccessVectorValues.fromFloats(data, DIM);
    final HnswGraphBuilder builder = HnswGraphBuilder.create(DefaultFlatVectorScorer.INSTANCE
        .getRandomVectorScorerSupplier(VectorSimilarityFunction.EUCLIDEAN, values), m,
        efConstruction, 42);
    for (int i = 0; i < data.size(); i++) {
      builder.addGraphNode(i);
    }
    return (q, ef, distances) -> {
      final TopKnnCollector collector = new TopKnnCollector(ef, Integer.MAX_VALUE);
      HnswGraphSearcher.search(DefaultFlatVectorScorer.INSTANCE.getRandomVectorScorer(
          VectorSimilarityFunction.EUCLIDEAN, values, q), collector, builder.getGraph(), null);
      final List<Integer> found = new ArrayList<>();
      Arrays.stream(collector.topDocs().scoreDocs).forEach(d -> found.add(d.doc));
      distances[0] = collector.visitedCount();
      // HnswIndex ranks the ef candidates by CozoDB's distance and keeps k
      return nearest(data, q, found, 10);
    };
  }

  /** CozoDB 0.7.6's graph, {@code hnsw.rs} in memory. */
  private static Searcher cozo(List<float[]> data, int m, int efConstruction, boolean extend,
      boolean keepPruned) {
    final CozoGraph g = new CozoGraph(data, m, efConstruction, extend, keepPruned);
    for (int i = 0; i < data.size(); i++) {
      g.insert(i);
    }
    return (q, ef, distances) -> {
      g.distances = 0;
      final List<Integer> found = g.search(q, ef);
      distances[0] = g.distances;
      return found.subList(0, Math.min(10, found.size()));
    };
  }

  /** CozoDB's HNSW graph: per node and level its links and their distances. */
  private static final class CozoGraph {
    private final List<float[]> data;
    private final int m;
    private final int efConstruction;
    private final boolean extend;
    private final boolean keepPruned;
    private final double levelMultiplier;
    private final Random random = new Random(42);
    private final List<List<Map<Integer, Double>>> links = new ArrayList<>();
    private int entry = -1;
    private int top = -1;
    long distances;

    CozoGraph(List<float[]> data, int m, int efConstruction, boolean extend,
        boolean keepPruned) {
      this.data = data;
      this.m = m;
      this.efConstruction = efConstruction;
      this.extend = extend;
      this.keepPruned = keepPruned;
      this.levelMultiplier = 1 / Math.log(m);
    }

    private double dist(float[] q, int node) {
      distances++;
      return l2(q, data.get(node));
    }

    /** {@code hnsw_put_vector}: levels down from the entry point, linked both ways. */
    void insert(int node) {
      final float[] q = data.get(node);
      final int level = (int) Math.floor(-Math.log(1 - random.nextDouble()) * levelMultiplier);
      final List<Map<Integer, Double>> own = new ArrayList<>();
      for (int l = 0; l <= level; l++) {
        own.add(new HashMap<>());
      }
      links.add(own);
      if (entry < 0) {
        entry = node;
        top = level;
        return;
      }
      final Map<Integer, Double> found = new HashMap<>(Map.of(entry, dist(q, entry)));
      for (int l = top; l > level; l--) {
        searchLevel(q, 1, l, found);
      }
      for (int l = Math.min(level, top); l >= 0; l--) {
        final int max = l == 0 ? 2 * m : m;
        searchLevel(q, efConstruction, l, found);
        for (Map.Entry<Integer, Double> e : select(q, found, max, l).entrySet()) {
          own.get(l).put(e.getKey(), e.getValue());
          final Map<Integer, Double> theirs = links.get(e.getKey()).get(l);
          theirs.put(node, e.getValue());
          if (theirs.size() > max) {
            // hnsw_shrink_neighbour: the heuristic over the neighbour's links
            final Map<Integer, Double> kept = select(data.get(e.getKey()), theirs, max, l);
            theirs.clear();
            theirs.putAll(kept);
          }
        }
      }
      if (level > top) {
        top = level;
        entry = node;
      }
    }

    /** {@code hnsw_search_level}: {@code found} becomes the ef nearest reached. */
    private void searchLevel(float[] q, int ef, int level, Map<Integer, Double> found) {
      final Set<Integer> visited = new HashSet<>(found.keySet());
      final PriorityQueue<double[]> candidates =
          new PriorityQueue<>(Comparator.comparingDouble((double[] a) -> a[0]));
      final PriorityQueue<double[]> nearest =
          new PriorityQueue<>(Comparator.comparingDouble((double[] a) -> -a[0]));
      found.forEach((k, d) -> {
        candidates.add(new double[] {d, k});
        nearest.add(new double[] {d, k});
      });
      while (!candidates.isEmpty()) {
        final double[] c = candidates.poll();
        if (c[0] > nearest.peek()[0]) {
          break;
        }
        for (int neighbour : links.get((int) c[1]).get(level).keySet()) {
          if (!visited.add(neighbour)) {
            continue;
          }
          final double d = dist(q, neighbour);
          if (nearest.size() < ef || d < nearest.peek()[0]) {
            candidates.add(new double[] {d, neighbour});
            nearest.add(new double[] {d, neighbour});
            if (nearest.size() > ef) {
              nearest.poll();
            }
          }
        }
      }
      found.clear();
      nearest.forEach(a -> found.put((int) a[1], a[0]));
    }

    /** {@code hnsw_select_neighbours_heuristic}. */
    private Map<Integer, Double> select(float[] q, Map<Integer, Double> found, int max,
        int level) {
      final Map<Integer, Double> all = new HashMap<>(found);
      if (extend) {
        for (int f : found.keySet()) {
          for (int neighbour : links.get(f).get(level).keySet()) {
            all.computeIfAbsent(neighbour, x -> dist(q, x));
          }
        }
      }
      final PriorityQueue<double[]> candidates =
          new PriorityQueue<>(Comparator.comparingDouble((double[] a) -> a[0]));
      all.forEach((k, d) -> candidates.add(new double[] {d, k}));
      final Map<Integer, Double> chosen = new HashMap<>();
      final List<double[]> discarded = new ArrayList<>();
      while (!candidates.isEmpty() && chosen.size() < max) {
        final double[] c = candidates.poll();
        boolean add = true;
        for (int existing : chosen.keySet()) {
          if (dist(data.get(existing), (int) c[1]) < c[0]) {
            add = false;
            break;
          }
        }
        if (add) {
          chosen.put((int) c[1], c[0]);
        } else if (keepPruned) {
          discarded.add(c);
        }
      }
      for (int i = 0; keepPruned && i < discarded.size() && chosen.size() < max; i++) {
        chosen.put((int) discarded.get(i)[1], discarded.get(i)[0]);
      }
      return chosen;
    }

    /** {@code hnsw_knn}: greedy to level 0, then {@code ef} wide; nearest first. */
    List<Integer> search(float[] q, int ef) {
      final Map<Integer, Double> found = new HashMap<>(Map.of(entry, dist(q, entry)));
      for (int l = top; l > 0; l--) {
        searchLevel(q, 1, l, found);
      }
      searchLevel(q, ef, 0, found);
      final List<Integer> out = new ArrayList<>(found.keySet());
      out.sort(Comparator.comparingDouble(found::get));
      return out;
    }
  }

  private static List<Integer> allOf(int n) {
    final List<Integer> all = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      all.add(i);
    }
    return all;
  }

  /** The {@code k} of {@code among} nearest {@code q}, nearest first (ties by number). */
  private static List<Integer> nearest(List<float[]> data, float[] q, List<Integer> among,
      int k) {
    final List<Integer> sorted = new ArrayList<>(among);
    final Map<Integer, Double> d = new HashMap<>();
    sorted.forEach(i -> d.put(i, l2(q, data.get(i))));
    sorted.sort(Comparator.comparingDouble((Integer i) -> d.get(i)).thenComparingInt(i -> i));
    return sorted.subList(0, Math.min(k, sorted.size()));
  }

  /** CozoDB's L2 distance of the index: the squared Euclidean one. */
  private static double l2(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      final double x = a[i] - b[i];
      s += x * x;
    }
    return s;
  }
}
