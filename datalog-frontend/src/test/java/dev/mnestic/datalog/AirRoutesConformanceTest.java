package dev.mnestic.datalog;

import dev.mnestic.datalog.conformance.Oracle;
import dev.mnestic.datalog.conformance.RawJson;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * CozoDB's queries on its air-routes dataset (3,504 airports, 50,637
 * routes; CozoDB's own copy, {@code conformance/air-routes/air-routes.json}) give
 * CozoDB's headers and exactly CozoDB's rows. The cases, in
 * {@code conformance/air-routes/queries.json}: {@code tutorial/...}, the
 * queries of CozoDB's tutorial over {@code *airport}, {@code *country},
 * {@code *route} and {@code *contain}; {@code air_routes.rs/...}, those of
 * CozoDB's own tests on the dataset ({@code cozo-core/tests/air_routes.rs}),
 * which add {@code *continent}, disjunction, and recursion with
 * {@code shortest}, {@code min_cost} and {@code choice}.
 *
 * <p>As the oracle recorded them ({@code generate.sh --shared-db}), the cases
 * share one store and run in file order: the first case's setup creates the
 * relations as the tutorial does and imports the dataset, once.
 *
 * <p>A case marked {@code "pending"} (with the reason) must still differ
 * from CozoDB: it is reported as skipped, and fails once it matches, so that
 * the mark is removed.
 *
 * <p>Left out: the tutorial's closing {@code ::access_level read_only ...} (access levels are
 * {@code queries/access-levels.json}'s), and the
 * fixed rules ({@code ShortestPathDijkstra}, {@code KShortestPathYen},
 * {@code ShortestPathAStar}, {@code PageRank}, {@code BetweennessCentrality},
 * {@code CommunityDetectionLouvain}, {@code DFS}, {@code BFS},
 * {@code StronglyConnectedComponents}, {@code ConnectedComponents},
 * {@code DegreeCentrality}, {@code CsvReader}) with the queries over their
 * results: CozoDB's wasm build, the oracle, has none of the algorithms and
 * reads no files (graph-algorithms' tests check them against NetworkX, and
 * {@code GraphRulesTest} as fixed rules over stored relations).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AirRoutesConformanceTest {
  private static final String FILE = "/conformance/air-routes/queries.json";

  private final List<RawJson.Node> cases = Oracle.cases(FILE);
  private QueryConformanceTest.Store store;

  @BeforeAll void openStore() throws Exception {
    store = new QueryConformanceTest.Store();
  }

  @AfterAll void closeStore() throws Exception {
    if (store != null) {
      store.close();
    }
  }

  @TestFactory List<DynamicTest> matchesCozoDb() {
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.get("name").string(), () -> {
      QueryConformanceTest.setUp(c, store.engine());
      if (!c.has("pending")) {
        QueryConformanceTest.check(c, store.engine());
        return;
      }
      try {
        QueryConformanceTest.check(c, store.engine());
      } catch (AssertionError | Exception e) {
        Assumptions.abort("pending: " + c.get("pending").string() + " ("
            + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + ")");
      }
      fail("matches CozoDB now: remove its \"pending\" mark");
    })).toList();
  }

  @Test void expectationsAreStillCozoDbs() {
    Oracle.assertStillCozoDbs(FILE, true);
  }
}
