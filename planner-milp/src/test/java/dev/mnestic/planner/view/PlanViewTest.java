package dev.mnestic.planner.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code mnestic plan}: the viewer's three outputs for the spec's example, and its errors. */
class PlanViewTest {
  @TempDir Path dir;

  @Test void textShowsMemoEdgesPrunedAndThePlan() throws Exception {
    final String text = run(0, example(), "--memo", "--output", "text");
    assertTrue(text.contains("G2 state(KLL, latency, 1m)"), text);
    assertTrue(text.contains("rank error does not bound relative error (metric rule)"));
    assertTrue(text.contains("stage 2: G"));
    assertTrue(text.contains("a result computed at ingest is read at a later evaluation"));
    assertTrue(text.matches("(?s).*stage 3: OPTIMAL, \\d+ variables, \\d+ constraints, \\d+ ms.*"));
    // Proven: the lower bound shown is the plan's cost, within what a proof allows (10^-5).
    final String bound = text.replaceAll("(?s).*\\n  lower bound (\\S+) .*", "$1");
    final String cost = text.replaceAll("(?s).*\\ncost (\\S+), without sharing.*", "$1");
    assertEquals(Double.parseDouble(cost), Double.parseDouble(bound), 1e-5 * Double.parseDouble(cost), text);
    // The chosen plan: a KLL k=345 for A, one DDSketch α=0.02 for B.
    assertTrue(text.matches("(?s).*\\n  v\\d+ G\\d+ Build\\[family=KLL\\] \\{k=345, direct\\}.*"), text);
    assertTrue(text.matches("(?s).*\\n  v\\d+ G\\d+ Build\\[family=DDSKETCH\\] \\{α=0.02, direct\\}.*"), text);
    // Who reads which summary: A the KLL, B (both operands) the one DDSketch.
    final String readers = text.substring(text.indexOf("summaries and the queries reading them\n"));
    assertTrue(readers.matches("(?s).*\\n  v\\d+ Build\\[family=KLL\\] \\{k=345, direct\\} @ [^\\n]*: A\\n.*"), readers);
    assertTrue(readers.matches("(?s).*\\n  v\\d+ Build\\[family=DDSKETCH\\] \\{α=0.02, direct\\} @ [^\\n]*: B\\n.*"), readers);
  }

  /** By default: the memo's size and the chosen plan, not the memo itself. */
  @Test void defaultIsTheChosenPlanAndASummary() throws Exception {
    final String text = run(0, example());
    assertTrue(text.matches("memo: \\d+ groups, \\d+ logical candidates, \\d+ physical candidates, "
        + "\\d+ edges \\(\\d+ feasible\\)\\n(?s).*"), text);
    assertTrue(text.contains("\nchosen plan\n"), text);
    assertTrue(text.matches("(?s).*\\ncost \\S+, without sharing \\S+\\n"), text);
    assertFalse(text.contains("G2 state(KLL, latency, 1m)"), text);
    assertFalse(text.contains("\npruned\n"), text);
    final String memo = run(0, example(), "--memo");
    assertTrue(memo.endsWith(text.substring(text.indexOf("chosen plan\n"))), memo);
    assertTrue(memo.lines().count() > 3 * text.lines().count(), memo);
    assertTrue(run(0, example(), "--help").startsWith("usage: mnestic plan WORKLOAD [--memo]"));
  }

  @Test void jsonCarriesTheSameAndCostsCompare() throws Exception {
    final JsonNode json = new ObjectMapper().readTree(run(0, example(), "--output", "json"));
    final double cost = json.get("cost").asDouble();
    final double alone = json.get("costWithoutSharing").asDouble();
    assertTrue(cost > 0 && cost < alone, cost + " vs " + alone);
    assertEquals("OPTIMAL", json.get("milp").get("status").asText());
    int chosen = 0;
    double sum = 0;
    for (JsonNode g : json.get("groups")) {
      for (JsonNode c : g.get("candidates")) {
        if (c.get("chosen").asBoolean()) {
          chosen++;
          sum += c.get("weight").asDouble();
        }
      }
    }
    assertEquals(cost, sum, 1e-4 * cost);
    int rejected = 0;
    for (JsonNode e : json.get("edges")) {
      if (!e.get("alphaLog").isNull()) {
        rejected++;
      }
    }
    assertTrue(chosen >= 9 && rejected > 0);
  }

  @Test void dotDrawsTheChosenDag() throws Exception {
    final String dot = run(0, example(), "--output", "dot");
    assertTrue(dot.startsWith("digraph plan {"));
    assertTrue(dot.contains("Answer[query=A"));
    assertEquals(9, dot.lines().filter(l -> l.contains(" -> ")).count(), dot);
  }

  /** Every workload of examples/ plans to optimality, cheaper than without sharing. */
  @Test void examplesPlan() throws Exception {
    try (var files = Files.list(Path.of("../examples/workloads"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".workload")).toList()) {
        final JsonNode json = new ObjectMapper().readTree(run(0, file, "--output", "json"));
        assertEquals("OPTIMAL", json.get("milp").get("status").asText(), file.toString());
        assertTrue(json.get("cost").asDouble() < json.get("costWithoutSharing").asDouble(), file.toString());
      }
    }
  }

  @Test void errorsNameFileLineAndColumn() throws Exception {
    final Path bad = dir.resolve("bad.workload");
    Files.writeString(bad, "metric m from t(ts, v) rate 10/s\nA: quantile_over_time(0.9, m[1m]) rank error 0.01 every 1m retain\n");
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(1, PlanCommand.run(new String[] {bad.toString()}, new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
    assertEquals(bad + ":2:66: expected a retention, found the end of the line\n", err.toString(StandardCharsets.UTF_8));
    assertEquals(2, PlanCommand.run(new String[] {example().toString(), "--output", "svg"},
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream())));
    assertEquals(2, PlanCommand.run(new String[] {}, new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(new ByteArrayOutputStream())));
  }

  private Path example() throws Exception {
    final Path p = dir.resolve("example.workload");
    try (var in = getClass().getResourceAsStream("/spec-example.workload")) {
      Files.write(p, in.readAllBytes());
    }
    return p;
  }

  private static String run(int status, Path file, String... options) {
    final String[] args = new String[options.length + 1];
    args[0] = file.toString();
    System.arraycopy(options, 0, args, 1, options.length);
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(status, PlanCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)), err.toString(StandardCharsets.UTF_8));
    return out.toString(StandardCharsets.UTF_8);
  }
}
