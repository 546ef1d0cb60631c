package dev.mnestic.datalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * The worst-case optimal join of a cyclic rule body ({@code rel.GenericJoin}) against the same
 * scripts joined pairwise ({@link Engine#joiningPairwise}), on random graphs: triangles and
 * 4-cycles, constants, repeated variables, wildcards (rows repeated in the body), derived
 * relations, filters and acyclic atoms around the cycle, aggregations that count every
 * binding, and random cyclic bodies; the triangle count also against a count in Java; and
 * {@code ::explain} showing the join where a body is cyclic only.
 */
class GenericJoinTest extends OneStoreTest {
  private static final int NODES = 25;
  /** Of graph g of {@code lab}: its edges. */
  private static final List<Set<List<Long>>> EDGES = new ArrayList<>();

  /** Three random graphs in one relation {@code lab}, told apart by g; graph 0 also as edge. */
  @BeforeAll static void graphs() throws Exception {
    run(":create edge {a: Int, b: Int}");
    run(":create lab {g: Int, a: Int, b: Int}");
    final StringBuilder rows = new StringBuilder();
    for (int g = 0; g < 3; g++) {
      final Random random = new Random(31 + g);
      final Set<List<Long>> edges = new LinkedHashSet<>();
      // denser, sparse, and one with self-loops
      final int count = new int[] {110, 50, 80}[g];
      while (edges.size() < count) {
        final long a = random.nextInt(NODES);
        final long b = g == 2 && random.nextInt(6) == 0 ? a : random.nextInt(NODES);
        if (edges.add(List.of(a, b))) {
          rows.append(rows.length() == 0 ? "" : ", ").append('[').append(g).append(", ")
              .append(a).append(", ").append(b).append(']');
        }
      }
      EDGES.add(edges);
    }
    run("?[g, a, b] <- [" + rows + "] :put lab {g, a, b}");
    run("?[a, b] := *lab[0, a, b] :put edge {a, b}");
  }

  /** Runs {@code script} with generic joins and pairwise: equal rows; returns them. */
  private static List<List<Object>> same(String script) throws Exception {
    return same(script, Map.of());
  }

  /** As {@link #same(String)}, with parameters. */
  private static List<List<Object>> same(String script, Map<String, Object> params)
      throws Exception {
    final Engine.Result generic = store.engine().run(script, params);
    final Engine.Result pairwise = store.engine().joiningPairwise().run(script, params);
    assertEquals(pairwise.headers(), generic.headers(), script);
    assertEquals(pairwise.rows(), generic.rows(), script);
    return generic.rows();
  }

  /** Whether {@code script}'s plan has a generic join, with generic joins or pairwise. */
  private static boolean generic(String script, boolean pairwise) throws Exception {
    return explained(script, pairwise ? store.engine().joiningPairwise() : store.engine())
        .contains("GenericJoin");
  }

  /** {@code script}'s plan, every line. */
  private static String explained(String script, Engine engine) throws Exception {
    final StringBuilder plan = new StringBuilder();
    for (List<Object> row : engine.run("::explain {" + script + "}", Map.of()).rows()) {
      plan.append(row.get(2)).append('\n');
    }
    return plan.toString();
  }

  /** The triangles among {@code edges} (each a pair, a before b in the body), counted. */
  private static long triangles(Set<List<Long>> edges) {
    long triangles = 0;
    for (List<Long> ab : edges) {
      for (List<Long> bc : edges) {
        if (bc.get(0).equals(ab.get(1)) && edges.contains(List.of(ab.get(0), bc.get(1)))) {
          triangles++;
        }
      }
    }
    return triangles;
  }

  @Test void trianglesEqualAJavaCount() throws Exception {
    final String script = "tri[a, b, c] := *edge[a, b], *edge[b, c], *edge[a, c]\n"
        + "?[count(a)] := tri[a, b, c]";
    final long triangles = triangles(EDGES.get(0));
    assertTrue(triangles > 0, "the graph has triangles");
    assertEquals(List.of(List.of(triangles)), same(script));
    assertTrue(generic(script, false));
    assertFalse(generic(script, true));
  }

  /**
   * Graph 0 with its nodes renamed, negative and dense (a trie's first level looked up in its
   * offsets) or spread over the longs (too far apart for offsets: searched for): the same
   * triangles as pairwise joins find, as many as graph 0's.
   */
  @Test void nodesNegativeOrSpreadEqualPairwise() throws Exception {
    final String count = "tri[a, b, c] := *%1$s[a, b], *%1$s[b, c], *%1$s[a, c]\n"
        + "?[count(a)] := tri[a, b, c]";
    final List<List<Object>> expected = same(String.format(count, "edge"));
    for (String name : List.of("near", "far")) {
      run(":create " + name + " {a: Int, b: Int}");
      try {
        final StringBuilder rows = new StringBuilder();
        for (List<Long> e : EDGES.get(0)) {
          rows.append(rows.length() == 0 ? "" : ", ").append('[').append(renamed(name, e.get(0)))
              .append(", ").append(renamed(name, e.get(1))).append(']');
        }
        run("?[a, b] <- [" + rows + "] :put " + name + " {a, b}");
        assertEquals(expected, same(String.format(count, name)), name);
        same("tri[a, b, c] := *" + name + "[a, b], *" + name + "[b, c], *" + name + "[a, c]\n"
            + "?[a, b, c] := tri[a, b, c]");
      } finally {
        run("::remove " + name);
      }
    }
  }

  private static long renamed(String how, long node) {
    return how.equals("near") ? node - NODES / 2
        : (node - NODES / 2) * (node % 3 == 0 ? 1L << 40 : 1L) + (node % 3 == 1 ? Long.MIN_VALUE / 2 : 0);
  }

  @Test void cyclesWithConstantsRepeatsAndWildcards() throws Exception {
    final List<String> scripts = List.of(
        "?[a, b, c] := *edge[a, b], *edge[b, c], *edge[c, a]",
        "?[a, b, c, d] := *edge[a, b], *edge[b, c], *edge[c, d], *edge[d, a]",
        // a chord: two triangles sharing an edge
        "?[a, b, c, d] := *edge[a, b], *edge[b, c], *edge[c, d], *edge[d, a], *edge[a, c]",
        "?[a, b, c] := *lab[1, a, b], *lab[2, b, c], *lab[0, a, c]",
        "?[g, a, b, c] := *lab[g, a, b], *lab[g, b, c], *lab[g, a, c]",
        // repeated variables: a self-loop inside the cycle, and one hanging off it
        "?[a, b, c] := *lab[b, a, a], *lab[_, a, c], *lab[_, c, b]",
        "?[a, b, c] := *lab[a, a, b], *lab[g, b, c], *lab[g, a, c]",
        "?[a, b, c] := *lab[2, a, a], *lab[2, a, b], *lab[2, b, c], *lab[2, c, a]",
        // named atoms, wildcards (each wildcard's rows repeat a binding) and counts of them
        "?[count(c)] := *lab{a, b}, *lab{a: b, b: c}, *lab{a, b: c}",
        "?[a, count(b)] := *lab[_, a, b], *lab[_, b, c], *lab[_, c, a]",
        // a derived relation, a filter and an acyclic atom hanging off the cycle
        "e[x, y] := *lab[_, x, y], x != y\n"
            + "?[a, b, c, d] := e[a, b], e[b, c], e[c, a], *edge[c, d], a < b",
        // a unification before the cycle binds one of its variables
        "?[a, b, c] := a = 3, *edge[a, b], *edge[b, c], *edge[a, c]",
        // a negation after it
        "?[a, b, c] := *edge[a, b], *edge[b, c], *edge[a, c], not *lab[1, a, c]");
    int rows = 0;
    for (String script : scripts) {
      rows += same(script).size();
      assertTrue(generic(script, false), script);
    }
    assertTrue(rows > 50, rows + " rows in all");
  }

  @Test void anAcyclicBodyIsJoinedPairwise() throws Exception {
    for (String script : List.of("?[a, c] := *edge[a, b], *edge[b, c]",
        "?[a, b] := *edge[a, b], *edge[b, a]",
        "?[a, c] := *edge[a, b], *edge[b, c], *edge[a, _]")) {
      same(script);
      assertFalse(generic(script, false), script);
    }
  }

  /**
   * Random cyclic bodies: a cycle of three or four {@code lab} atoms, each argument pair in
   * either order, each graph argument a constant, a shared variable or a wildcard, sometimes
   * a chord or an atom hanging off the cycle: every one equal joined either way, and joined by
   * a generic join.
   */
  @Test void randomCyclicBodies() throws Exception {
    final Random random = new Random(41);
    final String[] vars = {"a", "b", "c", "d"};
    for (int trial = 0; trial < 10; trial++) {
      final int k = 3 + random.nextInt(2);
      final List<String> atoms = new ArrayList<>();
      final Set<String> used = new TreeSet<>(List.of(vars).subList(0, k));
      for (int i = 0; i < k + random.nextInt(2); i++) {
        // the cycle's edges, then perhaps a chord (a 4-cycle's) or an edge to a new variable
        final String x = vars[i % k];
        final String y = i < k ? vars[(i + 1) % k] : k == 4 ? vars[2] : "e";
        used.add(y);
        final String g = switch (random.nextInt(4)) {
          case 0 -> "_";
          case 1 -> "g";
          default -> String.valueOf(random.nextInt(3));
        };
        if (g.equals("g")) {
          used.add(g);
        }
        atoms.add(random.nextBoolean() ? "*lab[" + g + ", " + x + ", " + y + "]"
            : "*lab[" + g + ", " + y + ", " + x + "]");
      }
      final String script = random.nextBoolean()
          ? "?[" + String.join(", ", used) + "] := " + String.join(", ", atoms)
          : "?[a, count(b)] := " + String.join(", ", atoms);
      same(script);
      assertTrue(generic(script, false), script);
    }
  }

  /**
   * The tries kept beside a relation's packed copy follow its writes: the triangle count run
   * again (its kept trie reused) after each of 24 random steps of puts, removals and a failing
   * script (rolled back: nothing changes), equal to a count in Java over the edges written and
   * to the pairwise joins. (Another connection's commit moves the packed copy the trie is kept
   * in: jdbc-driver's {@code KeptCopyTest}.)
   */
  @Test void keptTriesFollowWrites() throws Exception {
    final String count = "tri[a, b, c] := *w[a, b], *w[b, c], *w[a, c]\n"
        + "?[count(a)] := tri[a, b, c]";
    run(":create w {a: Int, b: Int}");
    try {
      assertTrue(explained(count, store.engine()).contains("packed w"), "read packed");
      final Random random = new Random(43);
      final Set<List<Long>> edges = new LinkedHashSet<>();
      for (int step = 0; step < 24; step++) {
        final StringBuilder rows = new StringBuilder();
        final List<List<Long>> chosen = new ArrayList<>();
        for (int i = 0; i < 1 + random.nextInt(30); i++) {
          final long a = random.nextInt(12);
          final long b = a + 1 + random.nextInt(6);
          chosen.add(List.of(a, b));
          rows.append(rows.length() == 0 ? "" : ", ").append('[').append(a).append(", ")
              .append(b).append(']');
        }
        switch (step % 4) {
          case 0, 1 -> {
            run("?[a, b] <- [" + rows + "] :put w {a, b}");
            edges.addAll(chosen);
          }
          case 2 -> {
            run("?[a, b] <- [" + rows + "] :rm w {a, b}");
            chosen.forEach(edges::remove);
          }
          default -> {
            // a put whose transaction then fails: rolled back, the rows as they were
            final String failing = "{?[a, b] <- [" + rows + "] :put w {a, b}}"
                + " {?[x] <- [[1]] :assert none}";
            assertThrows(Exception.class, () -> run(failing));
          }
        }
        for (int again = 0; again < 2; again++) {
          assertEquals(List.of(List.of(triangles(edges))), same(count), "step " + step);
        }
      }
      assertTrue(triangles(edges) > 0, "the writes made triangles");
    } finally {
      run("::remove w");
    }
  }

  /**
   * Inputs the store gives no packed copy of, beside those it does: a relation of Ints,
   * Floats and Strings (1 and 1.0 differ), one of Ints with a null, an empty one, and a
   * constant given as a parameter, each in a cycle with Int relations read packed: equal
   * to the pairwise joins.
   */
  @Test void mixedNullEmptyAndParameterInputs() throws Exception {
    run(":create mix {a: Any, b: Any}");
    run(":create nul {a: Int => b: Int?}");
    run(":create none {a: Int, b: Int}");
    try {
      final StringBuilder rows = new StringBuilder();
      for (List<Long> e : EDGES.get(1)) {
        final long b = e.get(1);
        final String value = b % 3 == 0 ? b + ".0" : b % 3 == 1 ? String.valueOf(b)
            : "'" + b + "'";
        rows.append(rows.length() == 0 ? "" : ", ").append('[').append(e.get(0)).append(", ")
            .append(value).append(']');
      }
      run("?[a, b] <- [" + rows + ", [1, 'x'], ['x', 2]] :put mix {a, b}");
      run("?[a, b] := *lab[0, a, b] :put nul {a, b}");
      run("?[a, b] <- [[1, null], [2, 3]] :put nul {a, b}");
      final List<String> scripts = List.of(
          "?[a, b, c] := *edge[a, b], *mix[b, c], *edge[a, c]",
          "?[a, b, c] := *mix[a, b], *mix[b, c], *edge[a, c]",
          "?[a, b, c] := *nul[a, b], *nul[b, c], *edge[a, c]",
          "?[a, b, c] := *edge[a, b], *none[b, c], *edge[a, c]",
          "?[count(a)] := *none[a, b], *none[b, c], *none[a, c]");
      int found = 0;
      for (String script : scripts) {
        found += same(script).size();
        assertTrue(generic(script, false), script);
      }
      assertTrue(found > 0, "some cycle found");
      assertTrue(explained(scripts.get(0), store.engine()).contains("packed edge"));
      final String param = "?[a, b, c] := *lab[$g, a, b], *lab[$g, b, c], *lab[0, a, c]";
      assertTrue(explained(param.replace("$g", "1"), store.engine()).contains("packed lab"));
      for (long g = 0; g < 3; g++) {
        same(param, Map.of("g", g));
      }
    } finally {
      run("::remove mix");
      run("::remove nul");
      run("::remove none");
    }
  }
}
