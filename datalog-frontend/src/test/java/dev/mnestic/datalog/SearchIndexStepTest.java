package dev.mnestic.datalog;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.runtime.SearchRun;
import dev.mnestic.store.StoreLocation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The search indices (HNSW, full text, MinHash-LSH) kept in step with their relation by the
 * rows that changed ({@code runtime.SearchRun}): on two sessions of one store, random runs of
 * writes ({@code :put} of new and existing keys, {@code :rm}, {@code :update}, SQL UPDATE and
 * DELETE on the store's connection), left uncommitted in an open transaction, committed,
 * rolled back whole or to a savepoint (a failed script), with searches by both sessions after
 * every step, each answer checked against its index's definition over the relation as that
 * session reads it: exact distance order (the set small, {@code ef} above its size, so the
 * graph's search is exhaustive), CozoDB's {@code tf} score of a word (its count in the text),
 * and for LSH every row of the same text found and none sharing no word. The rows a search
 * reads to bring its index up are counted: those changed, not the table.
 */
class SearchIndexStepTest {
  private static final List<String> WORDS =
      List.of("apple", "berry", "cherry", "damson", "elder", "fig");

  private static final String CREATE = ":create w {k: Int => v: <F32; 3>, t: String}";
  private static final List<String> INDICES = List.of(
      "::hnsw create w:vec {dim: 3, m: 16, ef_construction: 50, fields: [v]}",
      "::fts create w:txt {extractor: t, tokenizer: Simple}",
      "::lsh create w:dup {extractor: t, tokenizer: Simple, n_gram: 1, target_threshold: 0.5}");

  @Test void twoSessionsWritingCommittingAndRollingBackSearchAsTheirDefinitions()
      throws Exception {
    final StoreLocation location = StoreLocation.sharedMemory("steps-" + System.nanoTime());
    try (QueryConformanceTest.Store a = new QueryConformanceTest.Store(location);
         QueryConformanceTest.Store b = new QueryConformanceTest.Store(location)) {
      final List<QueryConformanceTest.Store> sessions = List.of(a, b);
      a.engine().run(CREATE, Map.of());
      for (String index : INDICES) {
        a.engine().run(index, Map.of());
      }
      final Random random = new Random(1815);
      final boolean[] open = new boolean[2];
      for (int step = 0; step < 40; step++) {
        final int who = random.nextInt(2);
        final QueryConformanceTest.Store s = sessions.get(who);
        // each session writes its own keys (even, odd): an open transaction never waits on
        // the other's row locks
        final String writes = randomWrites(random, who);
        switch (random.nextInt(8)) {
        case 0, 1, 2 -> s.engine().run(writes, Map.of());
        case 3 -> {
          if (!open[who]) {
            s.session().setAutoCommit(false);
            open[who] = true;
          }
          s.engine().run(writes, Map.of());
        }
        case 4 -> {
          if (open[who]) {
            if (random.nextBoolean()) {
              s.session().commit();
            } else {
              s.session().rollback();
            }
            s.session().setAutoCommit(true);
            open[who] = false;
          }
        }
        case 5 -> {
          // searched inside the script that wrote, then rolled back with it
          assertThrows(DatalogException.class, () -> s.engine().run("{" + writes + "}\n{"
              + "?[k] := ~w:vec{k | query: vec([0.5, 0.5, 0.5]), k: 3, ef: 100}}\n"
              + "{?[x] <- [[1]] :assert none}", Map.of()));
        }
        case 6 -> {
          // SQL on the store's own connection: a write no mnestic code path sees
          try (PreparedStatement sql = s.session().getConnection().prepareStatement(
              "UPDATE \"PUBLIC\".\"w\" SET \"t\" = ? WHERE \"k\" = ?")) {
            sql.setString(1, text(random));
            sql.setLong(2, key(random, who));
            sql.executeUpdate();
          }
        }
        default -> {
          try (PreparedStatement sql = s.session().getConnection().prepareStatement(
              "DELETE FROM \"PUBLIC\".\"w\" WHERE \"k\" = ?")) {
            sql.setLong(1, key(random, who));
            sql.executeUpdate();
          }
        }
        }
        for (QueryConformanceTest.Store searcher : sessions) {
          checkSearches(searcher, random, "step " + step);
        }
      }
      for (int who = 0; who < 2; who++) {
        if (open[who]) {
          sessions.get(who).session().rollback();
          sessions.get(who).session().setAutoCommit(true);
        }
      }
    }
  }

  /** Each index's search in {@code s}, against its definition over the relation s reads. */
  private static void checkSearches(QueryConformanceTest.Store s, Random random, String where)
      throws Exception {
    final Engine e = s.engine();
    final String q = String.format(Locale.ROOT, "vec([%.3f, %.3f, %.3f])", random.nextDouble(),
        random.nextDouble(), random.nextDouble());
    assertEquals(e.run("?[d, k] := *w{k, v}, d = l2_dist(v, " + q + ")\n:order d\n:limit 4",
        Map.of()).rows(), e.run("?[d, k] := ~w:vec{k | query: " + q + ", k: 4, ef: 100, "
        + "bind_distance: d}", Map.of()).rows(), where + ": HNSW");
    final List<List<Object>> rows = e.run("?[k, t] := *w{k, t}", Map.of()).rows();
    final String word = WORDS.get(random.nextInt(WORDS.size()));
    final List<List<Object>> scored = new ArrayList<>();
    for (List<Object> r : rows) {
      final long tf = Arrays.stream(((String) r.get(1)).split(" ")).filter(word::equals).count();
      if (tf > 0) {
        scored.add(List.of(r.get(0), (double) tf));
      }
    }
    scored.sort(Comparator.comparing(r -> (Long) r.get(0)));
    assertEquals(scored, e.run("?[k, s] := ~w:txt{k | query: '" + word + "', k: 1000, "
        + "score_kind: 'tf', bind_score: s}", Map.of()).rows(), where + ": FTS of " + word);
    if (rows.isEmpty()) {
      return;
    }
    final String text = (String) rows.get(random.nextInt(rows.size())).get(1);
    final Set<String> words = new HashSet<>(Arrays.asList(text.split(" ")));
    final Set<Object> found = new HashSet<>();
    e.run("?[k] := ~w:dup{k | query: '" + text + "'}", Map.of()).rows()
        .forEach(r -> found.add(r.get(0)));
    for (List<Object> r : rows) {
      final String t = (String) r.get(1);
      if (t.equals(text)) {
        assertTrue(found.contains(r.get(0)), where + ": LSH of '" + text + "' misses " + r);
      } else if (Arrays.stream(t.split(" ")).noneMatch(words::contains)) {
        assertTrue(!found.contains(r.get(0)), where + ": LSH of '" + text + "' finds " + r);
      }
    }
  }

  /** A key of session {@code who}'s (even keys for the first, odd for the second), 0-39. */
  private static long key(Random random, int who) {
    return 2L * random.nextInt(20) + who;
  }

  private static String text(Random random) {
    final StringBuilder b = new StringBuilder();
    for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
      b.append(i == 0 ? "" : " ").append(WORDS.get(random.nextInt(WORDS.size())));
    }
    return b.toString();
  }

  private static String vector(Random random) {
    return String.format(Locale.ROOT, "[%.3f, %.3f, %.3f]", random.nextDouble(),
        random.nextDouble(), random.nextDouble());
  }

  /** A script putting, updating or removing a few of session {@code who}'s keys. */
  private static String randomWrites(Random random, int who) {
    final StringBuilder rows = new StringBuilder();
    final int kind = random.nextInt(4);
    final Set<Long> keys = new HashSet<>();
    for (int i = 0, n = 1 + random.nextInt(4); i < n; i++) {
      final long k = key(random, who);
      if (!keys.add(k)) {
        continue;
      }
      rows.append(rows.length() == 0 ? "" : ", ").append('[').append(k);
      if (kind > 1) {
        rows.append(", ").append(vector(random)).append(", '").append(text(random))
            .append('\'');
      }
      rows.append(']');
    }
    return switch (kind) {
    case 0 -> "?[k] <- [" + rows + "] :rm w {k}";
    // :update of existing keys only (the others are not there to update)
    case 1 -> "?[k, t] := k in " + keys + ", *w{k}, t = '" + text(random) + "'\n"
        + ":update w {k => t}";
    default -> "?[k, v, t] <- [" + rows + "] :put w {k => v, t}";
    };
  }

  /**
   * The rows a search reads to bring its index up: none while the table is unchanged, the rows
   * changed since its last search (as HSQLDB logs them: an update a row out and a row in), a
   * transaction's own writes on top, which another session's search then does not read.
   */
  @Test void aSearchReadsTheRowsChangedNotTheTable() throws Exception {
    final StoreLocation location = StoreLocation.sharedMemory("reads-" + System.nanoTime());
    try (QueryConformanceTest.Store a = new QueryConformanceTest.Store(location);
         QueryConformanceTest.Store b = new QueryConformanceTest.Store(location)) {
      a.engine().run(CREATE, Map.of());
      final Random random = new Random(18);
      final StringBuilder rows = new StringBuilder();
      for (int k = 0; k < 500; k++) {
        rows.append(k == 0 ? "" : ", ").append('[').append(k).append(", ")
            .append(vector(random)).append(", '").append(text(random)).append("']");
      }
      a.engine().run("?[k, v, t] <- [" + rows + "] :put w {k => v, t}", Map.of());
      for (String index : INDICES) {
        a.engine().run(index, Map.of());
      }
      final String searches = "{?[k] := ~w:vec{k | query: vec([0.5, 0.5, 0.5]), k: 3, ef: 20}}"
          + "\n{?[k] := ~w:txt{k | query: 'fig', k: 3}}\n{?[k] := ~w:dup{k | query: 'fig'}}";
      // the first search of each index reads the relation
      assertEquals(3 * 500, read(a, searches));
      assertEquals(0, read(a, searches));
      assertEquals(0, read(b, searches));
      // 3 rows changed, 2 new: each index reads 3 rows out and 5 in
      a.engine().run("?[k, v, t] <- [[1, [0, 0, 0], 'x'], [2, [0, 0, 0], 'x'], "
          + "[3, [0, 0, 0], 'x'], [5000, [0, 0, 0], 'x'], [5001, [0, 0, 0], 'x']] "
          + ":put w {k => v, t}", Map.of());
      assertEquals(3 * 8, read(b, searches));
      assertEquals(0, read(a, searches));
      // an open transaction's own 2 writes (1 row out, 2 in), read by each of its searches
      a.session().setAutoCommit(false);
      a.engine().run("?[k, v, t] <- [[7, [1, 1, 1], 'y'], [6000, [1, 1, 1], 'y']] "
          + ":put w {k => v, t}", Map.of());
      assertEquals(3 * 3, read(a, searches));
      assertEquals(List.of(List.of(7L), List.of(6000L)),
          a.engine().run("?[k] := ~w:vec{k | query: vec([1, 1, 1]), k: 2, ef: 100}", Map.of())
              .rows());
      // ... and taken back: the other session's searches read nothing and do not see them
      assertEquals(0, read(b, searches));
      assertTrue(b.engine().run("?[k] := ~w:txt{k | query: 'y', k: 3}", Map.of()).rows()
          .isEmpty());
      a.session().commit();
      a.session().setAutoCommit(true);
      assertEquals(3 * 3, read(b, searches));
      assertEquals(List.of(List.of(7L), List.of(6000L)),
          b.engine().run("?[k] := ~w:txt{k | query: 'y', k: 3}", Map.of()).rows());
    }
  }

  /** The rows read by the searches of {@code script} in {@code s}. */
  private static long read(QueryConformanceTest.Store s, String script) throws Exception {
    final long before = SearchRun.rowsRead();
    s.engine().run(script, Map.of());
    return SearchRun.rowsRead() - before;
  }

  /**
   * The indices outlive reopening a file store: rebuilt from the relation at their first
   * search, they answer as before, and follow writes made after.
   */
  @Test void theIndicesOutliveReopeningAFileStore(@TempDir Path dir) throws Exception {
    final String searches = "{?[k] := ~w:vec{k | query: vec([0, 0, 0]), k: 1, ef: 10}}\n"
        + "{?[k] := ~w:txt{k | query: 'fig', k: 3}}\n{?[k] := ~w:dup{k | query: 'fig fig'}}";
    try (QueryConformanceTest.Store first = new QueryConformanceTest.Store(
        StoreLocation.directory(dir))) {
      first.engine().run(CREATE, Map.of());
      for (String index : INDICES) {
        first.engine().run(index, Map.of());
      }
      first.engine().run("?[k, v, t] <- [[1, [1, 1, 1], 'apple damson'], [2, [0.1, 0, 0], "
          + "'fig fig'], [3, [0.5, 0.5, 0.5], 'berry fig']] :put w {k => v, t}", Map.of());
      assertEquals(List.of(List.of(2L)), first.engine().run(searches, Map.of()).rows());
    }
    try (QueryConformanceTest.Store again = new QueryConformanceTest.Store(
        StoreLocation.directory(dir))) {
      final Engine e = again.engine();
      assertEquals(List.of(List.of(2L)), e.run(searches, Map.of()).rows());
      assertEquals(List.of(List.of(2L)),
          e.run("?[k] := ~w:vec{k | query: vec([0, 0, 0]), k: 1, ef: 10}", Map.of()).rows());
      assertEquals(List.of(List.of(2L), List.of(3L)),
          e.run("?[k] := ~w:txt{k | query: 'fig', k: 3}", Map.of()).rows());
      e.run("?[k, v, t] <- [[4, [0, 0, 0], 'fig fig']] :put w {k => v, t}", Map.of());
      assertEquals(List.of(List.of(2L), List.of(4L)),
          e.run("?[k] := ~w:dup{k | query: 'fig fig'}", Map.of()).rows());
      assertEquals(List.of(List.of(4L)),
          e.run("?[k] := ~w:vec{k | query: vec([0, 0, 0]), k: 1, ef: 10}", Map.of()).rows());
    }
  }
}
