package dev.mnestic.datalog.eval;

import dev.mnestic.datalog.DatalogException;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.ast.Script;
import dev.mnestic.datalog.parse.Parser;
import dev.mnestic.value.Values;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

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
  private static final Path COZO = Path.of("src/test/cozo");

  private static List<RawJson.Node> cases() throws IOException {
    try (InputStream in = FunctionConformanceTest.class.getResourceAsStream(CASES)) {
      return RawJson.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)).items();
    }
  }

  @TestFactory List<DynamicTest> matchesCozoDb() throws IOException {
    final List<DynamicTest> tests = new ArrayList<>();
    for (RawJson.Node c : cases()) {
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
      final List<List<Object>> rows = ConstantRules.rows(entry, params(c));
      assertEquals(expected.get("rows").text(), Values.toJson(rows), "rows of " + script);
      return;
    }
    final DatalogException e = assertThrows(DatalogException.class,
        () -> ConstantRules.rows(entryRule(script), params(c)), script);
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

  private static Map<String, Object> params(RawJson.Node c) {
    final Map<String, Object> params = new HashMap<>();
    if (c.has("params")) {
      final RawJson.Node p = RawJson.parse(c.get("params").string());
      @SuppressWarnings("unchecked")
      final Map<String, RawJson.Node> m = (Map<String, RawJson.Node>) p.value();
      m.forEach((k, v) -> params.put(k, v.toValue()));
    }
    return params;
  }

  /**
   * Runs every case through CozoDB again ({@code node cozo-run.mjs --batch})
   * and checks that the recorded expectations are still CozoDB's answers.
   * Skipped without {@code node}, or when the oracle is not installed and
   * {@code npm ci} cannot install it.
   */
  @Test void expectationsAreStillCozoDbs() throws Exception {
    Assumptions.assumeTrue(run(List.of("node", "--version"), null, 30) != null, "node is not on PATH");
    if (!Files.isDirectory(COZO.resolve("node_modules/cozo-lib-wasm"))) {
      Assumptions.assumeTrue(run(List.of("npm", "ci", "--no-audit", "--no-fund"), null, 300) != null,
          "the CozoDB oracle is not installed and `npm ci` in " + COZO + " failed");
    }
    final List<RawJson.Node> cases = cases();
    final StringBuilder input = new StringBuilder("[");
    for (RawJson.Node c : cases) {
      input.append(input.length() > 1 ? "," : "").append("{\"name\":").append(c.get("name").text())
          .append(",\"script\":").append(c.get("script").text());
      if (c.has("params")) {
        input.append(",\"params\":").append(c.get("params").text());
      }
      input.append('}');
    }
    final String out = run(List.of("node", "cozo-run.mjs", "--batch"), input.append(']').toString(), 300);
    assertTrue(out != null, "cozo-run.mjs failed");
    final List<String> lines = new ArrayList<>();
    for (String line : out.split("\n")) {
      if (line.startsWith("{")) {
        lines.add(line.endsWith(",") ? line.substring(0, line.length() - 1) : line);
      }
    }
    assertEquals(cases.size(), lines.size());
    final List<String> changed = new ArrayList<>();
    for (int k = 0; k < cases.size(); k++) {
      final RawJson.Node c = cases.get(k);
      final String prefix = "{\"name\":" + c.get("name").text() + ",";
      assertTrue(lines.get(k).startsWith(prefix), lines.get(k));
      // generate.sh's transformation: CozoDB's object without the name and the rendered "display"
      final String actual = ("{" + lines.get(k).substring(prefix.length()))
          .replaceFirst(",\"display\":\"(?:[^\"\\\\]|\\\\.)*\"", "");
      if (!c.get("expected").text().equals(actual)) {
        changed.add(c.get("name").string() + ": recorded " + c.get("expected").text()
            + "\n    CozoDB now " + actual);
      }
    }
    assertTrue(changed.isEmpty(), "run conformance/generate.sh functions/cases.json? CozoDB's answers differ:\n  "
        + String.join("\n  ", changed));
  }

  /** Runs a command in the oracle's folder; its stdout, or null if it could not run or failed. */
  private static String run(List<String> command, String stdin, int timeoutSeconds) {
    try {
      final Process p = new ProcessBuilder(command).directory(COZO.toFile())
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      final CompletableFuture<byte[]> stdout = CompletableFuture.supplyAsync(() -> {
        try (InputStream in = p.getInputStream()) {
          return in.readAllBytes();
        } catch (IOException e) {
          return new byte[0];
        }
      });
      try (OutputStream os = p.getOutputStream()) {
        if (stdin != null) {
          os.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
      }
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      return p.exitValue() == 0 ? new String(stdout.get(), StandardCharsets.UTF_8) : null;
    } catch (IOException | InterruptedException | ExecutionException e) {
      return null;
    }
  }
}
