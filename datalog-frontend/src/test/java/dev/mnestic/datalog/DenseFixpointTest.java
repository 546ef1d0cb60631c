package dev.mnestic.datalog;

import dev.mnestic.rel.Closure;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A fixpoint's dedup set in its dense form (a bitmap per first value, chosen by the values'
 * range) and the entry rule's count read straight from the packed tuples, against a search in
 * Java and against the generic plan (a filter that keeps every row turns the packed read off),
 * on random graphs whose node ids are dense from 0, dense from a negative start, spread far
 * apart (past 32 bits too), mixed with Floats and Strings, and empty; and the nodes reached
 * from one source (a node, or a value no edge holds), by a rule of one column and as the
 * closure's {@code tc[c, y]} (magic sets), each a search from its source.
 */
class DenseFixpointTest extends OneStoreTest {
  private static final String CLOSURE = "tc[a, b] := *dense_edge[a, b]\n"
      + "tc[a, c] := tc[a, b], *dense_edge[b, c]\n";

  @Test void closuresAndTheirCountsAgree() throws Exception {
    run(":create dense_edge {a: Any, b: Any}");
    final Random random = new Random(23);
    for (int trial = 0; trial < 24; trial++) {
      final int nodes = 1 + random.nextInt(120);
      final int kind = trial % 6;
      final List<Object> ids = new ArrayList<>();
      for (int k = 0; k < nodes; k++) {
        ids.add(switch (kind) {
          case 0 -> (Object) (long) k;
          case 1 -> (Object) (long) (k - 60);
          case 2 -> (Object) (k * 104_729L - 3_000_000L);
          case 3 -> (Object) ((long) k << 33);
          case 4 -> random.nextInt(4) == 0 ? (Object) ("n" + k) : (Object) (long) k;
          default -> random.nextInt(4) == 0 ? (Object) (k + 0.5) : (Object) (long) k;
        });
      }
      final int edgeCount = trial == 6 ? 0 : random.nextInt(3 * nodes);
      final List<List<Object>> edges = new ArrayList<>();
      final StringBuilder rows = new StringBuilder();
      for (int e = 0; e < edgeCount; e++) {
        final List<Object> edge =
            List.of(ids.get(random.nextInt(nodes)), ids.get(random.nextInt(nodes)));
        edges.add(edge);
        rows.append(rows.length() == 0 ? "" : ", ").append('[').append(literal(edge.get(0)))
            .append(", ").append(literal(edge.get(1))).append(']');
      }
      run("?[a, b] := *dense_edge[a, b] :rm dense_edge {a, b}");
      if (edgeCount > 0) {
        run("?[a, b] <- [" + rows + "] :put dense_edge {a, b}");
      }
      final Set<List<Object>> closure = Closure.pairs(edges);
      final String where = "trial " + trial + ", ids of kind " + kind;
      final Set<List<Object>> derived = new HashSet<>(run(CLOSURE + "?[a, b] := tc[a, b]").rows());
      assertEquals(closure, derived, where);
      final Set<Object> seconds = new HashSet<>();
      closure.forEach(pair -> seconds.add(pair.get(1)));
      final List<Object> counts = List.of((long) closure.size(), (long) seconds.size());
      assertEquals(List.of(counts),
          run(CLOSURE + "?[count(a), count_unique(b)] := tc[a, b]").rows(), where);
      assertEquals(List.of(counts),
          run(CLOSURE + "?[count(a), count_unique(b)] := tc[a, b], a == a").rows(), where);
      // one source bound: a node of the graph, or a value no edge holds
      final Object from = trial % 3 == 2 ? (Object) 1_000_000_007L : ids.get(random.nextInt(nodes));
      final Set<List<Object>> reached = new HashSet<>();
      closure.stream().filter(pair -> pair.get(0).equals(from))
          .forEach(pair -> reached.add(List.of(pair.get(1))));
      assertEquals(reached, new HashSet<>(run("r[y] := *dense_edge[" + literal(from) + ", y]\n"
          + "r[y] := r[x], *dense_edge[x, y]\n?[y] := r[y]").rows()), where + ", from " + from);
      assertEquals(reached, new HashSet<>(run(CLOSURE + "?[y] := tc[" + literal(from) + ", y]")
          .rows()), where + ", tc from " + from);
    }
  }

  private static String literal(Object value) {
    return value instanceof String s ? "'" + s + "'" : String.valueOf(value);
  }
}
