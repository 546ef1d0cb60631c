package dev.mnestic.rel.rules;

import dev.mnestic.rel.Plans;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.tools.Program;

import java.util.List;

/** Rules that rewrite {@link dev.mnestic.rel.Skyline}s, and the program that applies them. */
public final class SkylineRules {
  private SkylineRules() {
  }

  /** Rule that drops dimensions that cannot change a skyline. */
  public static final RelOptRule REDUNDANT_DIMENSIONS =
      SkylineRedundantDimensionsRule.DEFAULT.toRule();

  /** Rule that merges a skyline over a skyline of the same MIN/MAX dimensions. */
  public static final RelOptRule MERGE = SkylineMergeRule.DEFAULT.toRule();

  /** Rule that turns a skyline of DIFF dimensions only into its input or a DISTINCT. */
  public static final RelOptRule ALL_DIFF = SkylineAllDiffRule.DEFAULT.toRule();

  /** Rule that turns a skyline of one MIN or MAX dimension into a filter on a window MIN/MAX. */
  public static final RelOptRule TO_WINDOW_FILTER = SkylineToWindowFilterRule.DEFAULT.toRule();

  /** Rule that moves a skyline below a projection of the fields it compares. */
  public static final RelOptRule PROJECT_TRANSPOSE = SkylineProjectTransposeRule.DEFAULT.toRule();

  /** Rule that pushes a skyline below an outer join that keeps each row of its side once. */
  public static final RelOptRule JOIN_TRANSPOSE = SkylineJoinTransposeRule.DEFAULT.toRule();

  /** Rule that copies a skyline below UNION ALL as a pre-filter of each input. */
  public static final RelOptRule UNION_TRANSPOSE = SkylineUnionTransposeRule.DEFAULT.toRule();

  /**
   * The rules in passes, each to a fixpoint:
   * <ol>
   *   <li>simplify: redundant dimensions, merge, all-DIFF;
   *   <li>push down through projections and joins;
   *   <li>copy below UNION ALL (in a pass of its own: the copies must still
   *       be the union's inputs when it looks again, or it would copy again);
   *   <li>push the copies down, and simplify what pushing stacked;
   *   <li>turn one-dimension skylines into filters, last, so the passes
   *       before see every skyline.
   * </ol>
   */
  public static Program program() {
    final HepProgram program = HepProgram.builder()
        .addMatchOrder(HepMatchOrder.BOTTOM_UP)
        .addRuleCollection(List.of(REDUNDANT_DIMENSIONS, MERGE, ALL_DIFF))
        .addRuleCollection(List.of(PROJECT_TRANSPOSE, JOIN_TRANSPOSE))
        .addRuleCollection(List.of(UNION_TRANSPOSE))
        .addRuleCollection(List.of(PROJECT_TRANSPOSE, JOIN_TRANSPOSE, REDUNDANT_DIMENSIONS, MERGE,
            ALL_DIFF))
        .addRuleCollection(List.of(TO_WINDOW_FILTER))
        .build();
    return Plans.hep(program);
  }
}
