package dev.mnestic.datalog;

import dev.mnestic.datalog.conformance.Oracle;
import dev.mnestic.datalog.conformance.RawJson;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * HNSW search atoms against CozoDB's own answers ({@code conformance/queries/hnsw.json}, also
 * run by {@link QueryConformanceTest}): on these small sets every vector is within the search's
 * {@code ef}, so the approximate index's answer is the exact one and must be CozoDB's.
 */
class HnswTest {
  @TestFactory List<DynamicTest> matchesCozoDb() {
    final List<DynamicTest> tests = new ArrayList<>();
    for (RawJson.Node c : Oracle.cases("/conformance/queries/hnsw.json")) {
      tests.add(DynamicTest.dynamicTest(c.get("name").string(),
          () -> QueryConformanceTest.check(c)));
    }
    return tests;
  }
}
