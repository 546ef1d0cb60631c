package dev.mnestic.rel;

import dev.mnestic.value.HeadAggregation;

import dev.mnestic.runtime.RowTable;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;

import java.util.ArrayList;
import java.util.List;

/**
 * The least fixpoint of n mutually recursive relations, evaluated
 * semi-naively. This is Datalog's recursion; Calcite's RepeatUnion holds
 * one relation and re-reads all of it every iteration.
 *
 * <p>Relation i has a seed (its rules that read no relation of the
 * component), an iterative part (its other rules) and two transient tables
 * the iterative parts scan: {@code full_i} (every tuple so far) and
 * {@code delta_i} (the tuples the last iteration added). The lowering writes
 * each recursive rule once per recursive atom, that atom reading
 * {@code delta} and the others {@code full}, so an iteration derives only
 * from new tuples:
 *
 * <ol>
 *   <li>{@code full_i = delta_i = distinct(seed_i)};
 *   <li>{@code new_i = distinct(iterative_i) − full_i} for every i, all
 *       computed from the same {@code full} and {@code delta};
 *   <li>{@code full_i ∪= new_i}, {@code delta_i = new_i};
 *   <li>repeat from 2 until every {@code new_i} is empty; the result is
 *       {@code full_0} (the others stay in their {@code full} tables).
 * </ol>
 *
 * <p>The iterative parts are enumerated anew each round, so they must read
 * the tables lazily: Calcite's Enumerable aggregate computes its groups
 * when its Enumerable is built, once, and so must not stand in an iterative
 * part.
 *
 * <p>The full and delta tables are {@link RowTable}s, each with a name of
 * its own; the plan runs with a context that holds them ({@link Plans#run}). Set semantics: rows are equal when their values
 * are {@code equals}.
 * Hazards: a program whose fixpoint is infinite (e.g. {@code n + 1} over
 * the naturals) never settles; evaluation stops after
 * {@link #maxIterations} iterations or when the statement is cancelled
 * (query timeout), and fails rather than return a partial result.
 */
public abstract class RecursiveUnion extends AbstractRelNode {
  /** Seeds, then iterative parts: n of each. */
  protected final List<RelNode> inputs;
  public final List<RelOptTable> fullTables;
  public final List<RelOptTable> deltaTables;
  public final int maxIterations;
  /**
   * Per relation: null for set semantics, or its head's aggregation
   * ({@link HeadAggregation}: per column an aggregation or a grouping key). The seed and iterative part of such a relation have one
   * column more, the last: each row's position in CozoDB's evaluation order,
   * in which a round's rows are merged. A relation of
   * {@link HeadAggregation#meetKind meet kind} keeps one row
   * per group, its best so far, and a round's delta is the groups that
   * improved; any other is aggregated once, from its seed.
   */
  public final List<HeadAggregation> aggregations;

  protected RecursiveUnion(RelOptCluster cluster, RelTraitSet traits,
      List<RelNode> seeds, List<RelNode> iteratives, List<RelOptTable> fullTables,
      List<RelOptTable> deltaTables, List<HeadAggregation> aggregations, int maxIterations) {
    super(cluster, traits);
    final int n = seeds.size();
    if (n == 0 || iteratives.size() != n || fullTables.size() != n || deltaTables.size() != n
        || aggregations.size() != n) {
      throw new IllegalArgumentException("need n seeds, iterative parts, full and delta tables;"
          + " got " + seeds.size() + ", " + iteratives.size() + ", " + fullTables.size()
          + ", " + deltaTables.size());
    }
    for (RelOptTable t : fullTables) {
      RowTable.of(t);
    }
    for (RelOptTable t : deltaTables) {
      RowTable.of(t);
    }
    final List<RelNode> all = new ArrayList<>(seeds);
    all.addAll(iteratives);
    this.inputs = all;
    this.fullTables = List.copyOf(fullTables);
    this.deltaTables = List.copyOf(deltaTables);
    this.maxIterations = maxIterations;
    this.aggregations = java.util.Collections.unmodifiableList(new ArrayList<>(aggregations));
  }

  /** Number of relations in the component. */
  public int size() {
    return fullTables.size();
  }

  public List<RelNode> seeds() {
    return inputs.subList(0, size());
  }

  public List<RelNode> iteratives() {
    return inputs.subList(size(), 2 * size());
  }

  @Override public List<RelNode> getInputs() {
    return inputs;
  }

  @Override public void replaceInput(int ordinalInParent, RelNode p) {
    inputs.set(ordinalInParent, p);
    recomputeDigest();
  }

  @Override protected RelDataType deriveRowType() {
    return fullTables.get(0).getRowType();
  }

  @Override public RelWriter explainTerms(RelWriter pw) {
    super.explainTerms(pw);
    // in the order of getInputs()
    for (int i = 0; i < size(); i++) {
      pw.input("seed" + i, seeds().get(i));
    }
    for (int i = 0; i < size(); i++) {
      pw.input("iterative" + i, iteratives().get(i));
    }
    return pw.item("relations", fullTables.stream()
            .map(t -> t.getQualifiedName().get(t.getQualifiedName().size() - 1)).toList())
        .item("aggregations", aggregations)
        .item("maxIterations", maxIterations);
  }
}
