package dev.mnestic.datalog.eval;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.ast.Script;
import dev.mnestic.datalog.conformance.Oracle;
import dev.mnestic.datalog.conformance.RawJson;
import dev.mnestic.datalog.parse.Parser;
import dev.mnestic.value.Values;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CozoDB's functions against CozoDB. Each case of
 * {@code conformance/functions/cases.json} is a constant rule such as
 * {@code ?[a, b] <- [[1 < 1.0, [1, 'a'] < [1, 'b']]]} with CozoDB's own
 * result object as {@code expected}. A case passes when mnestic, parsing
 * the script and evaluating the entry rule with {@link ConstantRules},
 * gives CozoDB's headers and exactly CozoDB's JSON text for the rows (so
 * {@code 1} and {@code 1.0}, {@code 1e16} and {@code -0.0} must come out as
 * CozoDB writes them), or fails with CozoDB's code, message and help.
 *
 * <p>To add a case, append {@code {"name", "script"}} (and {@code "params"},
 * the raw JSON text of the parameters) to {@code cases.json} and run
 * {@code conformance/generate.sh} (run on cases.json), which records CozoDB's answers.
 * {@link #expectationsAreStillCozoDbs()} re-runs CozoDB when it can.
 */
class FunctionConformanceTest {
  private static final String CASES = "/conformance/functions/cases.json";


  @TestFactory List<DynamicTest> matchesCozoDb() throws IOException {
    final List<DynamicTest> tests = new ArrayList<>();
    for (RawJson.Node c : Oracle.cases(CASES)) {
      tests.add(DynamicTest.dynamicTest(c.get("name").string(), () -> check(c)));
    }
    assertTrue(tests.size() >= 80, "cases: " + tests.size());
    return tests;
  }

  private static void check(RawJson.Node c) {
    final String script = c.get("script").string();
    final RawJson.Node expected = c.get("expected");
    if (expected.get("ok").value() == Boolean.TRUE) {
      final Rule entry = entryRule(script);
      final List<String> headers = new ArrayList<>();
      entry.head().forEach(h -> headers.add(h.var().name()));
      assertEquals(expected.get("headers").text(), Values.toJson(headers), "headers of " + script);
      final List<List<Object>> rows = ConstantRules.rows(entry, Oracle.params(c));
      assertEquals(expected.get("rows").text(), Values.toJson(rows), "rows of " + script);
      return;
    }
    final DatalogException e = assertThrows(DatalogException.class,
        () -> ConstantRules.rows(entryRule(script), Oracle.params(c)), script);
    assertEquals(expected.get("code").string(), e.code(), script);
    assertEquals(expected.get("message").string(), e.getMessage(), script);
    assertEquals(expected.has("help") ? expected.get("help").string() : null, e.help(), script);
  }

  private static Rule entryRule(String script) {
    final Script.Query q = Parser.parse(script).queries().get(0);
    for (Rule r : q.rules()) {
      if (r.name().equals(Rule.ENTRY)) {
        assertEquals(Rule.Kind.CONSTANT, r.kind(), script);
        return r;
      }
    }
    throw new AssertionError("no entry rule in " + script);
  }


  @Test void expectationsAreStillCozoDbs() {
    Oracle.assertStillCozoDbs(CASES);
  }
}
