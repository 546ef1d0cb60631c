package dev.mnestic.runtime;

import dev.mnestic.store.Session;
import dev.mnestic.store.StoreSnapshot;

import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.runtime.SqlFunctions;

import org.hsqldb.jdbc.JDBCArray;
import org.hsqldb.types.ArrayType;
import org.hsqldb.types.BinaryData;
import org.hsqldb.types.DateTimeType;
import org.hsqldb.types.TimestampData;
import org.hsqldb.types.Type;

import java.nio.ByteBuffer;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

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
    return millis(rs.getObject(column, LocalDateTime.class));
  }

  /** {@link #timestamp}, null for NULL. */
  public static Long timestampOptional(ResultSet rs, int column) throws SQLException {
    final LocalDateTime t = rs.getObject(column, LocalDateTime.class);
    return t == null ? null : millis(t);
  }

  /** Milliseconds since 1970-01-01 00:00 of a wall-clock time, as Calcite holds a TIMESTAMP. */
  private static long millis(LocalDateTime t) {
    return t.toEpochSecond(ZoneOffset.UTC) * 1000 + t.getNano() / 1_000_000;
  }

  /** How a column of a scan is read: as Calcite's JDBC adapter reads it, without JDBC. */
  public enum Read {
    BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE,
    /** As stored: strings, DECIMAL's {@code BigDecimal}. */
    OBJECT,
    /** BINARY, VARBINARY and UUID as a {@link ByteString}. */
    BINARY,
    /** Days since 1970-01-01. */
    DATE,
    /** Milliseconds of the day. */
    TIME,
    /** As {@link #timestamp}. */
    TIMESTAMP,
    /** A {@code List} of the elements as JDBC gives them. */
    ARRAY
  }

  /** Seconds of 1582-10-15 00:00, from which Java's Calendar counts days as java.time does. */
  private static final long GREGORIAN_SECONDS = -12_219_292_800L;

  /**
   * The rows of store table {@code table} that this statement sees (a
   * {@link StoreSnapshot}, taken when the first row is asked for), each column read as
   * {@code reads} says: an {@code Object[]} per row, or the value itself when {@code array}
   * is false. The same values as Calcite's JDBC adapter reads through HSQLDB's JDBC
   * ({@code StoreToEnumerableConverter}): what JDBC's getters do per type is done here on
   * HSQLDB's own value objects, through HSQLDB's own conversions where they involve a
   * calendar (DATE, TIME, TIMESTAMP before the Gregorian reform, ARRAY elements). The
   * context's cancel flag stops the reading every 4,096 rows.
   */
  public static Enumerable<Object> scan(DataContext root, String table, String[] reads,
      boolean array) {
    final Read[] how = new Read[reads.length];
    for (int i = 0; i < how.length; i++) {
      how[i] = Read.valueOf(reads[i]);
    }
    final Session store = Session.of(root.getRootSchema());
    final AtomicBoolean cancel = DataContext.Variable.CANCEL_FLAG.get(root);
    return new AbstractEnumerable<Object>() {
      @Override public Enumerator<Object> enumerator() {
        return new Enumerator<Object>() {
          private StoreSnapshot snapshot;
          private int i = -1;
          private Object current;

          @Override public Object current() {
            return current;
          }

          @Override public boolean moveNext() {
            if (snapshot == null) {
              snapshot = StoreSnapshot.take(store, table, cancel);
            }
            if (++i >= snapshot.count) {
              i = snapshot.count;
              return false;
            }
            if ((i & 4095) == 4095 && cancel != null && cancel.get()) {
              throw new IllegalStateException("reading table " + table
                  + " cancelled (query timeout or cancel) after " + i + " rows");
            }
            final Object[] data = snapshot.rows[i];
            if (!array) {
              current = read(snapshot, how[0], 0, data[0]);
              return true;
            }
            final Object[] row = new Object[how.length];
            for (int c = 0; c < row.length; c++) {
              row[c] = read(snapshot, how[c], c, data[c]);
            }
            current = row;
            return true;
          }

          @Override public void reset() {
            snapshot = null;
            i = -1;
          }

          @Override public void close() {
            snapshot = null;
          }
        };
      }
    };
  }

  private static Object read(StoreSnapshot s, Read how, int column, Object v) {
    if (v == null) {
      return null;
    }
    switch (how) {
    case BOOLEAN:
    case OBJECT:
      return v;
    // HSQLDB holds INTEGER, BIGINT and DOUBLE in the boxes Calcite reads them as: no new box.
    case BYTE:
      return ((Number) v).byteValue();
    case SHORT:
      return ((Number) v).shortValue();
    case INT:
      return v instanceof Integer ? v : (Object) ((Number) v).intValue();
    case LONG:
      return v instanceof Long ? v : (Object) ((Number) v).longValue();
    case FLOAT:
      return ((Number) v).floatValue();
    case DOUBLE:
      return v instanceof Double ? v : (Object) ((Number) v).doubleValue();
    case BINARY:
      return new ByteString(((BinaryData) v).getBytes());
    case DATE:
      return SqlFunctions.toInt((java.sql.Date) Type.SQL_DATE.convertSQLToJava(s.session, v));
    case TIME:
      return SqlFunctions.toInt((java.sql.Time) Type.SQL_TIME.convertSQLToJava(s.session, v));
    case TIMESTAMP:
      final TimestampData t = (TimestampData) v;
      if (t.getSeconds() >= GREGORIAN_SECONDS) {
        return t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
      }
      // Before the reform HSQLDB's LocalDateTime comes from Julian calendar fields.
      return millis(((DateTimeType) s.types[column]).toLocalDateTime(s.session, t));
    case ARRAY:
      final ArrayType type = (ArrayType) s.types[column];
      return SqlFunctions.arrayToList(
          new JDBCArray((Object[]) v, type.collectionBaseType(), type, s.session));
    default:
      throw new AssertionError(how);
    }
  }
}
