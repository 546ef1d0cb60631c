package dev.mnestic.rel;

import dev.mnestic.runtime.Skylines.Direction;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

import java.util.List;

/**
 * The rows of the input that no other row dominates: the skyline, or Pareto
 * frontier (Börzsönyi, Kossmann, Stocker, "The Skyline Operator", ICDE 2001).
 * SQL: {@code SELECT ... SKYLINE OF [DISTINCT] expr {MIN | MAX | DIFF}, ...}.
 *
 * <p>Each {@link Dimension} is an input field and a direction. Row s
 * <em>dominates</em> row r when
 * <ol>
 *   <li>s and r are in the same partition: equal on every DIFF field, NULLs
 *       equal to each other (as GROUP BY and PARTITION BY have them);
 *   <li>s is at least as good as r on every MIN field (s &le; r) and every
 *       MAX field (s &ge; r);
 *   <li>s is strictly better than r on at least one MIN or MAX field.
 * </ol>
 * A NULL in a MIN or MAX field compares with nothing, as in SQL's
 * comparisons: a row with such a NULL neither dominates nor is dominated,
 * so it is always in the skyline. Dominance so defined is a strict partial
 * order (irreflexive and transitive: the rows without such NULLs are ordered
 * as usual within each partition, the others are ordered with no row), and
 * the skyline is exactly the rows the NOT EXISTS form keeps:
 *
 * <pre>{@code
 * SELECT * FROM t r WHERE NOT EXISTS (SELECT 1 FROM t s
 *   WHERE s.p IS NOT DISTINCT FROM r.p          -- p DIFF
 *     AND s.a <= r.a AND s.b >= r.b             -- a MIN, b MAX
 *     AND (s.a < r.a OR s.b > r.b))
 * }</pre>
 *
 * <p>Rows equal on every dimension do not dominate each other, so
 * duplicates are all kept; with {@link #distinct}, one row of each set of
 * rows equal on every dimension (NULLs equal, as SELECT DISTINCT has them)
 * is kept, which one unspecified. A skyline with no MIN or MAX dimension
 * keeps every row. The output row type is the input's; the output order is
 * unspecified.
 */
public abstract class Skyline extends SingleRel {
  /** A field of the input and its direction. */
  public record Dimension(int field, Direction direction) {
    @Override public String toString() {
      return "$" + field + " " + direction;
    }
  }

  public final List<Dimension> dimensions;
  public final boolean distinct;

  protected Skyline(RelOptCluster cluster, RelTraitSet traits, RelNode input,
      List<Dimension> dimensions, boolean distinct) {
    super(cluster, traits, input);
    if (dimensions.isEmpty()) {
      throw new IllegalArgumentException("a skyline needs at least one dimension");
    }
    final int fieldCount = input.getRowType().getFieldCount();
    for (Dimension d : dimensions) {
      if (d.field() < 0 || d.field() >= fieldCount) {
        throw new IllegalArgumentException("no field " + d.field() + " in " + input.getRowType());
      }
    }
    this.dimensions = List.copyOf(dimensions);
    this.distinct = distinct;
  }

  /** The number of MIN and MAX dimensions: the dimensionality of the dominance test. */
  public int orderedDimensionCount() {
    return (int) dimensions.stream().filter(d -> d.direction() != Direction.DIFF).count();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw)
        // as text ("$1 MIN"): EXPLAIN PLAN AS JSON writes only values Calcite's RelJson knows
        .item("dimensions", dimensions.stream().map(Dimension::toString).toList())
        .itemIf("distinct", true, distinct);
  }

  /**
   * Estimates the skyline's size as Börzsönyi et al. do for independent
   * dimensions, (ln n)^(d-1) / (d-1)! rows per partition, at most n.
   */
  @Override public double estimateRowCount(RelMetadataQuery mq) {
    final double n = mq.getRowCount(getInput());
    final int d = orderedDimensionCount();
    if (d == 0 || n <= 1) {
      return n;
    }
    double size = 1;
    for (int i = 1; i < d; i++) {
      size = size * Math.log(n) / i;
    }
    return Math.max(1, Math.min(n, size));
  }
}
