package dev.mnestic.datalog;

import dev.mnestic.rel.Closure;
import dev.mnestic.store.StoreReads;

import org.junit.jupiter.api.Test;

import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A stored relation of Int columns that a fixpoint reads is copied from the store's columns
 * straight into packed rows ({@link StoreReads#longs}), without its read's plan: on random
 * graphs every answer equals a breadth-first search's and the same query's over the same rows
 * in a relation of {@code Any} columns (stored as text, so copied through the read's plan,
 * the unoptimised path); for Ints of SQL's narrower types, a read through an index, the
 * script's own uncommitted rows, and a nullable column holding nulls (which the plan reads).
 */
class PackedCopyTest extends OneStoreTest {
  private static final String CLOSURE = "tc[a, b] := *%1$s[a, b]\n"
      + "tc[a, c] := tc[a, b], *%1$s[b, c]\n";

  /** {@code count} random edges between {@code nodes} nodes, numbered far apart and signed. */
  private static Set<List<Long>> edges(Random random, int nodes, int count) {
    final long[] names = new long[nodes];
    for (int i = 0; i < nodes; i++) {
      names[i] = (i - nodes / 2) * (random.nextBoolean() ? 1L : 1L << 33);
    }
    final Set<List<Long>> edges = new HashSet<>();
    for (int k = 0; k < count; k++) {
      edges.add(List.of(names[random.nextInt(nodes)], names[random.nextInt(nodes)]));
    }
    return edges;
  }

  private static String literal(Set<List<Long>> edges) {
    return edges.stream().map(e -> "[" + e.get(0) + ", " + e.get(1) + "]")
        .collect(Collectors.joining(", ", "[", "]"));
  }

  private static Set<List<Object>> rows(String script) throws Exception {
    return new HashSet<>(run(script).rows());
  }

  @Test void aClosureOverIntColumnsEqualsSearchAndThePlansCopy() throws Exception {
    run(":create e {a: Int, b: Int}");
    run(":create f {a: Any, b: Any}");
    try {
      final Random random = new Random(19);
      for (int trial = 0; trial < 6; trial++) {
        run("?[a, b] := *e[a, b] :rm e {a, b}");
        run("?[a, b] := *f[a, b] :rm f {a, b}");
        final int nodes = 2 + random.nextInt(80);
        final Set<List<Long>> edges = edges(random, nodes, random.nextInt(4 * nodes));
        if (!edges.isEmpty()) {
          run("?[a, b] <- " + literal(edges) + " :put e {a, b}");
          run("?[a, b] <- " + literal(edges) + " :put f {a, b}");
        }
        final Set<List<Object>> expected = Closure.pairs(edges);
        final String query = "?[a, b] := tc[a, b]";
        assertEquals(expected, rows(String.format(CLOSURE, "e") + query), "trial " + trial);
        assertEquals(expected, rows(String.format(CLOSURE, "f") + query), "trial " + trial);
        // from one node (the magic-set rewrite's reach), and the reach rule itself
        final long from = edges.isEmpty() ? 0 : edges.iterator().next().get(0);
        final Set<List<Object>> reached = expected.stream().filter(p -> p.get(0).equals(from))
            .map(p -> List.of(p.get(1))).collect(Collectors.toSet());
        assertEquals(reached,
            rows(String.format(CLOSURE, "e") + "?[b] := s = " + from + ", tc[s, b]"));
        assertEquals(reached, rows("r[y] := s = " + from + ", *e[s, y]\n"
            + "r[y] := r[x], *e[x, y]\n?[y] := r[y]"));
      }
    } finally {
      run("::remove e, f");
    }
  }

  /** The store's columns as packed longs are the relation's rows, in the scan's order. */
  @Test void theStoresIntColumnsReadAsLongs() throws Exception {
    run(":create e {a: Int, b: Int}");
    try {
      final Set<List<Long>> edges = edges(new Random(7), 50, 300);
      run("?[a, b] <- " + literal(edges) + " :put e {a, b}");
      final StoreReads.Read[] longs = {StoreReads.Read.LONG, StoreReads.Read.LONG};
      final long[] ab = StoreReads.longs(store.session(), "e", new int[] {0, 1}, longs, null).values();
      final long[] ba = StoreReads.longs(store.session(), "e", new int[] {1, 0}, longs, null).values();
      final Set<List<Long>> read = new HashSet<>();
      for (int r = 0; r < ab.length / 2; r++) {
        read.add(List.of(ab[2 * r], ab[2 * r + 1]));
        assertEquals(ab[2 * r], ba[2 * r + 1]);
        assertEquals(ab[2 * r + 1], ba[2 * r]);
      }
      assertEquals(edges.size(), ab.length / 2);
      assertEquals(edges, read);
      // read again: the copy kept with the unchanged table's columns, the same object
      final StoreReads.Packed kept =
          StoreReads.longs(store.session(), "e", new int[] {0, 1}, longs, null);
      assertArrayEquals(ab, kept.values());
      assertSame(kept, StoreReads.longs(store.session(), "e", new int[] {0, 1}, longs, null));
      // after a write, a copy of the rows the write left
      run("?[a, b] <- [[1000, 1001]] :put e {a, b}");
      final StoreReads.Packed after =
          StoreReads.longs(store.session(), "e", new int[] {0, 1}, longs, null);
      assertNotSame(kept, after);
      assertEquals(edges.size() + 1, after.rows());
      assertEquals(edges.size(), kept.rows(), "the kept copy itself is never written");
    } finally {
      run("::remove e");
    }
  }

  /**
   * Tables SQL made with INTEGER and SMALLINT columns, a read through an index (its columns in
   * another order) and rows the script wrote itself before its recursion (not committed yet).
   */
  @Test void narrowerIntsIndexReadsAndTheScriptsOwnRows() throws Exception {
    try (Statement sql = store.session().getConnection().createStatement()) {
      sql.execute("CREATE TABLE \"n\" (\"a\" INTEGER NOT NULL, \"b\" SMALLINT NOT NULL,"
          + " PRIMARY KEY (\"a\", \"b\"))");
    }
    run(":create f {a: Any, b: Any}");
    try {
      final Random random = new Random(23);
      final Set<List<Long>> edges = new HashSet<>();
      for (int k = 0; k < 400; k++) {
        edges.add(List.of((long) random.nextInt(120) - 60, (long) random.nextInt(120) - 60));
      }
      run("?[a, b] <- " + literal(edges) + " :put n {a, b}");
      run("?[a, b] <- " + literal(edges) + " :put f {a, b}");
      final String query = "?[a, b] := tc[a, b]";
      final Set<List<Object>> expected = Closure.pairs(edges);
      assertEquals(expected, rows(String.format(CLOSURE, "n") + query));
      assertEquals(expected, rows(String.format(CLOSURE, "f") + query));
      // through an index: its columns b, a
      run("::index create n:rev {b, a}");
      assertEquals(expected, rows("tc[a, b] := *n:rev[b, a]\n"
          + "tc[a, c] := tc[a, b], *n:rev[c, b]\n" + query));
      // the script's own rows, not committed when its second block reads them
      final Set<List<Long>> more = new HashSet<>(edges);
      more.add(List.of(500L, -60L));
      more.add(List.of(-59L, 501L));
      assertEquals(Closure.pairs(more), rows("{?[a, b] <- [[500, -60], [-59, 501]] :put n {a, b}}\n"
          + "{" + String.format(CLOSURE, "n") + query + "}"));
      // committed with the script
      assertEquals(Closure.pairs(more), rows(String.format(CLOSURE, "n") + query));
    } finally {
      run("::remove f");
      try (Statement sql = store.session().getConnection().createStatement()) {
        sql.execute("DROP TABLE \"n\"");
      }
    }
  }

  /** A nullable Int column holding nulls: the packed read gives up, the plan reads it. */
  @Test void nullsAreCopiedThroughThePlan() throws Exception {
    run(":create g {a: Int => b: Int?}");
    run(":create h {a: Int => b: Any?}");
    try {
      final Random random = new Random(29);
      final StringBuilder data = new StringBuilder();
      for (int a = 0; a < 60; a++) {
        data.append(a == 0 ? "" : ", ").append('[').append(a).append(", ")
            .append(random.nextInt(5) == 0 ? "null" : String.valueOf(random.nextInt(60)))
            .append(']');
      }
      run("?[a, b] <- [" + data + ", [60, null]] :put g {a => b}");
      run("?[a, b] <- [" + data + ", [60, null]] :put h {a => b}");
      final StoreReads.Read[] longs = {StoreReads.Read.LONG, StoreReads.Read.LONG};
      assertNull(StoreReads.longs(store.session(), "g", new int[] {0, 1}, longs, null));
      final String query = "?[a, b] := tc[a, b]";
      final Set<List<Object>> expected = rows(String.format(CLOSURE, "h") + query);
      assertEquals(expected, rows(String.format(CLOSURE, "g") + query));
      // not vacuous: some pair, and some pair ending at null
      assertEquals(true, expected.stream().anyMatch(p -> p.get(1) == null), expected::toString);
    } finally {
      run("::remove g, h");
    }
  }
}
