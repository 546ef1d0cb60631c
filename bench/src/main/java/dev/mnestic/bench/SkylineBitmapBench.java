package dev.mnestic.bench;

import dev.mnestic.runtime.Skylines;

import org.apache.calcite.linq4j.Linq4j;
import org.roaringbitmap.FastAggregation;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Whether RoaringBitmap pays in the skyline (issue 5): SaLSa's window as
 * dominance bitmaps against mnestic's window of k-d trees, on the rows of
 * {@link SkylineBench} (d &ge; 3, where the window matters; 2-D is a sort
 * and a scan, DIFF partitions a hash pass, where bitmaps have nothing to
 * replace).
 *
 * <ul>
 *   <li>mnestic: {@link Skylines#skyline} over the rows as {@code Object[]}
 *       (encoding included), SaLSa with its k-d tree window;
 *   <li>Roaring: the same presort and stop rule, the window as bitmaps in
 *       the manner of Tan, Eng and Ooi's bitmap skyline (VLDB 2001): each
 *       dimension cut into {@value #BUCKETS} quantile buckets, and per
 *       dimension and bucket the bitmap of the window rows in that bucket or
 *       a better one. The rows that may dominate a row are the AND of its d
 *       buckets' bitmaps; only those are compared value by value.
 * </ul>
 *
 * Reproduce: {@code bench/run SkylineBitmapBench [SIZE...]} (default 100000
 * 1000000). Every contender is capped at {@value #CAP_SECONDS} s a run.
 */
public final class SkylineBitmapBench {
  private static final int BUCKETS = 64;
  private static final double CAP_SECONDS = 60;

  private SkylineBitmapBench() {
  }

  public static void main(String[] args) throws Exception {
    final List<Integer> sizes = new ArrayList<>();
    for (String a : args) {
      sizes.add(Integer.parseInt(a));
    }
    if (sizes.isEmpty()) {
      sizes.addAll(List.of(100_000, 1_000_000));
    }
    System.out.println("| distribution | d | rows | skyline rows | mnestic k-d tree window (s)"
        + " | Roaring bitmap window (s) | Roaring / k-d tree |");
    System.out.println("|---|---|---|---|---|---|---|");
    for (int n : sizes) {
      for (SkylineBench.Distribution dist : List.of(SkylineBench.Distribution.INDEPENDENT,
          SkylineBench.Distribution.ANTI_CORRELATED)) {
        for (int d : new int[] {4, 6}) {
          final double[][] points = SkylineBench.generate(dist, d, n, 31L * n + 7L * d + dist.ordinal());
          final List<Object[]> rows = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            final Object[] row = new Object[d + 1];
            row[0] = i;
            for (int j = 0; j < d; j++) {
              row[j + 1] = points[i][j];
            }
            rows.add(row);
          }
          final int[] fields = new int[d];
          final Skylines.Direction[] dirs = new Skylines.Direction[d];
          for (int j = 0; j < d; j++) {
            fields[j] = j + 1;
            dirs[j] = Skylines.Direction.MIN;
          }
          final List<Harness.Outcome<List<Integer>>> outcomes = new Harness(1, 3).interleaved(List.of(
              () -> {
                final List<Integer> ids = new ArrayList<>();
                // Without the elimination filter: the two windows see the same rows.
                for (Object[] row : Skylines.skyline(Linq4j.asEnumerable(rows), fields, dirs,
                    false, Skylines.Algorithm.SALSA, false)) {
                  ids.add((Integer) row[0]);
                }
                ids.sort(null);
                return ids;
              },
              () -> roaringSalsa(points, System.nanoTime() + (long) (CAP_SECONDS * 1e9))));
          final Harness.Outcome<List<Integer>> tree = outcomes.get(0);
          final Harness.Outcome<List<Integer>> roaring = outcomes.get(1);
          if (roaring.stopped() == null && !roaring.result().equals(tree.result())) {
            throw new IllegalStateException("answers differ");
          }
          System.out.printf(Locale.ROOT, "| %s | %d | %d | %d | %.3f | %s | %s |%n",
              dist.name().toLowerCase(Locale.ROOT).replace('_', '-'), d, n, tree.result().size(),
              tree.seconds(),
              roaring.stopped() != null ? roaring.stopped() : String.format(Locale.ROOT, "%.3f", roaring.seconds()),
              roaring.stopped() != null ? "-" : String.format(Locale.ROOT, "%.1f×", roaring.seconds() / tree.seconds()));
        }
      }
    }
  }

  /** SaLSa (presort by the smallest scaled coordinate, then the sum; stop rule) with a bitmap window. */
  static List<Integer> roaringSalsa(double[][] points, long deadline) throws Harness.Stopped {
    final int n = points.length;
    final int d = points[0].length;
    // Scale to [0, 1] per dimension; quantile bucket bounds from the sorted values.
    final double[][] bounds = new double[d][];
    final double[] low = new double[d];
    final double[] range = new double[d];
    for (int j = 0; j < d; j++) {
      final double[] v = new double[n];
      for (int i = 0; i < n; i++) {
        v[i] = points[i][j];
      }
      Arrays.sort(v);
      low[j] = v[0];
      range[j] = v[n - 1] > v[0] ? v[n - 1] - v[0] : 1;
      bounds[j] = new double[BUCKETS - 1];
      for (int b = 0; b + 1 < BUCKETS; b++) {
        bounds[j][b] = v[(int) ((long) n * (b + 1) / BUCKETS)];
      }
    }
    final double[] minC = new double[n];
    final double[] maxC = new double[n];
    final long[] order = new long[n];
    final double[] sum = new double[n];
    for (int i = 0; i < n; i++) {
      double mn = Double.POSITIVE_INFINITY;
      double mx = Double.NEGATIVE_INFINITY;
      double s = 0;
      for (int j = 0; j < d; j++) {
        final double c = (points[i][j] - low[j]) / range[j];
        mn = Math.min(mn, c);
        mx = Math.max(mx, c);
        s += c;
      }
      minC[i] = mn;
      maxC[i] = mx;
      sum[i] = s;
    }
    final Integer[] sorted = new Integer[n];
    for (int i = 0; i < n; i++) {
      sorted[i] = i;
    }
    Arrays.sort(sorted, (a, b) -> {
      int c = Double.compare(minC[a], minC[b]);
      if (c == 0) {
        c = Double.compare(sum[a], sum[b]);
      }
      for (int j = 0; c == 0 && j < d; j++) {
        c = Double.compare(points[a][j], points[b][j]);
      }
      return c;
    });
    // atMost[j][b]: window rows (numbered as they join) in bucket b of dimension j or a lower one.
    final RoaringBitmap[][] atMost = new RoaringBitmap[d][BUCKETS];
    for (RoaringBitmap[] dim : atMost) {
      for (int b = 0; b < BUCKETS; b++) {
        dim[b] = new RoaringBitmap();
      }
    }
    final List<Integer> window = new ArrayList<>();
    final RoaringBitmap[] query = new RoaringBitmap[d];
    double stop = Double.POSITIVE_INFINITY;
    for (int k = 0; k < n; k++) {
      if ((k & 1023) == 0 && System.nanoTime() > deadline) {
        throw new Harness.Stopped("capped");
      }
      final int r = sorted[k];
      if (minC[r] > stop) {
        break;
      }
      for (int j = 0; j < d; j++) {
        // The number of bounds at most the value: a dominator's value is no
        // larger, so its lowest bucket is no higher.
        final int b = Arrays.binarySearch(bounds[j], points[r][j]);
        int q = b >= 0 ? b + 1 : -b - 1;
        while (b >= 0 && q < bounds[j].length && bounds[j][q] == points[r][j]) {
          q++;
        }
        query[j] = atMost[j][q];
      }
      boolean dominated = false;
      if (!window.isEmpty()) {
        final IntIterator candidates = FastAggregation.and(query).getIntIterator();
        while (!dominated && candidates.hasNext()) {
          dominated = SkylineBench.dominates(points[window.get(candidates.next())], points[r]);
        }
      }
      if (!dominated) {
        final int w = window.size();
        window.add(r);
        for (int j = 0; j < d; j++) {
          // The number of bounds below the value: its lowest bucket.
          final int b = Arrays.binarySearch(bounds[j], points[r][j]);
          int first = b >= 0 ? b : -b - 1;
          while (first > 0 && bounds[j][first - 1] == points[r][j]) {
            first--;
          }
          for (int c = first; c < BUCKETS; c++) {
            atMost[j][c].add(w);
          }
        }
        stop = Math.min(stop, maxC[r]);
      }
    }
    window.sort(null);
    return window;
  }
}
