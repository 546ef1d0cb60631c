package dev.mnestic.runtime;

import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Enumerable;

import java.nio.ByteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/** Rows read from the store, as Calcite's code holds their values. */
public final class StoreReads {
  private StoreReads() {
  }

  /**
   * The rows with each of the binary {@code fields} as a {@link ByteString}
   * (JDBC gives {@code byte[]}, or a {@link UUID} for HSQLDB's UUID type);
   * a row is an {@code Object[]}, or the value itself when
   * {@code array} is false.
   */
  public static Enumerable<Object> binaries(Enumerable<Object> rows, int[] fields,
      boolean array) {
    if (!array) {
      return rows.select(StoreReads::byteString);
    }
    return rows.select(row -> {
      final Object[] values = (Object[]) row;
      for (int f : fields) {
        values[f] = byteString(values[f]);
      }
      return values;
    });
  }

  private static Object byteString(Object v) {
    if (v instanceof byte[]) {
      return new ByteString((byte[]) v);
    }
    if (v instanceof UUID) {
      final UUID u = (UUID) v;
      return new ByteString(ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
          .putLong(u.getLeastSignificantBits()).array());
    }
    return v;
  }

  /**
   * TIMESTAMP column {@code column} of the current row as Calcite holds it, milliseconds since
   * 1970-01-01 00:00 of the stored wall-clock time: read as the store keeps it (a
   * {@link LocalDateTime}), without JDBC's {@code getTimestamp}, whose Calendar conversions to
   * and from the JVM's zone move a time in a daylight-saving gap of that zone by the gap. Not
   * faster over 10M rows (bench/RESULTS.md, the dashboard's JDBC loops).
   */
  public static long timestamp(ResultSet rs, int column) throws SQLException {
    final LocalDateTime t = rs.getObject(column, LocalDateTime.class);
    return t.toEpochSecond(ZoneOffset.UTC) * 1000 + t.getNano() / 1_000_000;
  }

  /** {@link #timestamp}, null for NULL. */
  public static Long timestampOptional(ResultSet rs, int column) throws SQLException {
    final LocalDateTime t = rs.getObject(column, LocalDateTime.class);
    return t == null ? null : t.toEpochSecond(ZoneOffset.UTC) * 1000 + t.getNano() / 1_000_000;
  }
}
