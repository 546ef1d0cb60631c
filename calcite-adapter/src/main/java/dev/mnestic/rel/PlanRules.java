package dev.mnestic.rel;

import dev.mnestic.store.StoreRules;

import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRules;
import org.apache.calcite.rel.rules.CoreRules;

import java.util.List;

/**
 * The planner rules of each kind of mnestic plan, in one place: what each kind's Volcano planner
 * gets besides Calcite's defaults, what it goes without, and the rules of the Hep passes
 * {@link Plans#standard()} runs around it. Each rule added or removed says why.
 *
 * <p>Not here: the rules the store's convention registers itself when a plan first reads a store
 * table ({@code StoreConvention.register}: a key lookup pushed into HSQLDB, the store's scan and
 * its converter), the same for every kind; and the skyline rules' passes of SQL plans
 * ({@code SkylineRules.program()} in sql-dialect, which says why each pass runs where it does).
 */
public final class PlanRules {
  private PlanRules() {
  }

  /** Rules a Volcano planner gets ({@link #added}) and goes without ({@link #removed}). */
  public record RuleSet(List<RelOptRule> added, List<RelOptRule> removed) {
    /** Removes {@link #removed} from {@code planner}, then adds {@link #added}. */
    public void applyTo(RelOptPlanner planner) {
      removed.forEach(planner::removeRule);
      added.forEach(planner::addRule);
    }
  }

  /** SQL statements of a {@code jdbc:mnestic:} connection (Calcite's preparation). */
  public static final RuleSet SQL = new RuleSet(
      List.of(
          // Store tables are written by StoreWrites, not through a Java collection.
          StoreRules.STORE_MODIFY,
          MnesticRules.ENUMERABLE_RECURSIVE_UNION,
          // WITH RECURSIVE: Calcite's rule, with the recursive step rebuilt each round.
          MnesticRules.ENUMERABLE_REPEAT_UNION,
          MnesticRules.ENUMERABLE_SKYLINE,
          // Many rows of VALUES (and IN lists, which become VALUES) as data, not as generated
          // code.
          MnesticRules.ENUMERABLE_VALUES),
      List.of(
          // Replaced by StoreRules.STORE_MODIFY.
          EnumerableRules.ENUMERABLE_TABLE_MODIFICATION_RULE,
          // Replaced by MnesticRules.ENUMERABLE_REPEAT_UNION.
          EnumerableRules.ENUMERABLE_REPEAT_UNION_RULE,
          // Replaced by MnesticRules.ENUMERABLE_VALUES.
          EnumerableRules.ENUMERABLE_VALUES_RULE,
          // Store scans come unsorted: a merge join would sort both sides, and Calcite's merge
          // join is many times slower than its hash join here (bench/RESULTS.md, "Where work
          // over the store runs").
          EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE));

  /**
   * A Datalog script's strata (the planner of the plan's own cluster, which the script's
   * {@code RelBuilder} made).
   */
  public static final RuleSet DATALOG = new RuleSet(
      List.of(
          // A recursive stratum's fixpoint.
          MnesticRules.ENUMERABLE_RECURSIVE_UNION,
          // CozoDB's aggregations, meet ones included.
          MnesticRules.ENUMERABLE_DATALOG_AGGREGATE,
          // A time-travel relation at one moment.
          MnesticRules.ENUMERABLE_AS_OF,
          // A fixed rule ('<~') over its input relations.
          MnesticRules.ENUMERABLE_FIXED_RULE_APPLY,
          // A rule body's cyclic part, joined one variable at a time.
          MnesticRules.ENUMERABLE_GENERIC_JOIN,
          // A search atom ('~rel:idx{...}') over its outer rows and its relation.
          MnesticRules.ENUMERABLE_SEARCH_APPLY,
          // A stored relation's atom joined through the store's index ('*rel{k}' with k bound).
          MnesticRules.ENUMERABLE_INDEX_JOIN),
      List.of(
          // Values of type ANY have no order Calcite can generate code for.
          EnumerableRules.ENUMERABLE_MERGE_JOIN_RULE,
          // Its uniqueness metadata recursed forever over mutually recursive components.
          CoreRules.JOIN_ON_UNIQUE_TO_SEMI_JOIN,
          // It folds a filter's constant calls into literals of type ANY, and the Java
          // generated for a negative one, (Object) -0.1D, does not compile ('lon > -0.1');
          // a list or bytes has no literal at all.
          CoreRules.FILTER_REDUCE_EXPRESSIONS,
          // With four or more joins it made the planner's metadata cyclic
          // (CyclicMetadataException, e.g. the skyline spec's join back from a
          // frontier to its rows); joins keep the order of the rule's atoms, as in CozoDB.
          CoreRules.JOIN_COMMUTE));

  /**
   * A standing-query plan's evaluation: each metric's pass over its table (the planner of the
   * plan's own cluster).
   */
  public static final RuleSet STANDING = new RuleSet(
      List.of(
          // Each pass summarises its rows into the sketches the chosen plan shares.
          MnesticRules.ENUMERABLE_SKETCH_AGGREGATE),
      List.of());

  /**
   * Sub-queries as correlates: Calcite's {@code Programs.subQuery} rules, run in a Hep pass
   * before decorrelation ({@link Plans#subQueries()}).
   */
  static final List<RelOptRule> SUB_QUERIES_TO_CORRELATES = List.of(
      CoreRules.FILTER_SUB_QUERY_TO_CORRELATE, CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE,
      CoreRules.JOIN_SUB_QUERY_TO_CORRELATE, CoreRules.PROJECT_OVER_SUM_TO_SUM0_RULE);

  /**
   * Sub-queries as mark correlates, when the connection enables top-down general decorrelation
   * (Calcite's own choice in {@code Programs.subQuery}).
   */
  static final List<RelOptRule> SUB_QUERIES_TO_MARK_CORRELATES = List.of(
      CoreRules.FILTER_SUB_QUERY_TO_MARK_CORRELATE,
      CoreRules.PROJECT_SUB_QUERY_TO_MARK_CORRELATE, CoreRules.JOIN_SUB_QUERY_TO_CORRELATE,
      CoreRules.PROJECT_OVER_SUM_TO_SUM0_RULE);

  /**
   * Calcite's calc step, run after Volcano, each rule to its fixpoint in turn
   * ({@link Plans#standard()}): filters and projections become calcs, merged, as Calcite's
   * standard program leaves them.
   */
  static final List<RelOptRule> CALCS = RelOptRules.CALC_RULES;
}
