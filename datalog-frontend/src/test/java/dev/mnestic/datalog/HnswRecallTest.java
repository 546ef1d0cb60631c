package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;

import dev.mnestic.store.StoreLocation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HNSW search where the approximate index may answer otherwise than CozoDB (which draws its
 * graph's levels at random): checked against the definition, exact search ({@code l2_dist}
 * over every row). Each hit's distance is its true distance, hits come nearest first, and
 * recall@10 is at least 0.95 at {@code ef: 50}. Also: the index follows the relation through a
 * failed (rolled back) script and through writes made after it was created.
 */
class HnswRecallTest extends OneStoreTest {
  private static final int DIM = 16;

  private static String vector(Random random) {
    final StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < DIM; i++) {
      b.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.4f",
          random.nextDouble()));
    }
    return b.append(']').toString();
  }

  @Test void recallAgainstExactSearch() throws Exception {
    final Random random = new Random(18);
    run(":create pts {k: Int => v: <F32; " + DIM + ">}");
    try {
      run("::hnsw create pts:idx {dim: " + DIM + ", m: 16, ef_construction: 100, fields: [v]}");
      final StringBuilder data = new StringBuilder();
      for (int i = 0; i < 2000; i++) {
        data.append(i == 0 ? "" : ", ").append('[').append(i).append(", ")
            .append(vector(random)).append(']');
      }
      run("?[k, v] <- [" + data + "] :put pts {k => v}");
      int found = 0;
      int wanted = 0;
      for (int q = 0; q < 20; q++) {
        final String query = "vec(" + vector(random) + ")";
        final List<List<Object>> exact = run("?[k, d] := *pts{k, v}, d = l2_dist(v, " + query
            + ")\n:order d\n:limit 10").rows();
        final List<List<Object>> approx = run("?[d, k] := ~pts:idx{k | query: " + query
            + ", k: 10, ef: 50, bind_distance: d}").rows();
        assertEquals(10, approx.size());
        final Set<Object> truth = new HashSet<>();
        exact.forEach(r -> truth.add(r.get(0)));
        // each hit's distance is its true one
        final List<Object> keys = approx.stream().map(r -> r.get(1)).toList();
        final List<List<Object>> distances = run("?[d, k] := k in " + keys
            + ", *pts{k, v}, d = l2_dist(v, " + query + ")").rows();
        assertEquals(distances, approx);
        for (Object k : keys) {
          found += truth.contains(k) ? 1 : 0;
        }
        wanted += 10;
      }
      final double recall = (double) found / wanted;
      assertTrue(recall >= 0.95, "recall@10 " + recall);
    } finally {
      run("::hnsw drop pts:idx");
      run("::remove pts");
    }
  }

  @Test void theIndexFollowsTheRelationThroughARollback() throws Exception {
    run(":create r {k: Int => v: <F32; 2>}");
    try {
      run("::hnsw create r:idx {dim: 2, m: 8, ef_construction: 20, fields: [v]}");
      run("?[k, v] <- [[1, [5, 5]], [2, [9, 9]]] :put r {k => v}");
      final String nearest = "?[k] := ~r:idx{k | query: vec([0, 0]), k: 1, ef: 10}";
      assertEquals(List.of(List.of(1L)), run(nearest).rows());
      // the script's own write is searched within it ...
      assertEquals(List.of(List.of(3L)), run("{?[k, v] <- [[3, [0, 0]]] :put r {k => v}}\n{"
          + nearest + "}").rows());
      run("?[k] <- [[3]] :rm r {k}");
      // ... and a failed script's write is gone from the index with the relation's row
      assertThrows(DatalogException.class, () -> run("{?[k, v] <- [[4, [0, 0]]] :put r {k => v}}"
          + "\n{" + nearest + "}\n{?[x] <- [[1]] :assert none}"));
      assertEquals(List.of(List.of(1L)), run(nearest).rows());
      assertFalse(run("?[k] := *r{k}").rows().contains(List.of(4L)));
    } finally {
      run("::hnsw drop r:idx");
      run("::remove r");
    }
  }

  @Test void theIndexOutlivesReopeningAFileStore(@TempDir Path dir) throws Exception {
    final String nearest = "?[k] := ~f:idx{k | query: vec([0, 0]), k: 1, ef: 10}";
    try (QueryConformanceTest.Store first = new QueryConformanceTest.Store(
        StoreLocation.directory(dir))) {
      first.engine().run(":create f {k: Int => v: <F32; 2>}", Map.of());
      first.engine().run("::hnsw create f:idx {dim: 2, m: 8, ef_construction: 20, fields: [v]}",
          Map.of());
      first.engine().run("?[k, v] <- [[1, [5, 5]], [2, [1, 1]]] :put f {k => v}", Map.of());
      assertEquals(List.of(List.of(2L)), first.engine().run(nearest, Map.of()).rows());
    }
    try (QueryConformanceTest.Store again = new QueryConformanceTest.Store(
        StoreLocation.directory(dir))) {
      assertEquals(List.of(List.of(2L)), again.engine().run(nearest, Map.of()).rows());
      again.engine().run("?[k, v] <- [[3, [0.5, 0]]] :put f {k => v}", Map.of());
      assertEquals(List.of(List.of(3L)), again.engine().run(nearest, Map.of()).rows());
    }
  }

  /**
   * Random interleavings, on two sessions of one store, of committed writes (CozoScript
   * {@code :put}, {@code :rm}, SQL DELETE on the store's connection), failed scripts (their writes rolled back, after
   * the script searched them) and searches: every search answers as exact search over the
   * relation (with {@code ef} above the relation's size the graph's search is exhaustive, so
   * the order is exact), in the searching session, at that moment.
   */
  @Test void writesRollbacksAndSearchesOfTwoSessionsMatchExactSearch() throws Exception {
    final StoreLocation location = StoreLocation.sharedMemory("hnsw-" + System.nanoTime());
    try (QueryConformanceTest.Store a = new QueryConformanceTest.Store(location);
         QueryConformanceTest.Store b = new QueryConformanceTest.Store(location)) {
      final List<QueryConformanceTest.Store> sessions = List.of(a, b);
      a.engine().run(":create w {k: Int => v: <F32; 4>}", Map.of());
      a.engine().run("::hnsw create w:idx {dim: 4, m: 6, ef_construction: 30, fields: [v]}",
          Map.of());
      final Random random = new Random(1802);
      for (int step = 0; step < 60; step++) {
        final QueryConformanceTest.Store s = sessions.get(random.nextInt(2));
        final String query = "vec(" + vector4(random) + ")";
        final String approx = "?[d, k] := ~w:idx{k | query: " + query
            + ", k: 5, ef: 100, bind_distance: d}";
        final String exact = "?[d, k] := *w{k, v}, d = l2_dist(v, " + query + ")\n:order d\n"
            + ":limit 5";
        final String writes = randomWrites(random);
        switch (random.nextInt(5)) {
        case 0, 1 -> s.engine().run(writes, Map.of());
        case 2 -> {
          // searched inside the script that wrote, then rolled back with it
          final List<List<Object>> inside = s.engine().run("{" + writes + "}\n{" + exact
              + "}", Map.of()).rows();
          assertThrows(DatalogException.class, () -> s.engine().run("{" + writes + "}\n{"
              + approx + "}\n{?[x] <- [[1]] :assert none}", Map.of()));
          // the same writes committed, searched in their own script: what exact search saw
          assertEquals(inside, s.engine().run("{" + writes + "}\n{" + approx + "}",
              Map.of()).rows());
        }
        case 3 -> {
          // SQL on the store's own connection: a write no mnestic code path sees
          try (Statement sql = s.session().getConnection().createStatement()) {
            sql.executeUpdate("DELETE FROM \"PUBLIC\".\"w\" WHERE \"k\" IN ("
                + random.nextInt(30) + ", " + random.nextInt(30) + ")");
          }
        }
        default -> assertThrows(DatalogException.class, () -> s.engine().run("{" + writes
            + "}\n{?[x] <- [[1]] :assert none}", Map.of()));
        }
        for (QueryConformanceTest.Store searcher : sessions) {
          assertEquals(searcher.engine().run(exact, Map.of()).rows(),
              searcher.engine().run(approx, Map.of()).rows(), "step " + step);
        }
      }
    }
  }

  /** A script putting a few random vectors under keys 0-29, or removing a few keys. */
  private static String randomWrites(Random random) {
    final StringBuilder rows = new StringBuilder();
    final boolean put = random.nextInt(3) > 0;
    for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
      rows.append(i == 0 ? "" : ", ").append('[').append(random.nextInt(30));
      if (put) {
        rows.append(", ").append(vector4(random));
      }
      rows.append(']');
    }
    return put ? "?[k, v] <- [" + rows + "] :put w {k => v}"
        : "?[k] <- [" + rows + "] :rm w {k}";
  }

  private static String vector4(Random random) {
    return String.format(Locale.ROOT, "[%.3f, %.3f, %.3f, %.3f]", random.nextDouble(),
        random.nextDouble(), random.nextDouble(), random.nextDouble());
  }

  @Test void explainShowsTheSearch() throws Exception {
    run(":create e {k: Int => v: <F32; 2>}");
    try {
      run("::hnsw create e:idx {dim: 2, m: 8, ef_construction: 20, fields: [v]}");
      final List<String> lines = new ArrayList<>();
      run("::explain { ?[k] := ~e:idx{k | query: vec([0, 0]), k: 1, ef: 10} }").rows()
          .forEach(r -> lines.add(String.valueOf(r.get(2))));
      assertTrue(lines.stream().anyMatch(l -> l.contains("SearchApply")), lines.toString());
    } finally {
      run("::hnsw drop e:idx");
      run("::remove e");
    }
  }
}
