package dev.mnestic.rel;

import dev.mnestic.value.HeadAggregation;

import dev.mnestic.runtime.FixedRuleRun;
import dev.mnestic.runtime.GenericJoinRun;
import dev.mnestic.runtime.IndexJoinRun;
import dev.mnestic.runtime.SearchRun;
import dev.mnestic.runtime.Sketches.Summary;

import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The {@link RelBuilder} entries of mnestic's operators, as Calcite's own operators are methods
 * of RelBuilder ({@code filter}, {@code repeatUnion}, ...): each pops its inputs off the
 * builder's stack and pushes the new logical node, so that the SQL converter, the Datalog
 * lowering and the rules build plans the one way. They are static methods taking the builder,
 * not a RelBuilder subclass, because rules get theirs from {@code call.builder()}, made by
 * whatever {@code RelBuilderFactory} the planner was given.
 */
public final class MnesticRelBuilder {
  private MnesticRelBuilder() {
  }

  /**
   * Replaces the relation on top of {@code b}'s stack by its skyline ({@link Skyline}):
   * {@code SKYLINE OF [DISTINCT] dimensions}.
   *
   * @throws IllegalArgumentException if there is no dimension, or one names no field
   */
  public static RelBuilder skyline(RelBuilder b, List<Skyline.Dimension> dimensions,
      boolean distinct) {
    return b.push(LogicalSkyline.create(b.build(), dimensions, distinct));
  }

  /**
   * Replaces the relation on top of {@code b}'s stack by the quantile reads of
   * {@code summaries} over its column {@code valueColumn} per window of its column
   * {@code timeColumn} ({@link SketchAggregate}).
   */
  public static RelBuilder sketchAggregate(RelBuilder b, int timeColumn, int valueColumn,
      List<Summary> summaries) {
    return b.push(LogicalSketchAggregate.create(b.build(), timeColumn, valueColumn, summaries));
  }

  /**
   * Replaces the time-travel relation on top of {@code b}'s stack by its facts as of {@code at}
   * ({@link AsOf}): per value of its columns {@code keys}, the row whose Validity (column
   * {@code validity}) is the newest at or before {@code at}, if that row asserts.
   */
  public static RelBuilder asOf(RelBuilder b, List<Integer> keys, int validity, long at) {
    return b.push(LogicalAsOf.create(b.build(), keys, validity, at));
  }

  /**
   * Replaces the relation on top of {@code b}'s stack by its rows grouped and aggregated as
   * CozoDB aggregates a rule's head ({@link DatalogAggregate}); {@code aggregations} has
   * per column an aggregation or a grouping key, so all keys make it the distinct rows.
   */
  public static RelBuilder datalogAggregate(RelBuilder b, HeadAggregation aggregations) {
    return b.push(LogicalDatalogAggregate.create(b.build(), aggregations));
  }

  /**
   * Replaces the top n relations of {@code b}'s stack (pushed in order), n being the number of
   * {@code spec}'s inputs, by the rows of the fixed rule {@code spec} over them
   * ({@link FixedRuleApply}).
   */
  public static RelBuilder fixedRuleApply(RelBuilder b, FixedRuleRun.Spec spec) {
    final List<RelNode> inputs = new ArrayList<>();
    for (int i = 0; i < spec.inputs().size(); i++) {
      inputs.add(b.build());
    }
    Collections.reverse(inputs);
    return b.push(LogicalFixedRuleApply.create(b.getCluster(), inputs, spec));
  }

  /**
   * Replaces the top n relations of {@code b}'s stack (pushed in order), n being the number of
   * {@code spec}'s inputs, by their worst-case optimal join ({@link GenericJoin}).
   */
  public static RelBuilder genericJoin(RelBuilder b, GenericJoinRun.Spec spec) {
    final List<RelNode> inputs = new ArrayList<>();
    for (int i = 0; i < spec.bindings().size(); i++) {
      inputs.add(b.build());
    }
    Collections.reverse(inputs);
    return b.push(LogicalGenericJoin.create(b.getCluster(), inputs, spec));
  }

  /**
   * Replaces the top two relations of {@code b}'s stack, the rows reaching a search atom and
   * (on top) the indexed relation's rows, by the search's rows ({@link SearchApply}): each
   * outer row, a hit's relation row, then the hit's {@code binds} bound values.
   */
  public static RelBuilder searchApply(RelBuilder b, SearchRun.Spec spec, int binds) {
    final RelNode relation = b.build();
    final RelNode outer = b.build();
    return b.push(LogicalSearchApply.create(outer, relation, spec, binds));
  }

  /**
   * Replaces the two relations on top of {@code b}'s stack, the rows reaching a stored
   * relation's atom and (on top) a whole read of its table, by their {@link IndexJoin}.
   */
  public static RelBuilder indexJoin(RelBuilder b, IndexJoinRun.Spec spec) {
    final RelNode table = b.build();
    final RelNode left = b.build();
    return b.push(LogicalIndexJoin.create(left, table, spec));
  }

  /**
   * As {@link #recursiveUnion(RelBuilder, List, List, List, int)} with set semantics for every
   * relation.
   */
  public static RelBuilder recursiveUnion(RelBuilder b, List<RelOptTable> fullTables,
      List<RelOptTable> deltaTables, int maxIterations) {
    return recursiveUnion(b, fullTables, deltaTables,
        Collections.nCopies(fullTables.size(), null), maxIterations);
  }

  /**
   * Replaces the top 2n relations of {@code b}'s stack, the n seeds then the n iterative parts
   * (pushed in that order), by their least fixpoint ({@link RecursiveUnion}), where n is the
   * number of {@code fullTables}. As Calcite's {@code RelBuilder.repeatUnion}, the iterative
   * parts scan the tables the fixpoint fills; a program whose fixpoint is infinite stops after
   * {@code maxIterations} rounds with an error.
   *
   * @param aggregations per relation, null for set semantics, else one aggregation per column
   *     as resolved when lowering ({@link RecursiveUnion#aggregations})
   */
  public static RelBuilder recursiveUnion(RelBuilder b, List<RelOptTable> fullTables,
      List<RelOptTable> deltaTables, List<HeadAggregation> aggregations, int maxIterations) {
    final int n = fullTables.size();
    final List<RelNode> inputs = new ArrayList<>();
    for (int i = 0; i < 2 * n; i++) {
      inputs.add(b.build());
    }
    Collections.reverse(inputs);
    return b.push(LogicalRecursiveUnion.create(inputs.subList(0, n), inputs.subList(n, 2 * n),
        fullTables, deltaTables, aggregations, maxIterations));
  }
}
