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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * CozoDB's tutorial on its air-routes dataset (3,504 airports, 50,637 routes;
 * {@code ../shared/data/air-routes/} beside the repository): the tutorial's
 * queries over {@code *airport}, {@code *country}, {@code *route} and
 * {@code *contain}, in {@code conformance/air-routes/tutorial.json}, give
 * CozoDB's headers and exactly CozoDB's rows.
 *
 * <p>As the oracle recorded them ({@code generate.sh --shared-db}), the cases
 * share one store and run in file order: the first case's setup creates the
 * relations as the tutorial does and imports the dataset, once.
 *
 * <p>Left out of the tutorial: {@code ::access_level} (mnestic has no access
 * levels), and the fixed rules ({@code ShortestPathDijkstra},
 * {@code KShortestPathYen}, {@code ShortestPathAStar}, {@code PageRank},
 * {@code BetweennessCentrality}, {@code CommunityDetectionLouvain},
 * {@code CsvReader}) with the queries over their results: CozoDB's wasm
 * build, the oracle, has none of the algorithms and reads no files, and
 * mnestic has no fixed rules.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AirRoutesTutorialTest {
  private static final String FILE = "/conformance/air-routes/tutorial.json";

  private final List<RawJson.Node> cases = Oracle.cases(FILE);
  private QueryConformanceTest.Store store;

  @BeforeAll void openStore() throws Exception {
    for (RawJson.Node c : cases) {
      if (c.has("setup")) {
        for (RawJson.Node step : c.get("setup").items()) {
          if (step.has("import")) {
            final Path data = Oracle.importFile(step.get("import").string());
            Assumptions.assumeTrue(Files.exists(data), "no air-routes dataset at " + data.toAbsolutePath());
          }
        }
      }
    }
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
      QueryConformanceTest.check(c, store.engine());
    })).toList();
  }

  @Test void expectationsAreStillCozoDbs() {
    Oracle.assertStillCozoDbs(FILE, true);
  }
}
