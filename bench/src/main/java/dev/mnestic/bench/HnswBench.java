package dev.mnestic.bench;

import dev.mnestic.runtime.SearchRun;
import dev.mnestic.value.Functions;
import dev.mnestic.value.Vector;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * HNSW search (issue 18) against exact search, in one run: N random 128-d F32 vectors (uniform
 * in [0, 1), seeded) in a relation with an {@code ::hnsw} index (L2; m 50 as CozoDB's
 * documentation, ef_construction 200), Q random queries. Prints the time to build the index
 * (its first search: read the relation and add every vector to Lucene's graph), and per search
 * {@code ef} (CozoDB has no default: its documentation uses 20 and 50) the HNSW queries'
 * throughput (all Q in one script, {@code k: 10}) and recall@10 against the exact top 10
 * (computed here with CozoDB's own {@code l2_dist}), beside the throughput of exact search in
 * CozoScript ({@code l2_dist} over every row, {@code :order d :limit 10}, one script per
 * query). Then writes and searches in turn: B batches of 1,000 {@code :put}s (half new keys,
 * half existing ones given new vectors), each committed and followed by one search ({@code k:
 * 10, ef: 50}); per batch the write's and the search's time and the relation rows the search
 * read to bring the index up ({@code runtime.SearchRun#rowsRead}: the rows changed, not the
 * table), and the searches' mean, median and maximum time.
 *
 * <p>Reproduce: {@code bench/run HnswBench [N] [Q] [EXACT_Q] [M] [EF_CONSTRUCTION] [EF,...]
 * [B]} (defaults 100000, 200, 5, 50, 200, 20,50,100,200,400, 10).
 */
public final class HnswBench {
  private static final int DIM = 128;

  private HnswBench() {
  }

  public static void main(String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    final int queries = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    final int exactQueries = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    final int m = args.length > 3 ? Integer.parseInt(args[3]) : 50;
    final int efConstruction = args.length > 4 ? Integer.parseInt(args[4]) : 200;
    final int[] efs = args.length > 5
        ? java.util.Arrays.stream(args[5].split(",")).mapToInt(Integer::parseInt).toArray()
        : new int[] {20, 50, 100, 200, 400};
    final int batches = args.length > 6 ? Integer.parseInt(args[6]) : 10;
    final Random random = new Random(18);
    final List<float[]> data = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      data.add(vector(random));
    }
    final List<float[]> qs = new ArrayList<>();
    for (int i = 0; i < queries; i++) {
      qs.add(vector(random));
    }
    final String db = "jdbc:mnestic:db=mem:hnsw-" + UUID.randomUUID() + ";lang=datalog";
    try (Connection c = DriverManager.getConnection(db)) {
      run(c, ":create pts {k: Int => v: <F32; " + DIM + ">}");
      long t0 = System.nanoTime();
      for (int from = 0; from < n; from += 2000) {
        final StringBuilder rows = new StringBuilder();
        for (int i = from; i < Math.min(n, from + 2000); i++) {
          rows.append(i == from ? "" : ", ").append('[').append(i).append(", ")
              .append(text(data.get(i))).append(']');
        }
        run(c, "?[k, v] <- [" + rows + "] :put pts {k => v}");
      }
      final double load = seconds(t0);
      run(c, "::hnsw create pts:idx {dim: " + DIM + ", m: " + m + ", ef_construction: "
          + efConstruction + ", fields: [v], distance: L2}");
      t0 = System.nanoTime();
      run(c, "?[k] := ~pts:idx{k | query: vec(" + text(qs.get(0)) + "), k: 10, ef: 50}");
      final double build = seconds(t0);
      final StringBuilder q = new StringBuilder("q[i, v] <- [");
      for (int i = 0; i < queries; i++) {
        q.append(i == 0 ? "" : ", ").append('[').append(i).append(", ").append(text(qs.get(i)))
            .append(']');
      }
      final List<Set<Long>> truth = new ArrayList<>();
      for (int i = 0; i < queries; i++) {
        truth.add(exactTop10(data, qs.get(i)));
      }
      final List<double[]> perEf = new ArrayList<>();
      for (int ef : efs) {
        t0 = System.nanoTime();
        final List<long[]> hits = run(c, q + "]\n?[i, k] := q[i, v], ~pts:idx{k | query: vec(v),"
            + " k: 10, ef: " + ef + "}");
        final double search = seconds(t0);
        // recall against the exact top 10, by CozoDB's own distance
        int right = 0;
        for (long[] h : hits) {
          right += truth.get((int) h[0]).contains(h[1]) ? 1 : 0;
        }
        perEf.add(new double[] {ef, queries / search, right / (10.0 * queries)});
      }
      t0 = System.nanoTime();
      for (int i = 0; i < exactQueries; i++) {
        run(c, "?[k, d] := *pts{k, v}, d = l2_dist(v, vec(" + text(qs.get(i)) + "))\n"
            + ":order d\n:limit 10");
      }
      final double exact = seconds(t0);
      System.out.printf(Locale.ROOT, "N = %d vectors of %d F32, m %d, ef_construction %d, %d"
          + " HNSW queries (k 10), %d exact ones; load %.1f s, index build (first search)"
          + " %.1f s, exact search %.2f queries/s%n%n", n, DIM, m, efConstruction, queries,
          exactQueries, load, build, exactQueries / exact);
      System.out.println("| ef | HNSW queries/s | HNSW / exact | recall@10 |");
      System.out.println("|---|---|---|---|");
      for (double[] r : perEf) {
        System.out.printf(Locale.ROOT, "| %d | %.1f | %.0f× | %.3f |%n", (int) r[0], r[1],
            r[1] / (exactQueries / exact), r[2]);
      }
      writeThenSearch(c, n, batches, random);
    }
  }

  /**
   * {@code batches} batches of 1,000 writes to the relation of {@code n} rows, each followed by
   * a search; prints a row per batch and the means.
   */
  private static void writeThenSearch(Connection c, int n, int batches, Random random)
      throws SQLException {
    System.out.printf(Locale.ROOT, "%nWrites then a search, %d batches of 1,000 :put (500 new"
        + " keys, 500 existing ones), k 10, ef 50:%n%n", batches);
    System.out.println("| batch | write ms | search ms | relation rows read by the search |");
    System.out.println("|---|---|---|---|");
    double writes = 0;
    final double[] searches = new double[batches];
    long read = 0;
    int next = n;
    for (int b = 0; b < batches; b++) {
      final StringBuilder rows = new StringBuilder();
      for (int i = 0; i < 1000; i++) {
        final int key = i % 2 == 0 ? next++ : random.nextInt(n);
        rows.append(i == 0 ? "" : ", ").append('[').append(key).append(", ")
            .append(text(vector(random))).append(']');
      }
      long t0 = System.nanoTime();
      run(c, "?[k, v] <- [" + rows + "] :put pts {k => v}");
      final double write = seconds(t0) * 1000;
      final long before = SearchRun.rowsRead();
      t0 = System.nanoTime();
      run(c, "?[k] := ~pts:idx{k | query: vec(" + text(vector(random)) + "), k: 10, ef: 50}");
      final double search = seconds(t0) * 1000;
      final long rowsRead = SearchRun.rowsRead() - before;
      System.out.printf(Locale.ROOT, "| %d | %.0f | %.0f | %d |%n", b + 1, write, search,
          rowsRead);
      writes += write;
      searches[b] = search;
      read += rowsRead;
    }
    System.out.printf(Locale.ROOT, "| mean | %.0f | %.0f | %d |%n", writes / batches,
        java.util.Arrays.stream(searches).sum() / batches, read / batches);
    java.util.Arrays.sort(searches);
    System.out.printf(Locale.ROOT, "%nsearch ms: median %.0f, max %.0f%n",
        (searches[(batches - 1) / 2] + searches[batches / 2]) / 2, searches[batches - 1]);
  }

  /** A random vector of HnswBench's dimension, uniform in [0, 1) per element. */
  static float[] vector(Random random) {
    final float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = random.nextFloat();
    }
    return v;
  }

  /** The vector as a CozoScript list (each float's shortest text reads back as the float). */
  private static String text(float[] v) {
    final StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < v.length; i++) {
      b.append(i == 0 ? "" : ",").append(v[i]);
    }
    return b.append(']').toString();
  }

  private static Set<Long> exactTop10(List<float[]> data, float[] q) {
    final Vector query = Vector.f32(q);
    final double[] d = new double[data.size()];
    final Integer[] order = new Integer[data.size()];
    for (int i = 0; i < d.length; i++) {
      d[i] = Functions.l2_dist(Vector.f32(data.get(i)), query);
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> Double.compare(d[a], d[b]));
    final Set<Long> top = new HashSet<>();
    for (int i = 0; i < 10; i++) {
      top.add((long) order[i]);
    }
    return top;
  }

  private static double seconds(long from) {
    return (System.nanoTime() - from) / 1e9;
  }

  /** The rows of a script whose columns are Ints. */
  private static List<long[]> run(Connection c, String script) throws SQLException {
    final List<long[]> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(script)) {
      final int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        final long[] row = new long[n];
        for (int i = 0; i < n; i++) {
          final Object o = rs.getObject(i + 1);
          row[i] = o instanceof Number ? ((Number) o).longValue() : 0;
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
