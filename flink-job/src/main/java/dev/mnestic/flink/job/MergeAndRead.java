package dev.mnestic.flink.job;

import dev.mnestic.runtime.Sketches;

import org.apache.flink.api.common.accumulators.LongMaximum;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.tuple.Tuple5;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Stage 2, keyed by metric: the parts of every shard merged into one {@link Sketches.State}
 * over the metric's summaries (each read only back to its last step: a window is read once, as
 * it closes), in order of their close, each when the watermark passes it; then every window
 * closed since the last read is read as the embedded executor reads a state
 * ({@link Sketches.State#reads}: merges and exact windows made from the cells that changed),
 * one record (metric, summary, window end, φ, value) per read, timestamped at the window's end.
 *
 * <p>The most bytes the state held after a read, per summary, go to the accumulator
 * {@code held/METRIC/INDEX} ({@link Sketches.State#bytesHeld}'s measure), which the bench
 * compares with the cost model's charge.
 */
final class MergeAndRead extends KeyedProcessFunction<String, Tuple2<String, byte[]>,
    Tuple5<String, Integer, Long, Double, Double>> {
  private static final long serialVersionUID = 1L;

  private final PlanJob job;
  private transient ValueState<Sketches.State> state;
  /** Parts waiting for the watermark to pass their close, by close. */
  private transient ValueState<TreeMap<Long, List<Sketches.Part>>> pending;
  /** The last read's time and the latest close merged. */
  private transient ValueState<Tuple2<Long, Long>> marks;
  private transient Map<String, LongMaximum> held;

  MergeAndRead(PlanJob job) {
    this.job = job;
  }

  @Override public void open(OpenContext context) {
    state = getRuntimeContext().getState(
        new ValueStateDescriptor<>("summaries", TypeInformation.of(Sketches.State.class)));
    pending = getRuntimeContext().getState(new ValueStateDescriptor<>("pending",
        TypeInformation.of(new TypeHint<TreeMap<Long, List<Sketches.Part>>>() { })));
    marks = getRuntimeContext().getState(
        new ValueStateDescriptor<>("marks", Types.TUPLE(Types.LONG, Types.LONG)));
    held = new HashMap<>();
  }

  @Override public void processElement(Tuple2<String, byte[]> in, Context ctx,
      Collector<Tuple5<String, Integer, Long, Double, Double>> out) throws Exception {
    final Sketches.Part part = Sketches.Part.fromBytes(in.f1);
    TreeMap<Long, List<Sketches.Part>> waiting = pending.value();
    if (waiting == null) {
      waiting = new TreeMap<>();
      pending.update(waiting);
    }
    waiting.computeIfAbsent(part.closes(), k -> new ArrayList<>()).add(part);
    ctx.timerService().registerEventTimeTimer(part.closes());
  }

  @Override public void onTimer(long time, OnTimerContext ctx,
      Collector<Tuple5<String, Integer, Long, Double, Double>> out) throws Exception {
    final String metric = ctx.getCurrentKey();
    Sketches.State s = state.value();
    if (s == null) {
      s = new Sketches.State(readOnce(job.summaries().get(metric)));
      state.update(s);
    }
    Tuple2<Long, Long> m = marks.value();
    if (m == null) {
      m = Tuple2.of(Long.MIN_VALUE, Long.MIN_VALUE);
    }
    final TreeMap<Long, List<Sketches.Part>> waiting = pending.value();
    if (waiting != null) {
      final Map<Long, List<Sketches.Part>> due = waiting.headMap(time, true);
      for (Map.Entry<Long, List<Sketches.Part>> e : due.entrySet()) {
        for (Sketches.Part p : e.getValue()) {
          s.mergePart(p);
        }
        m.f1 = Math.max(m.f1, e.getKey());
      }
      due.clear();
    }
    for (Object[] read : s.reads(name -> null)) {
      final long end = ((Number) read[1]).longValue();
      if (end > m.f0 && end <= time) {
        out.collect(Tuple5.of(metric, (Integer) read[0], end, (Double) read[2], (Double) read[3]));
      }
    }
    final long[] bytes = s.bytesHeld();
    for (int i = 0; i < bytes.length; i++) {
      final String name = "held/" + metric + "/" + i;
      LongMaximum c = held.get(name);
      if (c == null) {
        c = new LongMaximum();
        getRuntimeContext().addAccumulator(name, c);
        held.put(name, c);
      }
      c.add(bytes[i]);
    }
    m.f0 = time;
    marks.update(m);
    // Windows ending up to the widest window past the latest close still hold merged parts.
    final long next = time + job.grain(metric);
    if (next <= m.f1 + job.widest(metric)) {
      ctx.timerService().registerEventTimeTimer(next);
    }
  }

  /**
   * The summaries read once per window as it closes: each answers only back to its last
   * step, so the state keeps no window it will not read again (the windows and cells those
   * make, back to their starts).
   */
  private static List<Sketches.Summary> readOnce(List<Sketches.Summary> summaries) {
    return summaries.stream().map(s -> new Sketches.Summary(s.family(), s.parameter(), s.width(),
        s.step(), s.subWidth(), s.phis(), s.source(), s.step())).toList();
  }
}
