package dev.mnestic.rel;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.type.RelDataType;

import java.util.Arrays;
import java.util.List;

/**
 * A time-travel relation as it was at one moment: CozoDB's scan of a stored
 * relation {@code *rel{...} @ at}. The input's column {@code validity} holds
 * a {@link dev.mnestic.value.Validity} (the relation's last key column); the
 * columns {@code keys} are the other key columns, whose values name a fact.
 * Of each fact's rows, the one whose Validity is the greatest at or before
 * {@code at} in time (at the same time an assertion before a retraction) is
 * the fact's state at {@code at}: the output has that row when it is an
 * assertion, and nothing for the fact when it is a retraction or when every
 * row is later than {@code at}. The output's columns are the input's.
 *
 * <p>CozoDB skips through its key order to each fact's row; this reads the
 * input once and keeps the best row so far per fact in a hash table: memory
 * grows with the number of facts, not rows.
 */
public abstract class AsOf extends SingleRel {
  /** The columns of the key but the Validity. */
  public final List<Integer> keys;
  /** The column of the Validity. */
  public final int validity;
  /** The moment, microseconds since the Unix epoch. */
  public final long at;

  protected AsOf(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<Integer> keys,
      int validity, long at) {
    super(cluster, traits, input);
    final int width = input.getRowType().getFieldCount();
    if (validity < 0 || validity >= width || keys.contains(validity)
        || keys.stream().anyMatch(k -> k < 0 || k >= width)) {
      throw new IllegalArgumentException("keys " + keys + " and validity " + validity
          + " must be distinct columns of a " + width + "-column input");
    }
    this.keys = List.copyOf(keys);
    this.validity = validity;
    this.at = at;
  }

  /** {@link #keys} as the runtime takes them. */
  int[] keyArray() {
    return keys.stream().mapToInt(Integer::intValue).toArray();
  }

  @Override protected RelDataType deriveRowType() {
    return getInput().getRowType();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("keys", Arrays.toString(keyArray()))
        .item("validity", validity).item("at", at);
  }
}
