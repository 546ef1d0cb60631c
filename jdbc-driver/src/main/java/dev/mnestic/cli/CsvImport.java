package dev.mnestic.cli;

import java.io.BufferedReader;
import java.io.IOException;
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
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
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
 */
final class CsvImport {
  /** Rows sent to the driver per {@code executeBatch}. */
  private static final int BATCH = 65_536;

  private final String table;
  private final List<Column> columns;

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

  private long insert(Connection connection, Records records)
      throws SQLException, IOException, BadLine {
    final String sql = "INSERT INTO " + quote(table) + " ("
        + columns.stream().map(c -> quote(c.name)).collect(Collectors.joining(", "))
        + ") VALUES (" + "?, ".repeat(columns.size() - 1) + "?)";
    long rows = 0;
    // the line each row of the batch began on
    final int[] lines = new int[BATCH];
    int pending = 0;
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      for (List<String> record = records.next(); record != null; record = records.next()) {
        if (record.size() != columns.size()) {
          throw new BadLine("line " + records.line + ": expected " + columns.size()
              + " fields, found " + record.size(), "22023", null);
        }
        for (int i = 0; i < columns.size(); i++) {
          bind(ps, i, record.get(i), records);
        }
        ps.addBatch();
        lines[pending++] = records.line;
        if (pending == BATCH) {
          rows += send(ps, lines, pending);
          pending = 0;
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

  /** Binds field {@code text} of column {@code i} as its column's type. */
  private void bind(PreparedStatement ps, int i, String text, Records records)
      throws SQLException, BadLine {
    final Column column = columns.get(i);
    final int p = i + 1;
    if (text == null) {
      ps.setNull(p, column.type);
      return;
    }
    try {
      switch (column.type) {
      case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> ps.setString(p, text);
      case Types.BOOLEAN -> ps.setBoolean(p, bool(text.strip()));
      case Types.TINYINT -> ps.setByte(p, Byte.parseByte(text.strip()));
      case Types.SMALLINT -> ps.setShort(p, Short.parseShort(text.strip()));
      case Types.INTEGER -> ps.setInt(p, Integer.parseInt(text.strip()));
      case Types.BIGINT -> ps.setLong(p, Long.parseLong(text.strip()));
      case Types.DECIMAL, Types.NUMERIC -> ps.setBigDecimal(p, new BigDecimal(text.strip()));
      case Types.REAL -> ps.setFloat(p, Float.parseFloat(text.strip()));
      case Types.FLOAT, Types.DOUBLE -> ps.setDouble(p, Double.parseDouble(text.strip()));
      case Types.DATE -> ps.setDate(p, Date.valueOf(LocalDate.parse(text.strip())));
      case Types.TIME -> ps.setTime(p, Time.valueOf(LocalTime.parse(text.strip())));
      case Types.TIMESTAMP -> ps.setTimestamp(p, timestamp(text.strip()));
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY ->
          ps.setBytes(p, HexFormat.of().parseHex(text.strip()));
      default -> ps.setObject(p, text);
      }
    } catch (IllegalArgumentException | DateTimeParseException e) {
      final boolean datetime = column.type == Types.DATE || column.type == Types.TIME
          || column.type == Types.TIMESTAMP;
      throw new BadLine("line " + records.line + ", column " + p + " (" + column.name
          + "): '" + text + "' is not a " + typeName(column.type), datetime ? "22007" : "22018",
          e);
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

  /** {@code 2024-01-31 12:00:00[.f...]}, also with {@code T} between date and time. */
  private static Timestamp timestamp(String text) {
    if (text.length() > 10 && text.charAt(10) == 'T') {
      return Timestamp.valueOf(LocalDateTime.parse(text));
    }
    return Timestamp.valueOf(text);
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
