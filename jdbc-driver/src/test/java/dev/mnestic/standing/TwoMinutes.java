package dev.mnestic.standing;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * A table small enough to know each window's exact quantiles: {@code (ts TIMESTAMP NOT NULL,
 * latency DOUBLE)} with minute 0 of 2026-11-30 holding 1, 2, ..., 100 and minute 1 holding 10,
 * 20, ..., 1000, so each minute's true φ-quantile, its ⌈φ · 100⌉-th value, is ⌈φ · 100⌉ and ten
 * times it.
 */
public final class TwoMinutes {
  private TwoMinutes() {
  }

  /** Creates and fills {@code table} through {@code s}. */
  public static void create(Statement s, String table) throws SQLException {
    s.execute("CREATE TABLE " + table + " (ts TIMESTAMP NOT NULL, latency DOUBLE)");
    final StringBuilder values = new StringBuilder();
    for (int i = 1; i <= 100; i++) {
      values.append(i == 1 ? "" : ", ").append("(TIMESTAMP '2026-11-30 00:00:")
          .append(String.format("%02d", i % 60)).append("', ").append(i).append(")");
      values.append(", (TIMESTAMP '2026-11-30 00:01:").append(String.format("%02d", i % 60))
          .append("', ").append(10 * i).append(")");
    }
    s.execute("INSERT INTO " + table + " VALUES " + values);
  }
}
