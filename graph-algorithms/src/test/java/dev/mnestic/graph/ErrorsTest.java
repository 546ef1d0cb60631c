package dev.mnestic.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mnestic.value.ErrorCode;
import dev.mnestic.value.ValueException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The rules' names, arities and failures, with CozoDB's error codes and wording. */
class ErrorsTest {
  private static List<Object[]> rows(Object[]... rows) {
    return new ArrayList<>(List.of(rows));
  }

  private static ValueException fails(ErrorCode code, Supplier<?> run) {
    ValueException e = assertThrows(ValueException.class, run::get);
    assertEquals(code, e.errorCode(), e.toString());
    return e;
  }

  @Test
  void everyGraphAlgorithmOfCozoDbIsThereByItsNames() {
    // cozo-core/src/fixed_rule/mod.rs, DEFAULT_FIXED_RULES behind the graph-algo feature
    assertEquals(Set.of("ClusteringCoefficients", "DegreeCentrality", "ClosenessCentrality",
        "BetweennessCentrality", "DepthFirstSearch", "DFS", "BreadthFirstSearch", "BFS",
        "ShortestPathBFS", "ShortestPathDijkstra", "ShortestPathAStar", "KShortestPathYen",
        "MinimumSpanningTreePrim", "MinimumSpanningForestKruskal", "TopSort",
        "ConnectedComponents", "StronglyConnectedComponents", "SCC", "PageRank",
        "CommunityDetectionLouvain", "LabelPropagation", "RandomWalk"),
        GraphAlgorithms.BUILT_IN.keySet());
    assertEquals(GraphAlgorithms.BUILT_IN.get("SCC"),
        GraphAlgorithms.BUILT_IN.get("StronglyConnectedComponents"));
  }

  @Test
  void anEdgeNeedsTwoValues() {
    ValueException e = fails(ErrorCode.ALGO_NOT_AN_EDGE,
        () -> Fixture.of("PageRank").input(rows(new Object[] {1L})).run());
    assertEquals("The relation cannot be interpreted as an edge", e.getMessage());
    fails(ErrorCode.ALGO_INPUT_RELATION_BAD_ARITY,
        () -> Fixture.of("DegreeCentrality").input(rows(new Object[] {1L})).run());
  }

  @Test
  void weightsMustBeFiniteNumbersAndNotNegativeForShortestPaths() {
    ValueException e = fails(ErrorCode.ALGO_INVALID_EDGE_WEIGHT,
        () -> Fixture.of("ShortestPathDijkstra")
            .input(rows(new Object[] {1L, 2L, -1.5}))
            .nodes(List.of(1L))
            .run());
    assertEquals("The value -1.5 at the third position in the relation cannot be interpreted as"
        + " edge weights", e.getMessage());
    fails(ErrorCode.ALGO_INVALID_EDGE_WEIGHT,
        () -> Fixture.of("BetweennessCentrality")
            .input(rows(new Object[] {1L, 2L, "heavy"})).run());
    fails(ErrorCode.ALGO_INVALID_EDGE_WEIGHT,
        () -> Fixture.of("MinimumSpanningForestKruskal")
            .input(rows(new Object[] {1L, 2L, Double.POSITIVE_INFINITY})).run());
    // spanning trees and label propagation take negative weights
    assertEquals(1, Fixture.of("MinimumSpanningForestKruskal")
        .input(rows(new Object[] {1L, 2L, -3L})).run().size());
  }

  @Test
  void nodesMissingFromTheNodesRelationAreNamed() {
    List<Object[]> edges = rows(new Object[] {"a", "b"});
    ValueException e = fails(ErrorCode.ALGO_NODE_WITH_KEY_NOT_FOUND,
        () -> Fixture.of("DFS")
            .input(edges)
            .input(List.of("n", "x"), 2, rows(new Object[] {"a", 1L}))
            .option("condition", new Fixture.Expr(Set.of("x"), v -> false))
            .run());
    assertEquals("Required node with key \"b\" not found", e.getMessage());
    fails(ErrorCode.ALGO_NODE_WITH_KEY_NOT_FOUND,
        () -> Fixture.of("RandomWalk")
            .input(edges)
            .input(List.of("n"), 1, rows(new Object[] {"a"}))
            .nodes(List.of("a"))
            .option("steps", 3L)
            .run());
    fails(ErrorCode.ALGO_NODE_WITH_KEY_NOT_FOUND,
        () -> Fixture.of("ShortestPathAStar")
            .input(edges)
            .input(List.of("n"), 1, rows(new Object[] {"a"}))
            .nodes(List.of("a"))
            .nodes(List.of("b"))
            .option("heuristic", new Fixture.Expr(Set.of(), v -> 0L))
            .run());
  }

  @Test
  void optionsOfTheWrongKindFail() {
    List<Object[]> edges = rows(new Object[] {1L, 2L});
    ValueException e = fails(ErrorCode.FIXED_RULE_ARG_WRONG,
        () -> Fixture.of("KShortestPathYen").input(edges).nodes(List.of(1L))
            .nodes(List.of(2L)).option("k", 0L).run());
    assertEquals("a positive integer is required", e.help());
    fails(ErrorCode.FIXED_RULE_ARG_WRONG,
        () -> Fixture.of("PageRank").input(edges).option("theta", 1.5).run());
    fails(ErrorCode.FIXED_RULE_ARG_WRONG,
        () -> Fixture.of("ClosenessCentrality").input(edges).option("undirected", "yes").run());
    fails(ErrorCode.FIXED_RULE_ARG_WRONG,
        () -> Fixture.of("CommunityDetectionLouvain").input(edges).option("max_iter", 2.5).run());
    // CozoDB ignores a keep_depth it cannot read
    assertEquals(2, Fixture.of("CommunityDetectionLouvain").input(edges)
        .option("keep_depth", -1L).run().size());
    fails(ErrorCode.ALGO_UNACCEPTABLE_VALUE,
        () -> Fixture.of("ShortestPathAStar")
            .input(edges)
            .input(List.of("n"), 1, rows(new Object[] {1L}, new Object[] {2L}))
            .nodes(List.of(1L))
            .nodes(List.of(2L))
            .option("heuristic", new Fixture.Expr(Set.of(), v -> "far"))
            .run());
    fails(ErrorCode.EVAL_PREDICATE_NOT_BOOL,
        () -> Fixture.of("BFS")
            .input(edges)
            .nodes(List.of(1L, 2L))
            .option("condition", new Fixture.Expr(Set.of(), v -> 1L))
            .run());
  }

  @Test
  void primNeedsAStartingNodeOfTheGraph() {
    List<Object[]> edges = rows(new Object[] {1L, 2L, 1.0});
    fails(ErrorCode.ALGO_EMPTY_STARTING,
        () -> Fixture.of("MinimumSpanningTreePrim").input(edges).input(rows()).run());
    fails(ErrorCode.ALGO_STARTING_NODE_NOT_FOUND,
        () -> Fixture.of("MinimumSpanningTreePrim").input(edges).nodes(List.of(3L)).run());
  }

  /** A statement stopped while its algorithm runs: each long loop checks. */
  @Test
  void longWorkStopsWhenItsStatementIsStopped() {
    class Stopped extends RuntimeException {}
    List<Object[]> ring = new ArrayList<>();
    List<Object[]> chain = new ArrayList<>();
    for (long i = 0; i < 6000; i++) {
      ring.add(new Object[] {i, (i + 1) % 6000, 1.0});
      ring.add(new Object[] {i, (i + 7) % 6000, 2.0});
      chain.add(new Object[] {i, i + 1});
    }
    List<Supplier<Fixture>> fixtures = List.of(
        () -> Fixture.of("BetweennessCentrality").input(ring),
        () -> Fixture.of("ClosenessCentrality").input(ring),
        () -> Fixture.of("ClusteringCoefficients").input(ring),
        () -> Fixture.of("DegreeCentrality").input(ring),
        () -> Fixture.of("ShortestPathDijkstra").input(ring).nodes(List.of(0L)),
        () -> Fixture.of("KShortestPathYen").input(ring).nodes(List.of(0L)).nodes(List.of(5999L))
            .option("k", 3L),
        () -> Fixture.of("PageRank").input(ring),
        () -> Fixture.of("CommunityDetectionLouvain").input(ring),
        () -> Fixture.of("LabelPropagation").input(ring),
        () -> Fixture.of("SCC").input(ring),
        () -> Fixture.of("TopSort").input(chain),
        () -> Fixture.of("MinimumSpanningForestKruskal").input(ring),
        () -> Fixture.of("MinimumSpanningTreePrim").input(ring),
        () -> Fixture.of("ShortestPathBFS").input(ring).nodes(List.of(0L)).nodes(List.of(-1L)),
        () -> Fixture.of("BFS").input(ring).nodes(List.of(0L))
            .option("condition", new Fixture.Expr(Set.of(), v -> false)),
        () -> Fixture.of("DFS").input(ring).nodes(List.of(0L))
            .option("condition", new Fixture.Expr(Set.of(), v -> false)),
        () -> Fixture.of("RandomWalk").input(ring)
            .nodes(ring.stream().map(e -> e[0]).distinct().collect(Collectors.toList()))
            .nodes(List.of(0L))
            .option("steps", 10000L));
    for (Supplier<Fixture> f : fixtures) {
      Fixture fixture = f.get().stoppedBy(() -> {
        throw new Stopped();
      });
      assertThrows(Stopped.class, fixture::run, fixture.name());
    }
  }
}
