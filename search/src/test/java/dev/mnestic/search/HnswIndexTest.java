package dev.mnestic.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mnestic.value.Bytes;
import dev.mnestic.value.ColType;
import dev.mnestic.value.Functions;
import dev.mnestic.value.SearchIndex;
import dev.mnestic.value.Vector;

import org.junit.jupiter.api.Test;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * {@link HnswIndex} changed row by row, as the engine's write path changes it ({@link
 * SearchIndex#update}): after every step a search whose {@code ef} exceeds the live vectors
 * must find every live vector, in exact distance order, which holds only if every live vector
 * is reachable in the graph from its entry (Lucene 9.12 does not join a graph's parts: its
 * {@code HnswGraphBuilder.finish} no longer calls {@code connectComponents}, so a graph
 * changed one node at a time can split; searched as Lucene built it, the first trial already
 * misses 15 of 21 vectors; {@code HnswIndex} searches it joined). And the graph as its
 * relation {@code rel:idx} shows it ({@link SearchIndex#relationRows}), against the vectors.
 * New vectors wait unlinked (pending, scored exactly by every search) until {@link
 * HnswIndex#CONCURRENT_FROM} wait: tests that need a graph of fewer link them ({@link
 * HnswIndex#link}), and the last four search an index with vectors both linked and pending.
 */
class HnswIndexTest {
  private static final String[] DISTANCES = {"L2", "Cosine", "IP"};

  private static SearchIndex.Columns columns(int dim) {
    return new SearchIndex.Columns(List.of("k", "v"),
        List.of(ColType.scalar(ColType.Kind.INT, false), ColType.vector(true, dim, false)), 1);
  }

  private static SearchIndex.Definition definition(int dim, int m, String distance) {
    return definition(dim, m, 8, distance);
  }

  private static SearchIndex.Definition definition(int dim, int m, int efConstruction,
      String distance) {
    final Map<String, Object> options = new LinkedHashMap<>();
    options.put("dim", (long) dim);
    options.put("m", (long) m);
    options.put("ef_construction", (long) efConstruction);
    options.put("fields", List.of("v"));
    options.put("distance", distance);
    return new HnswKind().define("idx", columns(dim), options);
  }

  private static HnswIndex index(SearchIndex.Definition d, int dim) {
    return (HnswIndex) new HnswKind().create(d, columns(dim), null, null);
  }

  /** A random vector: on a coarse grid (many equal vectors and ties) or spread out. */
  private static Vector vector(Random random, int dim, boolean grid) {
    final float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = grid ? random.nextInt(3) + 1 : (float) random.nextGaussian();
    }
    return Vector.f32(v);
  }

  private static double distance(String kind, Vector a, Vector b) {
    return switch (kind) {
      case "Cosine" -> Functions.cos_dist(a, b);
      case "IP" -> Functions.ip_dist(a, b);
      default -> Functions.l2_dist(a, b);
    };
  }

  /**
   * 120 random small indices (1 to 6 dimensions, m 2 to 9, ef_construction 8: narrow graphs
   * that prune many links; vectors on a coarse grid or Gaussian) each put through 40 steps of
   * random insertions, deletions, changed vectors and rows put back (enough deletions to
   * rebuild the graph several times); after each step a search with {@code ef} above the live
   * count returns every live vector, nearest first, with its exact distance: with the step's new
   * vectors pending beside the graph, and again once they are linked (after every step, so the
   * graph grows a few nodes at a time as it did when updates linked their vectors).
   */
  @Test void searchesAfterManyRandomChangesAreExact() {
    int searches = 0;
    int mixed = 0;
    for (int trial = 0; trial < 120; trial++) {
      final Random random = new Random(1800 + trial);
      final int dim = 1 + random.nextInt(6);
      final int m = 2 + random.nextInt(8);
      final boolean grid = random.nextBoolean();
      final String kind = DISTANCES[random.nextInt(3)];
      final SearchIndex.Definition d = definition(dim, m, kind);
      final HnswIndex index = index(d, dim);
      final Map<Long, Vector> live = new TreeMap<>();
      long next = 0;
      for (int step = 0; step < 40; step++) {
        final List<Object[]> removed = new ArrayList<>();
        final List<Object[]> added = new ArrayList<>();
        final Map<Long, Boolean> touched = new HashMap<>();
        final int ops = 1 + random.nextInt(step < 10 ? 30 : 12);
        for (int op = 0; op < ops; op++) {
          final int what = random.nextInt(10);
          if (what < 5 || live.isEmpty()) {
            final long key = next++;
            final Vector v = vector(random, dim, grid);
            live.put(key, v);
            added.add(new Object[] {key, v});
            touched.put(key, true);
          } else {
            final List<Long> keys = new ArrayList<>(live.keySet());
            final long key = keys.get(random.nextInt(keys.size()));
            if (touched.containsKey(key)) {
              continue;
            }
            touched.put(key, true);
            if (what < 8) {
              removed.add(new Object[] {key, live.remove(key)});
            } else {
              final Vector v = vector(random, dim, grid);
              live.put(key, v);
              added.add(new Object[] {key, v});
            }
          }
        }
        index.update(removed, added, () -> { });
        if (live.isEmpty()) {
          continue;
        }
        final String where = "trial " + trial + " step " + step + " (dim " + dim + ", m " + m
            + ", " + kind + (grid ? ", grid" : "") + ")";
        final List<Vector> queries = List.of(vector(random, dim, false));
        mixed += index.pending() > 0 ? 1 : 0;
        assertExact(index, d, dim, kind, live, queries, where + ", new ones pending");
        index.link(() -> { });
        assertExact(index, d, dim, kind, live, queries, where + ", all in the graph");
        searches += 2;
      }
    }
    assertTrue(searches > 9000, "searches made: " + searches);
    assertTrue(mixed > 4000, "searches with pending vectors: " + mixed);
  }

  /**
   * The graph's relation for random indices built row by row with deletions: a self row per
   * live vector and layer (layer 0 has them all) with its degree and CozoDB's hash, links
   * between live vectors only, each pair shown both ways with the vectors' distance and at
   * most one direction ignored, the degrees counting the links not ignored, and the entry row
   * at layer 1 naming a layer no higher than any; rows in key order. Vectors are linked into
   * the graph now and then, so the read finds some linked and the last ones pending, and links
   * them first: every live vector shows.
   */
  @Test void theGraphsRelationShowsItsLinks() throws Exception {
    int pendingReads = 0;
    for (int trial = 0; trial < 40; trial++) {
      final Random random = new Random(2800 + trial);
      final int dim = 2 + random.nextInt(4);
      final String kind = DISTANCES[random.nextInt(3)];
      final SearchIndex.Definition d = definition(dim, 2 + random.nextInt(6), kind);
      final HnswIndex index = index(d, dim);
      final Map<Long, Vector> live = new TreeMap<>();
      for (long key = 0; key < 60 + random.nextInt(100); key++) {
        final Vector v = vector(random, dim, random.nextBoolean());
        live.put(key, v);
        index.update(List.of(), List.<Object[]>of(new Object[] {key, v}), () -> { });
        if (random.nextInt(20) == 0) {
          index.link(() -> { });
        }
        if (random.nextInt(4) == 0) {
          final long gone = random.nextInt((int) key + 1);
          if (live.containsKey(gone)) {
            index.update(List.<Object[]>of(new Object[] {gone, live.remove(gone)}), List.of(),
                () -> { });
          }
        }
      }
      final boolean pending = index.pending() > 0;
      final List<Object[]> rows = index.relationRows("", () -> { });
      assertEquals(0, index.pending(), "the read linked every vector");
      pendingReads += pending ? 1 : 0;
      final List<SearchIndex.RelationColumn> columns =
          new HnswKind().relationColumns(d, columns(dim), "");
      final Map<List<Object>, Object[]> byKey = new HashMap<>();
      final Map<List<Object>, Integer> degree = new HashMap<>();
      List<Object> before = null;
      Object[] top = null;
      for (Object[] row : rows) {
        assertEquals(columns.size(), row.length);
        final List<Object> key = Arrays.asList(row).subList(0, 7);
        if (before != null) {
          assertTrue(KeyedRows.compareKeys(before, key) < 0, "rows in key order");
        }
        before = key;
        if ((Long) row[0] == 1L) {
          top = row;
          continue;
        }
        byKey.put(key, row);
        final long from = (Long) row[1];
        final long to = (Long) row[4];
        assertTrue(live.containsKey(from) && live.containsKey(to), "live vectors only");
        assertEquals(1L, row[2]);
        assertEquals(-1L, row[3]);
        if (from == to) {
          final byte[] hash = MessageDigest.getInstance("SHA-256")
              .digest(live.get(from).littleEndianBytes());
          assertEquals(Bytes.of(hash), row[8], "CozoDB's hash of the vector");
        } else {
          assertEquals(distance(kind, live.get(from), live.get(to)), (Double) row[7]);
          assertEquals(null, row[8]);
          if (!(Boolean) row[9]) {
            degree.merge(List.of(row[0], from), 1, Integer::sum);
          }
        }
      }
      assertNotNull(top, "the entry row");
      long lowest = 0;
      for (Long key : live.keySet()) {
        assertNotNull(byKey.get(List.of(0L, key, 1L, -1L, key, 1L, -1L)),
            "layer 0 holds vector " + key);
      }
      for (Map.Entry<List<Object>, Object[]> e : byKey.entrySet()) {
        final Object[] row = e.getValue();
        lowest = Math.min(lowest, (Long) row[0]);
        if (row[1].equals(row[4])) {
          assertEquals((double) degree.getOrDefault(List.of(row[0], row[1]), 0),
              (Double) row[7], "a self row's degree");
          continue;
        }
        final Object[] back = byKey.get(List.of(row[0], row[4], row[5], row[6], row[1],
            row[2], row[3]));
        assertNotNull(back, "each link shown both ways");
        assertFalse((Boolean) row[9] && (Boolean) back[9], "not ignored both ways");
        assertNotNull(byKey.get(List.of(row[0], row[1], 1L, -1L, row[1], 1L, -1L)),
            "a linked vector has its self row at the layer");
      }
      assertTrue((Long) top[7] <= lowest, "the entry row names the lowest layer");
    }
    assertTrue(pendingReads > 30, "reads with pending vectors: " + pendingReads);
  }

  /**
   * A sync of more new vectors than {@link HnswIndex#CONCURRENT_FROM} adds them to the graph
   * with every core (Lucene's concurrent builder; here to a graph of 1,000 built one at a time,
   * and, after a stop, to an empty one): against exact search its recall@10 at a small {@code ef}
   * is that of the graph built one vector at a time from the same vectors (linked in batches
   * below the threshold), a search with {@code ef} above the live count is exact, and so it is
   * after changes left pending beside that graph, then added one at a time to it, and after a
   * build stopped midway and brought up again from every row.
   */
  @Test void aGraphBuiltByEveryCoreIsAsGoodAndStaysExact() {
    final int dim = 16;
    final int n = HnswIndex.CONCURRENT_FROM + 1500;
    final Random random = new Random(1817);
    final SearchIndex.Definition d = definition(dim, 8, 32, "L2");
    final Map<Long, Vector> live = new TreeMap<>();
    final List<Object[]> rows = new ArrayList<>();
    for (long key = 0; key < n; key++) {
      final Vector v = vector(random, dim, false);
      live.put(key, v);
      rows.add(new Object[] {key, v});
    }
    final List<Vector> queries = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      queries.add(vector(random, dim, false));
    }
    final HnswIndex together = index(d, dim);
    together.update(List.of(), rows.subList(0, 1000), () -> { });
    together.link(() -> { });
    together.sync(rows, () -> { });
    assertEquals(0, together.pending(), "linked at the sync");
    assertTrue(Runtime.getRuntime().availableProcessors() < 2 || Thread.getAllStackTraces()
        .keySet().stream().anyMatch(t -> t.getName().equals("mnestic-hnsw-build")),
        "a second core's worker built part of it");
    final HnswIndex oneByOne = index(d, dim);
    for (int from = 0; from < n; from += 1000) {
      oneByOne.update(List.of(), rows.subList(from, Math.min(n, from + 1000)), () -> { });
      oneByOne.link(() -> { });
    }
    final List<List<Long>> truth = new ArrayList<>();
    for (Vector q : queries) {
      truth.add(top10(q, live, "L2"));
    }
    final double concurrent = recall(together, d, dim, queries, truth);
    final double sequential = recall(oneByOne, d, dim, queries, truth);
    assertTrue(sequential > 0.5 && concurrent >= sequential - 0.03,
        "recall@10 at ef 10: every core " + concurrent + ", one by one " + sequential);
    assertExact(together, d, dim, "L2", live, queries.subList(0, 3), "built by every core");

    final List<Object[]> removed = new ArrayList<>();
    final List<Object[]> added = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      final long gone = random.nextInt(n);
      if (live.containsKey(gone)) {
        removed.add(new Object[] {gone, live.remove(gone)});
      }
      final long key = n + i;
      final Vector v = vector(random, dim, false);
      live.put(key, v);
      added.add(new Object[] {key, v});
    }
    together.update(removed, added, () -> { });
    assertEquals(300, together.pending(), "the new vectors wait");
    assertExact(together, d, dim, "L2", live, queries.subList(3, 6), "then changed, pending");
    together.link(() -> { });
    assertExact(together, d, dim, "L2", live, queries.subList(3, 6), "then linked one by one");

    // the row loop looks once (row 4,096); the workers' looks come after
    final SearchIndex stopped = index(d, dim);
    final int[] looks = {0};
    final IllegalStateException thrown = assertThrows(IllegalStateException.class,
        () -> stopped.sync(rows, () -> {
          synchronized (looks) {
            if (++looks[0] > 20) {
              throw new IllegalStateException("stopped at look " + looks[0]);
            }
          }
        }));
    assertTrue(thrown.getMessage().startsWith("stopped at look "), "the statement's stop");
    final Map<Long, Vector> first = new TreeMap<>();
    for (Object[] row : rows) {
      first.put((Long) row[0], (Vector) row[1]);
    }
    stopped.sync(rows, () -> { });
    assertExact(stopped, d, dim, "L2", first, queries.subList(6, 9), "stopped, then synced");
  }

  /**
   * An index of 5,000 random vectors linked by every core, then changed by fewer than {@link
   * HnswIndex#CONCURRENT_FROM}: 1,000 new vectors (pending), 200 linked ones deleted, 100
   * pending ones deleted and 50 of those put back with the same vector.
   */
  private record Mixed(HnswIndex index, SearchIndex.Definition d, Map<Long, Vector> live,
      List<Long> pending, List<Vector> queries) {
  }

  private static Mixed mixed(String kind, long seed) {
    final int dim = 16;
    final Random random = new Random(seed);
    final SearchIndex.Definition d = definition(dim, 8, 32, kind);
    final HnswIndex index = index(d, dim);
    final Map<Long, Vector> live = new TreeMap<>();
    final List<Object[]> rows = new ArrayList<>();
    for (long key = 0; key < 5000; key++) {
      final Vector v = vector(random, dim, false);
      live.put(key, v);
      rows.add(new Object[] {key, v});
    }
    index.sync(rows, () -> { });
    assertEquals(0, index.pending(), "5,000 new vectors are linked at once");
    final List<Object[]> removed = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      final long key = random.nextInt(5000);
      if (live.containsKey(key)) {
        removed.add(new Object[] {key, live.remove(key)});
      }
    }
    final List<Object[]> added = new ArrayList<>();
    final List<Long> pending = new ArrayList<>();
    for (long key = 5000; key < 6000; key++) {
      final Vector v = vector(random, dim, false);
      live.put(key, v);
      added.add(new Object[] {key, v});
      pending.add(key);
    }
    index.update(removed, added, () -> { });
    final List<Object[]> gone = new ArrayList<>();
    for (long key = 5000; key < 6000; key += 10) {
      gone.add(new Object[] {key, live.remove(key)});
    }
    index.update(gone, List.of(), () -> { });
    final List<Object[]> back = gone.subList(0, 50);
    for (Object[] row : back) {
      live.put((Long) row[0], (Vector) row[1]);
    }
    index.update(List.of(), back, () -> { });
    pending.removeIf(key -> !live.containsKey(key));
    assertEquals(1000, index.pending(), "the new vectors wait, deleted or back");
    final List<Vector> queries = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      queries.add(vector(random, dim, false));
    }
    return new Mixed(index, d, live, pending, queries);
  }

  /**
   * With vectors both in the graph and pending, a search with {@code ef} above the live count
   * returns every live vector in exact distance order, for each distance.
   */
  @Test void searchesOverLinkedAndPendingVectorsAreExact() {
    for (int i = 0; i < DISTANCES.length; i++) {
      final Mixed x = mixed(DISTANCES[i], 1850 + i);
      assertExact(x.index(), x.d(), 16, DISTANCES[i], x.live(), x.queries().subList(0, 3),
          DISTANCES[i] + ", 5,000 linked and 1,000 pending");
    }
  }

  /**
   * At a small {@code ef} (10, {@code k} 10) every pending vector among the exact 10 nearest is
   * found: pending vectors are compared exactly, whatever the graph misses.
   */
  @Test void aPendingVectorAmongTheNearestIsNeverMissed() {
    for (int i = 0; i < DISTANCES.length; i++) {
      final String kind = DISTANCES[i];
      final Mixed x = mixed(kind, 1860 + i);
      final SearchIndex.Request request = new HnswKind().request(x.d(), columns(16),
          Map.of("k", 10L, "ef", 10L));
      int checked = 0;
      for (Vector q : x.queries()) {
        final List<Long> found = new ArrayList<>();
        for (SearchIndex.Hit h : x.index().search(request, q, null, () -> { })) {
          found.add((Long) h.row()[0]);
        }
        for (long key : top10(q, x.live(), kind)) {
          if (x.pending().contains(key)) {
            assertTrue(found.contains(key), kind + ": pending vector " + key + " is found");
            checked++;
          }
        }
      }
      assertTrue(checked > 50, kind + ": pending vectors among the nearest: " + checked);
    }
  }

  /**
   * recall@10 at {@code ef} 10 of the index with pending vectors is at least that of the same
   * index once they are linked (the same graph, and the 1,000 added one at a time), less 0.02.
   */
  @Test void pendingVectorsCostNoRecall() {
    final Mixed x = mixed("L2", 1870);
    final List<List<Long>> truth = new ArrayList<>();
    for (Vector q : x.queries()) {
      truth.add(top10(q, x.live(), "L2"));
    }
    final double pending = recall(x.index(), x.d(), 16, x.queries(), truth);
    x.index().link(() -> { });
    final double linked = recall(x.index(), x.d(), 16, x.queries(), truth);
    assertTrue(linked > 0.5 && pending >= linked - 0.02,
        "recall@10 at ef 10: pending " + pending + ", linked " + linked);
  }

  /**
   * The graph's relation after pending writes: linked then, it shows every live vector at
   * layer 0, the 5,000 linked by every core and the pending ones.
   */
  @Test void theGraphsRelationShowsPendingVectors() {
    final Mixed x = mixed("L2", 1880);
    final List<Long> atLayer0 = new ArrayList<>();
    for (Object[] row : x.index().relationRows("", () -> { })) {
      if ((Long) row[0] == 0L && row[1].equals(row[4])) {
        atLayer0.add((Long) row[1]);
      }
    }
    assertEquals(new ArrayList<>(x.live().keySet()), atLayer0, "every live vector, in order");
  }

  /** The keys of the 10 vectors of {@code live} nearest to {@code q} by {@code kind}, exactly. */
  private static List<Long> top10(Vector q, Map<Long, Vector> live, String kind) {
    final List<Long> keys = new ArrayList<>(live.keySet());
    final Map<Long, Double> dist = new HashMap<>();
    for (Long key : keys) {
      dist.put(key, distance(kind, q, live.get(key)));
    }
    keys.sort((x, y) -> Double.compare(dist.get(x), dist.get(y)));
    return keys.subList(0, 10);
  }

  /** recall@10 of {@code index} at {@code ef} 10 against each query's exact top 10. */
  private static double recall(SearchIndex index, SearchIndex.Definition d, int dim,
      List<Vector> queries, List<List<Long>> truth) {
    final SearchIndex.Request request = new HnswKind().request(d, columns(dim),
        Map.of("k", 10L, "ef", 10L));
    int right = 0;
    for (int i = 0; i < queries.size(); i++) {
      for (SearchIndex.Hit h : index.search(request, queries.get(i), null, () -> { })) {
        right += truth.get(i).contains((Long) h.row()[0]) ? 1 : 0;
      }
    }
    return right / (10.0 * queries.size());
  }

  /**
   * A search of {@code index} with {@code ef} above the live count returns every live vector
   * once, nearest first by {@code kind}, with its exact distance.
   */
  private static void assertExact(SearchIndex index, SearchIndex.Definition d, int dim,
      String kind, Map<Long, Vector> live, List<Vector> queries, String where) {
    final SearchIndex.Request request = new HnswKind().request(d, columns(dim),
        Map.of("k", (long) live.size(), "ef", (long) live.size() + 1, "bind_distance", "d"));
    for (Vector q : queries) {
      final List<SearchIndex.Hit> hits = index.search(request, q, null, () -> { });
      assertEquals(live.size(), hits.size(), where + ": every live vector is found");
      double last = Double.NEGATIVE_INFINITY;
      final Map<Long, Boolean> seen = new HashMap<>();
      for (SearchIndex.Hit h : hits) {
        final long key = (Long) h.row()[0];
        assertEquals(live.get(key), h.row()[1], where + ": a live row, its current vector");
        assertFalse(seen.containsKey(key), where + ": once");
        seen.put(key, true);
        final double dist = (Double) h.binds().get(0);
        assertEquals(distance(kind, q, live.get(key)), dist, where + ": its distance");
        assertTrue(dist >= last, where + ": nearest first");
        last = dist;
      }
    }
  }
}
