package dev.mnestic.store;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.logical.LogicalTableModify;

/** Planner rules of the store; every mnestic planner holds them. */
public final class StoreRules {
  private StoreRules() {
  }

  /** Rule that implements a modification of a store table as an {@link EnumerableStoreModify}. */
  public static final ConverterRule STORE_MODIFY = ConverterRule.Config.INSTANCE
      .withConversion(LogicalTableModify.class,
          (LogicalTableModify modify) -> modify.getTable().unwrap(StoreTable.class) != null,
          Convention.NONE, EnumerableConvention.INSTANCE, "StoreModifyRule")
      .withRuleFactory(StoreModifyRule::new)
      .toRule(StoreModifyRule.class);

  /** Converts a {@link LogicalTableModify} of a store table. */
  static final class StoreModifyRule extends ConverterRule {
    StoreModifyRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final TableModify modify = (TableModify) rel;
      final RelNode input = convert(modify.getInput(),
          modify.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE));
      return new EnumerableStoreModify(modify.getCluster(),
          modify.getTraitSet().replace(EnumerableConvention.INSTANCE),
          modify.getTable(), modify.getCatalogReader(), input,
          modify.getOperation(), modify.getUpdateColumnList(),
          modify.getSourceExpressionList(), modify.isFlattened());
    }
  }
}
