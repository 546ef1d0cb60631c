package dev.mnestic.datalog.analysis;

import dev.mnestic.datalog.conformance.Oracle;
import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.ast.Script;
import dev.mnestic.datalog.parse.Parser;
import dev.mnestic.value.HostAggregations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stratification against CozoDB: each case of
 * {@code conformance/stratify/cases.json} (expectations recorded from
 * CozoDB by {@code conformance/generate.sh}, and re-checked against CozoDB
 * here) stratifies, or fails with CozoDB's code, message and help.
 */
class StratifierTest {
  private static final String CASES = "/conformance/stratify/cases.json";

  /** The built-in aggregations that may run inside their own recursion. */
  private static final Predicate<String> MEET = HostAggregations.NONE::isMeet;

  @TestFactory List<DynamicTest> matchesCozoDb() throws IOException {
    final List<DynamicTest> tests = new ArrayList<>();
    try (InputStream in = getClass().getResourceAsStream(CASES)) {
      for (JsonNode c : new ObjectMapper().readTree(in)) {
        tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> check(c)));
      }
    }
    return tests;
  }

  private static void check(JsonNode c) {
    final Script.Query q = Parser.parse(c.get("script").asText()).queries().get(0);
    final JsonNode expected = c.get("expected");
    if (expected.get("ok").asBoolean()) {
      Stratifier.stratify(q.rules(), MEET);
      return;
    }
    final DatalogException e = assertThrows(DatalogException.class,
        () -> Stratifier.stratify(q.rules(), MEET));
    assertEquals(expected.get("code").asText(), e.code());
    assertEquals(expected.get("message").asText(), e.getMessage());
    assertEquals(expected.has("help") ? expected.get("help").asText() : null, e.help());
  }

  @Test void expectationsAreStillCozoDbs() {
    Oracle.assertStillCozoDbs(CASES);
  }

  @Test void componentsComeDependenciesFirst() {
    final Script.Query q = Parser.parse("""
        e[a, b] <- [[1, 2], [2, 3]]
        reach[a, b] := e[a, b]
        reach[a, c] := reach[a, b], e[b, c]
        odd[a] := reach[a, _], not even[a]
        even[a] := a in [2]
        ?[a] := odd[a]
        unused[a] := unused[a]
        """).queries().get(0);
    final List<List<String>> order = Stratifier.stratify(q.rules(), MEET);
    assertEquals(5, order.size(), "unused is not reachable: " + order);
    assertEquals(List.of("?"), order.get(order.size() - 1));
    final int odd = order.indexOf(List.of("odd"));
    final int even = order.indexOf(List.of("even"));
    final int reach = order.indexOf(List.of("reach"));
    final int e = order.indexOf(List.of("e"));
    assertTrue(e < reach && reach < odd && even < odd, order.toString());
  }
}
