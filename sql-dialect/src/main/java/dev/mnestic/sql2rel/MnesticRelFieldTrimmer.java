package dev.mnestic.sql2rel;

import dev.mnestic.rel.MnesticRelBuilder;
import dev.mnestic.rel.Skyline;
import dev.mnestic.rel.Skyline.Dimension;
import dev.mnestic.runtime.RunningStatement;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mapping;
import org.apache.calcite.util.mapping.Mappings;

import java.util.Set;

/**
 * Calcite's field trimmer, and {@link Skyline}: a skyline needs of its
 * input the fields its consumer uses and the fields it compares, so only
 * those are read (from the store, for a skyline over a table).
 */
public class MnesticRelFieldTrimmer extends RelFieldTrimmer {
  /** The trimmer's builder (Calcite's keeps its own private). */
  private final RelBuilder relBuilder;

  public MnesticRelFieldTrimmer(SqlValidator validator, RelBuilder relBuilder) {
    super(validator, relBuilder);
    this.relBuilder = relBuilder;
  }

  /** As Calcite's, after a look at the running statement's flag: trimming stops with it. */
  @Override protected TrimResult trimChild(RelNode rel, RelNode input, ImmutableBitSet fieldsUsed,
      Set<RelDataTypeField> extraFields) {
    RunningStatement.checkCurrent();
    return super.trimChild(rel, input, fieldsUsed, extraFields);
  }

  /** Variant of {@link #trimFields(RelNode, ImmutableBitSet, Set)} for a {@link Skyline}. */
  public TrimResult trimFields(Skyline skyline, ImmutableBitSet fieldsUsed,
      Set<RelDataTypeField> extraFields) {
    final int fieldCount = skyline.getRowType().getFieldCount();
    final RelNode input = skyline.getInput();
    final ImmutableBitSet.Builder inputFieldsUsed = fieldsUsed.rebuild();
    for (Dimension d : skyline.dimensions) {
      inputFieldsUsed.set(d.field());
    }
    final TrimResult trimmed = trimChild(skyline, input, inputFieldsUsed.build(), Set.of());
    final RelNode newInput = trimmed.left;
    final Mapping mapping = trimmed.right;
    if (newInput == input && mapping.isIdentity() && fieldsUsed.cardinality() == fieldCount) {
      return result(skyline, Mappings.createIdentity(fieldCount));
    }
    // The skyline's fields are its input's: the input's mapping is its own.
    return result(MnesticRelBuilder.skyline(relBuilder.push(newInput),
        skyline.dimensions.stream()
            .map(d -> new Dimension(mapping.getTarget(d.field()), d.direction())).toList(),
        skyline.distinct).build(), mapping, skyline);
  }
}
