package dev.mnestic.rel;

import dev.mnestic.runtime.CozoCalls;
import dev.mnestic.runtime.FixpointException;
import dev.mnestic.runtime.RowTable;
import dev.mnestic.runtime.SemiNaive;

import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.tools.FrameworkConfig;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fused join-project-dedup ({@link dev.mnestic.runtime.ProbeChain}) against the plan's
 * generated code ({@link SemiNaive#FUSE} off), on random graphs: the transitive closure, same
 * generation (two probes), Andersen's load rule (a probe of the recursive relation's full
 * table, in both variants), a probe on two columns, and a relation whose values are not all
 * Ints (the generated code runs). Each also with every round split between threads
 * ({@link SemiNaive#THREADS}). The Datalog each plan evaluates is above its builder.
 */
class ProbeChainTest {
  private Connection connection;
  private RelBuilder b;
  private final List<RowTable> tables = new ArrayList<>();
  private RelDataType pair;
  private RelDataType single;

  @BeforeEach void open() throws SQLException {
    connection = DriverManager.getConnection("jdbc:calcite:");
    final FrameworkConfig config = Frameworks.newConfigBuilder()
        .defaultSchema(connection.unwrap(CalciteConnection.class).getRootSchema())
        .build();
    b = RelBuilder.create(config);
    // As a Datalog script's plans: joins in the order of the rule's atoms.
    PlanRules.DATALOG.applyTo(b.getCluster().getPlanner());
    final RelDataType any = b.getTypeFactory().createSqlType(SqlTypeName.ANY);
    pair = b.getTypeFactory().builder().add("a", any).add("b", any).build();
    single = b.getTypeFactory().builder().add("a", any).build();
  }

  @AfterEach void close() throws SQLException {
    connection.close();
  }

  /** A row table; its name is made unique, as the run finds tables by name. */
  private RelOptTable table(String name, RelDataType rowType) {
    final RelOptTable t =
        RowTable.create(b.getRelOptSchema(), name + "$" + tables.size(), rowType);
    tables.add(RowTable.of(t));
    return t;
  }

  /** A fixed table of {@code rows}. */
  private RelOptTable fixed(String name, List<Object[]> rows) {
    final RelOptTable t = table(name, pair);
    RowTable.of(t).rows().addAll(rows);
    RowTable.of(t).fix();
    return t;
  }

  private RelBuilder scan(RelOptTable t) {
    return b.push(LogicalTableScan.create(b.getCluster(), t, List.of()));
  }

  /** {@code count} random pairs of numbers below {@code nodes}, as Ints (Longs). */
  private static List<Object[]> pairs(Random random, int nodes, int count) {
    final List<Object[]> rows = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      rows.add(new Object[] {(long) random.nextInt(nodes), (long) random.nextInt(nodes)});
    }
    return rows;
  }

  /**
   * The closure of {@code edge}, {@code tc[a, c] := edge[a, c]; tc[a, c] := tc[a, b],
   * *edge[b, c]}, in at most {@code bound} rounds: a fresh plan at each {@code get} over one
   * pair of full and delta tables.
   */
  private Supplier<RelNode> closurePlan(RelOptTable edge, int bound) {
    final RelOptTable full = table("tc_full", pair);
    final RelOptTable delta = table("tc_delta", pair);
    return () -> MnesticRelBuilder.recursiveUnion(
        scan(edge).push(scan(delta).push(scan(edge).build())
            .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 1), b.field(2, 1, 0)))
            .project(b.field(0), b.field(3)).build()),
        List.of(full), List.of(delta), bound).build();
  }

  /**
   * The fixpoint's rows with the probe chains and without; checks that every iterative part
   * of the plan is a chain, that both agree, also with every round split between two and
   * three threads ({@link SemiNaive#SPLIT_AT} 0), and with a linear relation's rounds run
   * instead of its searches ({@link SemiNaive#SEARCH} off; the same new tuples each round),
   * and returns them.
   */
  private Set<List<Object>> both(Supplier<RelNode> plan) throws SQLException {
    final EnumerableRel physical = Plans.optimize(plan.get());
    final EnumerableRecursiveUnion union = (EnumerableRecursiveUnion) physical;
    for (RelNode iterative : union.iteratives()) {
      assertNotNull(EnumerableRecursiveUnion.chains(iterative), () -> Plans.explain(physical));
    }
    final List<List<Integer>> searched = new ArrayList<>();
    final Set<List<Object>> fused =
        run(physical, Map.of(SemiNaive.THREADS, 1, SemiNaive.PROGRESS, told(searched)));
    final List<List<Integer>> rounds = new ArrayList<>();
    assertEquals(fused, run(physical, Map.of(SemiNaive.THREADS, 1, SemiNaive.SEARCH, false,
        SemiNaive.PROGRESS, told(rounds))));
    assertEquals(rounds, searched, "round, new tuples");
    assertEquals(run(physical, Map.of(SemiNaive.FUSE, false)), fused);
    for (int threads = 2; threads <= 3; threads++) {
      assertEquals(fused,
          run(physical, Map.of(SemiNaive.THREADS, threads, SemiNaive.SPLIT_AT, 0)),
          threads + " threads");
    }
    return fused;
  }

  /** Progress that notes each round and its new tuples in {@code rounds}. */
  private static SemiNaive.Progress told(List<List<Integer>> rounds) {
    return (round, deltas) -> rounds.add(List.of(round, Arrays.stream(deltas).sum()));
  }

  private Set<List<Object>> run(EnumerableRel physical, Map<String, Object> variables)
      throws SQLException {
    final Set<List<Object>> rows = new HashSet<>();
    for (Object[] row : Plans.run(physical,
        connection.unwrap(CalciteConnection.class).getRootSchema(),
        (JavaTypeFactory) b.getTypeFactory(), tables, variables)) {
      assertTrue(rows.add(Arrays.asList(row)), () -> "duplicate row " + Arrays.toString(row));
    }
    return rows;
  }

  /** {@code tc[a, b] := *edge[a, b]; tc[a, c] := tc[a, b], *edge[b, c]}, against a search. */
  @Test void transitiveClosure() throws SQLException {
    final Random random = new Random(19);
    for (int trial = 0; trial < 15; trial++) {
      final int nodes = 2 + random.nextInt(60);
      final List<Object[]> edges = pairs(random, nodes, random.nextInt(3 * nodes));
      final RelOptTable edge = fixed("edge", edges);
      final Set<List<Object>> tc = both(closurePlan(edge, 10_000));
      assertEquals(closure(edges), tc, "trial " + trial);
    }
  }

  /**
   * The transitive closure of a random graph whose rounds' deltas run to thousands of rows:
   * split from 1,000 rows between two threads (the rounds below serial), against a search and
   * against one thread.
   */
  @Test void bigDeltasSplit() throws SQLException {
    final Random random = new Random(37);
    final List<Object[]> edges = pairs(random, 400, 800);
    final RelOptTable edge = fixed("edge", edges);
    final EnumerableRel physical = Plans.optimize(closurePlan(edge, 10_000).get());
    final List<Integer> split = new ArrayList<>();
    final SemiNaive.Progress rounds = (round, deltas) -> {
      if (deltas[0] >= 1000) {
        split.add(round);
      }
    };
    final Set<List<Object>> two = run(physical,
        Map.of(SemiNaive.THREADS, 2, SemiNaive.SPLIT_AT, 1000, SemiNaive.PROGRESS, rounds));
    assertTrue(split.size() >= 3, "rounds of 1,000 new tuples or more: " + split);
    assertEquals(closure(edges), two);
    assertEquals(run(physical, Map.of(SemiNaive.THREADS, 1)), two);
  }

  /**
   * Linear rules searched per source ({@code dev.mnestic.runtime.Traversal}): {@code tc[a, c] :=
   * tc[a, b], *edge[b, c]} (a passes through), {@code tc[a, c] := *edge[a, b], tc[b, c]} (c
   * passes through), the first with a probe that keeps some sources only ({@code *keep[a, a]},
   * as a magic set does) and with a step of two edges; on random graphs with self-loops and
   * cycles whose ids are dense from 0, dense from a negative start, spread past 32 bits, or
   * too far apart for a bitset (a hash set instead), and on no edges at all; against a search
   * in Java and the rounds ({@link #both}).
   */
  @Test void linearRulesSearchFromEachSource() throws SQLException {
    final Random random = new Random(43);
    for (int trial = 0; trial < 16; trial++) {
      final int nodes = 1 + random.nextInt(70);
      final int kind = trial % 4;
      final List<Object[]> edges = new ArrayList<>();
      for (Object[] e : pairs(random, nodes, trial == 5 ? 0 : random.nextInt(3 * nodes))) {
        edges.add(new Object[] {id(kind, (Long) e[0]), id(kind, (Long) e[1])});
      }
      if (nodes > 2 && trial != 5) {
        // a self-loop and a cycle through it
        edges.add(new Object[] {id(kind, 1), id(kind, 1)});
        edges.add(new Object[] {id(kind, 1), id(kind, 2)});
        edges.add(new Object[] {id(kind, 2), id(kind, 1)});
      }
      final Set<List<Object>> closure = closure(edges);
      final String where = "trial " + trial + ", ids of kind " + kind;
      final RelOptTable edge = fixed("edge", edges);
      // tc[a, c] := tc[a, b], *edge[b, c]
      assertEquals(closure, both(closurePlan(edge, 10_000)), where);
      // tc[a, c] := *edge[a, b], tc[b, c], as the chain delta[b, c], edge[a, b]
      final RelOptTable full2 = table("tc_full", pair);
      final RelOptTable delta2 = table("tc_delta", pair);
      assertEquals(closure, both(() -> MnesticRelBuilder.recursiveUnion(
          scan(edge).push(scan(delta2).push(scan(edge).build())
              .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 0), b.field(2, 1, 1)))
              .project(b.field(2), b.field(1)).build()),
          List.of(full2), List.of(delta2), 10_000).build()), where + ", second column");
      // tc[a, c] := tc[a, b], *keep[a, a], *edge[b, c]; seeded by every edge
      final List<Object[]> keep = new ArrayList<>();
      for (int k = 0; k < nodes; k += 2) {
        keep.add(new Object[] {id(kind, k), id(kind, k)});
      }
      final RelOptTable kept = fixed("keep", keep);
      final RelOptTable full3 = table("tc_full", pair);
      final RelOptTable delta3 = table("tc_delta", pair);
      final Set<List<Object>> filtered = new HashSet<>();
      final Set<Object> keptIds = new HashSet<>();
      keep.forEach(k -> keptIds.add(k[0]));
      closure.stream().filter(p -> keptIds.contains(p.get(0))).forEach(filtered::add);
      edges.forEach(e -> filtered.add(Arrays.asList(e)));
      assertEquals(filtered, both(() -> MnesticRelBuilder.recursiveUnion(
          scan(edge).push(scan(delta3).push(scan(kept).build())
              .join(JoinRelType.INNER, b.and(
                  b.isNotDistinctFrom(b.field(2, 0, 0), b.field(2, 1, 0)),
                  b.isNotDistinctFrom(b.field(2, 0, 0), b.field(2, 1, 1))))
              .push(scan(edge).build())
              .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 1), b.field(2, 1, 0)))
              .project(b.field(0), b.field(5)).build()),
          List.of(full3), List.of(delta3), 10_000).build()), where + ", kept sources");
      // tc[a, d] := tc[a, b], *edge[b, c], *edge[c, d]: the pairs at an odd distance
      final RelOptTable full4 = table("tc_full", pair);
      final RelOptTable delta4 = table("tc_delta", pair);
      both(() -> MnesticRelBuilder.recursiveUnion(
          scan(edge).push(scan(delta4).push(scan(edge).build())
              .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 1), b.field(2, 1, 0)))
              .push(scan(edge).build())
              .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 3), b.field(2, 1, 0)))
              .project(b.field(0), b.field(5)).build()),
          List.of(full4), List.of(delta4), 10_000).build());
    }
  }

  /** Node {@code k}'s id of kind {@code kind}: dense, from -40, dense past 32 bits, far apart. */
  private static long id(int kind, long k) {
    return switch (kind) {
      case 0 -> k;
      case 1 -> k - 40;
      case 2 -> (1L << 33) + k;
      default -> k * 1_000_003_000L - 7;
    };
  }

  /** A search deeper than the bound fails as the rounds do. */
  @Test void aSearchPastTheBoundFailsAsTheRoundsDo() {
    final List<Object[]> edges = new ArrayList<>();
    for (long k = 0; k < 12; k++) {
      edges.add(new Object[] {k, k + 1});
    }
    final RelOptTable edge = fixed("edge", edges);
    final EnumerableRel physical = Plans.optimize(closurePlan(edge, 5).get());
    for (boolean search : List.of(true, false)) {
      final FixpointException e = assertThrows(FixpointException.class,
          () -> run(physical, Map.of(SemiNaive.SEARCH, search)), "search " + search);
      assertEquals(FixpointException.Reason.DIVERGED, e.reason());
      assertEquals(5, e.rounds());
    }
  }

  private static Set<List<Object>> closure(List<Object[]> edges) {
    return Closure.pairs(edges.stream().map(Arrays::asList).toList());
  }

  /**
   * {@code sg[x, y] := *edge[p, x], *edge[p, y]; sg[x, y] := sg[a, b], *edge[a, x],
   * *edge[b, y]}: a delta row probes the edges twice.
   */
  @Test void sameGeneration() throws SQLException {
    final Random random = new Random(23);
    for (int trial = 0; trial < 10; trial++) {
      final int nodes = 2 + random.nextInt(40);
      final RelOptTable edge = fixed("edge", pairs(random, nodes, random.nextInt(2 * nodes)));
      final RelOptTable full = table("sg_full", pair);
      final RelOptTable delta = table("sg_delta", pair);
      both(() -> MnesticRelBuilder.recursiveUnion(
          scan(edge).push(scan(edge).build())
              .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 0), b.field(2, 1, 0)))
              .project(b.field(1), b.field(3))
              .push(scan(delta).push(scan(edge).build())
                  .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 0), b.field(2, 1, 0)))
                  .push(scan(edge).build())
                  .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 1), b.field(2, 1, 0)))
                  .project(b.field(3), b.field(5)).build()),
          List.of(full), List.of(delta), 10_000).build());
    }
  }

  /**
   * Andersen's rules {@code pt[p, a] := *address_of[p, a]}, {@code pt[p, a] := *assign[p, q],
   * pt[q, a]} and {@code pt[p, a] := *load[p, q], pt[q, r], pt[r, a]}, the last once with the
   * delta in each pt atom: chains that probe pt's full table, indexed as it grows.
   */
  @Test void pointsToProbesTheFullTable() throws SQLException {
    final Random random = new Random(29);
    for (int trial = 0; trial < 10; trial++) {
      final int vars = 4 + random.nextInt(60);
      final RelOptTable addressOf = fixed("address_of", pairs(random, vars, vars));
      final RelOptTable assign = fixed("assign", pairs(random, vars, vars / 2));
      final RelOptTable load = fixed("load", pairs(random, vars, 1 + vars / 4));
      final RelOptTable full = table("pt_full", pair);
      final RelOptTable delta = table("pt_delta", pair);
      final Set<List<Object>> pt = both(() -> {
        scan(addressOf);
        // assign[p, q], delta[q, a]
        scan(delta).push(scan(assign).build())
            .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 0), b.field(2, 1, 1)))
            .project(b.field(2), b.field(1));
        // delta[q, r], full[r, a], load[p, q]
        scan(delta).push(scan(full).build())
            .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 1), b.field(2, 1, 0)))
            .push(scan(load).build())
            .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 0), b.field(2, 1, 1)))
            .project(b.field(4), b.field(3));
        // full[q, r], delta[r, a], load[p, q]
        scan(full).push(scan(delta).build())
            .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 1), b.field(2, 1, 0)))
            .push(scan(load).build())
            .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 0), b.field(2, 1, 1)))
            .project(b.field(4), b.field(3));
        b.union(true, 3);
        return MnesticRelBuilder.recursiveUnion(b, List.of(full), List.of(delta), 10_000)
            .build();
      });
      assertTrue(pt.size() >= vars / 2, "trial " + trial + ": " + pt.size());
    }
  }

  /**
   * {@code r[a] := *start[a, a]; r[b] := r[a], *edge[a, b], *also[a, b]}: the last probe looks
   * up one column and checks another.
   */
  @Test void probeOnTwoColumns() throws SQLException {
    final Random random = new Random(31);
    for (int trial = 0; trial < 10; trial++) {
      final int nodes = 3 + random.nextInt(30);
      final RelOptTable edge = fixed("edge", pairs(random, nodes, 3 * nodes));
      final RelOptTable also = fixed("also", pairs(random, nodes, 2 * nodes * nodes / 3));
      final RelOptTable start = fixed("start", List.<Object[]>of(new Object[] {0L, 0L}));
      final RelOptTable full = table("r_full", single);
      final RelOptTable delta = table("r_delta", single);
      both(() -> MnesticRelBuilder.recursiveUnion(
          scan(start).filter(b.isNotDistinctFrom(b.field(0), b.field(1))).project(b.field(0))
              .push(scan(delta).push(scan(edge).build())
                  .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 0), b.field(2, 1, 0)))
                  .push(scan(also).build())
                  .join(JoinRelType.INNER, b.and(
                      b.isNotDistinctFrom(b.field(2, 0, 0), b.field(2, 1, 0)),
                      b.isNotDistinctFrom(b.field(2, 0, 2), b.field(2, 1, 1))))
                  .project(b.field(2)).build()),
          List.of(full), List.of(delta), 10_000).build());
    }
  }

  /**
   * CozoScript's {@code SAME(a, b)} and {@code VALUE(x)} as the front end makes them (dynamic:
   * never folded while planning).
   */
  @SuppressWarnings("deprecation")
  private static SqlUserDefinedFunction cozo(String name, String method, SqlTypeName returns) {
    return new SqlUserDefinedFunction(new SqlIdentifier(name, SqlParserPos.ZERO),
        ReturnTypes.explicit(returns), null, OperandTypes.VARIADIC, null,
        ScalarFunctionImpl.create(CozoCalls.class, method)) {
      @Override public boolean isDynamicFunction() {
        return true;
      }
    };
  }

  /**
   * {@code r[y] := *edge[c, y]; r[y] := r[x], *edge[x, y]}: reachability from a constant, whose
   * seed looks its rows up in the edges' index (a chain too), against a search; a constant no
   * edge starts from derives nothing.
   */
  @Test void aSeedLooksItsConstantUp() throws SQLException {
    final SqlUserDefinedFunction same = cozo("COZO_SAME", "same", SqlTypeName.BOOLEAN);
    final SqlUserDefinedFunction value = cozo("COZO_VALUE", "value", SqlTypeName.ANY);
    final Random random = new Random(41);
    for (int trial = 0; trial < 12; trial++) {
      final int nodes = 2 + random.nextInt(50);
      final List<Object[]> edges = pairs(random, nodes, random.nextInt(3 * nodes));
      edges.sort((x, y) -> Long.compare((Long) x[0], (Long) y[0]));
      final RelOptTable edge = fixed("edge", edges);
      final RelOptTable full = table("r_full", single);
      final RelOptTable delta = table("r_delta", single);
      final long from = random.nextInt(nodes + 2);
      final Supplier<RelNode> plan = () -> MnesticRelBuilder.recursiveUnion(
          scan(edge).filter(b.call(same, b.field(0),
                  b.call(value, b.getRexBuilder().makeBigintLiteral(BigDecimal.valueOf(from)))))
              .project(b.field(1))
              .push(scan(delta).push(scan(edge).build())
                  .join(JoinRelType.INNER, b.isNotDistinctFrom(b.field(2, 0, 0), b.field(2, 1, 0)))
                  .project(b.field(2)).build()),
          List.of(full), List.of(delta), 10_000).build();
      final EnumerableRecursiveUnion union =
          (EnumerableRecursiveUnion) Plans.optimize(plan.get());
      assertNotNull(EnumerableRecursiveUnion.chains(union.seeds().get(0)),
          () -> Plans.explain(union));
      final Set<List<Object>> expected = new HashSet<>();
      closure(edges).stream().filter(p -> p.get(0).equals(from))
          .forEach(p -> expected.add(List.of(p.get(1))));
      assertEquals(expected, both(plan), "trial " + trial);
    }
  }

  /** Values that are not Ints leave the rows unpacked: the generated code runs, same answer. */
  @Test void notIntsRunTheGeneratedCode() throws SQLException {
    final List<Object[]> edges = new ArrayList<>();
    edges.add(new Object[] {"x", 1L});
    edges.add(new Object[] {1L, 2L});
    edges.add(new Object[] {2L, "y"});
    edges.add(new Object[] {2L, 1L});
    final RelOptTable edge = fixed("edge", edges);
    final Set<List<Object>> tc = both(closurePlan(edge, 10_000));
    assertEquals(closure(edges), tc);
  }

  /** A part that computes a value is no chain. */
  @Test void aComputedColumnIsNoChain() {
    final RelOptTable delta = table("n_delta", single);
    final RelNode plus = Plans.optimize(scan(delta)
        .project(b.call(org.apache.calcite.sql.fun.SqlStdOperatorTable.PLUS, b.field(0),
            b.literal(1))).build());
    assertNull(EnumerableRecursiveUnion.chains(plus));
  }
}
