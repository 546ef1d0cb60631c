package dev.mnestic.flink.job;

import dev.mnestic.flink.io.Answer;
import dev.mnestic.flink.io.Sample;
import dev.mnestic.planner.Planner;
import dev.mnestic.planner.exec.PlanExecution;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.workload.Workload;
import dev.mnestic.runtime.Sketches;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.api.java.tuple.Tuple5;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.util.Collector;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A chosen plan compiled into a Flink DataStream topology. Per metric (the samples whose
 * {@code metric} is the workload metric's name: its filter group) the plan's summaries
 * ({@link PlanExecution#summaries}: each build, merge or exact sort it chose, one per
 * candidate, so a summary several queries read is built once per window):
 *
 * <ol>
 * <li>Each sample goes to one of {@code shards} keys of its metric (by its labels and time),
 * whose keyed state, a {@link Sketches.State} over the metric's summaries, builds from it the
 * windows built from rows (tumbling cells, sliding KLL or DDSketch windows) and sends each as
 * a {@link Sketches.Part} when the watermark closes it ({@link BuildParts}).
 * <li>The metric's one key merges the parts of all shards into its own {@link Sketches.State}
 * (KLL and DDSketch by their merges, keeping their guarantees; DDSketch's and exact cells'
 * merges give what one reader of every row would hold), makes the windows the plan merges or
 * counts from them, and reads each window's φs as the watermark closes it
 * ({@link MergeAndRead}).
 * <li>Each read is routed to the queries reading it ({@link PlanExecution#reads}), a ratio's
 * two reads divided as both arrive ({@link Answers}).
 * </ol>
 */
public final class PlanJob implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Map<String, List<Sketches.Summary>> summaries;
  private final Map<String, List<PlanExecution.Read>> reads;
  /** The plan's embedded execution, where it was compiled; null where the job runs. */
  private final transient PlanExecution execution;

  private PlanJob(PlanExecution execution, Map<String, List<Sketches.Summary>> summaries,
      Map<String, List<PlanExecution.Read>> reads) {
    this.execution = execution;
    this.summaries = new LinkedHashMap<>(summaries);
    this.reads = new LinkedHashMap<>();
    reads.forEach((q, r) -> this.reads.put(q, List.copyOf(r)));
  }

  /** The job of {@code execution}'s plan. */
  public static PlanJob of(PlanExecution execution) {
    return new PlanJob(execution, execution.summaries(), execution.reads());
  }

  /**
   * Plans {@code workload} as the standing-query executor runs it ({@link Execution#STANDING}:
   * builds fed each row once, windows kept), Stage 3 given {@code limit}, and compiles it.
   */
  public static PlanJob plan(Workload workload, Duration limit) {
    final Planner.Planned planned = Planner.plan(workload, Planner.Options.defaults()
        .withExecution(Execution.STANDING).withSelectionLimit(limit));
    return of(new PlanExecution(planned.space(), planned.plan()));
  }

  /**
   * The plan's embedded execution, which answers as the job does (where the job was compiled;
   * null in a copy the cluster deserialized).
   */
  public PlanExecution execution() {
    return execution;
  }

  /** Per metric, the summaries the job keeps (as {@link PlanExecution#summaries}). */
  public Map<String, List<Sketches.Summary>> summaries() {
    return summaries;
  }

  /** What each query reads (as {@link PlanExecution#reads}). */
  public Map<String, List<PlanExecution.Read>> reads() {
    return reads;
  }

  /**
   * The grain of {@code metric}'s windows: every window end and every cell's start and end is
   * a multiple of it (the greatest common divisor of its summaries' steps and cell widths).
   */
  long grain(String metric) {
    long g = 0;
    for (Sketches.Summary s : summaries.get(metric)) {
      g = gcd(g, s.step());
      g = gcd(g, Sketches.cellWidth(s.family(), s.width(), s.step(), s.subWidth()));
    }
    return g;
  }

  /** The widest window of {@code metric}'s summaries. */
  long widest(String metric) {
    return summaries.get(metric).stream().mapToLong(Sketches.Summary::width).max().orElse(0);
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /**
   * The topology over {@code samples} (their timestamps and watermarks assigned): each
   * query's answer per window, emitted as its window closes. Samples of no planned metric are
   * dropped; {@code shards} keys per metric build its summaries in parallel.
   */
  public DataStream<Answer> answers(DataStream<Sample> samples, int shards) {
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be positive: " + shards);
    }
    final PlanJob job = this;
    final DataStream<Tuple4<String, Integer, Long, Double>> routed = samples
        .flatMap((Sample s, Collector<Tuple4<String, Integer, Long, Double>> out) -> {
          if (job.summaries.containsKey(s.metric)) {
            final int hash = 31 * (s.labels == null ? 0 : s.labels.hashCode()) + Long.hashCode(s.ts);
            out.collect(Tuple4.of(s.metric, Math.floorMod(hash, shards), s.ts, s.val));
          }
        })
        .returns(Types.TUPLE(Types.STRING, Types.INT, Types.LONG, Types.DOUBLE))
        .name("route to metric shards");
    final DataStream<Tuple2<String, byte[]>> parts = routed
        .keyBy(r -> r.f0 + '\u0000' + r.f1, Types.STRING)
        .process(new BuildParts(this))
        .returns(Types.TUPLE(Types.STRING, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO))
        .name("build summaries (partial)");
    final DataStream<Tuple5<String, Integer, Long, Double, Double>> readouts = parts
        .keyBy(p -> p.f0, Types.STRING)
        .process(new MergeAndRead(this))
        .returns(Types.TUPLE(Types.STRING, Types.INT, Types.LONG, Types.DOUBLE, Types.DOUBLE))
        .name("merge and read summaries");
    final Map<String, List<Tuple4<String, Integer, Integer, Double>>> readers = readers();
    final TypeInformation<Tuple5<String, Long, Integer, Integer, Double>> operand =
        Types.TUPLE(Types.STRING, Types.LONG, Types.INT, Types.INT, Types.DOUBLE);
    return readouts
        .flatMap((Tuple5<String, Integer, Long, Double, Double> r,
            Collector<Tuple5<String, Long, Integer, Integer, Double>> out) -> {
          for (Tuple4<String, Integer, Integer, Double> q
              : readers.getOrDefault(r.f0 + '\u0000' + r.f1 + '\u0000' + r.f3, List.of())) {
            out.collect(Tuple5.of(q.f0, r.f2, q.f1, q.f2, r.f4));
          }
        })
        .returns(operand)
        .name("route reads to queries")
        .keyBy(o -> o.f0, Types.STRING)
        .process(new Answers())
        .returns(Types.POJO(Answer.class))
        .name("answers");
  }

  /**
   * Each read (metric, summary, φ) → the queries reading it: the query, which operand, and
   * how many it has.
   */
  private Map<String, List<Tuple4<String, Integer, Integer, Double>>> readers() {
    final Map<String, List<Tuple4<String, Integer, Integer, Double>>> out = new LinkedHashMap<>();
    reads.forEach((query, rs) -> {
      for (int i = 0; i < rs.size(); i++) {
        final PlanExecution.Read r = rs.get(i);
        out.computeIfAbsent(r.metric() + '\u0000' + r.summary() + '\u0000' + r.phi(),
            k -> new ArrayList<>()).add(Tuple4.of(query, i, rs.size(), r.phi()));
      }
    });
    return out;
  }
}
