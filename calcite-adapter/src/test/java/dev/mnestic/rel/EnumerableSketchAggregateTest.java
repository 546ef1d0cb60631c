package dev.mnestic.rel;

import dev.mnestic.runtime.RowTable;
import dev.mnestic.runtime.Sketches;
import dev.mnestic.runtime.TrueQuantile;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Frameworks;
import org.apache.calcite.tools.RelBuilder;
import org.apache.datasketches.kll.KllSketch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SketchAggregate} run through Calcite over a table {@code requests(ts, latency)} of
 * lognormal and Pareto latencies, each window's answers checked against the exact quantiles
 * computed here: KLL within its rank error, DDSketch within its relative error, a ratio of two
 * DDSketch reads within (a + b) / (1 - b).
 */
class EnumerableSketchAggregateTest {
  private static final long MINUTE = 60_000;
  private static final double[] PHIS = {0.5, 0.9, 0.95, 0.99};

  private Connection connection;
  private RelBuilder b;
  private RowTable requests;
  private RelOptTable table;

  @BeforeEach void open() throws SQLException {
    connection = DriverManager.getConnection("jdbc:calcite:");
    b = RelBuilder.create(Frameworks.newConfigBuilder()
        .defaultSchema(connection.unwrap(CalciteConnection.class).getRootSchema()).build());
    b.getCluster().getPlanner().addRule(MnesticRules.ENUMERABLE_SKETCH_AGGREGATE);
    final RelDataType rowType = b.getTypeFactory().builder()
        .add("ts", SqlTypeName.TIMESTAMP).add("latency", SqlTypeName.DOUBLE).build();
    table = RowTable.create(b.getRelOptSchema(), "requests", rowType);
    requests = RowTable.of(table);
  }

  @AfterEach void close() throws SQLException {
    connection.close();
  }

  /** 20 rows a second for 10 minutes, timestamps shuffled. */
  private void fill(DoubleSupplier latency) {
    final Random r = new Random(6);
    for (int i = 0; i < 12_000; i++) {
      requests.rows().add(new Object[] {(long) r.nextInt(10 * (int) MINUTE), latency.getAsDouble()});
    }
  }

  private static DoubleSupplier lognormal() {
    final Random r = new Random(1);
    return () -> Math.exp(3 + r.nextGaussian());
  }

  private static DoubleSupplier pareto() {
    final Random r = new Random(2);
    return () -> 1 / Math.pow(1 - r.nextDouble(), 1 / 1.5);
  }

  // SELECT window_end, quantiles(latency) FROM requests GROUP BY window: one row per window,
  // its end then the value of each φ of PHIS.
  // With sub > 0, the windows are merged from those of a tumbling summary of sub kept beside.
  private List<Object[]> run(Sketches.Family family, double parameter, long width, long step,
      long sub) throws SQLException {
    return run(sub == 0 ? List.of(summary(family, parameter, width, step))
        : List.of(merge(family, parameter, width, step, sub, 1), source(family, parameter, sub)))
        .get(0);
  }

  /** Windows built from rows, read at PHIS. */
  private static Sketches.Summary summary(Sketches.Family family, double parameter,
      long width, long step) {
    return new Sketches.Summary(family, parameter, width, step, 0,
        Arrays.stream(PHIS).boxed().toList(), -1, 0);
  }

  /** Windows merged from those of summary {@code source}, {@code sub} wide, read at PHIS. */
  private static Sketches.Summary merge(Sketches.Family family, double parameter, long width,
      long step, long sub, int source) {
    return new Sketches.Summary(family, parameter, width, step, sub,
        Arrays.stream(PHIS).boxed().toList(), source, 0);
  }

  /** Tumbling windows of {@code width} built from rows, read by none, only merged. */
  private static Sketches.Summary source(Sketches.Family family, double parameter, long width) {
    return new Sketches.Summary(family, parameter, width, width, 0, List.of(), -1, 0);
  }

  /** Each summary's rows as {@link #run(Sketches.Family, double, long, long, long)}'s, from one operator. */
  private List<List<Object[]>> run(List<Sketches.Summary> summaries) throws SQLException {
    return run(summaries, Map.of());
  }

  /** As {@link #run(List)}, with {@code context}'s variables in the plan's context. */
  private List<List<Object[]>> run(List<Sketches.Summary> summaries,
      Map<String, Object> context) throws SQLException {
    final RelNode plan = MnesticRelBuilder.sketchAggregate(
        b.push(LogicalTableScan.create(b.getCluster(), table, List.of())), 0, 1, summaries)
        .build();
    final List<List<Object[]>> out = new ArrayList<>();
    summaries.forEach(s -> out.add(new ArrayList<>()));
    for (Object[] read : Plans.run(Plans.optimize(plan),
        connection.unwrap(CalciteConnection.class).getRootSchema(),
        (JavaTypeFactory) b.getTypeFactory(), List.of(requests), context)) {
      final List<Object[]> rows = out.get((int) read[0]);
      final int i = Arrays.binarySearch(PHIS, (double) read[2]);
      if (i == 0) {
        rows.add(new Object[PHIS.length + 1]);
        rows.get(rows.size() - 1)[0] = read[1];
      }
      assertEquals(read[1], rows.get(rows.size() - 1)[0]);
      rows.get(rows.size() - 1)[i + 1] = read[3];
    }
    return out;
  }

  /** Summaries of different families and windows kept in one pass read as each kept alone. */
  @Test void summariesOfOnePassReadAsEachAlone() throws SQLException {
    fill(pareto());
    final List<Sketches.Summary> summaries = List.of(
        summary(Sketches.Family.KLL, 200, MINUTE, MINUTE),
        summary(Sketches.Family.DDSKETCH, 0.01, 3 * MINUTE, MINUTE),
        // merging the windows of summary 4: one DDSketch per minute for both
        merge(Sketches.Family.DDSKETCH, 0.02, 2 * MINUTE, 2 * MINUTE, MINUTE, 4),
        summary(Sketches.Family.EXACT, 0, 2 * MINUTE, MINUTE),
        summary(Sketches.Family.DDSKETCH, 0.02, MINUTE, MINUTE),
        merge(Sketches.Family.EXACT, 0, 3 * MINUTE, MINUTE, MINUTE, 6),
        source(Sketches.Family.EXACT, 0, MINUTE));
    // KLL, 3 sliding DDSketches, one DDSketch per minute (which the 2m one merges), one exact
    // per minute for the exact sliding summary and one for the one the merge reads.
    assertEquals(1 + 3 + 1 + 1 + 1, SketchAggregate.updatesPerRow(summaries));
    final List<List<Object[]>> together = run(summaries);
    assertEquals(10, together.get(0).size());
    // KLL compacts at random, so only the deterministic families are compared read for read.
    for (int s = 1; s < summaries.size() - 1; s++) {
      // alone, a merge merges a source of its own
      final Sketches.Summary x = summaries.get(s);
      final List<Object[]> alone = run(x.family(), x.parameter(), x.width(), x.step(),
          x.subWidth());
      assertEquals(alone.size(), together.get(s).size());
      for (int w = 0; w < alone.size(); w++) {
        assertArrayEquals(alone.get(w), together.get(s).get(w), summaries.get(s) + " window " + w);
      }
    }
  }

  /** The sorted latencies of the window ending at {@code end}. */
  private double[] window(long end, long width) {
    return requests.rows().stream().filter(r -> (long) r[0] >= end - width && (long) r[0] < end)
        .mapToDouble(r -> (double) r[1]).sorted().toArray();
  }

  @Test void kllMeetsItsRankError() throws SQLException {
    for (DoubleSupplier data : List.of(lognormal(), pareto())) {
      requests.rows().clear();
      fill(data);
      final double epsilon = KllSketch.getNormalizedRankError(200, false);
      final List<Object[]> rows = run(Sketches.Family.KLL, 200, MINUTE, MINUTE, 0);
      assertEquals(10, rows.size());
      for (Object[] row : rows) {
        final double[] exact = window((long) row[0], MINUTE);
        for (int i = 0; i < PHIS.length; i++) {
          final double answer = (double) row[i + 1];
          assertTrue(TrueQuantile.rankError(exact, PHIS[i], answer) <= epsilon,
              "φ=" + PHIS[i] + ": " + answer + " beyond ε=" + epsilon);
        }
      }
    }
  }

  @Test void ddSketchMeetsItsRelativeErrorDirectAndMerged() throws SQLException {
    for (DoubleSupplier data : List.of(lognormal(), pareto())) {
      requests.rows().clear();
      fill(data);
      // 3m windows every minute: each row in three windows, or five... merged from 1m sketches.
      final List<Object[]> direct = run(Sketches.Family.DDSKETCH, 0.01, 3 * MINUTE, MINUTE, 0);
      final List<Object[]> merged = run(Sketches.Family.DDSKETCH, 0.01, 3 * MINUTE, MINUTE, MINUTE);
      assertEquals(12, direct.size());
      assertEquals(direct.size(), merged.size());
      for (int w = 0; w < direct.size(); w++) {
        final double[] exact = window((long) direct.get(w)[0], 3 * MINUTE);
        for (int i = 0; i < PHIS.length; i++) {
          final double truth = TrueQuantile.value(exact, PHIS[i]);
          for (List<Object[]> rows : List.of(direct, merged)) {
            final double answer = (double) rows.get(w)[i + 1];
            assertTrue(TrueQuantile.withinRelative(truth, answer, 0.01), answer + " vs " + truth);
          }
        }
      }
    }
  }

  @Test void ratioOfTwoDdSketchReadsMeetsTheComposedError() throws SQLException {
    fill(lognormal());
    final double alpha = 0.02;
    final List<Object[]> rows = run(Sketches.Family.DDSKETCH, alpha, MINUTE, MINUTE, 0);
    for (Object[] row : rows) {
      final double[] exact = window((long) row[0], MINUTE);
      final double truth = TrueQuantile.value(exact, 0.99) / TrueQuantile.value(exact, 0.5);
      final double answer = (double) row[4] / (double) row[1];
      assertTrue(Math.abs(answer - truth) <= (2 * alpha) / (1 - alpha) * truth, answer + " vs " + truth);
    }
  }

  @Test void exactAccumulatorIsExactDirectAndMerged() throws SQLException {
    fill(pareto());
    final List<Object[]> direct = run(Sketches.Family.EXACT, 0, 2 * MINUTE, 2 * MINUTE, 0);
    final List<Object[]> merged = run(Sketches.Family.EXACT, 0, 2 * MINUTE, 2 * MINUTE, MINUTE);
    assertEquals(5, direct.size());
    for (int w = 0; w < direct.size(); w++) {
      final double[] exact = window((long) direct.get(w)[0], 2 * MINUTE);
      for (int i = 0; i < PHIS.length; i++) {
        final double truth = TrueQuantile.value(exact, PHIS[i]);
        assertEquals(truth, (double) direct.get(w)[i + 1]);
        assertEquals(truth, (double) merged.get(w)[i + 1]);
      }
    }
  }

  /**
   * Test case for #6: an hour-long window every second (here 10 minutes every second, 2,399
   * windows over 30 minutes of 100 rows a second) read from exact accumulators, directly and
   * merged from 1 s sub-windows: every sampled window is the sorted window's value at the
   * nearest rank ⌈φ·n⌉, ties and all, and the pass held at most a few copies of the rows' values
   * (counting each window's values, as before, would have held 2,399 × 60,000 of them).
   */
  @Test void exactSlidingWindowsAreCountedNotCopied() throws SQLException {
    final Random r = new Random(7);
    final DoubleSupplier latency = pareto();
    final int rows = 30 * 60 * 100;
    for (int i = 0; i < rows; i++) {
      // Rounded to hundredths: many values repeat.
      requests.rows().add(new Object[] {(long) r.nextInt(30 * (int) MINUTE),
          Math.round(latency.getAsDouble() * 100) / 100.0});
    }
    final long width = 10 * MINUTE;
    final AtomicLong held = new AtomicLong();
    final List<List<Object[]>> out = run(List.of(
        summary(Sketches.Family.EXACT, 0, width, 1000),
        merge(Sketches.Family.EXACT, 0, width, 1000, 1000, 2),
        source(Sketches.Family.EXACT, 0, 1000)),
        Map.of(Sketches.HELD_BYTES, held));
    assertEquals(30 * 60 + 10 * 60 - 1, out.get(0).size());
    assertEquals(out.get(0).size(), out.get(1).size());
    for (int w = 0; w < out.get(0).size(); w += 41) {
      final long end = (long) out.get(0).get(w)[0];
      final double[] exact = window(end, width);
      for (int i = 0; i < PHIS.length; i++) {
        final double truth = TrueQuantile.value(exact, PHIS[i]);
        assertEquals(truth, (double) out.get(0).get(w)[i + 1], "window ending " + end);
        assertEquals(truth, (double) out.get(1).get(w)[i + 1], "window ending " + end);
      }
    }
    // 1 s cells with room for at most twice their values, plus one sorted index of them.
    assertTrue(held.get() > 8L * rows && held.get() <= 3 * 8L * rows + 64 * 1800,
        "held " + held.get() + " bytes for " + rows + " values");
  }
}
