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
import dev.mnestic.rel.MnesticRelBuilder;
import dev.mnestic.rel.SketchAggregate;
import dev.mnestic.runtime.Sketches;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.tools.RelBuilder;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs a chosen plan over the store: per metric one {@link SketchAggregate}, which keeps every
 * chosen summary over that metric (a build, a merge, or the exact sort of a window's rows), one
 * {@link Sketches.Summary} per chosen candidate, in one pass over its rows, and reads in it every
 * quantile the summary's chosen readouts need, so a summary shared by several queries is built
 * once per window; then each query's answer per window from those reads (a ratio divides its
 * operands' reads). Each consumer reads the producer the plan chose: a merge merges the windows
 * of the candidate on its input edge ({@link Sketches.Summary#source}), so a 1m summary that a
 * plan both reads directly and merges into 5m windows is one summary per minute, and the
 * summaries made per candidate are what the plan shows ({@link #made}).
 */
public final class PlanExecution {
  private final PlanSpace space;
  private final Plan plan;
  private final Map<String, PhysicalEdge> producerOf = new HashMap<>();
  /** Metric → the chosen candidates holding its summaries, in the order of its aggregate's. */
  private final Map<String, List<Integer>> summaries = new LinkedHashMap<>();
  /** Chosen summary candidate → the quantiles read from it (none for one only merged). */
  private final Map<Integer, List<Double>> reads = new LinkedHashMap<>();
  /**
   * Chosen summary candidate → how far back its windows are answered: the longest retention of
   * the queries reading it (none for one only merged).
   */
  private final Map<Integer, Duration> retention = new HashMap<>();
  /** Chosen summary candidate → the windows' summaries the last {@link #answers} made. */
  private final Map<Integer, Long> made = new LinkedHashMap<>();

  /**
   * Runs {@code plan}, each query's windows kept and read as far back as its retention (zero:
   * every window).
   */
  public PlanExecution(PlanSpace space, Plan plan) {
    this.space = space;
    this.plan = plan;
    for (PhysicalEdge e : plan.edges()) {
      producerOf.put(e.consumer() + "/" + e.input(), e);
    }
    for (int v : plan.candidates()) {
      final Operator op = logical(v).operator();
      if (op instanceof Operator.Build || op instanceof Operator.Merge) {
        reads.computeIfAbsent(v, k -> new ArrayList<>());
      } else if (op instanceof Operator.Readout r) {
        reads.computeIfAbsent(producer(v, 0), k -> new ArrayList<>()).add(r.phi());
      } else if (op instanceof Operator.SortQuantile s) {
        reads.computeIfAbsent(v, k -> new ArrayList<>()).add(s.phi());
      }
    }
    reads.replaceAll((v, phis) -> phis.stream().distinct().sorted().toList());
    for (Query q : space.workload().queries()) {
      retain(producer(space.answers().get(q.name()), 0), q.retention());
    }
    for (int v : reads.keySet()) {
      summaries.computeIfAbsent(metric(v), m -> new ArrayList<>()).add(v);
    }
  }

  /**
   * Per metric, the chosen summaries its one pass keeps (what {@link #aggregates} builds), one
   * per chosen build, merge or exact sort.
   */
  public Map<String, List<Sketches.Summary>> summaries() {
    final Map<String, List<Sketches.Summary>> out = new LinkedHashMap<>();
    summaries.forEach((metric, vs) -> out.put(metric, vs.stream().map(this::summary).toList()));
    return out;
  }

  /** Per metric, the chosen candidate of each of its {@link #summaries}, in the same order. */
  public Map<String, List<Integer>> candidates() {
    final Map<String, List<Integer>> out = new LinkedHashMap<>();
    summaries.forEach((metric, vs) -> out.put(metric, List.copyOf(vs)));
    return out;
  }

  /**
   * Per metric, the one aggregate that builds all its chosen summaries, as a plan over
   * {@code rows(metric)} (whose columns 0 and 1 are the metric's time and value).
   */
  public Map<String, SketchAggregate> aggregates(Function<Metric, RelNode> rows) {
    final Map<String, SketchAggregate> out = new LinkedHashMap<>();
    summaries().forEach((metric, s) -> {
      final RelNode input = rows.apply(space.workload().metric(metric));
      final RelBuilder b = RelFactories.LOGICAL_BUILDER.create(input.getCluster(), null);
      out.put(metric, (SketchAggregate) MnesticRelBuilder.sketchAggregate(b.push(input), 0, 1, s)
          .build());
    });
    return out;
  }

  private String metric(int v) {
    final GroupKey key = space.memo().key(space.candidates().get(v).group());
    return key instanceof GroupKey.Quantile q ? q.metric() : ((GroupKey.State) key).metric();
  }

  /** Counts {@code retain} among the retentions of the summaries {@code v} reads. */
  private void retain(int v, Duration retain) {
    final Operator op = logical(v).operator();
    if (op instanceof Operator.Divide) {
      retain(producer(v, 0), retain);
      retain(producer(v, 1), retain);
    } else {
      retention.merge(op instanceof Operator.Readout ? producer(v, 0) : v, retain,
          (a, b) -> a.compareTo(b) >= 0 ? a : b);
    }
  }

  private Sketches.Summary summary(int v) {
    final LogicalCandidate c = logical(v);
    final GroupKey key = space.memo().key(space.candidates().get(v).group());
    final Window window;
    final Sketches.Family family;
    double parameter = 0;
    long sub = 0;
    int source = -1;
    if (key instanceof GroupKey.Quantile q) {
      window = q.window();
      family = Sketches.Family.EXACT;
    } else {
      final GroupKey.State s = (GroupKey.State) key;
      window = s.window();
      family = s.family() == Family.KLL ? Sketches.Family.KLL
          : s.family() == Family.DDSKETCH ? Sketches.Family.DDSKETCH
          : Sketches.Family.EXACT;
      final Parameters theta = c.properties().parameters();
      parameter = theta instanceof Parameters.Kll k ? k.k()
          : theta instanceof Parameters.DdSketch d ? d.alpha() : 0;
      if (c.properties().windowLayout() instanceof WindowLayout.Merged m) {
        sub = m.sub().toMillis();
        source = summaries.get(metric(v)).indexOf(producer(v, 0));
      }
    }
    return new Sketches.Summary(family, parameter, window.width().toMillis(),
        window.step().toMillis(), sub, reads.get(v), source,
        retention.getOrDefault(v, Duration.ZERO).toMillis());
  }

  /**
   * Each query's answers, window end (epoch ms) → value, from the rows {@code run} gives for
   * each aggregate of {@link #aggregates} with the context variables it is given added to its
   * own; a query whose summaries no row reached has none.
   */
  public Map<String, TreeMap<Long, Double>> answers(Function<Metric, RelNode> rows, Run run) {
    // chosen summary → φ → window end → value
    final Map<Integer, Map<Double, Map<Long, Double>>> values = new HashMap<>();
    made.clear();
    aggregates(rows).forEach((metric, aggregate) -> {
      final List<Integer> vs = summaries.get(metric);
      final Consumer<long[]> counted = counts -> {
        for (int i = 0; i < counts.length; i++) {
          made.merge(vs.get(i), counts[i], Long::sum);
        }
      };
      for (Object[] read : run.run(space.workload().metric(metric), aggregate,
          Map.of(Sketches.MADE, counted))) {
        values.computeIfAbsent(vs.get((Integer) read[0]), k -> new HashMap<>())
            .computeIfAbsent((Double) read[2], k -> new HashMap<>())
            .put(((Number) read[1]).longValue(), (Double) read[3]);
      }
    });
    final Map<String, TreeMap<Long, Double>> out = new LinkedHashMap<>();
    for (Query q : space.workload().queries()) {
      out.put(q.name(), series(producer(space.answers().get(q.name()), 0), values));
    }
    return out;
  }

  /**
   * What each query reads from {@link #summaries}, as {@link #answers} reads it: one
   * {@link Read}, or a ratio's two (numerator first), its answer in a window their quotient.
   */
  public Map<String, List<Read>> reads() {
    final Map<String, List<Read>> out = new LinkedHashMap<>();
    for (Query q : space.workload().queries()) {
      final int v = producer(space.answers().get(q.name()), 0);
      out.put(q.name(), logical(v).operator() instanceof Operator.Divide
          ? List.of(read(producer(v, 0)), read(producer(v, 1))) : List.of(read(v)));
    }
    return out;
  }

  /** The read of readout or exact sort {@code v}. */
  private Read read(int v) {
    final Operator op = logical(v).operator();
    final int summary = op instanceof Operator.Readout ? producer(v, 0) : v;
    final double phi = op instanceof Operator.Readout r ? r.phi() : ((Operator.SortQuantile) op).phi();
    final String metric = metric(summary);
    return new Read(metric, summaries.get(metric).indexOf(summary), phi);
  }

  /**
   * A quantile read from one summary: {@code summary} indexes {@code metric}'s
   * {@link #summaries}, {@code phi} one of its φs.
   */
  public record Read(String metric, int summary, double phi) implements Serializable {
  }

  /**
   * Per chosen summary candidate (build, merge or exact sort), how many windows' summaries the
   * last {@link #answers} made: built from rows (an exact sort or build of sliding windows
   * counts the tumbling windows of its step it counts from) or merged.
   */
  public Map<Integer, Long> made() {
    return Map.copyOf(made);
  }

  private TreeMap<Long, Double> series(int v, Map<Integer, Map<Double, Map<Long, Double>>> values) {
    final Operator op = logical(v).operator();
    final TreeMap<Long, Double> out = new TreeMap<>();
    if (op instanceof Operator.Divide) {
      final TreeMap<Long, Double> n = series(producer(v, 0), values);
      final TreeMap<Long, Double> d = series(producer(v, 1), values);
      n.forEach((end, value) -> {
        if (d.containsKey(end)) {
          out.put(end, value / d.get(end));
        }
      });
      return out;
    }
    // A summary that no row reached (an empty table, a filter matching no row, only NULL values)
    // was read in no window: the query has no window to answer.
    final int read = op instanceof Operator.Readout ? producer(v, 0) : v;
    final double phi = op instanceof Operator.Readout r ? r.phi() : ((Operator.SortQuantile) op).phi();
    out.putAll(values.getOrDefault(read, Map.of()).getOrDefault(phi, Map.of()));
    return out;
  }

  /** Runs one metric's aggregate. */
  @FunctionalInterface
  public interface Run {
    /**
     * The rows of {@code aggregate} (over {@code metric}'s rows), run with {@code context}'s
     * variables added to the caller's own.
     */
    Iterable<Object[]> run(Metric metric, SketchAggregate aggregate, Map<String, Object> context);
  }

  private int producer(int consumer, int input) {
    return producerOf.get(consumer + "/" + input).producer();
  }

  private LogicalCandidate logical(int v) {
    final PhysicalCandidate p = space.candidates().get(v);
    return space.memo().candidate(p.logical());
  }
}
