package dev.mnestic.planner.view;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.rules.Edges;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.select.ReferenceEnumerator;
import dev.mnestic.planner.select.Search;
import dev.mnestic.planner.select.Ticker;
import dev.mnestic.planner.select.TreePlans;
import dev.mnestic.planner.workload.Dashboards;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mnestic plan --total}: the limit covers the whole command, from its start to the view
 * written; each phase after the plan (the cost without sharing, the view's memo, its rejected
 * edges) is cut at its deadline, the chosen plan always written whole and valid.
 */
class TotalLimitTest {
  @TempDir Path dir;

  /**
   * The largest test workload (the 1,664-query dashboard) under a total of 50 ms counted from
   * a start already 10 ms past: the first plan (the anytime planner's path that always
   * finishes), valid by the reference checks, no dearer than no sharing over its space, the
   * plan with sharing reported cut, the cost without sharing worked out beside it or reported
   * cut, the view's memo cut, the report line last.
   */
  @Test void aTinyTotalOnTheLargestWorkloadPlansAndSaysWhatWasCut() throws Exception {
    final Path file = dir.resolve("dashboard.workload");
    Files.writeString(file, Dashboards.generate(1664, 1));
    final List<Planner.Planned> seen = new ArrayList<>();
    final long start = System.nanoTime() - 10_000_000L;
    final String[] outErr = run(0, Ticker.SYSTEM, start, seen, file.toString(), "--total", "0.05");
    final String text = outErr[0];
    final Plan plan = seen.get(0).plan();
    final PlanSpace space = seen.get(0).space();
    assertNull(ReferenceEnumerator.violation(space, plan));
    final double alone = TreePlans.costWithoutSharing(space);
    assertTrue(plan.cost() <= alone * (1 + 1e-9));
    assertEquals(space.workload().queries().size(), space.narrowed().size());
    assertEquals(List.of("first plan", "plan with sharing"),
        plan.search().phases().stream().map(Search.Phase::name).toList());
    final List<String> cut = plan.search().phases().stream().filter(Search.Phase::cut).map(Search.Phase::name)
        .toList();
    assertEquals(List.of("plan with sharing"), cut);
    // The chosen plan is there, whole: every chosen candidate on its line.
    for (int v : plan.candidates()) {
      assertTrue(text.contains("\n  v" + v + " G"), "v" + v);
    }
    // Past the deadline: the rejected edges not counted.
    assertTrue(text.startsWith("memo: ") && text.lines().findFirst().orElseThrow()
        .endsWith(space.edges().size() + " feasible edges (the rejected ones not counted in time: --full counts them)"),
        text.lines().findFirst().orElseThrow());
    final String costs = "\ncost " + String.format(java.util.Locale.ROOT, "%.6g", plan.cost()) + ", without sharing ";
    final boolean worked = text.contains(costs + String.format(java.util.Locale.ROOT, "%.6g", alone) + "\n");
    assertTrue(worked || text.contains(costs + "not worked out in time (--full works it out)\n"), text);
    final String report = text.lines().reduce((a, b) -> b).orElseThrow();
    assertTrue(report.startsWith("total 0.050 s from the process's start, ended at "), report);
    assertTrue(report.contains("; cut short: plan with sharing" + (worked ? "" : ", without sharing")
        + ", the view's memo; cost "), report);
    assertTrue(report.contains(": process start to JVM 10 ms, JVM start to the command "), report);
  }

  /**
   * With time to spare, the cost without sharing is worked out beside the plan with sharing and
   * equals the one worked out apart on the first plan's space; the view's slice, reserved before planning, is the larger of a
   * twentieth of the limit and three times reading the workload, as the report says.
   */
  @Test void withTimeToSpareTheCostWithoutSharingIsWorkedOutAndTheViewsSliceReserved() throws Exception {
    final Path file = dir.resolve("dashboard.workload");
    Files.writeString(file, Dashboards.generate(12, 3));
    final List<Planner.Planned> seen = new ArrayList<>();
    final String text = run(0, Ticker.SYSTEM, System.nanoTime(), seen, file.toString(), "--total", "60")[0];
    final double alone = TreePlans.costWithoutSharing(dev.mnestic.planner.Planner.space(seen.get(0).space().workload(),
        dev.mnestic.planner.memo.ParameterLists.DEFAULT, dev.mnestic.planner.physical.Execution.ANY, (q, a) -> false));
    assertEquals(alone, seen.get(0).withoutSharing());
    assertTrue(text.contains(", without sharing " + String.format(java.util.Locale.ROOT, "%.6g", alone) + "\n"), text);
    final String report = text.lines().reduce((a, b) -> b).orElseThrow();
    final java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "reading the workload (\\d+) ms, .* without sharing \\d+ ms after it, view \\d+ ms \\((\\d+) ms reserved\\);"
        + " cut short: nothing;").matcher(report);
    assertTrue(m.find(), report);
    final long parse = Long.parseLong(m.group(1));
    final long reserved = Long.parseLong(m.group(2));
    assertTrue(reserved >= 3000 && reserved >= 3 * parse && reserved <= Math.max(3000, 3 * (parse + 1)), report);
  }

  /** {@code --full} writes the whole view however late; JSON's report goes to stderr. */
  @Test void fullWritesTheWholeMemoPastTheLimit() throws Exception {
    final Path file = dir.resolve("dashboard.workload");
    Files.writeString(file, Dashboards.generate(12, 3));
    final List<Planner.Planned> seen = new ArrayList<>();
    final String[] outErr = run(0, Ticker.SYSTEM, System.nanoTime() - 1_000_000_000L, seen, file.toString(),
        "--total", "0.5", "--full", "--output", "json");
    final JsonNode json = new ObjectMapper().readTree(outErr[0]);
    final PlanSpace space = seen.get(0).space();
    assertNull(json.get("memoCut"));
    assertEquals(space.memo().groupCount(), json.get("groups").size());
    assertEquals(space.edges().size() + Edges.rejected(space).size(), json.get("edges").size());
    assertEquals(TreePlans.costWithoutSharing(space), json.get("costWithoutSharing").asDouble(),
        1e-5 * json.get("costWithoutSharing").asDouble());
    assertTrue(outErr[1].startsWith("total 0.500 s from the process's start, ended at "), outErr[1]);
    assertFalse(outErr[1].contains("without sharing,") || outErr[1].contains("the view's memo"), outErr[1]);
  }

  /**
   * The view cut after each number of looks at its clock: the chosen plan the same as the
   * whole view's, the memo's groups, edges and pruned alternatives written up to the cut and
   * counted after it, in text and JSON alike.
   */
  @Test void theViewWritesThePlanThenTheMemoAsFarAsTimeAllows() throws Exception {
    final Planner.Planned planned = Planner.plan(WorkloadParser.parse(Dashboards.generate(12, 3)),
        Planner.Options.defaults());
    final PlanSpace space = planned.space();
    final double alone = TreePlans.costWithoutSharing(space);
    final PlanView whole = new PlanView(space, planned.plan(), alone);
    final JsonNode wholeJson = new ObjectMapper().readTree(whole.json());
    final int rejected = Edges.rejected(space).size();
    final int groups = space.memo().groupCount();
    final int pruned = wholeJson.get("pruned").size();
    boolean groupsCut = false;
    boolean edgesCut = false;
    boolean prunedCut = false;
    boolean rejectedCut = false;
    // JSON looks at the clock once per 16 groups, once per candidate while listing the rejected
    // edges, once per 1,024 edges and once per 256 pruned alternatives, in that order.
    final int gl = (groups + 15) / 16;
    final int c = space.candidates().size();
    final int el = (space.edges().size() + rejected + 1023) / 1024;
    for (int looks : new int[] {0, 1, gl + 2, gl + c + 2, gl + c + el + 1, Integer.MAX_VALUE}) {
      final String at = looks + " looks";
      final JsonNode json = new ObjectMapper().readTree(new PlanView(space, planned.plan(), alone, after(looks)).json());
      assertEquals(wholeJson.get("queries"), json.get("queries"), at);
      assertEquals(wholeJson.get("milp"), json.get("milp"), at);
      final JsonNode cut = json.get("memoCut");
      if (looks == Integer.MAX_VALUE) {
        assertNull(cut, at);
        assertEquals(wholeJson, json, at);
        continue;
      }
      assertNotNull(cut, at);
      final boolean noRejected = cut.get("rejectedEdgesLeftOut").asBoolean();
      rejectedCut |= noRejected;
      assertEquals(groups, json.get("groups").size() + cut.get("groupsLeftOut").asInt(), at);
      assertEquals(space.edges().size() + (noRejected ? 0 : rejected),
          json.get("edges").size() + cut.get("edgesLeftOut").asInt(), at);
      assertEquals(pruned, json.get("pruned").size() + cut.get("prunedLeftOut").asInt(), at);
      groupsCut |= cut.get("groupsLeftOut").asInt() > 0;
      edgesCut |= cut.get("edgesLeftOut").asInt() > 0;
      prunedCut |= cut.get("prunedLeftOut").asInt() > 0;
      // What was written is the whole view's, in order.
      for (int g = 0; g < json.get("groups").size(); g++) {
        assertEquals(wholeJson.get("groups").get(g), json.get("groups").get(g), at);
      }
      final PlanView cutView = new PlanView(space, planned.plan(), alone, after(looks));
      final String text = cutView.text();
      assertTrue(cutView.cut(), at);
      assertTrue(text.contains(whole.chosen()), at);
      assertTrue(text.contains("\nmemo cut short by the time limit: left out "), at);
      assertTrue(text.endsWith(" (--full writes the whole memo)\n"), at);
    }
    assertTrue(groupsCut && edgesCut && prunedCut && rejectedCut,
        groupsCut + " " + edgesCut + " " + prunedCut + " " + rejectedCut);
  }

  /** The cost without sharing stopped before some query is NaN; not stopped, the same as before. */
  @Test void withoutSharingStopsAtItsDeadline() {
    final PlanSpace space = Planner.space(WorkloadParser.parse(Dashboards.generate(12, 3)),
        dev.mnestic.planner.memo.ParameterLists.DEFAULT);
    final double alone = TreePlans.costWithoutSharing(space);
    assertTrue(Double.isNaN(TreePlans.costWithoutSharing(space, after(10))));
    assertEquals(alone, TreePlans.costWithoutSharing(space, after(Integer.MAX_VALUE)));
    assertTrue(alone > 0);
  }

  @Test void badTotalsAreUsageErrors() {
    final String file = dir.resolve("none.workload").toString();
    for (String[] args : new String[][] {{file, "--total", "five"}, {file, "--total", "0"}, {file, "--total"},
        {file, "--total", "5", "--time-limit", "5"}, {file, "--full"}}) {
      final String[] outErr = run(2, Ticker.SYSTEM, System.nanoTime(), new ArrayList<>(), args);
      assertTrue(outErr[1].startsWith("mnestic plan: "), outErr[1]);
      assertFalse(outErr[1].contains("cannot read"), outErr[1]);
    }
  }

  /** Late from the look after the first {@code looks} on. */
  private static BooleanSupplier after(int looks) {
    final int[] n = {0};
    return () -> n[0]++ >= looks;
  }

  private static String[] run(int status, Ticker ticker, long start, List<Planner.Planned> seen, String... args) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(status, PlanCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), ticker, start, start + 10_000_000L, seen::add),
        err.toString(StandardCharsets.UTF_8));
    return new String[] {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
  }
}
