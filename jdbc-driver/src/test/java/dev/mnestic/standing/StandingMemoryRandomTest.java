package dev.mnestic.standing;

import dev.mnestic.runtime.Sketches;

import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16, point 3 ("the planner's cost model counts that memory"), on random
 * catalogs: two to four standing queries over one or two tables (tumbling 1- or 5-minute windows
 * or 5-minute windows every minute, φ 0.5 to 0.99, rank, relative or tight rank targets, so KLL,
 * DDSketch and exact values, and merges, are chosen; {@code RETAIN} 5 to 20 minutes), fed 20
 * minutes of lognormal values five minutes at a time, every query read after each. Then each
 * summary built from rows, or merged and kept for another merge, holds between 1 / {@value #FACTOR}
 * and {@value #FACTOR} times the heap bytes the plan charges its candidate (the plan charges a
 * KLL's largest size, a DDSketch's dense array over the metric's range and 8 bytes per exact
 * value; the executor holds a KLL's serialized size, a DDSketch's dense array over the range of
 * its values and an exact array's capacity, up to twice its values), and each other summary made
 * when read (a merge) keeps between reads at most what the plan charges it.
 */
class StandingMemoryRandomTest {
  private static final double FACTOR = 2.2;

  @Test void planChargesWhatTheKeptStateHoldsOnRandomCatalogs() throws SQLException {
    final Random r = new Random(20261202);
    int fromRows = 0;
    int merges = 0;
    for (int n = 0; n < 4; n++) {
      try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=mem:standing-memory-random-" + n)) {
        final List<String> tables = r.nextBoolean() ? List.of("a") : List.of("a", "b");
        final List<String> names = new ArrayList<>();
        final StringBuilder catalog = new StringBuilder();
        try (Statement s = c.createStatement()) {
          for (String t : tables) {
            s.execute("CREATE TABLE " + t + " (ts TIMESTAMP NOT NULL, latency DOUBLE)");
          }
          final int queries = 2 + r.nextInt(3);
          for (int q = 0; q < queries; q++) {
            final String table = tables.get(r.nextInt(tables.size()));
            final String phi = List.of("0.5", "0.9", "0.99").get(r.nextInt(3));
            final String target = List.of("RANK ERROR 0.01", "RANK ERROR 0.001", "RELATIVE ERROR 0.02",
                "RELATIVE ERROR 0.05").get(r.nextInt(4));
            final String window = List.of("TUMBLE(ts, INTERVAL '1' MINUTE)", "TUMBLE(ts, INTERVAL '5' MINUTE)",
                "HOP(ts, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)").get(r.nextInt(3));
            final String end = window.replaceFirst("^(TUMBLE|HOP)", "$1_END");
            final String sql = "CREATE STANDING QUERY q" + q + " AS SELECT " + end + " AS w, APPROX_QUANTILE(latency, "
                + phi + ") AS p FROM " + table + " GROUP BY " + window + " WITHIN " + target + " RETAIN INTERVAL '"
                + (5 + 5 * r.nextInt(4)) + "' MINUTE";
            s.execute(sql);
            names.add("q" + q);
            catalog.append(sql).append('\n');
          }
        }
        for (int minute = 0; minute < 20; minute += 5) {
          for (String t : tables) {
            StandingMemoryTest.insert(c, r, t, 20, minute, minute + 5);
          }
          for (String q : names) {
            StandingMemoryTest.read(c, q);
          }
        }
        final Dashboard d = Dashboard.of(c.unwrap(CalciteConnection.class).getRootSchema());
        final StringBuilder all = new StringBuilder(catalog);
        d.summaries().forEach((metric, summaries) -> {
          for (int i = 0; i < summaries.size(); i++) {
            all.append(summaries.get(i)).append(": planned ").append((long) d.plannedBytes().get(metric)[i])
                .append(", held ").append(d.keptBytes().get(metric)[i]).append('\n');
          }
        });
        for (var e : d.summaries().entrySet()) {
          final double[] planned = d.plannedBytes().get(e.getKey());
          final long[] held = d.keptBytes().get(e.getKey());
          final List<Sketches.Summary> summaries = e.getValue();
          for (int i = 0; i < summaries.size(); i++) {
            final Sketches.Summary summary = summaries.get(i);
            if (summary.builtFromRows() || mergedByAnother(summaries, i)) {
              fromRows += summary.builtFromRows() ? 1 : 0;
              assertTrue(held[i] <= FACTOR * planned[i] && planned[i] <= FACTOR * held[i], all.toString());
            } else {
              merges++;
              assertTrue(held[i] <= planned[i], all.toString());
            }
          }
        }
      }
    }
    assertTrue(fromRows >= 6 && merges >= 1, fromRows + " summaries built from rows, " + merges + " merges");
  }

  private static boolean mergedByAnother(List<Sketches.Summary> summaries, int s) {
    return summaries.stream().anyMatch(other -> other.source() == s);
  }
}
