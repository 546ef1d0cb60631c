package dev.mnestic.flink.job;

import dev.mnestic.flink.io.Answer;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.java.tuple.Tuple5;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Stage 3, keyed by query: each read (query, window end, operand, operands, value) of a query
 * with one read is its answer; a ratio's two reads of a window wait in keyed state for each
 * other and answer their quotient, as the embedded executor's series does. A window whose
 * other operand read nothing (no row reached its summary) has no answer: its wait ends when
 * the watermark passes the window's end.
 */
final class Answers extends KeyedProcessFunction<String, Tuple5<String, Long, Integer, Integer, Double>, Answer> {
  private static final long serialVersionUID = 1L;

  /** A ratio's operands by window end: numerator and denominator, NaN until read. */
  private transient MapState<Long, double[]> operands;

  @Override public void open(OpenContext context) {
    operands = getRuntimeContext().getMapState(new MapStateDescriptor<>("operands", Types.LONG,
        PrimitiveArrayTypeInfo.DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO));
  }

  @Override public void processElement(Tuple5<String, Long, Integer, Integer, Double> read,
      Context ctx, Collector<Answer> out) throws Exception {
    if (read.f3 == 1) {
      out.collect(new Answer(read.f0, read.f1, read.f4));
      return;
    }
    double[] both = operands.get(read.f1);
    if (both == null) {
      both = new double[] {Double.NaN, Double.NaN};
      ctx.timerService().registerEventTimeTimer(read.f1);
    }
    both[read.f2] = read.f4;
    if (!Double.isNaN(both[0]) && !Double.isNaN(both[1])) {
      out.collect(new Answer(read.f0, read.f1, both[0] / both[1]));
      operands.remove(read.f1);
    } else {
      operands.put(read.f1, both);
    }
  }

  @Override public void onTimer(long time, OnTimerContext ctx, Collector<Answer> out)
      throws Exception {
    operands.remove(time);
  }
}
