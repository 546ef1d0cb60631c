package dev.mnestic.datalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The magic-set rewrite ({@link dev.mnestic.datalog.lower.MagicSets}) against the query it
 * rewrites, run with {@code :disable_magic_rewrite true}, on random graphs: equal answers for
 * every shape of binding (a constant, a parameter, a variable bound by the atoms before, a
 * bound second argument; linear and non-linear recursion; negation and aggregation around
 * it), reachability equal to a breadth-first search, fewer tuples derived when a query binds
 * its source, and {@code ::explain} naming the adorned relations.
 */
class MagicSetsTest extends OneStoreTest {
  private static final int NODES = 40;
  private static final List<int[]> EDGES = new ArrayList<>();

  /** Three random graphs in one relation, told apart by a graph column. */
  @BeforeAll static void graphs() throws Exception {
    run(":create edge {g: Int, a: Int, b: Int}");
    run(":create blocked {g: Int, a: Int}");
    final StringBuilder rows = new StringBuilder();
    final StringBuilder blocked = new StringBuilder();
    for (int g = 0; g < 3; g++) {
      final Random random = new Random(17 + g);
      // sparse, denser, and a graph with long paths
      final int edges = new int[] {50, 90, 45}[g];
      for (int i = 0; i < edges; i++) {
        final int a = random.nextInt(NODES);
        final int b = g == 2 ? (a + 1 + random.nextInt(3)) % NODES : random.nextInt(NODES);
        EDGES.add(new int[] {g, a, b});
        rows.append(rows.length() == 0 ? "" : ", ").append('[').append(g).append(", ")
            .append(a).append(", ").append(b).append(']');
      }
      for (int i = 0; i < 4; i++) {
        blocked.append(blocked.length() == 0 ? "" : ", ").append('[').append(g).append(", ")
            .append(random.nextInt(NODES)).append(']');
      }
    }
    run("?[g, a, b] <- [" + rows + "] :put edge {g, a, b}");
    run("?[g, a] <- [" + blocked + "] :put blocked {g, a}");
  }

  private static final String LEFT = "tc[a, b] := *edge[$g, a, b]\n"
      + "tc[a, c] := tc[a, b], *edge[$g, b, c]\n";
  private static final String RIGHT = "tc[a, b] := *edge[$g, a, b]\n"
      + "tc[a, c] := *edge[$g, a, b], tc[b, c]\n";
  private static final String DOUBLE = "tc[a, b] := *edge[$g, a, b]\n"
      + "tc[a, c] := tc[a, b], tc[b, c]\n";

  /** Runs {@code script} as written and with the rewrite off: equal rows; returns them. */
  private static List<List<Object>> same(String script, Map<String, Object> params)
      throws Exception {
    final Engine.Result rewritten = store.engine().run(script, params);
    final Engine.Result plain = store.engine()
        .run(script + "\n:disable_magic_rewrite true", params);
    assertEquals(plain.headers(), rewritten.headers(), script);
    assertEquals(plain.rows(), rewritten.rows(), script + " with " + params);
    return rewritten.rows();
  }

  /** The nodes {@code from} reaches in graph {@code g} by one edge or more. */
  private static Set<Long> reach(int g, int from) {
    final Map<Integer, List<Integer>> next = new HashMap<>();
    EDGES.stream().filter(e -> e[0] == g)
        .forEach(e -> next.computeIfAbsent(e[1], k -> new ArrayList<>()).add(e[2]));
    final Set<Long> seen = new TreeSet<>();
    final Deque<Integer> todo = new ArrayDeque<>(next.getOrDefault(from, List.of()));
    while (!todo.isEmpty()) {
      final int n = todo.pop();
      if (seen.add((long) n)) {
        todo.addAll(next.getOrDefault(n, List.of()));
      }
    }
    return seen;
  }

  private static Set<Long> column(List<List<Object>> rows) {
    return rows.stream().map(r -> (Long) r.get(0)).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Each recursion's shape, one after another across the graphs' checks. */
  private static final List<String> SHAPES = List.of(LEFT, RIGHT, DOUBLE);

  @Test void boundSourceEqualsBreadthFirstSearch() throws Exception {
    int k = 0;
    for (int g = 0; g < 3; g++) {
      for (String tc : SHAPES) {
        final int src = 7 * k++ % NODES;
        final Map<String, Object> params = Map.of("g", (long) g, "src", (long) src);
        assertEquals(reach(g, src), column(same(tc + "?[y] := tc[$src, y]", params)),
            tc + " from " + src + " in graph " + g);
      }
      // the source as a literal, and as a variable a unification binds
      final Map<String, Object> params = Map.of("g", (long) g, "src", (long) g);
      assertEquals(reach(g, g), column(same(LEFT + "?[y] := tc[" + g + ", y]", params)));
      assertEquals(reach(g, g), column(same(RIGHT + "?[y] := s = $src, tc[s, y]", params)));
    }
  }

  @Test void otherBindingsGiveTheSameAnswers() throws Exception {
    final List<String> queries = List.of("?[x] := tc[x, $dst]",
        "?[x, y] := *blocked[$g, x], tc[x, y]",
        "?[y] := tc[$src, y], not *blocked[$g, y]",
        "?[count(y)] := tc[$src, y]",
        "s[x] <- [[1], [4]]\n?[x, y] := s[x], tc[x, y], y > x",
        // an aggregate binds nothing an input may read: tc all free there, bound in tc itself
        "deg[a, count(b)] := *edge[$g, a, b]\n?[a, y] := deg[a, n], n > 1, tc[a, y]",
        // a negated relation is evaluated whole
        "?[y] := tc[$src, y], not tc[y, $src]",
        // two bound positions, and a rule between the query and the recursion
        "hop[x, y] := tc[x, y], x != y\n?[a] := *blocked[$g, a], hop[a, $dst]",
        "?[y] := tc[$src, y], tc[y, $src]");
    int k = 0;
    for (int g = 0; g < 3; g += 2) {
      final Map<String, Object> params = Map.of("g", (long) g, "src", 3L, "dst", 5L);
      for (String query : queries) {
        same(SHAPES.get((k++ + g) % SHAPES.size()) + query, params);
      }
      same("sg[x, y] := *edge[$g, p, x], *edge[$g, p, y]\n"
          + "sg[x, y] := *edge[$g, a, x], sg[a, b], *edge[$g, b, y]\n?[y] := sg[$src, y]", params);
      same("even[b] := *edge[$g, $src, b]\nodd[c] := even[b], *edge[$g, b, c]\n"
          + "even[c] := odd[b], *edge[$g, b, c]\nr[x, y] := even[x], *edge[$g, x, y]\n"
          + "?[y] := r[$dst, y] or r[$src, y]", params);
    }
  }

  /** Tuples every round of every fixpoint of {@code script} derived, summed. */
  private static long derived(String script, Map<String, Object> params) throws Exception {
    final AtomicLong tuples = new AtomicLong();
    store.engine().reportingRoundsTo((round, deltas) -> {
      for (int d : deltas) {
        tuples.addAndGet(d);
      }
    }).run(script, params);
    return tuples.get();
  }

  @Test void boundSourceDerivesOnlyWhatItNeeds() throws Exception {
    final Map<String, Object> params = Map.of("g", 2L, "src", 0L);
    final String query = LEFT + "?[count(y)] := tc[$src, y]";
    final long rewritten = derived(query, params);
    final long plain = derived(query + "\n:disable_magic_rewrite true", params);
    // from one source of NODES: at most NODES pairs (and the input's one row) against the
    // closure's pairs from every node
    assertTrue(rewritten <= NODES + 1, "rewritten derived " + rewritten);
    assertTrue(plain > 10 * rewritten, "plain " + plain + ", rewritten " + rewritten);
  }

  @Test void explainShowsTheAdornedRelations() throws Exception {
    final String query = LEFT.replace("$g", "0") + "?[y] := tc[3, y]";
    final String rewritten = relations(run("::explain {" + query + "}"));
    assertTrue(rewritten.contains("tc|Mbf") && rewritten.contains("tc|Ibf"), rewritten);
    assertFalse(rewritten.contains("[tc]"), rewritten);
    final String plain = relations(run("::explain {" + query + "\n:disable_magic_rewrite true}"));
    assertFalse(plain.contains("|M"), plain);
  }

  /**
   * A relation the query reads whole is read whole by its bound applications too (Andersen's
   * load rule applies {@code pt} with a bound argument inside {@code pt}'s own rules): no
   * adorned copy, so no more derived than without the rewrite, and the same answers.
   */
  @Test void aRelationReadWholeIsNotAdorned() throws Exception {
    final Map<String, Object> params = Map.of("g", 1L, "src", 0L);
    final String query = "pt[p, a] := *edge[$g, p, a]\n"
        + "pt[p, a] := *edge[$g, p, q], pt[q, r], pt[r, a]\n?[count(p)] := pt[p, a]";
    same(query, params);
    assertEquals(derived(query + "\n:disable_magic_rewrite true", params),
        derived(query, params));
    final String explained = relations(run("::explain {" + query.replace("$g", "1") + "}"));
    assertFalse(explained.contains("|M"), explained);
  }

  /** The relations column of {@code ::explain}, a stratum a line. */
  private static String relations(Engine.Result explained) {
    return explained.rows().stream().map(r -> r.get(0) + " [" + r.get(1) + "]").distinct()
        .collect(Collectors.joining("\n"));
  }
}
