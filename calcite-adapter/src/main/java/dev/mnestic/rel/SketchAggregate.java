package dev.mnestic.rel;

import dev.mnestic.runtime.Sketches;
import dev.mnestic.runtime.Sketches.Summary;

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
 * Quantiles of a time series per window, read from summaries built in one pass over the input:
 * the sketch builds and reads of a sketch-sharing plan. The input's column {@code timeColumn} (a
 * TIMESTAMP) places each row, its column {@code valueColumn} (numeric; rows where it is null are
 * skipped) is summarized. Each row updates, in the same pass, every {@link Summary} of
 * {@code summaries} (each with its own family, parameter and windows) that is built from rows,
 * so a summary that several quantiles or queries read is built once per window, and several
 * summaries cost one pass. A summary merged from sub-windows reads those of the summary it names
 * ({@link Summary#source}), so a 1m KLL read directly and merged into 5m windows is one KLL per
 * minute; see {@link #updatesPerRow(List)}.
 *
 * <p>One output row per read: the summary's index in {@code summaries} (INTEGER), the window's
 * end (TIMESTAMP), the quantile φ (DOUBLE) and its value (DOUBLE); by summary, then window in
 * time order, then φ as the summary lists them.
 *
 * <p>Hazard: the input need not come in time order, so every tumbling summary (a window's or a
 * sub-window's) and every window of a KLL or DDSketch over sliding windows built directly is held
 * until the input ends; memory grows with their number times their sizes. A window merged from
 * sub-windows keeps only its φs' values once made (a merge that another merges keeps its
 * windows' summaries), and exact sliding or merged windows are answered by counting or selection
 * over exact sub-windows of the step, so no value is held twice but for one sorted index per
 * run of exact windows being made ({@link Sketches#HELD_BYTES} measures the most a pass held).
 */
public abstract class SketchAggregate extends SingleRel {
  public final int timeColumn;
  public final int valueColumn;
  public final List<Summary> summaries;

  protected SketchAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      int timeColumn, int valueColumn, List<Summary> summaries) {
    super(cluster, traits, input);
    if (summaries.isEmpty()) {
      throw new IllegalArgumentException("a sketch aggregate keeps at least one summary");
    }
    this.timeColumn = timeColumn;
    this.valueColumn = valueColumn;
    this.summaries = List.copyOf(summaries);
  }

  /**
   * Summary updates per input row: none for a summary merging another's windows, width / step
   * for a KLL or DDSketch summary of sliding windows built directly, and one for every other
   * (built in tumbling windows or sub-windows; exact sliding windows from sub-windows of their
   * step).
   */
  public static long updatesPerRow(List<Summary> summaries) {
    long updates = 0;
    for (Summary s : summaries) {
      if (s.source() < 0) {
        updates += Sketches.cellWidth(s.family(), s.width(), s.step(), s.subWidth()) > 0 ? 1
            : s.width() / s.step();
      }
    }
    return updates;
  }

  @Override protected RelDataType deriveRowType() {
    final RelDataTypeFactory f = getCluster().getTypeFactory();
    return f.builder().add("summary", SqlTypeName.INTEGER).add("window_end", SqlTypeName.TIMESTAMP)
        .add("phi", SqlTypeName.DOUBLE).add("value", SqlTypeName.DOUBLE).build();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("time", timeColumn).item("value", valueColumn)
        .item("summaries", summaries).item("updatesPerRow", updatesPerRow(summaries));
  }
}
