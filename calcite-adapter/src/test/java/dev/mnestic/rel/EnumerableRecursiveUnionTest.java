package dev.mnestic.rel;

import dev.mnestic.runtime.RowTable;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RecursiveUnion}, planned and run through Calcite: plans built with
 * RelBuilder (the Datalog each one evaluates is written above it), results
 * checked against a naive reference computed here.
 */
class EnumerableRecursiveUnionTest {
  private Connection connection;
  private RelBuilder b;

  @BeforeEach void open() throws SQLException {
    connection = DriverManager.getConnection("jdbc:calcite:");
    final FrameworkConfig config = Frameworks.newConfigBuilder()
        .defaultSchema(connection.unwrap(CalciteConnection.class).getRootSchema())
        .build();
    b = RelBuilder.create(config);
    // Plans.optimize plans with the planner of the plan's own cluster.
    b.getCluster().getPlanner().addRule(MnesticRules.ENUMERABLE_RECURSIVE_UNION);
  }

  @AfterEach void close() throws SQLException {
    connection.close();
  }

  /** The row tables the plans under test read. */
  private final List<RowTable> tables = new ArrayList<>();

  /** A row table and a scan factory for it. */
  private final class Transient {
    final RelOptTable table;

    Transient(String name, RelDataType rowType) {
      table = RowTable.create(b.getRelOptSchema(), name, rowType);
      tables.add(RowTable.of(table));
    }

    RelBuilder scan() {
      return b.push(LogicalTableScan.create(b.getCluster(), table, List.of()));
    }
  }

  private RelBuilder edges(List<int[]> edges) {
    return b.values(new String[] {"a", "b"}, flat(edges));
  }

  private static Object[] flat(List<int[]> edges) {
    final Object[] values = new Object[edges.size() * 2];
    for (int i = 0; i < edges.size(); i++) {
      values[2 * i] = edges.get(i)[0];
      values[2 * i + 1] = edges.get(i)[1];
    }
    return values;
  }

  /**
   * <pre>
   * tc[a, b] := edge[a, b]
   * tc[a, c] := tc[a, b], edge[b, c]     # delta(tc) ⋈ edge
   * </pre>
   */
  private Set<List<Integer>> transitiveClosure(List<int[]> edgeList, int maxIterations)
      throws SQLException {
    return transitiveClosure(edgeList, maxIterations, false);
  }

  /** With {@code fixedEdges}, the rounds join a {@link RowTable#fix fixed} row table of the edges. */
  private Set<List<Integer>> transitiveClosure(List<int[]> edgeList, int maxIterations,
      boolean fixedEdges) throws SQLException {
    final RelNode seed = edges(edgeList).build();
    final Transient full = new Transient("tc_full", seed.getRowType());
    final Transient delta = new Transient("tc_delta", seed.getRowType());
    final RelNode edges;
    if (fixedEdges) {
      final Transient fixed = new Transient("edge", seed.getRowType());
      for (int[] e : edgeList) {
        RowTable.of(fixed.table).rows().add(new Object[] {e[0], e[1]});
      }
      RowTable.of(fixed.table).fix();
      edges = fixed.scan().build();
    } else {
      edges = edges(edgeList).build();
    }
    final RelNode iterative = delta.scan()
        .push(edges)
        .join(JoinRelType.INNER,
            b.equals(b.field(2, 0, "b"), b.field(2, 1, "a")))
        .project(b.field(0), b.field(3))
        .build();
    final RelNode plan = MnesticRelBuilder.recursiveUnion(b.push(seed).push(iterative),
        List.of(full.table), List.of(delta.table), maxIterations).build();
    return run(plan);
  }

  private Set<List<Integer>> run(RelNode plan) throws SQLException {
    final Set<List<Integer>> rows = new HashSet<>();
    for (Object[] values : Plans.run(Plans.optimize(plan),
        connection.unwrap(CalciteConnection.class).getRootSchema(),
        (JavaTypeFactory) b.getTypeFactory(), tables, Map.of())) {
      final List<Integer> row = new ArrayList<>();
      for (Object v : values) {
        row.add(((Number) v).intValue());
      }
      assertTrue(rows.add(row), "duplicate row " + row);
    }
    return rows;
  }

  /** The closure computed naively: add edges until nothing changes. */
  private static Set<List<Integer>> naiveClosure(List<int[]> edges) {
    final Set<List<Integer>> tc = new HashSet<>();
    for (int[] e : edges) {
      tc.add(List.of(e[0], e[1]));
    }
    boolean changed = true;
    while (changed) {
      changed = false;
      for (List<Integer> p : new ArrayList<>(tc)) {
        for (int[] e : edges) {
          if (p.get(1) == e[0]) {
            changed |= tc.add(List.of(p.get(0), e[1]));
          }
        }
      }
    }
    return tc;
  }

  @Test void chainClosure() throws SQLException {
    final List<int[]> chain = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      chain.add(new int[] {i, i + 1});
    }
    final Set<List<Integer>> tc = transitiveClosure(chain, 1000);
    assertEquals(101 * 100 / 2, tc.size());
    assertEquals(naiveClosure(chain), tc);
  }

  @Test void randomGraphsMatchTheNaiveClosure() throws SQLException {
    final Random random = new Random(2026);
    for (int trial = 0; trial < 20; trial++) {
      final int nodes = 2 + random.nextInt(15);
      final List<int[]> edges = new ArrayList<>();
      for (int e = random.nextInt(3 * nodes); e >= 0; e--) {
        edges.add(new int[] {random.nextInt(nodes), random.nextInt(nodes)});
      }
      assertEquals(naiveClosure(edges), transitiveClosure(edges, 1000), "trial " + trial);
      assertEquals(naiveClosure(edges), transitiveClosure(edges, 1000, true), "trial " + trial);
    }
  }

  /** A fixed table is read-only and keeps one lookup per key selector across scans. */
  @Test void fixedTableKeepsItsLookups() {
    final Transient t = new Transient("fixed", edges(List.of(new int[] {0, 1})).build().getRowType());
    final RowTable table = RowTable.of(t.table);
    table.rows().add(new Object[] {1, 2});
    table.rows().add(new Object[] {1, 3});
    table.rows().add(new Object[] {2, 3});
    table.fix();
    assertThrows(UnsupportedOperationException.class, () -> table.rows().add(new Object[] {4, 5}));
    final org.apache.calcite.linq4j.function.Function1<Object[], Object> first = row -> row[0];
    final org.apache.calcite.linq4j.function.Function1<Object[], Object> second = row -> row[1];
    final org.apache.calcite.linq4j.Lookup<Object, Object[]> byFirst =
        table.scan(null).toLookup(first);
    assertSame(byFirst, table.scan(null).toLookup(first));
    assertEquals(2, byFirst.get(1).count());
    assertEquals(2, table.scan(null).toLookup(second).get(3).count());
    assertEquals(3, table.scan(null).count());
  }

  /**
   * Mutual recursion, relation 0 is even:
   * <pre>
   * even[n] := n = 0
   * even[m] := odd[n], succ[n, m]
   * odd[m] := even[n], succ[n, m]
   * </pre>
   */
  @Test void mutualRecursion() throws SQLException {
    final List<int[]> succ = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      succ.add(new int[] {i, i + 1});
    }
    final RelNode evenSeed = b.values(new String[] {"n"}, 0).build();
    final RelNode oddSeed = b.values(new String[] {"n"}, 0).filter(b.literal(false)).build();
    final Transient evenFull = new Transient("even_full", evenSeed.getRowType());
    final Transient evenDelta = new Transient("even_delta", evenSeed.getRowType());
    final Transient oddFull = new Transient("odd_full", evenSeed.getRowType());
    final Transient oddDelta = new Transient("odd_delta", evenSeed.getRowType());
    final RelNode evenIterative = oddDelta.scan().push(edges(succ).build())
        .join(JoinRelType.INNER, b.equals(b.field(2, 0, 0), b.field(2, 1, "a")))
        .project(b.field("b")).build();
    final RelNode oddIterative = evenDelta.scan().push(edges(succ).build())
        .join(JoinRelType.INNER, b.equals(b.field(2, 0, 0), b.field(2, 1, "a")))
        .project(b.field("b")).build();
    final RelNode plan = MnesticRelBuilder.recursiveUnion(
        b.push(evenSeed).push(oddSeed).push(evenIterative).push(oddIterative),
        List.of(evenFull.table, oddFull.table), List.of(evenDelta.table, oddDelta.table), 1000)
        .build();
    final Set<Integer> even = new TreeSet<>();
    for (List<Integer> row : run(plan)) {
      even.add(row.get(0));
    }
    final Set<Integer> expected = new TreeSet<>();
    for (int i = 0; i <= 20; i += 2) {
      expected.add(i);
    }
    assertEquals(expected, even);
  }

  /** {@code nat[n] := n = 0; nat[m] := nat[n], m = n + 1} never settles: it stops, failing. */
  @Test void divergenceStopsAtTheIterationLimit() {
    final RelNode seed = b.values(new String[] {"n"}, 0).build();
    final Transient full = new Transient("nat_full", seed.getRowType());
    final Transient delta = new Transient("nat_delta", seed.getRowType());
    final RelNode iterative = delta.scan()
        .project(b.call(org.apache.calcite.sql.fun.SqlStdOperatorTable.PLUS, b.field(0),
            b.literal(1)))
        .build();
    final RelNode plan = MnesticRelBuilder.recursiveUnion(b.push(seed).push(iterative),
        List.of(full.table), List.of(delta.table), 50).build();
    final IllegalStateException e = assertThrows(IllegalStateException.class, () -> run(plan));
    assertTrue(e.getMessage().contains("did not reach a fixpoint after 50 iterations"),
        e.getMessage());
  }
}
