package dev.mnestic.planner.memo;

import dev.mnestic.planner.Workloads;
import dev.mnestic.planner.rules.Pass1;
import dev.mnestic.planner.rules.Pass2;
import dev.mnestic.planner.workload.ErrorMetric;
import dev.mnestic.planner.workload.Target;
import dev.mnestic.planner.workload.Window;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.planner.workload.WorkloadParser;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The memo: hash-consed groups, candidates with θ, and its invariants. */
class MemoTest {
  private static final Window ONE_MINUTE = Window.tumbling(Duration.ofMinutes(1));

  @Test void specExampleSharesStateGroupsByHashConsing() {
    final Memo memo = new Memo();
    Pass1.insert(memo, Workloads.specExample().queries(), ParameterLists.DEFAULT);
    memo.checkMemo();
    // rows; KLL, DDSketch and exact states; quantiles 0.95, 0.99, 0.5; the ratio; two answers.
    assertEquals(10, memo.groupCount());
    final int kll = memo.find(new GroupKey.State(Family.KLL, "latency", ONE_MINUTE));
    final int dd = memo.find(new GroupKey.State(Family.DDSKETCH, "latency", ONE_MINUTE));
    // One KLL state group whose candidates are the sizes: k is a property, not identity.
    assertEquals(List.of(100, 200, 345, 400, 800), memo.candidatesOf(kll).stream()
        .map(c -> ((Parameters.Kll) memo.candidate(c).properties().parameters()).k()).toList());
    // A's quantile and B's two operands each read the same state groups.
    for (double phi : new double[] {0.95, 0.99, 0.5}) {
      final int q = memo.find(new GroupKey.Quantile(phi, "latency", ONE_MINUTE));
      final Set<Integer> read = memo.candidatesOf(q).stream()
          .flatMap(c -> memo.candidate(c).children().stream()).collect(Collectors.toSet());
      assertTrue(read.containsAll(Set.of(kll, dd)), "quantile " + phi + " reads " + read);
    }
  }

  @Test void identicalSubexpressionsAreOneGroup() {
    final Workload w = WorkloadParser.parse("metric m from t(ts, v) rate 10/s\n"
        + "A: quantile_over_time(0.9, m[1m]) rank error 0.01 every 1m retain 1h\n"
        + "B: quantile_over_time(0.9, m[1m]) / quantile_over_time(0.5, m[1m]) relative error 0.1 every 1m retain 1h\n"
        + "C: quantile_over_time(0.9, m[1m]) / quantile_over_time(0.5, m[1m]) relative error 0.2 every 1m retain 1h\n");
    final Memo memo = new Memo();
    Pass1.insert(memo, w.queries(), ParameterLists.DEFAULT);
    memo.checkMemo();
    final int ratio = memo.find(new GroupKey.Ratio(
        memo.find(new GroupKey.Quantile(0.9, "m", ONE_MINUTE)),
        memo.find(new GroupKey.Quantile(0.5, "m", ONE_MINUTE))));
    assertEquals(1, memo.candidatesOf(ratio).size());
    // B and C answer from the one ratio group; A's quantile is B's numerator.
    for (String q : List.of("B", "C")) {
      final int answer = memo.find(new GroupKey.Answer(q));
      assertEquals(List.of(ratio), memo.candidate(memo.candidatesOf(answer).get(0)).children());
    }
    // rows; three states; quantiles 0.9 and 0.5; one ratio; three answers.
    assertEquals(10, memo.groupCount());
  }

  @Test void pass2AddsMergesToExistingGroupsWithoutCopies() {
    final Workload w = WorkloadParser.parse("metric m from t(ts, v) rate 10/s\n"
        + "A: quantile_over_time(0.9, m[1m]) rank error 0.01 every 1m retain 1h\n"
        + "B: quantile_over_time(0.9, m[5m]) rank error 0.01 every 5m retain 1h\n"
        + "C: quantile_over_time(0.5, m[10m]) rank error 0.02 every 2m retain 1h\n");
    final ParameterLists lists = new ParameterLists(List.of(200, 400), List.of(0.01), false);
    final Memo memo = new Memo();
    Pass1.insert(memo, w.queries(), lists);
    final int groupsBefore = memo.groupCount();
    final int fiveMinutes = memo.find(new GroupKey.State(Family.KLL, "m", Window.tumbling(Duration.ofMinutes(5))));
    Pass2.addMerges(memo, lists);
    memo.checkMemo();
    // 5m tumbling merges from 1m; 10m-every-2m merges from 1m and from the new 2m tumbling group.
    assertEquals(Set.of("merged from 1m"), layouts(memo, fiveMinutes, Operator.Merge.class));
    final int sliding = memo.find(new GroupKey.State(Family.KLL, "m",
        new Window(Duration.ofMinutes(10), Duration.ofMinutes(2))));
    assertEquals(Set.of("merged from 1m", "merged from 2m"), layouts(memo, sliding, Operator.Merge.class));
    // New groups only for the 2m tumbling states (KLL and DDSketch), each with its builds.
    assertEquals(groupsBefore + 2, memo.groupCount());
    // B's quantile still reads the same 5m state group, which now has builds and merges.
    final int b = memo.find(new GroupKey.Quantile(0.9, "m", Window.tumbling(Duration.ofMinutes(5))));
    assertTrue(memo.candidatesOf(b).stream().anyMatch(c -> memo.candidate(c).children().equals(List.of(fiveMinutes))));
    assertEquals(4, memo.candidatesOf(fiveMinutes).size());
  }

  @Test void addRefusesMisfitsAndCycles() {
    final Memo memo = new Memo();
    Pass1.insert(memo, Workloads.specExample().queries(), ParameterLists.DEFAULT);
    final int rows = memo.find(new GroupKey.Rows("latency"));
    final GroupKey.State kll = new GroupKey.State(Family.KLL, "latency", ONE_MINUTE);
    final IllegalArgumentException misfit = assertThrows(IllegalArgumentException.class,
        () -> memo.add(kll, new LogicalCandidate(new Operator.Build(Family.KLL), List.of(rows),
            new LogicalProperties(new Parameters.DdSketch(0.01), new WindowLayout.Direct()))));
    assertTrue(misfit.getMessage().endsWith("θ α=0.01 is not a KLL"), misfit.getMessage());
    final int answerA = memo.find(new GroupKey.Answer("A"));
    final IllegalArgumentException cycle = assertThrows(IllegalArgumentException.class,
        () -> memo.add(new GroupKey.Quantile(0.95, "latency", ONE_MINUTE),
            new LogicalCandidate(new Operator.Readout(0.95), List.of(answerA),
                new LogicalProperties(new Parameters.Inherited(ErrorMetric.RANK), new WindowLayout.Pointwise()))));
    assertTrue(cycle.getMessage().contains("could close a cycle: G" + answerA + " answer(A) does not come before it"),
        cycle.getMessage());
    // Re-adding an existing candidate changes nothing.
    final int before = memo.candidateCount();
    memo.add(kll, memo.candidate(memo.candidatesOf(memo.find(kll)).get(0)));
    assertEquals(before, memo.candidateCount());
    memo.checkMemo();
  }

  @Test void parametersCarryPrecomputedGuarantees() {
    final Parameters.Kll k200 = new Parameters.Kll(200);
    assertEquals(org.apache.datasketches.kll.KllSketch.getNormalizedRankError(200, false),
        k200.guarantee().epsilon());
    assertEquals(0.01, k200.guarantee().delta());
    assertTrue(new Parameters.Kll(345).guarantee().meets(new Target(ErrorMetric.RANK, 0.01)));
    assertTrue(!k200.guarantee().meets(new Target(ErrorMetric.RANK, 0.01)));
    assertTrue(!k200.guarantee().meets(new Target(ErrorMetric.RELATIVE_VALUE, 0.5)), "metric rule");
    assertEquals(new Guarantee(ErrorMetric.RELATIVE_VALUE, 0.02, 0), new Parameters.DdSketch(0.02).guarantee());
    assertThrows(IllegalArgumentException.class, () -> new Parameters.Kll(4));
    assertThrows(IllegalArgumentException.class, () -> new Parameters.DdSketch(1.5));
    assertThrows(IllegalArgumentException.class, () -> new Target(ErrorMetric.RANK, 1.5));
    // (a + b) / (1 - b), δ by the union bound.
    final Guarantee r = Guarantee.ratio(new Parameters.DdSketch(0.02).guarantee(),
        new Parameters.DdSketch(0.02).guarantee());
    assertEquals(0.04 / 0.98, r.epsilon(), 1e-15);
    assertEquals(Guarantee.EXACT, Guarantee.ratio(Guarantee.EXACT, Guarantee.EXACT));
    final IllegalArgumentException rank = assertThrows(IllegalArgumentException.class,
        () -> Guarantee.ratio(k200.guarantee(), Guarantee.EXACT));
    assertTrue(rank.getMessage().contains("not rank error"), rank.getMessage());
  }

  private static Set<String> layouts(Memo memo, int group, Class<?> op) {
    return memo.candidatesOf(group).stream().map(memo::candidate)
        .filter(c -> op.isInstance(c.operator()))
        .map(c -> c.properties().windowLayout().toString()).collect(Collectors.toCollection(TreeSet::new));
  }
}
