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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
    // Below "chosen plan" nothing depends on the time planning took.
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

  /**
   * The dot output is a well-formed graph (checked statement by statement, as CI has no
   * Graphviz): the chosen DAG, each node labelled with its ε and δ, in a cluster per part
   * labelled with the MILP solved; Stage 2's and Stage 3's pruned candidates as dashed nodes;
   * the graph labelled with the cost and the bound.
   */
  @Test void dotDrawsTheChosenDag() throws Exception {
    final String dot = run(0, example(), "--output", "dot");
    assertTrue(dot.startsWith("digraph plan {"));
    assertTrue(dot.contains("Answer[query=A"));
    assertEquals(9, dot.lines().filter(l -> l.contains(" -> ")).count(), dot);
    final Set<String> nodes = new HashSet<>();
    int depth = 0;
    int clusters = 0;
    int pruned = 0;
    int stage3 = 0;
    for (String l : dot.lines().toList()) {
      final String t = l.trim();
      if (t.equals("}")) {
        depth--;
        continue;
      }
      assertTrue(depth >= 0 && (depth > 0 || t.startsWith("digraph")), l);
      if (t.startsWith("digraph ") || t.startsWith("subgraph ")) {
        assertTrue(t.matches("(digraph plan|subgraph cluster_(part\\d+|pruned)) \\{"), l);
        clusters += t.startsWith("subgraph cluster_part") ? 1 : 0;
        depth++;
      } else if (t.matches("v\\d+ -> v\\d+ \\[label=\"\\d\"\\];")) {
        for (String end : t.replaceAll(" \\[.*", "").split(" -> ")) {
          assertTrue(nodes.contains(end), "undeclared " + end + " in " + l);
        }
      } else if (t.matches("[vp]\\d+ \\[label=" + QUOTED + "(, shape=ellipse)?\\];")) {
        nodes.add(t.replaceAll(" .*", ""));
        pruned += t.startsWith("p") ? 1 : 0;
        if (t.startsWith("v")) {
          assertTrue(t.matches(".*\\\\n(exact|\\w+ error ε=\\S+ δ=\\S+)\".*"), l);
        }
        if (t.matches("p\\d+ \\[label=\"stage 3 .*")) {
          // a candidate Stage 3 set aside: the ε and δ its θ fixes, last
          assertTrue(t.matches(".*\\\\n(\\[(exact|.+ ε=\\S+ δ=\\S+)\\]|ε, δ from its inputs)\"\\];"), l);
          stage3++;
        }
      } else {
        assertTrue(t.matches("rankdir=BT;|node \\[(shape=box|style=dashed)\\];|label=" + QUOTED + ";"), l);
      }
    }
    assertEquals(0, depth, dot);
    assertEquals(1, clusters, dot);
    assertTrue(dot.contains("label=\"part 0 (2 queries: A, B): proven by "), dot);
    assertTrue(dot.matches("(?s).*\\n  label=\"cost \\S+, without sharing \\S+; OPTIMAL, bound \\S+, \\d+ variables, "
        + "\\d+ constraints\";\\n}\\n"), dot);
    final JsonNode json = new ObjectMapper().readTree(run(0, example(), "--output", "json"));
    assertEquals(json.get("pruned").size(), pruned);
    int cut = 0;
    for (JsonNode p : json.get("pruned")) {
      cut += p.has("candidate") ? 1 : 0;
    }
    assertTrue(cut > 0);
    assertEquals(cut, stage3, dot);
  }

  /**
   * Test case for #16, point 7: the text says it all: the phases of the search, each chosen
   * candidate's ε and δ (a readout's its state's, an answer's within its query's target), the
   * MILP solved per part and its proven bound, and how many candidates each stage pruned; with
   * {@code --memo} the ε and δ each θ fixes and every pruned candidate of Stage 3 with why.
   */
  @Test void textShowsLevelsPartsAndEveryStagesPruning() throws Exception {
    final String text = run(0, example());
    assertTrue(text.matches("(?s).*\\nphases: plan space \\d+ ms, split into parts \\d+ ms, grown plans \\d+ ms, "
        + "local search \\d+ ms, pruning \\d+ ms, Lagrangian bounds \\d+ ms, CP-SAT \\d+ ms, join \\d+ ms\\nstage 3: .*"), text);
    // A's KLL k=345 and its readout carry one level; A's answer that level, within 0.01.
    final String kll = line(text, "Build[family=KLL] {k=345, direct}");
    final String level = kll.replaceAll(".*  \\[(rank error ε=\\S+ δ=\\S+)\\].*", "$1");
    assertTrue(level.startsWith("rank error ε="), kll);
    assertTrue(Double.parseDouble(level.replaceAll(".*ε=(\\S+) .*", "$1")) <= 0.01, level);
    assertTrue(line(text, "Answer[query=A").contains("  [" + level + "]"), text);
    // Every chosen candidate has its level.
    final String plan = text.substring(text.indexOf("chosen plan\n"), text.indexOf("summaries and the queries"));
    plan.lines().skip(1).forEach(l -> assertTrue(l.matches(".*  \\[(exact|\\w+ error ε=\\S+ δ=\\S+)\\].*"), l));
    // The spec's example is one part (one metric), proven; the sizes add up to stage 3's.
    final String part = line(text, "part 0 (2 queries: A, B): ");
    assertTrue(part.matches("  part 0 \\(2 queries: A, B\\): proven by (the Lagrangian bound|CP-SAT); cost \\S+, "
        + "bound \\S+ \\(gap 0.00%\\); \\d+ candidates reached, \\d+ after pruning, \\d+ in the CP-SAT model: "
        + "\\d+ variables, \\d+ constraints"), part);
    final String stage3 = line(text, "stage 3: ");
    assertTrue(stage3.contains(", " + number(part, "(\\d+) variables") + " variables, "
        + number(part, "(\\d+) constraints") + " constraints"), stage3 + " vs " + part);
    final String pruned = line(text, "pruned: ");
    assertTrue(pruned.matches("pruned: stage 2 \\d+, stage 3 \\(reach\\) \\d+, stage 3 \\(pruning\\) \\d+, "
        + "stage 3 \\(Lagrangian bound\\) \\d+"), pruned);
    final String memo = run(0, example(), "--memo");
    // The memo: each θ's own ε and δ; a readout's come from the state it reads.
    final String after = memo.substring(memo.indexOf("\n  Build[family=KLL][G0] {k=345, direct}\n") + 1);
    assertTrue(after.lines().skip(1).findFirst().orElseThrow().matches(
        "  [ *] v\\d+ @ .*  w=\\S+  \\[" + java.util.regex.Pattern.quote(level) + "\\]"), after);
    memo.lines().filter(l -> l.matches("  [ *] v\\d+ @ .*")).forEach(l -> assertTrue(
        l.matches(".*  (ε, δ from its inputs|\\[(exact|\\w+ error ε=\\S+ δ=\\S+)\\])"), l));
    final long paths = Long.parseLong(number(pruned, "stage 3 \\(pruning\\) (\\d+)"));
    assertEquals(paths, memo.lines().filter(l -> l.startsWith("  stage 3 (pruning): v")).count(), memo);
    assertTrue(paths > 0, pruned);
    memo.lines().filter(l -> l.startsWith("  stage 3 (pruning): v")).forEach(l -> assertTrue(l.contains(
        ": its cheapest paths to the rows and to an answer cost more than a plan known (every plan using it costs"
        + " more than "), l));
    // every candidate Stage 3 set aside with the ε and δ its θ fixes
    memo.lines().filter(l -> l.startsWith("  stage 3 (")).forEach(l -> assertTrue(
        l.matches("  stage 3 \\(.*\\): v\\d+ .*  (ε, δ from its inputs|\\[(exact|.+ ε=\\S+ δ=\\S+)\\]): .*"), l));
  }

  /**
   * Test case for #16, point 7: the JSON, read back by Jackson, says the same: each chosen
   * candidate's ε and δ (its producer's for a readout, within the target at each answer), the
   * MILP per part adding up to the whole, Stage 3's pruned candidates (none chosen), and each
   * query's summaries as chains of chosen edges from its answer down to a build or merge: A
   * reads the KLL k=345, both operands of B one DDSketch α=0.02.
   */
  @Test void jsonHasLevelsPartsPrunedAndTheSummariesEachQueryReads() throws Exception {
    final JsonNode json = new ObjectMapper().readTree(run(0, example(), "--output", "json"));
    final Map<Integer, JsonNode> candidates = new HashMap<>();
    for (JsonNode g : json.get("groups")) {
      for (JsonNode c : g.get("candidates")) {
        candidates.put(c.get("id").asInt(), c);
        if (c.get("chosen").asBoolean()) {
          assertTrue(c.get("guarantee").has("epsilon") && c.get("guarantee").has("delta"), c.toString());
        }
      }
    }
    final Set<String> chosenEdges = new HashSet<>();
    for (JsonNode e : json.get("edges")) {
      if (e.get("chosen").asBoolean()) {
        chosenEdges.add(e.get("producer").asInt() + ">" + e.get("consumer").asInt());
        final JsonNode consumer = candidates.get(e.get("consumer").asInt());
        if (consumer.get("operator").asText().startsWith("Readout")) {
          assertEquals(candidates.get(e.get("producer").asInt()).get("guarantee"), consumer.get("guarantee"));
        }
      }
    }
    final JsonNode milp = json.get("milp");
    int variables = 0;
    double cost = 0;
    for (JsonNode p : milp.get("parts")) {
      variables += p.get("variables").asInt();
      cost += p.get("cost").asDouble();
      assertTrue(p.get("bound").asDouble() <= p.get("cost").asDouble() * (1 + 1e-9), p.toString());
      assertTrue(p.get("modelled").asInt() <= p.get("afterPruning").asInt()
          && p.get("afterPruning").asInt() <= p.get("candidates").asInt(), p.toString());
    }
    assertEquals(milp.get("variables").asInt(), variables);
    assertEquals(json.get("cost").asDouble(), cost, 1e-6 * cost);
    assertEquals(8, milp.get("phases").size());
    assertTrue(milp.get("bound").asDouble() <= json.get("cost").asDouble() * (1 + 1e-9));
    int stage3 = 0;
    for (JsonNode p : json.get("pruned")) {
      if (p.has("candidate")) {
        stage3++;
        assertTrue(p.get("stage").asText().startsWith("stage 3 ("), p.toString());
        assertFalse(candidates.get(p.get("candidate").asInt()).get("chosen").asBoolean(), p.toString());
        // the ε and δ its θ fixes, as the candidate's own entry gives them
        assertEquals(candidates.get(p.get("candidate").asInt()).get("guarantee"), p.get("guarantee"), p.toString());
      }
    }
    assertTrue(stage3 > 0);
    final Map<String, List<String>> summaries = new HashMap<>();
    for (JsonNode q : json.get("queries")) {
      final double bound = Double.parseDouble(q.get("target").asText().replaceAll(".*?(\\d+\\.\\d+).*", "$1"));
      assertTrue(q.get("guarantee").get("epsilon").asDouble() <= bound, q.toString());
      for (JsonNode read : q.get("reads")) {
        final JsonNode chain = read.get("chain");
        assertEquals(q.get("answer").asInt(), chain.get(0).asInt(), read.toString());
        for (int i = 1; i < chain.size(); i++) {
          assertTrue(chosenEdges.contains(chain.get(i).asInt() + ">" + chain.get(i - 1).asInt()), read.toString());
        }
        assertEquals(read.get("summary").asInt(), chain.get(chain.size() - 1).asInt());
        summaries.computeIfAbsent(q.get("name").asText(), k -> new java.util.ArrayList<>())
            .add(read.get("summary").asInt() + " " + read.get("operator").asText());
      }
    }
    assertEquals(1, summaries.get("A").size(), summaries.toString());
    assertTrue(summaries.get("A").get(0).contains("Build[family=KLL] {k=345, direct}"), summaries.toString());
    assertEquals(2, summaries.get("B").size(), summaries.toString());
    assertEquals(summaries.get("B").get(0), summaries.get("B").get(1));
    assertTrue(summaries.get("B").get(0).contains("Build[family=DDSKETCH] {α=0.02, direct}"), summaries.toString());
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

  /** A dot (and JSON) string literal: quotes, escapes, no raw line break. */
  private static final String QUOTED = "\"([^\"\\\\\\n]|\\\\.)*\"";

  /** The first line of {@code text} containing {@code part} ("" when none). */
  private static String line(String text, String part) {
    return text.lines().filter(l -> l.contains(part)).findFirst().orElse("");
  }

  /** The first group of {@code regex} found in {@code text}. */
  private static String number(String text, String regex) {
    final java.util.regex.Matcher m = java.util.regex.Pattern.compile(regex).matcher(text);
    assertTrue(m.find(), regex + " in " + text);
    return m.group(1);
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
