package dev.mnestic.standing;

import dev.mnestic.runtime.TrueQuantile;
import dev.mnestic.store.Session;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Standing queries written in PromQL over {@code prometheus_samples}: per series, each answer
 * within its target of the exact quantile of that series' samples in the window
 * [end - range, end) (nearest rank, {@link TrueQuantile}); vectors matched one-to-one on their
 * labels; errors naming the place in the PromQL text.
 */
class StandingPromQlTest {
  private static final long START = Timestamp.valueOf("2026-11-30 00:00:00").getTime();
  private static final long MINUTE = 60_000;
  private static final String[] SERIES = {
      "{\"instance\":\"1\",\"job\":\"a\"}", "{\"instance\":\"2\",\"job\":\"a\"}",
      "{\"instance\":\"1\",\"job\":\"b\"}"};

  /** A sample: time, metric, labels, value. */
  private record Sample(long ts, String metric, String labels, double val) {
  }

  private static Connection c;
  private static final List<Sample> SAMPLES = new ArrayList<>();

  @BeforeAll static void samples() throws SQLException {
    c = DriverManager.getConnection("jdbc:mnestic:");
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE prometheus_samples (ts TIMESTAMP(3) NOT NULL,"
          + " metric VARCHAR(1024) NOT NULL, labels VARCHAR(16384) NOT NULL,"
          + " val DOUBLE NOT NULL)");
    }
    // 10 minutes; lat: every series, 300 samples a minute, each series its own scale;
    // req: job a's series only.
    final Random r = new Random(20);
    for (int i = 0; i < 3000; i++) {
      final long ts = START + i * 200L + r.nextInt(200);
      for (int k = 0; k < SERIES.length; k++) {
        SAMPLES.add(new Sample(ts, "lat", SERIES[k], (k + 1) * 10 * Math.exp(r.nextGaussian())));
        if (k < 2) {
          SAMPLES.add(new Sample(ts, "req", SERIES[k], 1 + r.nextInt(50)));
        }
      }
    }
    final Connection store = Session.of(c.unwrap(CalciteConnection.class).getRootSchema())
        .getConnection();
    try (PreparedStatement insert = store.prepareStatement(
        "INSERT INTO \"PUBLIC\".\"prometheus_samples\" VALUES (?, ?, ?, ?)")) {
      for (Sample s : SAMPLES) {
        insert.setTimestamp(1, new Timestamp(s.ts()));
        insert.setString(2, s.metric());
        insert.setString(3, s.labels());
        insert.setDouble(4, s.val());
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  @AfterAll static void close() throws SQLException {
    c.close();
  }

  /** The sorted values of {@code metric}'s series {@code labels} in [end - width, end). */
  private static double[] window(String metric, String labels, long end, long width) {
    return SAMPLES.stream().filter(s -> s.metric().equals(metric) && s.labels().equals(labels)
        && s.ts() >= end - width && s.ts() < end).mapToDouble(Sample::val).sorted().toArray();
  }

  /** The standing query's rows: series → window end → value. */
  private static Map<String, TreeMap<Long, Double>> read(Statement s, String name)
      throws SQLException {
    final Map<String, TreeMap<Long, Double>> out = new TreeMap<>();
    try (ResultSet rs = s.executeQuery("SELECT ts, labels, val FROM " + name)) {
      while (rs.next()) {
        out.computeIfAbsent(rs.getString(2), k -> new TreeMap<>())
            .put(rs.getTimestamp(1).getTime(), rs.getDouble(3));
      }
    }
    return out;
  }

  @Test void quantilePerSeriesWithinRankError() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE STANDING QUERY p90 AS PROMQL"
          + " 'quantile_over_time(0.9, lat{job=\"a\"}[1m])' WITHIN RANK ERROR 0.01");
      // and a scalar map of another series' median, read by the same evaluation
      s.execute("CREATE STANDING QUERY ms AS PROMQL"
          + " '1000 * quantile_over_time(0.5, lat{job=~\"b|c\"}[1m]) - 1'"
          + " WITHIN RANK ERROR 0.01");
      final Map<String, TreeMap<Long, Double>> p90 = read(s, "p90");
      assertEquals(List.of(SERIES[0], SERIES[1]), new ArrayList<>(p90.keySet()));
      check(p90, "lat", 0.9, v -> v);
      final Map<String, TreeMap<Long, Double>> ms = read(s, "ms");
      assertEquals(List.of(SERIES[2]), new ArrayList<>(ms.keySet()));
      check(ms, "lat", 0.5, v -> (v + 1) / 1000);
      s.execute("DROP STANDING QUERY p90");
      s.execute("DROP STANDING QUERY ms");
    }
  }

  /** Every window of every series, its readout mapped back by {@code back}, within 0.01. */
  private static void check(Map<String, TreeMap<Long, Double>> rows, String metric, double phi,
      DoubleUnaryOperator back) {
    int windows = 0;
    int misses = 0;
    for (Map.Entry<String, TreeMap<Long, Double>> series : rows.entrySet()) {
      // every minute's window, the last one partial
      assertEquals(10, series.getValue().size(), series.getKey());
      for (Map.Entry<Long, Double> w : series.getValue().entrySet()) {
        assertEquals(0, w.getKey() % MINUTE);
        final double[] exact = window(metric, series.getKey(), w.getKey(), MINUTE);
        windows++;
        misses += TrueQuantile.rankError(exact, phi, back.applyAsDouble(w.getValue())) <= 0.01
            ? 0 : 1;
      }
    }
    // KLL meets its rank error with probability 0.99 a window
    assertTrue(misses <= TrueQuantile.allowedFailures(windows, 0.01), misses + " of " + windows);
  }

  @Test void ratiosAndDifferencesMatchSeriesOneToOne() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE STANDING QUERY tail AS PROMQL 'quantile_over_time(0.99, lat[1m])"
          + " / quantile_over_time(0.5, lat[1m])' EVERY INTERVAL '30' SECOND"
          + " WITHIN RELATIVE ERROR 0.02");
      final Map<String, TreeMap<Long, Double>> tail = read(s, "tail");
      assertEquals(List.of(SERIES[1], SERIES[0], SERIES[2]).stream().sorted().toList(),
          new ArrayList<>(tail.keySet()));
      for (Map.Entry<String, TreeMap<Long, Double>> series : tail.entrySet()) {
        // sliding windows of a minute every 30 s, the first and last partial
        assertEquals(21, series.getValue().size());
        for (Map.Entry<Long, Double> w : series.getValue().entrySet()) {
          final double[] exact = window("lat", series.getKey(), w.getKey(), MINUTE);
          final double truth = TrueQuantile.value(exact, 0.99) / TrueQuantile.value(exact, 0.5);
          assertTrue(TrueQuantile.withinRelative(truth, w.getValue(), 0.02),
              series.getKey() + " at " + w.getKey() + ": " + w.getValue() + " against " + truth);
        }
      }
      // lat - req: only the series both have (job a's), each side within its own target
      s.execute("CREATE STANDING QUERY gap AS PROMQL 'quantile_over_time(0, lat[1m])"
          + " - quantile_over_time(1, req[1m])' WITHIN RELATIVE ERROR 0.01");
      final Map<String, TreeMap<Long, Double>> gap = read(s, "gap");
      assertEquals(List.of(SERIES[0], SERIES[1]), new ArrayList<>(gap.keySet()));
      for (Map.Entry<String, TreeMap<Long, Double>> series : gap.entrySet()) {
        for (Map.Entry<Long, Double> w : series.getValue().entrySet()) {
          final double min = window("lat", series.getKey(), w.getKey(), MINUTE)[0];
          final double[] req = window("req", series.getKey(), w.getKey(), MINUTE);
          final double truth = min - req[req.length - 1];
          // |err| ≤ 0.01·min + 0.01·max
          assertTrue(Math.abs(w.getValue() - truth) <= 0.01 * (min + req[req.length - 1]) + 1e-9,
              series.getKey() + " at " + w.getKey() + ": " + w.getValue() + " against " + truth);
        }
      }
      s.execute("DROP STANDING QUERY tail");
      s.execute("DROP STANDING QUERY gap");
    }
  }

  /** A query of a metric with no samples yet answers no rows; one sent later, its rows. */
  @Test void aMetricWithoutSamplesAnswersNothingUntilItHasSome() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE STANDING QUERY later AS PROMQL"
          + " 'quantile_over_time(1, later_metric[1m])' WITHIN RANK ERROR 0.01");
      assertEquals(Map.of(), read(s, "later"));
      final Connection store = Session.of(c.unwrap(CalciteConnection.class).getRootSchema())
          .getConnection();
      try (PreparedStatement insert = store.prepareStatement(
          "INSERT INTO \"PUBLIC\".\"prometheus_samples\" VALUES (?, 'later_metric', '{}', ?)")) {
        for (int i = 0; i < 3; i++) {
          insert.setTimestamp(1, new Timestamp(START + i * 1000));
          insert.setDouble(2, 10 - i);
          insert.addBatch();
        }
        insert.executeBatch();
      }
      assertEquals(Map.of("{}", new TreeMap<>(Map.of(START + MINUTE, 10.0))), read(s, "later"));
      s.execute("DROP STANDING QUERY later");
    }
  }

  @Test void errorsNameTheirPlaceInThePromQl() throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String[] bad : new String[][] {
          {"'rate(lat[1m])' WITHIN RANK ERROR 0.01",
              "At line 1, column 38: PromQL 1:1: unsupported: the function rate"},
          {"'quantile_over_time(0.5, lat[1m])\n / quantile_over_time(0.5, lat[2m])'"
              + " WITHIN RELATIVE ERROR 0.01",
              "At line 2, column 4: PromQL 2:4: every quantile_over_time of a standing query reads"
                  + " the same range; [2m] differs from [1m]"},
          {"'quantile_over_time(0.5, lat[1m]) / quantile_over_time(0.9, lat[1m])'"
              + " WITHIN RANK ERROR 0.01",
              "At line 1, column 71: PromQL 1:34: rank error does not bound a ratio's relative"},
          {"'quantile_over_time(0.5, lat[1m])' EVERY INTERVAL '7' SECOND WITHIN RANK ERROR 0.01",
              "is not a multiple of its step 7s"},
      }) {
        final SQLException e = assertThrows(SQLException.class, () -> s.execute(
            "CREATE STANDING QUERY bad AS PROMQL " + bad[0]));
        assertTrue(e.getMessage().contains(bad[1]), e.getMessage());
      }
    }
  }
}
