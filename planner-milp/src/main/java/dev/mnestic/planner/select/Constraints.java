package dev.mnestic.planner.select;

import dev.mnestic.planner.memo.Guarantee;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.physical.Execution;
import dev.mnestic.planner.physical.Lifetime;
import dev.mnestic.planner.physical.PhysicalCandidate;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.rules.History;
import dev.mnestic.planner.workload.Target;

import java.time.Duration;

/**
 * What accuracy (K), retention (R) and sharing mean for a plan, defined once. Each selector
 * compiles these functions into its own structures: {@link MilpSelector} into rows
 * (docs/planner.md, (c)), {@link TreePlans} and {@link LagrangianBound} into their dynamic
 * programmes over trees; {@link ReferenceEnumerator} evaluates them on a
 * whole plan, and {@link ReferenceEnumerator#violation} checks any selector's plan against them
 * ({@code ConstraintsTest}).
 *
 * <ul>
 *   <li>(K) The level of a candidate's result ({@link #levelRule}): its own θ's guarantee when θ
 *   is fixed; a ratio's is composed from its operands' ({@link #ratio}); anything else passes its
 *   one input's on. An answer meets its query's target when its input's level does
 *   ({@link #meets}).
 *   <li>(R) Each answer asks its query's retention ρ_q of its root. A candidate asked h asks
 *   {@link #asksOfInputs} of each producer it reads (h + lookback when recomputed on demand, only
 *   the lookback when it answers from what it kept, its keep + lookback for a standing
 *   {@link #keptMerge}), and must keep h itself ({@link #keeps}).
 *   <li>Sharing: a producer read by several consumers is one candidate, paid once, except a
 *   streamed result ({@link #streamed}), which feeds one consumer (P); a kept result is
 *   {@link #reusable}: reading it once more asks nothing more of its inputs.
 * </ul>
 */
final class Constraints {
  private Constraints() {
  }

  /** How a candidate's level (K) follows from its inputs'. */
  enum LevelRule {
    /** θ fixes it: {@link #fixedLevel}, whatever the inputs'. */
    FIXED,
    /** A ratio of its two operands' levels: {@link #ratio}. */
    RATIO,
    /** Its one input's level, which must meet the query's target: {@link #meets}. */
    ANSWER,
    /** Its one input's level, passed on. */
    PASS
  }

  static LevelRule levelRule(PlanSpace space, int v) {
    final LogicalCandidate logical = logical(space, v);
    return logical.properties().parameters() instanceof Parameters.Fixed ? LevelRule.FIXED
        : logical.operator() instanceof Operator.Divide ? LevelRule.RATIO
        : logical.operator() instanceof Operator.Answer ? LevelRule.ANSWER : LevelRule.PASS;
  }

  /** The level of a candidate whose rule is {@link LevelRule#FIXED}: its θ's ε and δ. */
  static Guarantee fixedLevel(PlanSpace space, int v) {
    return ((Parameters.Fixed) logical(space, v).properties().parameters()).guarantee();
  }

  /** A ratio's level from its operands' ({@link Guarantee#ratio}). */
  static Guarantee ratio(Guarantee numerator, Guarantee denominator) {
    return Guarantee.ratio(numerator, denominator);
  }

  /** The target of the query whose answer is v. */
  static Target target(PlanSpace space, int v) {
    return ((Operator.Answer) logical(space, v).operator()).target();
  }

  /** (K) at an answer: {@code level} meets {@code target} (metric, ε, δ; compared in Java). */
  static boolean meets(Guarantee level, Target target) {
    return level.meets(target);
  }

  /** (R): whether c can serve results {@code asked} back (no limit when recomputed on demand). */
  static boolean keeps(PhysicalCandidate c, Duration asked) {
    final Duration capacity = c.properties().history();
    return capacity == null || asked.compareTo(capacity) <= 0;
  }

  /**
   * (R) pushed down one edge: what c, asked to serve {@code asked} back, asks of each producer
   * it reads. {@code asksOfInputs(space, c, ZERO)} is c's lookback, what any use of c asks.
   */
  static Duration asksOfInputs(PlanSpace space, PhysicalCandidate c, Duration asked) {
    final Duration lookback = History.lookback(space.memo(), c.logical(), c.properties().timing());
    if (c.properties().recomputedOnDemand()) {
      return asked.plus(lookback);
    }
    return keptMerge(space, c)
        ? ((Lifetime.AcrossEvaluations) c.properties().lifetime()).keep().plus(lookback) : lookback;
  }

  /**
   * A merge kept across evaluations under {@link Execution#STANDING}: the executor keeps its
   * input's windows back to its own oldest window (an old row late or changed remakes the old
   * windows holding it), so it asks its keep plus its lookback of its input, whoever reads it,
   * and its asks differ by keep.
   */
  static boolean keptMerge(PlanSpace space, PhysicalCandidate c) {
    return space.execution() == Execution.STANDING
        && c.properties().lifetime() instanceof Lifetime.AcrossEvaluations
        && space.memo().candidate(c.logical()).operator() instanceof Operator.Merge;
  }

  /** Sharing: c's result is not kept, so it streams into one consumer (P). */
  static boolean streamed(PhysicalCandidate c) {
    return c.properties().lifetime() instanceof Lifetime.None;
  }

  /**
   * Sharing: c's result is kept and answers from what it kept, so another consumer reads it
   * asking nothing more of c's inputs.
   */
  static boolean reusable(PhysicalCandidate c) {
    return !streamed(c) && !c.properties().recomputedOnDemand();
  }

  private static LogicalCandidate logical(PlanSpace space, int v) {
    return space.memo().candidate(space.candidates().get(v).logical());
  }
}
