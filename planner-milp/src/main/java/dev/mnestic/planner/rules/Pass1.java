package dev.mnestic.planner.rules;

import dev.mnestic.planner.memo.Family;
import dev.mnestic.planner.memo.GroupKey;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.LogicalProperties;
import dev.mnestic.planner.memo.Memo;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.memo.WindowLayout;
import dev.mnestic.planner.workload.ErrorMetric;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.QueryExpr;
import dev.mnestic.planner.workload.Window;

import java.time.Duration;
import java.util.List;

/**
 * Pass 1: inserts each query's ways to compute. A quantile is sorted exactly from the rows, or
 * read out of a state of each family, each state built from the rows with every θ of its
 * family's list; a ratio divides two quantiles; the query's answer reads its root. Identical
 * subexpressions of two queries land in one group by hash-consing alone.
 */
public final class Pass1 {
  private Pass1() {
  }

  public static void insert(Memo memo, List<Query> queries, ParameterLists lists) {
    for (Query q : queries) {
      final int root;
      if (q.expr() instanceof QueryExpr.Ratio ratio) {
        final int n = quantile(memo, ratio.numerator(), q, lists);
        final int d = quantile(memo, ratio.denominator(), q, lists);
        root = memo.add(new GroupKey.Ratio(n, d), new LogicalCandidate(new Operator.Divide(),
            List.of(n, d), pointwise(ErrorMetric.RELATIVE_VALUE)));
      } else {
        root = quantile(memo, (QueryExpr.Quantile) q.expr(), q, lists);
      }
      memo.add(new GroupKey.Answer(q.name()), new LogicalCandidate(
          new Operator.Answer(q.name(), q.target()), List.of(root), pointwise(q.target().metric())));
    }
  }

  private static int quantile(Memo memo, QueryExpr.Quantile e, Query q, ParameterLists lists) {
    final Window window = new Window(e.window().width(), q.every());
    final int rows = rows(memo, e.metric());
    final GroupKey.Quantile key = new GroupKey.Quantile(e.phi(), e.metric(), window, q.read());
    int group = memo.add(key, new LogicalCandidate(new Operator.SortQuantile(e.phi()),
        List.of(rows), new LogicalProperties(new Parameters.Exact(), new WindowLayout.Direct())));
    for (Family family : Family.values()) {
      final int state = state(memo, family, e.metric(), window, q.read(), lists);
      if (state >= 0) {
        group = memo.add(key, new LogicalCandidate(new Operator.Readout(e.phi()), List.of(state),
            pointwise(family.metric)));
      }
    }
    return group;
  }

  /** The rows group of {@code metric}. */
  static int rows(Memo memo, String metric) {
    return memo.add(new GroupKey.Rows(metric), new LogicalCandidate(new Operator.Scan(metric),
        List.of(), new LogicalProperties(new Parameters.Exact(), new WindowLayout.Rows())));
  }

  /**
   * The state group of {@code family} over {@code window} read every {@code read}, with a build
   * from rows for every θ of the family's list; -1 when the list is empty. A KLL or DDSketch
   * read once costs what one read every step does (each window merged once, read once), so it
   * is keyed as read every step and shared with such readers; exact windows are not (a kept read
   * every step remakes the windows holding the step, a statement's pass makes each once).
   */
  static int state(Memo memo, Family family, String metric, Window window, Duration read,
      ParameterLists lists) {
    final GroupKey.State key = new GroupKey.State(family, metric, window,
        family != Family.EXACT_VALUES && read.isZero() ? window.step() : read);
    final int had = memo.find(key);
    if (had >= 0) {
      // Made here before, with every build: adding them again would change nothing, and cost
      // a hash lookup per θ for every query over the same window.
      return had;
    }
    final int rows = rows(memo, metric);
    int group = -1;
    for (Parameters.Fixed theta : lists.of(family)) {
      group = memo.add(key, new LogicalCandidate(
          new Operator.Build(family), List.of(rows),
          new LogicalProperties(theta, new WindowLayout.Direct())));
    }
    return group;
  }

  private static LogicalProperties pointwise(ErrorMetric metric) {
    return new LogicalProperties(new Parameters.Inherited(metric), new WindowLayout.Pointwise());
  }
}
