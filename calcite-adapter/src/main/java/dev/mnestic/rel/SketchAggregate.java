package dev.mnestic.rel;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.List;

/**
 * Quantiles of a time series per window, read from one summary per window: the sketch build
 * and read of a sketch-sharing plan. The input's column {@code timeColumn} (a TIMESTAMP) places
 * each row, its column {@code valueColumn} (numeric; rows where it is null are skipped) is
 * summarized. The windows are [end - width, end) for every end that is a multiple of
 * {@code step} since the epoch and whose window holds a row. Each window's summary is built once
 * and every quantile in {@code phis} is read from it: one output row per window, its end (a
 * TIMESTAMP), then one DOUBLE per φ, windows in time order.
 *
 * <p>{@code family} is KLL (DataSketches' KLL of size {@code parameter} = k; the φ-quantile read
 * inclusively), DDSKETCH (DataDog's DDSketch of relative accuracy {@code parameter} = α) or
 * EXACT (every value kept; the value at rank ⌊φ·(n - 1)⌋). With {@code subWidth} 0 each row
 * updates every window that holds it (width / step of them); otherwise each row updates one
 * tumbling sub-window of {@code subWidth}, and each window merges the sub-windows that tile it.
 *
 * <p>Hazard: the input need not come in time order, so every window's summary is held until the
 * input ends; memory grows with the number of windows times the summary's size.
 */
public abstract class SketchAggregate extends SingleRel {
  /** The summary families. */
  public enum Family { KLL, DDSKETCH, EXACT }

  public final int timeColumn;
  public final int valueColumn;
  public final Family family;
  public final double parameter;
  public final long width;
  public final long step;
  public final long subWidth;
  public final List<Double> phis;

  protected SketchAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int timeColumn, int valueColumn, Family family, double parameter, long width, long step,
      long subWidth, List<Double> phis) {
    super(cluster, traits, input);
    if (width <= 0 || step <= 0 || step > width || width % step != 0) {
      throw new IllegalArgumentException("windows need 0 < step <= width, width a multiple of step: "
          + width + ", " + step);
    }
    if (subWidth < 0 || subWidth > 0 && (width % subWidth != 0 || step % subWidth != 0)) {
      throw new IllegalArgumentException("sub-windows of " + subWidth + " ms do not tile windows of "
          + width + " ms every " + step + " ms");
    }
    if (phis.isEmpty() || phis.stream().anyMatch(p -> !(p >= 0 && p <= 1))) {
      throw new IllegalArgumentException("quantiles must be in [0, 1]: " + phis);
    }
    this.timeColumn = timeColumn;
    this.valueColumn = valueColumn;
    this.family = family;
    this.parameter = parameter;
    this.width = width;
    this.step = step;
    this.subWidth = subWidth;
    this.phis = List.copyOf(phis);
  }

  @Override protected RelDataType deriveRowType() {
    final RelDataTypeFactory f = getCluster().getTypeFactory();
    final RelDataTypeFactory.Builder b = f.builder().add("window_end", SqlTypeName.TIMESTAMP);
    for (int i = 0; i < phis.size(); i++) {
      b.add("q" + i, f.createTypeWithNullability(f.createSqlType(SqlTypeName.DOUBLE), false));
    }
    return b.build();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("time", timeColumn).item("value", valueColumn)
        .item("family", family).item("parameter", parameter).item("width", width)
        .item("step", step).itemIf("sub", subWidth, subWidth > 0).item("phis", phis);
  }
}
