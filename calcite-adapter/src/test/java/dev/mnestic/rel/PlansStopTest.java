package dev.mnestic.rel;

import dev.mnestic.runtime.RunningStatement;

import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.runtime.CalciteException;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13, point 4: the Hep planners of mnestic's programs ({@link Plans#hep}, the
 * sub-query and calc steps of {@link Plans#standard()}) stop at their next rule once the
 * running statement is stopped (Calcite's {@code Programs} build theirs without its flag).
 */
class PlansStopTest {
  private final RelBuilder b =
      RelBuilder.create(Frameworks.newConfigBuilder().defaultSchema(
          Frameworks.createRootSchema(true)).build());

  /** A filter over a filter over two rows: FILTER_MERGE fires once on it. */
  private RelNode filters() {
    b.values(new String[] {"x"}, 1, 2);
    b.filter(b.greaterThan(b.field("x"), b.literal(0)));
    return b.filter(b.lessThan(b.field("x"), b.literal(5))).build();
  }

  private static RelNode merged(RelNode rel) {
    return Plans.hep(HepProgram.builder().addRuleInstance(CoreRules.FILTER_MERGE).build())
        .run(rel.getCluster().getPlanner(), rel, rel.getTraitSet(), List.of(), List.of());
  }

  @Test void aRunningStatementsHepPlannerFiresItsRules() {
    try (RunningStatement s = RunningStatement.start(new AtomicBoolean(), 0, 0).enter()) {
      try {
        final RelNode rel = merged(filters());
        assertInstanceOf(Filter.class, rel);
        assertFalse(rel.getInput(0) instanceof Filter, rel.explain());
      } finally {
        s.exit();
      }
    }
  }

  @Test void aStoppedStatementsHepPlannerStopsAtItsRule() {
    final RelNode rel = filters();
    try (RunningStatement s = RunningStatement.start(new AtomicBoolean(), 0, 0).enter()) {
      try {
        s.stop(RunningStatement.Cause.CANCEL, "cancelled");
        final CalciteException e = assertThrows(CalciteException.class, () -> merged(rel));
        assertTrue(inHepPlanner(e), "not stopped by the Hep planner: " + e);
        assertEquals("57014", s.error(e).getSQLState());
      } finally {
        s.exit();
      }
    }
  }

  /** Plans.optimize (Datalog's and standing queries' plans): stopped in its calc step. */
  @Test void aStoppedStatementsPlanStopsInTheCalcStep() {
    b.values(new String[] {"x"}, 1, 2);
    final RelNode rel = b.project(b.call(
        SqlStdOperatorTable.PLUS, b.field("x"), b.literal(1))).build();
    try (RunningStatement s = RunningStatement.start(new AtomicBoolean(), 0, 0).enter()) {
      try {
        s.stop(RunningStatement.Cause.TIMEOUT, "timed out");
        final CalciteException e = assertThrows(CalciteException.class, () -> Plans.optimize(rel));
        assertTrue(inHepPlanner(e), "not stopped by the Hep planner: " + e);
      } finally {
        s.exit();
      }
    }
  }

  private static boolean inHepPlanner(Throwable e) {
    return Arrays.stream(e.getStackTrace()).anyMatch(f ->
        f.getClassName().equals(HepPlanner.class.getName()));
  }
}
