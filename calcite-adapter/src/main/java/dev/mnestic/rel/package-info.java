/**
 * mnestic's relational operators, the plan stage of both pipelines (SQL: plan; Datalog:
 * what lower builds; planner: what execute builds). Each operator is Calcite's four pieces:
 * a core node stating its semantics ({@link dev.mnestic.rel.Skyline},
 * {@link dev.mnestic.rel.RecursiveUnion}, {@link dev.mnestic.rel.DatalogAggregate},
 * {@link dev.mnestic.rel.SketchAggregate}, {@link dev.mnestic.rel.FixedRuleApply},
 * {@link dev.mnestic.rel.GenericJoin}), its
 * {@code Logical*} node, its {@code Enumerable*}
 * node and the rule in {@link dev.mnestic.rel.MnesticRules}; the runtime method is in
 * {@code runtime}. {@link dev.mnestic.rel.MnesticRelBuilder} builds each operator;
 * {@link dev.mnestic.rel.PlanRules} holds the rule sets of SQL, Datalog and standing-query
 * plans; {@link dev.mnestic.rel.Plans} chooses and compiles the Enumerable plan of a plan
 * built outside a JDBC statement.
 *
 * <p>In: logical {@code RelNode}s from {@code sql2rel}, {@code datalog.lower} and
 * {@code planner.exec}. Out: Enumerable code that calls {@code runtime}.
 */
package dev.mnestic.rel;
