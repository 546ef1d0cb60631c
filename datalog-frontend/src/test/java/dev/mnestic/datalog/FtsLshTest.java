package dev.mnestic.datalog;

import dev.mnestic.datalog.conformance.Oracle;
import dev.mnestic.datalog.conformance.RawJson;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Full-text and MinHash-LSH search against CozoDB's own answers ({@code
 * conformance/queries/fts-lsh.json}, also run by {@link QueryConformanceTest}). The LSH cases
 * use only inputs whose answer does not hang on CozoDB's random seeds.
 */
class FtsLshTest {
  @TestFactory List<DynamicTest> matchesCozoDb() {
    final List<DynamicTest> tests = new ArrayList<>();
    for (RawJson.Node c : Oracle.cases("/conformance/queries/fts-lsh.json")) {
      tests.add(DynamicTest.dynamicTest(c.get("name").string(),
          () -> QueryConformanceTest.check(c)));
    }
    return tests;
  }
}
