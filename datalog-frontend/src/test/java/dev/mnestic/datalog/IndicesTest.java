package dev.mnestic.datalog;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Indices ({@code ::index create}, issue 17): a constant on an index's leading column is
 * looked up in the store's index, and every answer is the answer without the index. CozoDB's
 * own answers are in {@code conformance/queries/indices.json}.
 */
class IndicesTest extends OneStoreTest {
  private static final String R = ":create r {a: Int, b: Int => c: String, d: Int, e: Float}";

  /** {@code ::explain}'s plan lines, one string. */
  private static String plan(String query) throws Exception {
    return run("::explain { " + query + " }").rows().stream().map(row -> (String) row.get(2))
        .collect(Collectors.joining("\n"));
  }

  private static void fill(Random random, int rows) throws Exception {
    final StringBuilder data = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      data.append(i == 0 ? "" : ", ").append('[').append(random.nextInt(50)).append(", ")
          .append(random.nextInt(50)).append(", 'c").append(random.nextInt(20)).append("', ")
          .append(random.nextInt(30)).append(", ").append(random.nextInt(5) * 0.5).append(']');
    }
    run("?[a, b, c, d, e] <- [" + data + "] :put r {a, b => c, d, e}");
  }

  @Test void aConstantOnTheLeadingColumnIsLookedUpInTheIndex() throws Exception {
    run(R);
    try {
      fill(new Random(7), 200);
      final String query = "?[a, c] := *r{a, c, d: 5}";
      assertFalse(plan(query).contains("JdbcFilter"), plan(query));
      run("::index create r:byd {d}");
      assertTrue(plan(query).contains("JdbcFilter(condition=[=($3, 5)])"), plan(query));
      // *r:byd is the same rows, read through the same index
      assertTrue(plan("?[a] := *r:byd{a, d: 5}").contains("JdbcFilter"));
      // a constant on a column no index leads with is CozoDB's filter only
      assertFalse(plan("?[a] := *r{a, e: 0.5}").contains("JdbcFilter"));
      // the primary key leads an index of the store's too
      assertTrue(plan("?[c] := *r{a: 3, c}").contains("JdbcFilter"), plan("?[c] := *r{a: 3, c}"));
    } finally {
      run("::index drop r:byd");
      run("::remove r");
    }
  }

  /**
   * {@code ::explain} in a script whose earlier blocks made the relation and its index plans
   * against them, as a query in that place would read them (it failed with
   * {@code query::relation_not_found}, where CozoDB explains it).
   */
  @Test void anExplainAfterACreateInTheSameScriptSeesTheRelation() throws Exception {
    try {
      final String explained = run("{:create s {p: Int => q: Int}} {::index create s:byq {q}}"
          + " {::explain { ?[p] := *s{p, q: 3} }}").rows().stream()
          .map(row -> (String) row.get(2)).collect(Collectors.joining("\n"));
      assertTrue(explained.contains("JdbcFilter(condition=[=($1, 3)])"), explained);
    } finally {
      run("::remove s");
    }
  }

  /**
   * A variable that an earlier atom binds from a few rows evaluated before (a constant rule, a
   * rule of an earlier step) is looked up in the index its column leads, a lookup per value;
   * with many values against the table's rows, the hash join reads the whole table.
   */
  @Test void aJoinFromAFewBoundValuesLooksThemUp() throws Exception {
    run(R);
    try {
      fill(new Random(11), 400);
      // a, the key's first column, leads the primary key's index
      final String few = "s[x] <- [[3], [5], [8]]\n?[x, c] := s[x], *r{a: x, c}";
      assertTrue(plan(few).contains("JdbcFilter(condition=[SEARCH($0, Sarg[3, 5, 8])])"),
          plan(few));
      // 60 values are more than an eighth of 400 rows
      final StringBuilder many = new StringBuilder("s[x] <- [");
      for (int i = 0; i < 60; i++) {
        many.append(i == 0 ? "" : ", ").append('[').append(i).append(']');
      }
      many.append("]\n?[x, c] := s[x], *r{a: x, c}");
      assertFalse(plan(many.toString()).contains("JdbcFilter"), plan(many.toString()));
      // d leads no index until r:byd is made
      final String byD = "s[x] <- [[3], [5]]\n?[a, x] := s[x], *r{a, d: x}";
      assertFalse(plan(byD).contains("JdbcFilter"), plan(byD));
      run("::index create r:byd {d}");
      assertTrue(plan(byD).contains("JdbcFilter(condition=[SEARCH($3, Sarg[3, 5])])"),
          plan(byD));
      // a value no lookup finds in an Int column (a string, a null) leaves the hash join
      assertFalse(plan("s[x] <- [[3], ['5']]\n?[a, x] := s[x], *r{a, d: x}")
          .contains("JdbcFilter"));
      assertFalse(plan("s[x] <- [[3], [null]]\n?[a, x] := s[x], *r{a, d: x}")
          .contains("JdbcFilter"));
    } finally {
      run("::index drop r:byd");
      run("::remove r");
    }
  }

  /**
   * On random data, a join whose earlier atoms bind an index's leading column from a few values
   * gives the answer of the same rule with its atoms the other way round (the stored relation
   * first, read whole: no lookup), with and without indices; negation and a rule evaluated by
   * an earlier step included.
   */
  @Test void lookedUpJoinsAnswerAsHashJoins() throws Exception {
    final Random random = new Random(5);
    run(R);
    try {
      fill(random, 400);
      final List<String[]> pairs = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        final StringBuilder values = new StringBuilder();
        for (int k = 0; k < 1 + random.nextInt(20); k++) {
          values.append(k == 0 ? "" : ", ").append('[').append(random.nextInt(50)).append(']');
        }
        final String s = "s[x] <- [" + values + "]\n";
        final String c = "'c" + random.nextInt(20) + "'";
        pairs.add(new String[] {s + "?[x, b, c] := s[x], *r{a: x, b, c}",
            s + "?[x, b, c] := *r{a: x, b, c}, s[x]"});
        pairs.add(new String[] {s + "?[a, x, e] := s[x], *r{a, d: x, e}",
            s + "?[a, x, e] := *r{a, d: x, e}, s[x]"});
        pairs.add(new String[] {s + "?[x, y] := s[x], *r{a: x, b: y}, *r{a: y, c: " + c + "}",
            s + "?[x, y] := *r{a: y, c: " + c + "}, *r{a: x, b: y}, s[x]"});
        pairs.add(new String[] {s + "?[x] := s[x], not *r{a: x, d: 3}",
            s + "?[x] := s[x], x2 = x, not *r{a: x2 + 0, d: 3}"});
        pairs.add(new String[] {"t[x] := *r{a: x, c: " + c + "}\n?[x, d] := t[x], *r{a: x, d}",
            "t[x] := *r{a: x, c: " + c + "}\n?[x, d] := *r{a: x, d}, t[x]"});
      }
      final String lookups = pairs.stream().map(p -> {
        try {
          return plan(p[0]);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }).filter(p -> p.contains("SEARCH")).count() + "";
      assertTrue(Integer.parseInt(lookups) >= pairs.size() / 2, lookups);
      for (int round = 0; round < 2; round++) {
        for (String[] p : pairs) {
          final Engine.Result expected = run(p[1]);
          assertEquals(expected.rows().stream().sorted(Comparator.comparing(Object::toString))
              .toList(), run(p[0]).rows().stream().sorted(Comparator.comparing(
                  Object::toString)).toList(), p[0]);
        }
        if (round == 0) {
          run("::index create r:byd {d}");
          run("::index create r:byc {c, d}");
        }
      }
    } finally {
      run("::index drop r:byd");
      run("::index drop r:byc");
      run("::remove r");
    }
  }

  /**
   * On random data, every query's answer with indices is its answer without: constants of
   * each type, parameters, joins, the index read directly, negation and recursion.
   */
  @Test void answersAreTheAnswersWithoutTheIndex() throws Exception {
    final Random random = new Random(42);
    final List<String> queries = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      final int d = random.nextInt(30);
      final String c = "'c" + random.nextInt(20) + "'";
      queries.add("?[a, b, c] := *r{a, b, c, d: " + d + "}");
      queries.add("?[a, d] := *r{a, c: " + c + ", d}");
      queries.add("?[a, x] := *r{a, d: " + d + "}, *r{a: x, c: " + c + "}");
      queries.add("?[a, b] := *r{a, b, d}, *r{a: b, d}, d < " + d);
      queries.add("?[a] := *r{a, d: " + d + "}, not *r{a, c: " + c + "}");
      queries.add("?[a] := *r{a, d: " + d + ", e: 1.0}");
      queries.add("reach[x, y] := *r{a: x, b: y, d: " + d + "}\n"
          + "reach[x, z] := reach[x, y], *r{a: y, b: z}\n?[count(y)] := reach[x, y]");
    }
    run(R);
    try {
      fill(random, 400);
      final List<Engine.Result> without = new ArrayList<>();
      for (String q : queries) {
        without.add(run(q));
      }
      assertTrue(without.stream().filter(r -> !r.rows().isEmpty()).count() > queries.size() / 2,
          "the random data answers most queries");
      run("::index create r:byd {d}");
      run("::index create r:byc {c, d}");
      for (int i = 0; i < queries.size(); i++) {
        assertEquals(without.get(i), run(queries.get(i)), queries.get(i));
      }
      // an index's rows are its relation's, in the index's column order
      assertEquals(run("?[c, d, a, b] := *r{a, b, c, d}").rows(),
          run("?[c, d, a, b] := *r:byc[c, d, a, b]").rows());
    } finally {
      run("::index drop r:byd");
      run("::index drop r:byc");
      run("::remove r");
    }
  }

  /**
   * Test case for CozoDB 0.7.6's join through an index that leads with a non-key column
   * (issue 17): {@code *r{a, c: 'y', d}} through {@code r:byc {c}} joins the index's key
   * column b with the relation's a, and answers nothing; mnestic answers the row.
   */
  @Test void anIndexOnANonKeyColumnFindsItsRows() throws Exception {
    run(":create r {a: Int, b: Int => c: String, d: Int}");
    try {
      run("?[a, b, c, d] <- [[1, 10, 'x', 7], [2, 20, 'y', 7], [3, 10, 'z', 8]]"
          + " :put r {a, b => c, d}");
      run("::index create r:byc {c}");
      assertEquals(List.of(List.of(2L, 7L)), run("?[a, d] := *r{a, c: 'y', d}").rows());
    } finally {
      run("::index drop r:byc");
      run("::remove r");
    }
  }

  /** A script that fails leaves the index as its relation: both rolled back. */
  @Test void aFailedScriptLeavesTheIndexInStep() throws Exception {
    run(":create f {fr: Int, to: Int => data: Any}");
    try {
      run("?[fr, to, data] <- [[1, 2, 3], [4, 5, 6]] :put f {fr, to => data}");
      run("::index create f:rev {to, data}");
      assertThrows(Exception.class, () -> run("{?[fr, to, data] <- [[7, 8, 9]]"
          + " :put f {fr, to => data}} {?[fr, to] <- [[1, 2]] :rm f {fr, to}}"
          + " {?[x] <- [[1]] :assert none}"));
      final List<List<Object>> rows = List.of(List.of(2L, 3L, 1L), List.of(5L, 6L, 4L));
      assertEquals(rows, run("?[t, d, f] := *f:rev[t, d, f]").rows());
      assertEquals(rows, run("?[t, d, f] := *f:rev{to: t, data: d, fr: f}, t > 0").rows());
      assertEquals(List.of(List.of(1L)), run("?[f] := *f{fr: f, to: 2}").rows());
    } finally {
      run("::index drop f:rev");
      run("::remove f");
    }
  }

  /**
   * {@code ::rename} takes a relation's indices along (CozoDB 0.7.6 leaves them under the old
   * name, where {@code *new:idx} does not find them).
   */
  @Test void renameTakesTheIndicesAlong() throws Exception {
    run(":create g {k: Int => v: Int}");
    run("?[k, v] <- [[1, 10], [2, 20]] :put g {k => v}");
    run("::index create g:byv {v}");
    run("::rename g -> h");
    try {
      assertEquals("[[byv, normal, [h:byv], {\"indices\":[1,0]}]]",
          run("::indices h").rows().toString());
      assertEquals(List.of(List.of(20L, 2L)), run("?[v, k] := *h:byv{v, k}, v = 20").rows());
      assertTrue(plan("?[k] := *h{k, v: 20}").contains("JdbcFilter"));
    } finally {
      run("::index drop h:byv");
      run("::remove h");
    }
  }
}
