package dev.mnestic.flink.job;

import dev.mnestic.runtime.Sketches;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import java.util.Arrays;

/**
 * Stage 1, keyed by a metric's shard: the samples (metric, shard, time, value) of one shard
 * added to a {@link Sketches.State} over the metric's summaries, the embedded executor's
 * state fed one row at a time, and each window built from rows sent on as a
 * {@link Sketches.Part} (its bytes, with the metric) once the watermark has passed its close:
 * no sample of it can come any more. A sample behind the watermark is late: it is dropped and
 * counted in the metric {@code lateSamples}.
 */
final class BuildParts
    extends KeyedProcessFunction<String, Tuple4<String, Integer, Long, Double>, Tuple2<String, byte[]>> {
  private static final long serialVersionUID = 1L;

  private final PlanJob job;
  private transient ValueState<Sketches.State> state;
  private transient ValueState<String> metric;
  private transient Counter late;

  BuildParts(PlanJob job) {
    this.job = job;
  }

  @Override public void open(OpenContext context) {
    state = getRuntimeContext().getState(
        new ValueStateDescriptor<>("parts", TypeInformation.of(Sketches.State.class)));
    metric = getRuntimeContext().getState(new ValueStateDescriptor<>("metric", String.class));
    late = getRuntimeContext().getMetricGroup().counter("lateSamples");
  }

  @Override public void processElement(Tuple4<String, Integer, Long, Double> sample, Context ctx,
      Collector<Tuple2<String, byte[]>> out) throws Exception {
    final long t = sample.f2;
    if (t < ctx.timerService().currentWatermark()) {
      late.inc();
      return;
    }
    Sketches.State s = state.value();
    if (s == null) {
      s = new Sketches.State(job.summaries().get(sample.f0));
      state.update(s);
      metric.update(sample.f0);
    }
    s.add(t, sample.f3);
    final long grain = job.grain(sample.f0);
    ctx.timerService().registerEventTimeTimer(Math.floorDiv(t, grain) * grain + grain);
  }

  @Override public void onTimer(long time, OnTimerContext ctx, Collector<Tuple2<String, byte[]>> out)
      throws Exception {
    final Sketches.State s = state.value();
    final String m = metric.value();
    for (Sketches.Part part : s.takeClosed(time)) {
      out.collect(Tuple2.of(m, part.toBytes()));
    }
    // Sliding windows built directly close later than the cells of their rows' times.
    if (Arrays.stream(s.windowsHeld()).sum() > 0) {
      ctx.timerService().registerEventTimeTimer(time + job.grain(m));
    }
  }
}
