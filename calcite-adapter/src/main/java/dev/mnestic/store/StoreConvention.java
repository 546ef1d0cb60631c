package dev.mnestic.store;

import org.apache.calcite.adapter.jdbc.JdbcConvention;
import org.apache.calcite.adapter.jdbc.JdbcRules;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.Sarg;

import java.util.EnumSet;
import java.util.Set;

/**
 * What Calcite may push into HSQLDB: a filter that HSQLDB answers from an index of
 * the table (an equality of the first column of its primary key or of another index
 * with a constant or a parameter, or that column IN a list of constants) and the scan under it,
 * and views (HSQLDB computes their rows).
 * Any other read of a store table is an
 * {@link EnumerableStoreScan} (HSQLDB's row store read directly, filters and
 * projections in Calcite). Joins, aggregates, sorts, set operations, windows,
 * recursion and all of mnestic's operators run in Calcite's Enumerable code,
 * and writes go through {@link EnumerableStoreModify}.
 *
 * <p>Why: HSQLDB evaluates joins and recursion far slower than Calcite's
 * hash joins, and reading a whole table through its JDBC costs more than
 * reading its row store (it builds the whole result first); a lookup by key
 * is where HSQLDB's index pays (see {@code bench/RESULTS.md}).
 */
final class StoreConvention extends JdbcConvention {
  StoreConvention(SqlDialect dialect, Expression expression, String name) {
    super(dialect, expression, name);
  }

  /**
   * Adds the store's rules to a planner that plans a read of a store table, whatever the plan's
   * kind (the rules each kind adds or removes besides: {@code PlanRules}).
   */
  @Override public void register(RelOptPlanner planner) {
    // What HSQLDB computes (a key lookup, a view) comes back into Calcite's Enumerable code.
    planner.addRule(StoreToEnumerableConverter.Rule.create(this));
    // Any other read of a store table reads HSQLDB's row store directly.
    planner.addRule(EnumerableStoreScan.Rule.create(this));
    // Only the columns a projection or an aggregation over the whole table uses.
    planner.addRule(EnumerableStoreScan.ColumnsRule.PROJECT);
    planner.addRule(EnumerableStoreScan.ColumnsRule.AGGREGATE);
    // A filter on an index's first column is where HSQLDB's index pays.
    planner.addRule(KeyFilterRule.forKeys(this));
  }

  /** Rule that pushes a filter on the leading column of a store table's index into HSQLDB. */
  static final class KeyFilterRule extends JdbcRules.JdbcFilterRule {
    static KeyFilterRule forKeys(JdbcConvention out) {
      return JdbcRules.JdbcFilterRule.create(out).config
          .withRuleFactory(KeyFilterRule::new)
          .toRule(KeyFilterRule.class);
    }

    KeyFilterRule(Config config) {
      super(config);
    }

    @Override public boolean matches(RelOptRuleCall call) {
      final Filter filter = call.rel(0);
      return super.matches(call) && onKey(filter) && isPlain(filter.getCondition());
    }

    /**
     * Whether {@code e} is made only of columns, constants, parameters, comparisons, casts and
     * AND, OR, NOT: the filter reaches HSQLDB as SQL text, where a function call would be
     * HSQLDB's function of that name (some read the host, such as {@code LOAD_FILE}), with
     * HSQLDB's semantics; such a filter runs in Calcite.
     */
    private static boolean isPlain(RexNode e) {
      if (e instanceof RexInputRef || e instanceof RexLiteral || e instanceof RexDynamicParam) {
        return true;
      }
      return e instanceof RexCall call && PLAIN.contains(call.getKind())
          && call.getOperands().stream().allMatch(KeyFilterRule::isPlain);
    }

    private static final Set<SqlKind> PLAIN = EnumSet.of(SqlKind.AND, SqlKind.OR, SqlKind.NOT,
        SqlKind.EQUALS, SqlKind.NOT_EQUALS, SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL,
        SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.IS_NULL,
        SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE, SqlKind.IS_FALSE, SqlKind.IS_NOT_TRUE,
        SqlKind.IS_NOT_FALSE, SqlKind.CAST, SqlKind.SEARCH);

    /**
     * Whether a conjunct of the filter is {@code key = constant or parameter}, or
     * {@code key IN (constants)} (a SEARCH of points: a lookup per value).
     */
    private static boolean onKey(Filter filter) {
      for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
        if (conjunct.getKind() == SqlKind.SEARCH
            && ((RexCall) conjunct).getOperands().get(0) instanceof RexInputRef ref
            && ((RexCall) conjunct).getOperands().get(1) instanceof RexLiteral sarg
            && sarg.getValueAs(Sarg.class) instanceof Sarg<?> points && points.isPoints()
            && isKey(filter, ref.getIndex())) {
          return true;
        }
        if (conjunct.getKind() != SqlKind.EQUALS) {
          continue;
        }
        final RexNode a = ((RexCall) conjunct).getOperands().get(0);
        final RexNode b = ((RexCall) conjunct).getOperands().get(1);
        if (a instanceof RexInputRef ref && isValue(b) && isKey(filter, ref.getIndex())
            || b instanceof RexInputRef ref2 && isValue(a) && isKey(filter, ref2.getIndex())) {
          return true;
        }
      }
      return false;
    }

    private static boolean isValue(RexNode node) {
      return node instanceof RexLiteral || node instanceof RexDynamicParam;
    }

    /**
     * Whether {@code field} of the filter's input, a store table's scan, leads one of its
     * indexes (its primary key, or an index made by CREATE INDEX or {@code ::index create}).
     */
    private static boolean isKey(Filter filter, int field) {
      if (!(filter.getInput().stripped() instanceof TableScan scan)) {
        return false;
      }
      final StoreTable table = scan.getTable().unwrap(StoreTable.class);
      return table != null && table.leadingIndexColumns().get(field);
    }
  }
}
