package dev.mnestic.datalog;

import dev.mnestic.datalog.analysis.Stratifier;
import dev.mnestic.datalog.ast.Rule;
import dev.mnestic.datalog.eval.ConstantRules;
import dev.mnestic.datalog.lower.StrataOptions;
import dev.mnestic.datalog.lower.StratumPlan;
import dev.mnestic.datalog.lower.StratumPlanner;
import dev.mnestic.datalog.parse.Parser;
import dev.mnestic.rel.PlanFile;
import dev.mnestic.value.HostAggregations;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.util.List;
import java.util.Map;

/**
 * Lowering a query, stage by stage: the steps {@link StratumPlanner} plans
 * (resource {@code strata}, {@link StratumPlan#describe}) and the Calcite
 * plan {@code ::explain} shows for each (resource {@code plan}: stratum,
 * relations, plan line). Expected in {@code StratumPlanTest.xml}; see
 * {@link PlanFile} for updating it. Row tables are numbered per process, so
 * their numbers are shown as {@code $n}.
 */
class StratumPlanTest extends OneStoreTest {
  private static PlanFile plans;
  private String testName;

  @BeforeAll static void load() throws Exception {
    plans = new PlanFile(StratumPlanTest.class);
    run(":create edge {a: Int, b: Int}");
    run(":create blocked {a: Int}");
  }

  @AfterAll static void done() {
    plans = null;
  }

  @BeforeEach void name(TestInfo info) {
    testName = info.getTestMethod().orElseThrow().getName();
  }

  /** Records both stages of {@code query}'s lowering and checks them. */
  private void check(String query) throws Exception {
    final List<Rule> rules = Parser.parse(query).queries().get(0).rules().stream()
        .map(r -> ConstantRules.headed(r, Map.of())).toList();
    final HostAggregations host = HostAggregations.NONE;
    final StratumPlan plan = StratumPlanner.plan(rules, Stratifier.stratify(rules, host::isMeet),
        Map.of(), StrataOptions.of(host));
    plans.record(testName, "strata", plan.describe());
    final StringBuilder explained = new StringBuilder();
    for (List<Object> row : run("::explain {" + query + "}").rows()) {
      explained.append(row.get(0)).append(" [").append(row.get(1)).append("] ")
          .append(row.get(2)).append('\n');
    }
    plans.record(testName, "plan",
        explained.toString().replaceAll("(?<=[A-Za-z_])\\$\\d+", "\\$n"));
    plans.check(testName);
  }

  /** A constant rule's rows, then a relation evaluated once over them. */
  @Test void constantThenOnce() throws Exception {
    check("r[a] <- [[1], [2], [2]]\n?[a, b] := r[a], b = a + 1");
  }

  /** A transitive closure: the stored edges copied once, then the fixpoint joins the copy. */
  @Test void transitiveClosure() throws Exception {
    check("tc[a, b] := *edge[a, b]\ntc[a, c] := tc[a, b], *edge[b, c]\n?[count(a)] := tc[a, b]");
  }

  /** Two members, each reading the other: one variant per member atom. */
  @Test void mutualRecursion() throws Exception {
    check("even[a] := *edge[a, a]\neven[b] := odd[a], *edge[a, b]\n"
        + "odd[b] := even[a], *edge[a, b]\n?[a] := even[a]");
  }

  /** Stored relations copied in the order lowering reads them: relations, then negations. */
  @Test void negatedStoredRelationInRecursion() throws Exception {
    check("r[b] := not *blocked[b], *edge[1, b]\nr[c] := r[b], not *blocked[c], *edge[b, c]\n"
        + "?[c] := r[c]");
  }

  /** A meet aggregation in recursion: its rows keep their place in CozoDB's order. */
  @Test void meetAggregationInRecursion() throws Exception {
    check("d[b, min(c)] := *edge[1, b], c = 1\nd[b, min(c)] := d[a, x], *edge[a, b], c = x + 1\n"
        + "?[b, c] := d[b, c]");
  }

  /** A bounded-meet aggregation in recursion: the fixpoint is bounded by its epochs. */
  @Test void frontierInRecursion() throws Exception {
    check("e[a, b, s] <- [['a', 'b', 0.5], ['b', 'a', 0.25]]\n"
        + "reach[to, pareto_min(p)] := e['a', to, s], p = [1, -s]\n"
        + "reach[to, pareto_min(p)] := reach[m, q], e[m, to, s],"
        + " p = [get(q, 0) + 1, get(q, 1) - s]\n?[to, p] := reach[to, p]");
  }

  /**
   * A fixed rule is its own step after the recursion it reads, over a stored relation too, and
   * a rule reads its rows.
   */
  @Test void fixedRuleAfterRecursion() throws Exception {
    check("reach[a, b] := *edge[a, b]\nreach[a, c] := reach[a, b], *edge[b, c]\n"
        + "top[rank, a, b] <~ ReorderSort(reach[a, b], *blocked[x], out: [a, b], sort_by: b,"
        + " take: 3)\n?[a, b] := top[_, a, b]");
  }
}
