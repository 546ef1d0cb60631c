package dev.mnestic.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.stream.Collectors;

/**
 * {@code mnestic import --csv FILE TABLE}: loads CSV rows into a table of the store through the
 * driver's batch INSERT (whose rows go straight into the store), all in one transaction.
 *
 * <p>The text is RFC 4180 CSV: fields separated by commas, a field in double quotes may hold
 * commas, line breaks and doubled quotes ({@code ""}); lines end in LF or CRLF. The first line
 * names the columns (any order, any subset; names match the table's ignoring case; the others
 * take their defaults) unless there is no header, when each line holds every column in the
 * table's order. A field is converted to its column's type: an empty unquoted field is NULL
 * (a quoted empty one is the empty string); numbers as Java writes them ({@code 1.5e3},
 * {@code -7}); BOOLEAN {@code true} or {@code false}; DATE {@code 2024-01-31}; TIME
 * {@code 12:00:00[.fff]}; TIMESTAMP {@code 2024-01-31 12:00:00[.fffffffff]} (or with a
 * {@code T}); binary strings as hex digits. A line that fails (a field that does not convert,
 * the wrong number of fields, an unterminated quote, or a row the store refuses: a duplicate
 * key, NULL into NOT NULL, a string too long) stops the import with an error naming its line
 * and, where one is at fault, its column; nothing of the file is then stored.
 *
 * <p>The file is read and its fields converted on a thread of its own, a few thousand rows
 * ahead of the calling thread, which binds and sends them: reading and storing each take one
 * core.
 */
final class CsvImport {
  /** Rows sent to the driver per {@code executeBatch}. */
  private static final int BATCH = 65_536;

  private final String table;
  private final List<Column> columns;
  /** This JVM's zone, in which a TIMESTAMP's text is read ({@link #timestamp}). */
  private final ZoneRules zone = ZoneId.systemDefault().getRules();

  /** A column the file fills: its name and JDBC type. */
  private record Column(String name, int type) {
  }

  private CsvImport(String table, List<Column> columns) {
    this.table = table;
    this.columns = columns;
  }

  /** A line of the file that cannot be stored; the message names the line (and column). */
  static final class BadLine extends Exception {
    final String sqlState;

    BadLine(String message, String sqlState, Throwable cause) {
      super(message, cause);
      this.sqlState = sqlState;
    }
  }

  /**
   * Loads {@code in} into {@code table} on {@code connection}, in one transaction (committed at
   * the end, rolled back on any failure); returns the number of rows stored.
   */
  static long load(Connection connection, String table, boolean header, BufferedReader in)
      throws SQLException, IOException, BadLine {
    final Records records = new Records(in);
    final CsvImport csv = of(connection, table, header ? records.next() : null, records);
    final boolean autoCommit = connection.getAutoCommit();
    connection.setAutoCommit(false);
    try {
      final long rows = csv.insert(connection, records);
      connection.commit();
      return rows;
    } catch (SQLException | IOException | BadLine | RuntimeException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(autoCommit);
    }
  }

  /** The import into {@code table} of the columns {@code header} names (null: all of them). */
  private static CsvImport of(Connection connection, String table, List<String> header,
      Records records) throws SQLException, BadLine {
    final List<Column> all = new ArrayList<>();
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("SELECT * FROM " + quote(table) + " WHERE FALSE")) {
      final ResultSetMetaData meta = rs.getMetaData();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        all.add(new Column(meta.getColumnName(i), meta.getColumnType(i)));
      }
    }
    if (header == null) {
      return new CsvImport(table, all);
    }
    final List<Column> named = new ArrayList<>();
    for (int i = 0; i < header.size(); i++) {
      final String name = header.get(i).strip();
      final Column column = all.stream().filter(c -> c.name.equalsIgnoreCase(name))
          .findFirst().orElse(null);
      if (column == null || named.contains(column)) {
        throw new BadLine("line " + records.line + ", column " + (i + 1) + ": "
            + (column == null ? "table " + table + " has no column '" + name + "'; its columns: "
                + all.stream().map(Column::name).collect(Collectors.joining(", "))
                : "column '" + name + "' named twice"), "42S22", null);
      }
      named.add(column);
    }
    return new CsvImport(table, named);
  }

  /**
   * Inserts the records as batches of the table's INSERT. The records are read and their
   * fields converted on a thread of their own ({@link Parsed}) while this one binds and sends
   * the rows converted before: the two halves of the work, each on its own core.
   */
  private long insert(Connection connection, Records records)
      throws SQLException, IOException, BadLine {
    final String sql = "INSERT INTO " + quote(table) + " ("
        + columns.stream().map(c -> quote(c.name)).collect(Collectors.joining(", "))
        + ") VALUES (" + "?, ".repeat(columns.size() - 1) + "?)";
    final int n = columns.size();
    long rows = 0;
    // the line each row of the batch began on
    final int[] lines = new int[BATCH];
    int pending = 0;
    try (PreparedStatement ps = connection.prepareStatement(sql);
         Parsed parsed = new Parsed(records)) {
      for (Chunk chunk = parsed.next(); chunk != Chunk.END; chunk = parsed.next()) {
        for (int r = 0; r < chunk.rows; r++) {
          for (int i = 0; i < n; i++) {
            bind(ps, i, chunk.values[r * n + i]);
          }
          ps.addBatch();
          lines[pending++] = chunk.lines[r];
          if (pending == BATCH) {
            rows += send(ps, lines, pending);
            pending = 0;
          }
        }
      }
      rows += send(ps, lines, pending);
    }
    return rows;
  }

  /** Sends the batch of {@code pending} rows; a failing row's error names its line. */
  private static long send(PreparedStatement ps, int[] lines, int pending)
      throws SQLException, BadLine {
    if (pending == 0) {
      return 0;
    }
    try {
      ps.executeBatch();
      return pending;
    } catch (BatchUpdateException e) {
      final int index = e.getUpdateCounts().length;
      // the driver's message says "batch row N ... failed, nothing ... stored: <cause>"
      final Throwable cause = e.getCause() instanceof SQLException sql ? sql : e;
      throw new BadLine((index < pending ? "line " + lines[index] + ": " : "")
          + cause.getMessage(), e.getSQLState(), e);
    }
  }

  /** Rows of the file converted to their columns' Java values, {@link Chunk#ROWS} a chunk. */
  private static final class Chunk {
    static final int ROWS = 4096;
    /** After the last chunk. */
    static final Chunk END = new Chunk(0);

    /** The rows' values, column after column, row after row (null: NULL). */
    final Object[] values;
    /** The line each row began on. */
    final int[] lines = new int[ROWS];
    int rows;

    Chunk(int columns) {
      values = new Object[ROWS * columns];
    }
  }

  /**
   * The file's rows, read and converted on a thread of their own, handed over a few
   * {@link Chunk}s ahead of the rows being sent. A line that fails to read or convert ends the
   * chunks: {@link #next} throws its failure once the rows before it have been taken, as the
   * import would meet it reading line after line.
   */
  private final class Parsed implements AutoCloseable {
    /** Chunks converted and not yet taken, then {@link Chunk#END} or the failure. */
    private final BlockingQueue<Object> ready = new ArrayBlockingQueue<>(4);
    private final Thread thread;

    Parsed(Records records) {
      thread = new Thread(() -> parse(records), "mnestic-csv-import");
      thread.setDaemon(true);
      thread.start();
    }

    /** The next chunk of rows, or {@link Chunk#END}. */
    Chunk next() throws IOException, BadLine {
      final Object next;
      try {
        next = ready.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted reading the CSV");
      }
      if (next instanceof Chunk chunk) {
        return chunk;
      }
      if (next instanceof IOException e) {
        throw e;
      }
      if (next instanceof BadLine e) {
        throw e;
      }
      throw (RuntimeException) next;
    }

    /** On the thread: reads, converts and hands over every record, then the end. */
    private void parse(Records records) {
      final int n = columns.size();
      Object last = Chunk.END;
      try {
        Chunk chunk = new Chunk(n);
        for (List<String> record = records.next(); record != null; record = records.next()) {
          if (record.size() != n) {
            throw new BadLine("line " + records.line + ": expected " + n + " fields, found "
                + record.size(), "22023", null);
          }
          for (int i = 0; i < n; i++) {
            chunk.values[chunk.rows * n + i] = value(i, record.get(i), records.line);
          }
          chunk.lines[chunk.rows++] = records.line;
          if (chunk.rows == Chunk.ROWS) {
            ready.put(chunk);
            chunk = new Chunk(n);
          }
        }
        if (chunk.rows > 0) {
          ready.put(chunk);
        }
      } catch (InterruptedException e) {
        return; // closed: nobody takes what follows
      } catch (IOException | BadLine | RuntimeException e) {
        last = e;
      }
      try {
        ready.put(last);
      } catch (InterruptedException e) {
        // closed
      }
    }

    /** Stops the thread, whether or not every chunk was taken. */
    @Override public void close() throws IOException {
      thread.interrupt();
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted stopping the CSV reader");
      }
    }
  }

  /** The value of field {@code text} of column {@code i} (on line {@code line}), or null. */
  private Object value(int i, String text, int line) throws BadLine {
    if (text == null) {
      return null;
    }
    final Column column = columns.get(i);
    try {
      return switch (column.type) {
      case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> text;
      case Types.BOOLEAN -> bool(text.strip());
      case Types.TINYINT -> Byte.parseByte(text.strip());
      case Types.SMALLINT -> Short.parseShort(text.strip());
      case Types.INTEGER -> Integer.parseInt(text.strip());
      case Types.BIGINT -> Long.parseLong(text.strip());
      case Types.DECIMAL, Types.NUMERIC -> new BigDecimal(text.strip());
      case Types.REAL -> Float.parseFloat(text.strip());
      case Types.FLOAT, Types.DOUBLE -> Double.parseDouble(text.strip());
      case Types.DATE -> Date.valueOf(LocalDate.parse(text.strip()));
      case Types.TIME -> Time.valueOf(LocalTime.parse(text.strip()));
      case Types.TIMESTAMP -> timestamp(text.strip(), zone);
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY ->
          HexFormat.of().parseHex(text.strip());
      default -> text;
      };
    } catch (IllegalArgumentException | DateTimeParseException e) {
      final boolean datetime = column.type == Types.DATE || column.type == Types.TIME
          || column.type == Types.TIMESTAMP;
      throw new BadLine("line " + line + ", column " + (i + 1) + " (" + column.name
          + "): '" + text + "' is not a " + typeName(column.type), datetime ? "22007" : "22018",
          e);
    }
  }

  /** Binds {@code value} of column {@code i} ({@link #value}) as its column's type. */
  private void bind(PreparedStatement ps, int i, Object value) throws SQLException {
    final Column column = columns.get(i);
    final int p = i + 1;
    if (value == null) {
      ps.setNull(p, column.type);
      return;
    }
    switch (column.type) {
    case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> ps.setString(p, (String) value);
    case Types.BOOLEAN -> ps.setBoolean(p, (Boolean) value);
    case Types.TINYINT -> ps.setByte(p, (Byte) value);
    case Types.SMALLINT -> ps.setShort(p, (Short) value);
    case Types.INTEGER -> ps.setInt(p, (Integer) value);
    case Types.BIGINT -> ps.setLong(p, (Long) value);
    case Types.DECIMAL, Types.NUMERIC -> ps.setBigDecimal(p, (BigDecimal) value);
    case Types.REAL -> ps.setFloat(p, (Float) value);
    case Types.FLOAT, Types.DOUBLE -> ps.setDouble(p, (Double) value);
    case Types.DATE -> ps.setDate(p, (Date) value);
    case Types.TIME -> ps.setTime(p, (Time) value);
    case Types.TIMESTAMP -> ps.setTimestamp(p, (Timestamp) value);
    case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> ps.setBytes(p, (byte[]) value);
    default -> ps.setObject(p, value);
    }
  }

  private static boolean bool(String text) {
    if (text.equalsIgnoreCase("true")) {
      return true;
    }
    if (text.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException("not true or false");
  }

  /**
   * {@code 2024-01-31 12:00:00[.f...]}, also with {@code T} between date and time, as
   * {@code Timestamp.valueOf} (or {@code LocalDateTime.parse} with {@code T}) reads it in this
   * JVM's zone, whose rules are {@code zone}. In a zone of fixed offset (UTC), the usual form,
   * {@code yyyy-mm-dd hh:mm:ss[.f...]} from 1583 on, is read here digit by digit: the same
   * instant, without {@code Timestamp.valueOf}'s calendar fields. (Elsewhere {@code java.time}'s
   * rules and {@code java.util.TimeZone}'s, by which the driver reads the instant back, part
   * before standard time: Berlin's 1595 is 6:32 apart.)
   */
  static Timestamp timestamp(String text, ZoneRules zone) {
    final LocalDateTime local = zone.isFixedOffset() ? plainTimestamp(text) : null;
    if (local != null) {
      final Timestamp t =
          new Timestamp(local.toEpochSecond(zone.getOffset(local)) * 1000);
      t.setNanos(local.getNano());
      return t;
    }
    if (text.length() > 10 && text.charAt(10) == 'T') {
      return Timestamp.valueOf(LocalDateTime.parse(text));
    }
    return Timestamp.valueOf(text);
  }

  /**
   * {@code text} as {@code yyyy-mm-dd hh:mm:ss[.f...]} (1 to 9 digits of fraction, a space or
   * {@code T} before the time) of a valid date from 1583 on, or null when it is not that.
   */
  private static LocalDateTime plainTimestamp(String text) {
    final int length = text.length();
    if (length < 19 || length == 20 || length > 29 || text.charAt(4) != '-'
        || text.charAt(7) != '-' || text.charAt(10) != ' ' && text.charAt(10) != 'T'
        || text.charAt(13) != ':' || text.charAt(16) != ':'
        || length > 19 && text.charAt(19) != '.') {
      return null;
    }
    final int year = digits(text, 0, 4);
    final int month = digits(text, 5, 7);
    final int day = digits(text, 8, 10);
    final int hour = digits(text, 11, 13);
    final int minute = digits(text, 14, 16);
    final int second = digits(text, 17, 19);
    int nanos = length > 19 ? digits(text, 20, length) : 0;
    if (year < 1583 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23
        || minute < 0 || minute > 59 || second < 0 || second > 59 || nanos < 0
        || day > YearMonth.of(year, month).lengthOfMonth()) {
      return null;
    }
    for (int k = length; k < 29; k++) {
      nanos *= 10;
    }
    return LocalDateTime.of(year, month, day, hour, minute, second, length > 19 ? nanos : 0);
  }

  /** The number the decimal digits {@code text[from, to)} write, or -1 if one is not a digit. */
  private static int digits(String text, int from, int to) {
    int value = 0;
    for (int k = from; k < to; k++) {
      final char c = text.charAt(k);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + c - '0';
    }
    return value;
  }

  private static String typeName(int type) {
    return switch (type) {
    case Types.BOOLEAN -> "BOOLEAN (true or false)";
    case Types.TINYINT -> "TINYINT";
    case Types.SMALLINT -> "SMALLINT";
    case Types.INTEGER -> "INTEGER";
    case Types.BIGINT -> "BIGINT";
    case Types.DECIMAL, Types.NUMERIC -> "DECIMAL";
    case Types.REAL -> "REAL";
    case Types.FLOAT, Types.DOUBLE -> "DOUBLE";
    case Types.DATE -> "DATE (yyyy-mm-dd)";
    case Types.TIME -> "TIME (hh:mm:ss[.fff])";
    case Types.TIMESTAMP -> "TIMESTAMP (yyyy-mm-dd hh:mm:ss[.fff])";
    default -> "binary string (hex digits)";
    };
  }

  private static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** The records of a CSV text, one list of fields (null: an empty unquoted field) each. */
  private static final class Records {
    private final BufferedReader in;
    /** The line the last record read began on, from 1. */
    int line;
    /** Lines read so far. */
    private int read;

    Records(BufferedReader in) {
      this.in = in;
    }

    /** The next record, or null at the end of the text. */
    List<String> next() throws IOException, BadLine {
      String text = in.readLine();
      if (text == null) {
        return null;
      }
      line = ++read;
      final List<String> fields = new ArrayList<>();
      final StringBuilder field = new StringBuilder();
      int i = 0;
      while (true) {
        // one field, starting at i
        if (i < text.length() && text.charAt(i) == '"') {
          field.setLength(0);
          i++;
          while (true) {
            final int quote = text.indexOf('"', i);
            if (quote < 0) {
              field.append(text, i, text.length()).append('\n');
              text = in.readLine();
              if (text == null) {
                throw new BadLine("line " + line + ": a quoted field is not closed", "22000",
                    null);
              }
              read++;
              i = 0;
            } else if (quote + 1 < text.length() && text.charAt(quote + 1) == '"') {
              field.append(text, i, quote + 1);
              i = quote + 2;
            } else {
              field.append(text, i, quote);
              i = quote + 1;
              break;
            }
          }
          fields.add(field.toString());
          if (i < text.length() && text.charAt(i) != ',') {
            throw new BadLine("line " + read + ", column " + fields.size()
                + ": text after a quoted field's closing quote", "22000", null);
          }
        } else {
          final int comma = text.indexOf(',', i);
          final int end = comma < 0 ? text.length() : comma;
          fields.add(end == i ? null : text.substring(i, end));
          i = end;
        }
        if (i >= text.length()) {
          return fields;
        }
        i++; // the comma
        if (i == text.length()) {
          fields.add(null);
          return fields;
        }
      }
    }
  }
}
