package dev.mnestic.planner.exec;

import dev.mnestic.planner.memo.Family;
import dev.mnestic.planner.memo.GroupKey;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.memo.WindowLayout;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.workload.Metric;
import dev.mnestic.planner.workload.Query;
import dev.mnestic.planner.workload.Window;
import dev.mnestic.rel.LogicalSketchAggregate;
import dev.mnestic.rel.SketchAggregate;

import org.apache.calcite.rel.RelNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Runs a chosen plan over the store: one {@link SketchAggregate} per chosen summary (a build,
 * a merge, or the exact sort of a window's rows), reading in its one pass every quantile its
 * chosen readouts need, so a summary shared by several queries is built once per window; then
 * each query's answer per window from those reads (a ratio divides its operands' reads).
 *
 * <p>A merge runs as one operator that builds its tumbling sub-windows itself: a 1m summary that
 * a plan both reads directly and merges into 5m windows is built twice.
 */
public final class PlanExecution {
  private final PlanSpace space;
  private final Plan plan;
  private final Map<String, PhysicalEdge> producerOf = new HashMap<>();

  public PlanExecution(PlanSpace space, Plan plan) {
    this.space = space;
    this.plan = plan;
    for (PhysicalEdge e : plan.edges()) {
      producerOf.put(e.consumer() + "/" + e.input(), e);
    }
  }

  /**
   * The summaries the plan builds, each as a plan over {@code rows(metric)} (whose columns 0 and
   * 1 are the metric's time and value), keyed by the chosen candidate that holds the summary.
   */
  public Map<Integer, RelNode> summaries(Function<Metric, RelNode> rows) {
    final Map<Integer, List<Double>> reads = new LinkedHashMap<>();
    for (int v : plan.candidates()) {
      final LogicalCandidate c = logical(v);
      if (c.operator() instanceof Operator.Readout r) {
        reads.computeIfAbsent(producer(v, 0), k -> new ArrayList<>()).add(r.phi());
      } else if (c.operator() instanceof Operator.SortQuantile s) {
        reads.computeIfAbsent(v, k -> new ArrayList<>()).add(s.phi());
      }
    }
    final Map<Integer, RelNode> out = new LinkedHashMap<>();
    for (Map.Entry<Integer, List<Double>> e : reads.entrySet()) {
      out.put(e.getKey(), summary(e.getKey(), e.getValue().stream().distinct().toList(), rows));
    }
    return out;
  }

  private RelNode summary(int v, List<Double> phis, Function<Metric, RelNode> rows) {
    final LogicalCandidate c = logical(v);
    final GroupKey key = space.memo().key(space.candidates().get(v).group());
    final String metric;
    final Window window;
    final SketchAggregate.Family family;
    double parameter = 0;
    long sub = 0;
    if (key instanceof GroupKey.Quantile q) {
      metric = q.metric();
      window = q.window();
      family = SketchAggregate.Family.EXACT;
    } else {
      final GroupKey.State s = (GroupKey.State) key;
      metric = s.metric();
      window = s.window();
      family = s.family() == Family.KLL ? SketchAggregate.Family.KLL
          : s.family() == Family.DDSKETCH ? SketchAggregate.Family.DDSKETCH
          : SketchAggregate.Family.EXACT;
      final Parameters theta = c.properties().parameters();
      parameter = theta instanceof Parameters.Kll k ? k.k()
          : theta instanceof Parameters.DdSketch d ? d.alpha() : 0;
      if (c.properties().windowLayout() instanceof WindowLayout.Merged m) {
        sub = m.sub().toMillis();
      }
    }
    return LogicalSketchAggregate.create(rows.apply(space.workload().metric(metric)), 0, 1, family,
        parameter, window.width().toMillis(), window.step().toMillis(), sub, phis);
  }

  /**
   * Each query's answers, window end (epoch ms) → value, from the rows {@code run} gives for
   * each summary of {@link #summaries}.
   */
  public Map<String, TreeMap<Long, Double>> answers(Function<Metric, RelNode> rows,
      Function<RelNode, List<Object[]>> run) {
    final Map<Integer, List<Double>> columns = new HashMap<>();
    final Map<Integer, List<Object[]>> results = new HashMap<>();
    for (Map.Entry<Integer, RelNode> s : summaries(rows).entrySet()) {
      results.put(s.getKey(), run.apply(s.getValue()));
      columns.put(s.getKey(), ((SketchAggregate) s.getValue()).phis);
    }
    final Map<String, TreeMap<Long, Double>> out = new LinkedHashMap<>();
    for (Query q : space.workload().queries()) {
      out.put(q.name(), series(producer(space.answers().get(q.name()), 0), results, columns));
    }
    return out;
  }

  private TreeMap<Long, Double> series(int v, Map<Integer, List<Object[]>> results,
      Map<Integer, List<Double>> columns) {
    final Operator op = logical(v).operator();
    final TreeMap<Long, Double> out = new TreeMap<>();
    if (op instanceof Operator.Divide) {
      final TreeMap<Long, Double> n = series(producer(v, 0), results, columns);
      final TreeMap<Long, Double> d = series(producer(v, 1), results, columns);
      n.forEach((end, value) -> {
        if (d.containsKey(end)) {
          out.put(end, value / d.get(end));
        }
      });
      return out;
    }
    final double phi;
    final int summary;
    if (op instanceof Operator.Readout r) {
      phi = r.phi();
      summary = producer(v, 0);
    } else {
      phi = ((Operator.SortQuantile) op).phi();
      summary = v;
    }
    final int column = 1 + columns.get(summary).indexOf(phi);
    for (Object[] row : results.get(summary)) {
      out.put(((Number) row[0]).longValue(), (Double) row[column]);
    }
    return out;
  }

  private int producer(int consumer, int input) {
    return producerOf.get(consumer + "/" + input).producer();
  }

  private LogicalCandidate logical(int v) {
    final PhysicalCandidate p = space.candidates().get(v);
    return space.memo().candidate(p.logical());
  }
}
