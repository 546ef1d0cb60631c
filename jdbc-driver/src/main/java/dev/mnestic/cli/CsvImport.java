package dev.mnestic.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
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
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Arrays;
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
 * core. It is read as bytes ({@link Records}), and numbers and times of the usual forms are
 * converted from their bytes, with no String made of them.
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
  static long load(Connection connection, String table, boolean header, InputStream in)
      throws SQLException, IOException, BadLine {
    final Records records = new Records(in);
    final CsvImport csv =
        of(connection, table, header && records.next() ? records.list() : null, records);
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
        while (records.next()) {
          if (records.fields != n) {
            throw new BadLine("line " + records.line + ": expected " + n + " fields, found "
                + records.fields, "22023", null);
          }
          for (int i = 0; i < n; i++) {
            chunk.values[chunk.rows * n + i] = value(i, records);
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

  /**
   * The value of column {@code i} in field {@code i} of the record {@code records} is at, or
   * null: a DOUBLE, BIGINT, INTEGER or TIMESTAMP of the usual forms straight from the field's
   * bytes, the same value as from its text ({@link #value(int, String, int)}), which reads the
   * others.
   */
  private Object value(int i, Records records) throws BadLine {
    if (records.isNull(i)) {
      return null;
    }
    if (records.plain(i)) {
      final byte[] b = records.bytes();
      final int from = records.from(i);
      final int to = records.to(i);
      switch (columns.get(i).type) {
      case Types.FLOAT, Types.DOUBLE -> {
        final double d = plainDouble(b, from, to);
        if (!Double.isNaN(d)) {
          return d;
        }
      }
      case Types.BIGINT -> {
        final long v = plainLong(b, from, to);
        if (v != Long.MIN_VALUE) {
          return v;
        }
      }
      case Types.INTEGER -> {
        final long v = plainLong(b, from, to);
        if (v == (int) v) {
          return (int) v;
        }
      }
      case Types.TIMESTAMP -> {
        final Timestamp t = zone.isFixedOffset() ? plainTimestamp(b, from, to, zone) : null;
        if (t != null) {
          return t;
        }
      }
      default -> {
      }
      }
    }
    return value(i, records.string(i), records.line);
  }

  /** Powers of ten a double holds exactly. */
  private static final double[] TENS = new double[23];

  static {
    TENS[0] = 1;
    for (int k = 1; k < TENS.length; k++) {
      TENS[k] = TENS[k - 1] * 10;
    }
  }

  /**
   * The bytes {@code from} .. {@code to} of {@code b} as {@code Double.parseDouble} reads
   * them where they write {@code [-+]digits[.digits]} with at most 15 significant digits and
   * 22 after the point, else NaN. Such a number is m / 10^f with both exact doubles, so one
   * division, rounded once, is the double nearest the decimal, as parseDouble's.
   */
  static double plainDouble(byte[] b, int from, int to) {
    int p = from;
    final boolean negative = p < to && b[p] == '-';
    if (p < to && (b[p] == '-' || b[p] == '+')) {
      p++;
    }
    long m = 0;
    int significant = 0;
    int fraction = -1;
    boolean digit = false;
    for (; p < to; p++) {
      final int c = b[p];
      if (c >= '0' && c <= '9') {
        if (m != 0 || c != '0') {
          if (++significant > 15) {
            return Double.NaN;
          }
        }
        m = m * 10 + c - '0';
        digit = true;
        if (fraction >= 0) {
          fraction++;
        }
      } else if (c == '.' && fraction < 0) {
        fraction = 0;
      } else {
        return Double.NaN;
      }
    }
    if (!digit || fraction >= TENS.length) {
      return Double.NaN;
    }
    final double v = fraction > 0 ? m / TENS[fraction] : m;
    return negative ? -v : v;
  }

  /**
   * The bytes {@code from} .. {@code to} of {@code b} as {@code Long.parseLong} reads them
   * where they write {@code [-+]digits} with at most 18 digits, else {@code Long.MIN_VALUE}.
   */
  static long plainLong(byte[] b, int from, int to) {
    int p = from;
    final boolean negative = p < to && b[p] == '-';
    if (p < to && (b[p] == '-' || b[p] == '+')) {
      p++;
    }
    if (p == to || to - p > 18) {
      return Long.MIN_VALUE;
    }
    long v = 0;
    for (; p < to; p++) {
      final int c = b[p];
      if (c < '0' || c > '9') {
        return Long.MIN_VALUE;
      }
      v = v * 10 + c - '0';
    }
    return negative ? -v : v;
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
   * {@code yyyy-mm-dd hh:mm:ss[.f...]} from 1583 on, is read digit by digit
   * ({@link #plainTimestamp}): the same instant, without {@code Timestamp.valueOf}'s calendar
   * fields. (Elsewhere {@code java.time}'s rules and {@code java.util.TimeZone}'s, by which the
   * driver reads the instant back, part before standard time: Berlin's 1595 is 6:32 apart.)
   */
  static Timestamp timestamp(String text, ZoneRules zone) {
    final byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
    final Timestamp plain = zone.isFixedOffset() ? plainTimestamp(b, 0, b.length, zone) : null;
    if (plain != null) {
      return plain;
    }
    if (text.length() > 10 && text.charAt(10) == 'T') {
      return Timestamp.valueOf(LocalDateTime.parse(text));
    }
    return Timestamp.valueOf(text);
  }

  /**
   * The bytes {@code from} .. {@code to} of {@code b} as {@code yyyy-mm-dd hh:mm:ss[.f...]}
   * (1 to 9 digits of fraction, a space or {@code T} before the time) of a valid date from
   * 1583 on, the instant it is in {@code zone} (of fixed offset), or null when they are not
   * that.
   */
  static Timestamp plainTimestamp(byte[] b, int from, int to, ZoneRules zone) {
    final int length = to - from;
    if (length < 19 || length == 20 || length > 29 || b[from + 4] != '-'
        || b[from + 7] != '-' || b[from + 10] != ' ' && b[from + 10] != 'T'
        || b[from + 13] != ':' || b[from + 16] != ':'
        || length > 19 && b[from + 19] != '.') {
      return null;
    }
    final int year = digits(b, from, from + 4);
    final int month = digits(b, from + 5, from + 7);
    final int day = digits(b, from + 8, from + 10);
    final int hour = digits(b, from + 11, from + 13);
    final int minute = digits(b, from + 14, from + 16);
    final int second = digits(b, from + 17, from + 19);
    int nanos = length > 19 ? digits(b, from + 20, to) : 0;
    if (year < 1583 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23
        || minute < 0 || minute > 59 || second < 0 || second > 59 || nanos < 0
        || day > lengthOfMonth(year, month)) {
      return null;
    }
    for (int k = length; k < 29; k++) {
      nanos *= 10;
    }
    final long seconds = epochDay(year, month, day) * 86_400 + hour * 3600 + minute * 60
        + second - zone.getOffset(Instant.EPOCH).getTotalSeconds();
    final Timestamp t = new Timestamp(seconds * 1000);
    t.setNanos(length > 19 ? nanos : 0);
    return t;
  }

  private static int lengthOfMonth(int year, int month) {
    return switch (month) {
    case 2 -> year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
    case 4, 6, 9, 11 -> 30;
    default -> 31;
    };
  }

  /** The days from 1970-01-01 to {@code year-month-day} (proleptic Gregorian), as LocalDate. */
  private static long epochDay(int year, int month, int day) {
    // days from civil: years counted from March, so that a leap day ends its year
    final int y = month <= 2 ? year - 1 : year;
    final int era = Math.floorDiv(y, 400);
    final int yearOfEra = y - era * 400;
    final int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    final int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146_097L + dayOfEra - 719_468;
  }

  /**
   * The number the decimal digits {@code b[from, to)} write, or -1 if one is not a digit.
   */
  private static int digits(byte[] b, int from, int to) {
    int value = 0;
    for (int k = from; k < to; k++) {
      final int c = b[k];
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

  /**
   * The records of a CSV text, read from its bytes (UTF-8) field by field, a megabyte at a
   * time: {@link #next} moves to the next record, whose fields {@link #fields} counts and
   * {@link #isNull}, {@link #string} and the fast conversions of {@link CsvImport#value} read
   * where they are, with no line or field made a String first. A line break ends a record
   * (LF, CRLF or CR, as {@code BufferedReader.readLine}), except inside a quoted field, whose
   * text has each of them as LF.
   */
  static final class Records {
    private static final int MORE = -1;
    private static final int END = 0;
    private static final int RECORD = 1;

    private final InputStream in;
    private byte[] buf;
    private int pos;
    private int limit;
    private boolean eof;
    /** The line the last record read began on, from 1. */
    int line;
    /** Lines read so far. */
    private int read;
    /** How many fields the last record has. */
    int fields;
    /** Where each field's text is in {@link #buf}, when {@link #texts} has none for it. */
    private int[] starts = new int[16];
    private int[] ends = new int[16];
    /** Whether each field was quoted (an empty one is then the empty string, not NULL). */
    private boolean[] quoted = new boolean[16];
    /** A quoted field's text where it is not its bytes as they are (a {@code ""}, a break). */
    private String[] texts = new String[16];
    /** A quoted field's bytes with its doubled quotes and line breaks undone. */
    private byte[] scratch = new byte[256];

    Records(InputStream in) {
      this(in, 1 << 20);
    }

    /** The records of {@code in}, read {@code size} bytes at a time (more for a longer one). */
    Records(InputStream in, int size) {
      this.in = in;
      this.buf = new byte[size];
    }

    /** Moves to the next record; false at the end of the text. */
    boolean next() throws IOException, BadLine {
      while (true) {
        final int r = parse();
        if (r != MORE) {
          return r == RECORD;
        }
        fill();
      }
    }

    /** The last record's fields (null: an empty unquoted field). */
    List<String> list() {
      final List<String> out = new ArrayList<>(fields);
      for (int k = 0; k < fields; k++) {
        out.add(isNull(k) ? null : string(k));
      }
      return out;
    }

    boolean isNull(int k) {
      return !quoted[k] && starts[k] == ends[k];
    }

    /** Field {@code k}'s text (not {@link #isNull}). */
    String string(int k) {
      return texts[k] != null ? texts[k]
          : new String(buf, starts[k], ends[k] - starts[k], StandardCharsets.UTF_8);
    }

    /** Whether field {@code k}'s text is its bytes {@link #from} .. {@link #to} as they are. */
    boolean plain(int k) {
      return texts[k] == null;
    }

    byte[] bytes() {
      return buf;
    }

    int from(int k) {
      return starts[k];
    }

    int to(int k) {
      return ends[k];
    }

    /** Keeps the bytes from the record being read on, and reads more after them. */
    private void fill() throws IOException {
      if (pos > 0) {
        System.arraycopy(buf, pos, buf, 0, limit - pos);
        limit -= pos;
        pos = 0;
      } else if (limit == buf.length) {
        buf = Arrays.copyOf(buf, buf.length * 2);
      }
      final int n = in.read(buf, limit, buf.length - limit);
      if (n < 0) {
        eof = true;
      } else {
        limit += n;
      }
    }

    /**
     * Reads the record at {@link #pos}: {@link #RECORD}, {@link #END} at the end of the text,
     * or {@link #MORE} when its bytes are not all read yet (it is read again after
     * {@link #fill}).
     */
    private int parse() throws BadLine {
      int p = pos;
      if (p == limit) {
        return eof ? END : MORE;
      }
      // line breaks inside quoted fields so far
      int breaks = 0;
      int k = 0;
      while (true) {
        if (k == starts.length) {
          starts = Arrays.copyOf(starts, k * 2);
          ends = Arrays.copyOf(ends, k * 2);
          quoted = Arrays.copyOf(quoted, k * 2);
          texts = Arrays.copyOf(texts, k * 2);
        }
        if (p < limit && buf[p] == '"') {
          // a quoted field: its bytes up to the closing quote, "" for a quote
          int from = ++p;
          int undone = -1;
          while (true) {
            if (p >= limit) {
              if (!eof) {
                return MORE;
              }
              throw new BadLine("line " + (read + 1) + ": a quoted field is not closed", "22000",
                  null);
            }
            final byte b = buf[p];
            if (b == '"') {
              if (p + 1 >= limit && !eof) {
                return MORE;
              }
              if (p + 1 == limit || buf[p + 1] != '"') {
                break;
              }
              // "" is a quote
              undone = keep(undone, from, p);
              scratch[undone++] = '"';
              p += 2;
              from = p;
            } else if (b == '\r' || b == '\n') {
              if (b == '\r' && p + 1 >= limit && !eof) {
                return MORE;
              }
              // a line break (LF, CRLF or CR) is LF
              undone = keep(undone, from, p);
              scratch[undone++] = '\n';
              p += b == '\r' && p + 1 < limit && buf[p + 1] == '\n' ? 2 : 1;
              from = p;
              breaks++;
            } else {
              p++;
            }
          }
          quoted[k] = true;
          if (undone < 0) {
            starts[k] = from;
            ends[k] = p;
            texts[k] = null;
          } else {
            undone = keep(undone, from, p);
            texts[k] = new String(scratch, 0, undone, StandardCharsets.UTF_8);
          }
          p++; // the closing quote
          k++;
          if (p >= limit && !eof) {
            return MORE;
          }
          if (p < limit && buf[p] != ',' && buf[p] != '\r' && buf[p] != '\n') {
            throw new BadLine("line " + (read + 1 + breaks) + ", column " + k
                + ": text after a quoted field's closing quote", "22000", null);
          }
        } else {
          final int from = p;
          while (p < limit && buf[p] != ',' && buf[p] != '\r' && buf[p] != '\n') {
            p++;
          }
          if (p >= limit && !eof) {
            return MORE;
          }
          quoted[k] = false;
          starts[k] = from;
          ends[k] = p;
          texts[k] = null;
          k++;
        }
        if (p < limit && buf[p] == ',') {
          p++;
          continue;
        }
        // the record's end: a line break, or the end of the text
        if (p < limit) {
          if (buf[p] == '\r' && p + 1 >= limit && !eof) {
            return MORE;
          }
          p += buf[p] == '\r' && p + 1 < limit && buf[p + 1] == '\n' ? 2 : 1;
        }
        fields = k;
        line = read + 1;
        read += 1 + breaks;
        pos = p;
        return RECORD;
      }
    }

    /**
     * Appends the bytes {@code from} .. {@code to} of {@link #buf} to the {@code n} bytes of
     * {@link #scratch} (none yet where {@code n} is negative); returns how many it has then,
     * with room for one more.
     */
    private int keep(int n, int from, int to) {
      final int had = Math.max(n, 0);
      final int needs = had + to - from + 1;
      if (needs > scratch.length) {
        scratch = Arrays.copyOf(scratch, Math.max(needs, scratch.length * 2));
      }
      System.arraycopy(buf, from, scratch, had, to - from);
      return had + to - from;
    }
  }
}
