package dev.mnestic.store;

import org.apache.calcite.adapter.jdbc.JdbcConvention;
import org.apache.calcite.adapter.jdbc.JdbcRules;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.sql.SqlDialect;

/**
 * What Calcite may push into HSQLDB: single-table access only, that is a
 * scan with the filters and projections over it. Joins, aggregates, sorts,
 * set operations, windows, recursion and all of mnestic's operators run in
 * Calcite's Enumerable code, and writes go through
 * {@link EnumerableStoreModify}.
 *
 * <p>Why: HSQLDB evaluates joins and recursion far slower than Calcite's
 * hash joins (see {@code bench/RESULTS.md}), and Calcite's SQL generation
 * for HSQLDB gets some aggregate and MERGE shapes wrong; one place where
 * each kind of work runs keeps results and plans predictable.
 */
final class StoreConvention extends JdbcConvention {
  StoreConvention(SqlDialect dialect, Expression expression, String name) {
    super(dialect, expression, name);
  }

  @Override public void register(RelOptPlanner planner) {
    planner.addRule(StoreToEnumerableConverter.Rule.create(this));
    planner.addRule(JdbcRules.JdbcFilterRule.create(this));
    planner.addRule(JdbcRules.JdbcProjectRule.create(this));
  }
}
