package dev.mnestic.rel.rules;

import dev.mnestic.rel.LogicalSkyline;
import dev.mnestic.rel.MnesticRelBuilder;
import dev.mnestic.rel.Skyline;
import dev.mnestic.rel.Skyline.Dimension;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * Moves a {@link Skyline} below a projection whose fields it compares are
 * fields of the projection's input: a projection maps rows one to one, so
 * the skyline may pick the rows first. (It brings a skyline that SQL puts
 * over a block's projection down to the joins and unions below.)
 */
public final class SkylineProjectTransposeRule extends RelRule<SkylineRuleConfig> {
  /** Matches a {@link LogicalSkyline} over a {@link LogicalProject}. */
  public static final SkylineRuleConfig DEFAULT = SkylineRuleConfig
      .of("SkylineProjectTransposeRule", SkylineProjectTransposeRule::new)
      .withOperandSupplier(b -> b.operand(LogicalSkyline.class)
          .oneInput(b1 -> b1.operand(LogicalProject.class).anyInputs()));

  SkylineProjectTransposeRule(SkylineRuleConfig config) {
    super(config);
  }

  @Override public void onMatch(RelOptRuleCall call) {
    final Skyline skyline = call.rel(0);
    final Project project = call.rel(1);
    final List<Dimension> below = new ArrayList<>();
    for (Dimension d : skyline.dimensions) {
      final RexNode e = project.getProjects().get(d.field());
      if (!(e instanceof RexInputRef ref)) {
        return;
      }
      below.add(new Dimension(ref.getIndex(), d.direction()));
    }
    final RelBuilder b = call.builder();
    MnesticRelBuilder.skyline(b.push(project.getInput()), below, skyline.distinct);
    call.transformTo(project.copy(project.getTraitSet(), List.of(b.build())));
  }
}
