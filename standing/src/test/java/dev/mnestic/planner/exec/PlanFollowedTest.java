package dev.mnestic.planner.exec;

import dev.mnestic.planner.Planner;
import dev.mnestic.planner.Workloads;
import dev.mnestic.planner.memo.Family;
import dev.mnestic.planner.memo.GroupKey;
import dev.mnestic.planner.memo.LogicalCandidate;
import dev.mnestic.planner.memo.Operator;
import dev.mnestic.planner.memo.ParameterLists;
import dev.mnestic.planner.memo.Parameters;
import dev.mnestic.planner.physical.PhysicalEdge;
import dev.mnestic.planner.physical.PlanSpace;
import dev.mnestic.planner.select.MilpSelector;
import dev.mnestic.planner.select.Plan;
import dev.mnestic.planner.select.PlanningException;
import dev.mnestic.planner.select.Solver;
import dev.mnestic.planner.workload.Metric;
import dev.mnestic.planner.workload.Window;
import dev.mnestic.planner.workload.WorkloadParser;
import dev.mnestic.rel.MnesticRules;
import dev.mnestic.rel.Plans;
import dev.mnestic.runtime.RowTable;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16 ("The plan, executed"): the executor runs the producers the plan chose, so
 * the summaries it makes per chosen candidate are what the plan and the data's time span say,
 * counted here from the plan alone: a build makes one summary per window of its group holding a
 * row (an exact one over sliding windows, as the cost model charges it, one per window of its
 * step it counts from), a merge one per window of its group holding a row, made from the
 * windows of the producer on its input edge (never sub-windows of its own), and nothing else is
 * made.
 */
class PlanFollowedTest {
  private static final long MINUTE = 60_000;
  private static final ParameterLists LISTS =
      new ParameterLists(List.of(100, 400), List.of(0.01, 0.05), true);

  @Test void summariesMadePerCandidateAreThePlans() throws SQLException {
    final Random random = new Random(20261202);
    int planned = 0;
    int merges = 0;
    for (int n = 0; n < 40; n++) {
      // The rows span 10 minutes: retained an hour, every window holding a row is read.
      final String text = Workloads.random(random).replace("retain 5m", "retain 1h");
      final PlanSpace space = Planner.space(WorkloadParser.parse(text), LISTS);
      final Plan plan;
      try {
        plan = new MilpSelector(space, Solver.CP_SAT, Duration.ofSeconds(20)).solve();
      } catch (PlanningException e) {
        continue;
      }
      planned++;
      merges += (int) plan.candidates().stream()
          .filter(v -> logical(space, v).operator() instanceof Operator.Merge).count();
      final Map<String, long[]> times = times(random, space);
      assertEquals(expected(space, plan, times), made(space, plan, times), text);
    }
    // The random workloads reach plans with merges.
    assertTrue(planned >= 30 && merges >= 5, planned + " plans, " + merges + " merges");
  }

  /**
   * The example: one 1-minute KLL k=400 read directly by one query and merged into
   * 5-minute windows by another is built 10 times over 10 minutes, not 20, and the merge reads
   * it whatever k the merged windows have.
   */
  @Test void aSharedSubWindowIsBuiltOnce() throws SQLException {
    final PlanSpace space = Planner.space(WorkloadParser.parse(
        "metric m from t_m(ts, v) rate 5000/s raw 1d\n"
            + "A: quantile_over_time(0.99, m[1m]) rank error 0.01 every 1m retain 1h\n"
            + "B: quantile_over_time(0.9, m[5m]) rank error 0.01 every 1m retain 1h\n"),
        LISTS);
    final Plan plan = new MilpSelector(space, Solver.CP_SAT, Duration.ofSeconds(20)).solve();
    final PhysicalEdge merge = plan.edges().stream()
        .filter(e -> logical(space, e.consumer()).operator() instanceof Operator.Merge)
        .findFirst().orElseThrow(() -> new AssertionError("no merge in " + plan));
    final int minute = merge.producer();
    assertEquals(400, ((Parameters.Kll) logical(space, minute).properties().parameters()).k());
    // a row a second over 10 minutes
    final long start = 1_700_000_000_000L / MINUTE * MINUTE;
    final long[] times = new long[600];
    for (int i = 0; i < times.length; i++) {
      times[i] = start + i * 1000L;
    }
    final Map<Integer, Long> made = made(space, plan, Map.of("m", times));
    assertEquals(10L, made.get(minute));
    // 5m windows every minute over 10 minutes of rows: 14 hold a row.
    assertEquals(14L, made.get(merge.consumer()));
    assertEquals(2, made.size(), made + " from " + plan.candidates().stream()
        .map(v -> v + ": " + logical(space, v)).toList());
  }

  /** Each metric's row times: a row every 0.1 to 1.9 s over 10 minutes, with one empty minute. */
  private static Map<String, long[]> times(Random random, PlanSpace space) {
    final Map<String, long[]> out = new HashMap<>();
    for (Metric m : space.workload().metrics().values()) {
      final List<Long> times = new ArrayList<>();
      final long start = 1_700_000_000_000L / MINUTE * MINUTE + random.nextInt(30) * 1000L;
      final int empty = random.nextInt(10);
      for (long t = start; t < start + 10 * MINUTE; t += 100 + random.nextInt(1800)) {
        if ((t - start) / MINUTE != empty) {
          times.add(t);
        }
      }
      out.put(m.name(), times.stream().mapToLong(Long::longValue).toArray());
    }
    return out;
  }

  /** Per chosen build, merge or exact sort: how many summaries the plan makes over the rows. */
  private static Map<Integer, Long> expected(PlanSpace space, Plan plan,
      Map<String, long[]> times) {
    final Map<Integer, Long> out = new HashMap<>();
    for (int v : plan.candidates()) {
      final Operator op = logical(space, v).operator();
      final GroupKey key = space.memo().key(space.candidates().get(v).group());
      if (op instanceof Operator.Build b) {
        final GroupKey.State s = (GroupKey.State) key;
        final boolean exactSliding = b.family() == Family.EXACT_VALUES
            && !s.window().isTumbling();
        out.put(v, exactSliding ? windows(times.get(s.metric()), s.window().step(),
            s.window().step()) : windows(times.get(s.metric()), s.window()));
      } else if (op instanceof Operator.Merge) {
        final GroupKey.State s = (GroupKey.State) key;
        out.put(v, windows(times.get(s.metric()), s.window()));
      } else if (op instanceof Operator.SortQuantile) {
        final GroupKey.Quantile q = (GroupKey.Quantile) key;
        out.put(v, windows(times.get(q.metric()), q.window().step(), q.window().step()));
      }
    }
    return out;
  }

  private static long windows(long[] times, Window w) {
    return windows(times, w.width(), w.step());
  }

  /** The windows [end - width, end), end a multiple of step, holding one of {@code times}. */
  private static long windows(long[] times, Duration width, Duration step) {
    final TreeSet<Long> ends = new TreeSet<>();
    for (long t : times) {
      for (long end = Math.floorDiv(t, step.toMillis()) * step.toMillis() + step.toMillis();
          end - width.toMillis() <= t; end += step.toMillis()) {
        ends.add(end);
      }
    }
    return ends.size();
  }

  /**
   * Runs {@code plan} over rows at {@code times} (by metric); returns what the executor made
   * per candidate.
   */
  private static Map<Integer, Long> made(PlanSpace space, Plan plan, Map<String, long[]> times)
      throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:calcite:")) {
      final RelBuilder b = RelBuilder.create(Frameworks.newConfigBuilder()
          .defaultSchema(connection.unwrap(CalciteConnection.class).getRootSchema()).build());
      b.getCluster().getPlanner().addRule(MnesticRules.ENUMERABLE_SKETCH_AGGREGATE);
      final RelDataType rowType = b.getTypeFactory().builder()
          .add("ts", SqlTypeName.TIMESTAMP).add("v", SqlTypeName.DOUBLE).build();
      final Map<String, RelOptTable> tables = new HashMap<>();
      final List<RowTable> rows = new ArrayList<>();
      final Random values = new Random(1);
      times.forEach((metric, ts) -> {
        final RelOptTable table = RowTable.create(b.getRelOptSchema(), "t_" + metric, rowType);
        for (long t : ts) {
          RowTable.of(table).rows().add(new Object[] {t, Math.exp(values.nextGaussian())});
        }
        tables.put(metric, table);
        rows.add(RowTable.of(table));
      });
      final SchemaPlus root = connection.unwrap(CalciteConnection.class).getRootSchema();
      final PlanExecution execution = new PlanExecution(space, plan);
      execution.answers(
          m -> LogicalTableScan.create(b.getCluster(), tables.get(m.name()), List.of()),
          (metric, rel, context) -> Plans.run(Plans.optimize(rel), root,
              (JavaTypeFactory) b.getTypeFactory(), rows, context));
      return execution.made();
    }
  }

  private static LogicalCandidate logical(PlanSpace space, int v) {
    return space.memo().candidate(space.candidates().get(v).logical());
  }
}
