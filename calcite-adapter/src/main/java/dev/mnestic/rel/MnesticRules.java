package dev.mnestic.rel;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRepeatUnionRule;
import org.apache.calcite.adapter.enumerable.EnumerableValuesRule;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.RepeatUnion;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.logical.LogicalRepeatUnion;
import org.apache.calcite.rel.logical.LogicalValues;

import java.util.ArrayList;
import java.util.List;

/** Planner rules for mnestic's own operators. */
public final class MnesticRules {
  private MnesticRules() {
  }

  /** Rule that implements a {@link LogicalRecursiveUnion} as an {@link EnumerableRecursiveUnion}. */
  public static final ConverterRule ENUMERABLE_RECURSIVE_UNION = ConverterRule.Config.INSTANCE
      .withConversion(LogicalRecursiveUnion.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "EnumerableRecursiveUnionRule")
      .withRuleFactory(EnumerableRecursiveUnionRule::new)
      .toRule(EnumerableRecursiveUnionRule.class);

  /**
   * Rule that implements a {@link LogicalRepeatUnion} (SQL's {@code WITH RECURSIVE}) as
   * Calcite's EnumerableRepeatUnion over an {@link EnumerableEachRound}; replaces
   * {@code EnumerableRules.ENUMERABLE_REPEAT_UNION_RULE}.
   */
  public static final ConverterRule ENUMERABLE_REPEAT_UNION = ConverterRule.Config.INSTANCE
      .withConversion(LogicalRepeatUnion.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "EnumerableEachRoundRepeatUnionRule")
      .withRuleFactory(EnumerableEachRoundRepeatUnionRule::new)
      .toRule(EnumerableEachRoundRepeatUnionRule.class);

  /** As Calcite's rule, with the iterative input built afresh for each round. */
  static final class EnumerableEachRoundRepeatUnionRule extends EnumerableRepeatUnionRule {
    EnumerableEachRoundRepeatUnionRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final RepeatUnion u = (RepeatUnion) super.convert(rel);
      final RelNode step = u.getIterativeRel();
      return u.copy(u.getTraitSet(), List.of(u.getSeedRel(),
          new EnumerableEachRound(step.getCluster(), step.getTraitSet(), step)));
    }
  }

  /** Rule that implements a {@link LogicalDatalogAggregate} as an {@link EnumerableDatalogAggregate}. */
  public static final ConverterRule ENUMERABLE_DATALOG_AGGREGATE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalDatalogAggregate.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "EnumerableDatalogAggregateRule")
      .withRuleFactory(EnumerableDatalogAggregateRule::new)
      .toRule(EnumerableDatalogAggregateRule.class);

  /** Rule that implements a {@link LogicalSketchAggregate} as an {@link EnumerableSketchAggregate}. */
  public static final ConverterRule ENUMERABLE_SKETCH_AGGREGATE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalSketchAggregate.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "EnumerableSketchAggregateRule")
      .withRuleFactory(EnumerableSketchAggregateRule::new)
      .toRule(EnumerableSketchAggregateRule.class);

  /** Converts a {@link LogicalSketchAggregate}, its input to Enumerable. */
  static final class EnumerableSketchAggregateRule extends ConverterRule {
    EnumerableSketchAggregateRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final LogicalSketchAggregate a = (LogicalSketchAggregate) rel;
      return new EnumerableSketchAggregate(a.getCluster(),
          a.getTraitSet().replace(EnumerableConvention.INSTANCE),
          convert(a.getInput(), a.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE)),
          a.timeColumn, a.valueColumn, a.summaries);
    }
  }

  /**
   * Rule that implements a LogicalValues of at least {@link EnumerableStashedValues#MIN_ROWS}
   * rows, or with a literal Calcite's code would write with another type than its column's, as
   * an {@link EnumerableStashedValues}, other ones as Calcite's EnumerableValues; replaces
   * {@code EnumerableRules.ENUMERABLE_VALUES_RULE}.
   */
  public static final ConverterRule ENUMERABLE_VALUES = ConverterRule.Config.INSTANCE
      .withConversion(LogicalValues.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "EnumerableStashedValuesRule")
      .withRuleFactory(EnumerableStashedValuesRule::new)
      .toRule(EnumerableStashedValuesRule.class);

  /** Stashes many rows, or mistyped literals; leaves the others to Calcite's rule. */
  static final class EnumerableStashedValuesRule extends EnumerableValuesRule {
    EnumerableStashedValuesRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final Values values = (Values) rel;
      return (values.getTuples().size() >= EnumerableStashedValues.MIN_ROWS
          || EnumerableStashedValues.hasMistypedLiteral(values))
          && EnumerableStashedValues.canStash(values)
          ? EnumerableStashedValues.of(values) : super.convert(rel);
    }
  }

  /** Rule that implements a {@link LogicalSkyline} as an {@link EnumerableSkyline}. */
  public static final ConverterRule ENUMERABLE_SKYLINE = ConverterRule.Config.INSTANCE
      .withConversion(LogicalSkyline.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "EnumerableSkylineRule")
      .withRuleFactory(EnumerableSkylineRule::new)
      .toRule(EnumerableSkylineRule.class);

  /** Converts a {@link LogicalSkyline}, its input to Enumerable. */
  static final class EnumerableSkylineRule extends ConverterRule {
    EnumerableSkylineRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final LogicalSkyline s = (LogicalSkyline) rel;
      return new EnumerableSkyline(s.getCluster(),
          s.getTraitSet().replace(EnumerableConvention.INSTANCE),
          convert(s.getInput(), s.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE)),
          s.dimensions, s.distinct);
    }
  }

  /** Rule that implements a {@link LogicalAsOf} as an {@link EnumerableAsOf}. */
  public static final ConverterRule ENUMERABLE_AS_OF = ConverterRule.Config.INSTANCE
      .withConversion(LogicalAsOf.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "EnumerableAsOfRule")
      .withRuleFactory(EnumerableAsOfRule::new)
      .toRule(EnumerableAsOfRule.class);

  /** Converts a {@link LogicalAsOf}, its input to Enumerable. */
  static final class EnumerableAsOfRule extends ConverterRule {
    EnumerableAsOfRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final LogicalAsOf a = (LogicalAsOf) rel;
      return new EnumerableAsOf(a.getCluster(),
          a.getTraitSet().replace(EnumerableConvention.INSTANCE),
          convert(a.getInput(), a.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE)),
          a.keys, a.validity, a.at);
    }
  }

  /** Rule that implements a {@link LogicalFixedRuleApply} as an {@link EnumerableFixedRuleApply}. */
  public static final ConverterRule ENUMERABLE_FIXED_RULE_APPLY = ConverterRule.Config.INSTANCE
      .withConversion(LogicalFixedRuleApply.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "EnumerableFixedRuleApplyRule")
      .withRuleFactory(EnumerableFixedRuleApplyRule::new)
      .toRule(EnumerableFixedRuleApplyRule.class);

  /** Converts a {@link LogicalFixedRuleApply}, its inputs to Enumerable. */
  static final class EnumerableFixedRuleApplyRule extends ConverterRule {
    EnumerableFixedRuleApplyRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final LogicalFixedRuleApply f = (LogicalFixedRuleApply) rel;
      final List<RelNode> inputs = new ArrayList<>();
      for (RelNode input : f.getInputs()) {
        inputs.add(convert(input, input.getTraitSet().replace(EnumerableConvention.INSTANCE)));
      }
      return new EnumerableFixedRuleApply(f.getCluster(),
          f.getTraitSet().replace(EnumerableConvention.INSTANCE), inputs, f.spec);
    }
  }

  /** Rule that implements a {@link LogicalGenericJoin} as an {@link EnumerableGenericJoin}. */
  public static final ConverterRule ENUMERABLE_GENERIC_JOIN = ConverterRule.Config.INSTANCE
      .withConversion(LogicalGenericJoin.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "EnumerableGenericJoinRule")
      .withRuleFactory(EnumerableGenericJoinRule::new)
      .toRule(EnumerableGenericJoinRule.class);

  /** Converts a {@link LogicalGenericJoin}, its inputs to Enumerable. */
  static final class EnumerableGenericJoinRule extends ConverterRule {
    EnumerableGenericJoinRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final LogicalGenericJoin j = (LogicalGenericJoin) rel;
      final List<RelNode> inputs = new ArrayList<>();
      for (RelNode input : j.getInputs()) {
        inputs.add(convert(input, input.getTraitSet().replace(EnumerableConvention.INSTANCE)));
      }
      return new EnumerableGenericJoin(j.getCluster(),
          j.getTraitSet().replace(EnumerableConvention.INSTANCE), inputs, j.spec);
    }
  }

  /** Rule that implements a {@link LogicalSearchApply} as an {@link EnumerableSearchApply}. */
  public static final ConverterRule ENUMERABLE_SEARCH_APPLY = ConverterRule.Config.INSTANCE
      .withConversion(LogicalSearchApply.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "EnumerableSearchApplyRule")
      .withRuleFactory(EnumerableSearchApplyRule::new)
      .toRule(EnumerableSearchApplyRule.class);

  /** Converts a {@link LogicalSearchApply}, its inputs to Enumerable. */
  static final class EnumerableSearchApplyRule extends ConverterRule {
    EnumerableSearchApplyRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final LogicalSearchApply s = (LogicalSearchApply) rel;
      final RelNode outer = convert(s.getLeft(),
          s.getLeft().getTraitSet().replace(EnumerableConvention.INSTANCE));
      final RelNode relation = convert(s.getRight(),
          s.getRight().getTraitSet().replace(EnumerableConvention.INSTANCE));
      return new EnumerableSearchApply(s.getCluster(),
          s.getTraitSet().replace(EnumerableConvention.INSTANCE), outer, relation, s.spec,
          s.binds);
    }
  }

  /** Rule that implements a {@link LogicalIndexJoin} as an {@link EnumerableIndexJoin}. */
  public static final ConverterRule ENUMERABLE_INDEX_JOIN = ConverterRule.Config.INSTANCE
      .withConversion(LogicalIndexJoin.class, Convention.NONE,
          EnumerableConvention.INSTANCE, "EnumerableIndexJoinRule")
      .withRuleFactory(EnumerableIndexJoinRule::new)
      .toRule(EnumerableIndexJoinRule.class);

  /** Converts a {@link LogicalIndexJoin}, its inputs to Enumerable. */
  static final class EnumerableIndexJoinRule extends ConverterRule {
    EnumerableIndexJoinRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final LogicalIndexJoin j = (LogicalIndexJoin) rel;
      final RelNode left = convert(j.getLeft(),
          j.getLeft().getTraitSet().replace(EnumerableConvention.INSTANCE));
      final RelNode table = convert(j.getRight(),
          j.getRight().getTraitSet().replace(EnumerableConvention.INSTANCE));
      return new EnumerableIndexJoin(j.getCluster(),
          j.getTraitSet().replace(EnumerableConvention.INSTANCE), left, table, j.spec);
    }
  }

  /** Converts a {@link LogicalDatalogAggregate}, its input to Enumerable. */
  static final class EnumerableDatalogAggregateRule extends ConverterRule {
    EnumerableDatalogAggregateRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final LogicalDatalogAggregate a = (LogicalDatalogAggregate) rel;
      return new EnumerableDatalogAggregate(a.getCluster(),
          a.getTraitSet().replace(EnumerableConvention.INSTANCE),
          convert(a.getInput(), a.getInput().getTraitSet().replace(EnumerableConvention.INSTANCE)),
          a.aggregations);
    }
  }

  /** Converts a {@link LogicalRecursiveUnion}, its inputs to Enumerable. */
  static final class EnumerableRecursiveUnionRule extends ConverterRule {
    EnumerableRecursiveUnionRule(Config config) {
      super(config);
    }

    @Override public RelNode convert(RelNode rel) {
      final LogicalRecursiveUnion u = (LogicalRecursiveUnion) rel;
      final List<RelNode> inputs = new ArrayList<>();
      for (RelNode input : u.getInputs()) {
        inputs.add(convert(input, input.getTraitSet().replace(EnumerableConvention.INSTANCE)));
      }
      final int n = u.size();
      return new EnumerableRecursiveUnion(u.getCluster(),
          u.getTraitSet().replace(EnumerableConvention.INSTANCE), inputs.subList(0, n),
          inputs.subList(n, 2 * n), u.fullTables, u.deltaTables, u.aggregations,
          u.maxIterations);
    }
  }
}
