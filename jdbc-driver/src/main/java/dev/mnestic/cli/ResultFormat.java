package dev.mnestic.cli;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How {@code mnestic sql} and {@code mnestic run} write a result ({@link Rows}): an SQL
 * result set's values as {@link Values} describes, a Datalog script's as CozoDB does
 * ({@link Rows#of(dev.mnestic.datalog.Engine.Result)}). Every line ends with {@code \n}.
 */
enum ResultFormat {
  /**
   * A header line of column labels, then a line per row. Every column but the
   * last is padded with spaces to its widest cell (header included) plus 4;
   * the last is not padded. Widths are as a terminal shows the text: East
   * Asian wide and fullwidth characters (such as {@code 部門}) take two
   * columns, combining marks none. NULL is {@code NULL}; a string that is
   * {@code NULL} is written {@code 'NULL'}, so the two stay apart. A cell's
   * line breaks and tabs are escaped ({@code \n}, {@code \r}, {@code \t}), other
   * control characters as a backslash, {@code u} and four hex digits, and a
   * backslash is doubled, so every row is one line. A Datalog script's values
   * are written as {@link Rows#of(dev.mnestic.datalog.Engine.Result)} says.
   *
   * <pre>
   * name    id    importance
   * Maya    m1    0.6
   * 部門    m2    NULL
   * </pre>
   */
  TABLE("\n") {
    @Override void write(Rows rows, PrintStream out) throws SQLException {
      final String[] labels = rows.labels();
      final int n = labels.length;
      final List<String[]> lines = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        labels[i] = escaped(labels[i]);
      }
      lines.add(labels);
      while (rows.next()) {
        final String[] cells = new String[n];
        for (int i = 0; i < n; i++) {
          final String text = rows.text(i);
          cells[i] = text == null ? "NULL" : text.equals("NULL") ? "'NULL'" : escaped(text);
        }
        lines.add(cells);
      }
      final int[] widths = new int[n];
      for (String[] cells : lines) {
        for (int i = 0; i < n; i++) {
          widths[i] = Math.max(widths[i], width(cells[i]));
        }
      }
      final StringBuilder b = new StringBuilder();
      for (String[] cells : lines) {
        for (int i = 0; i < n; i++) {
          b.append(cells[i]);
          if (i < n - 1) {
            b.append(" ".repeat(widths[i] - width(cells[i]) + 4));
          }
        }
        b.append('\n');
      }
      out.print(b);
    }
  },

  /**
   * One line, {@code {"headers":[...],"rows":[[...],...]}}. Integers and
   * decimals are JSON numbers, doubles and reals too (always with a point or
   * an exponent, {@code 1.0}) except NaN and the infinities, which JSON
   * cannot write as numbers and which are therefore the strings
   * {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}. NULL is
   * {@code null}, booleans are {@code true} and {@code false}, arrays are JSON
   * arrays, and everything else (strings, dates, times, timestamps) a JSON
   * string. A Datalog script's rows are CozoDB's JSON of them, as its
   * {@code {"headers":[...],"rows":[...]}} has them.
   */
  JSON("") {
    @Override void write(Rows rows, PrintStream out) throws SQLException {
      final String[] labels = rows.labels();
      final StringBuilder b = new StringBuilder("{\"headers\":");
      Values.appendJson(b, labels);
      b.append(",\"rows\":[");
      String sep = "";
      while (rows.next()) {
        b.append(sep).append('[');
        for (int i = 0; i < labels.length; i++) {
          if (i > 0) {
            b.append(',');
          }
          rows.appendJson(b, i);
        }
        b.append(']');
        sep = ",";
        out.print(b);
        b.setLength(0);
      }
      b.append("]}\n");
      out.print(b);
    }
  },

  /**
   * RFC 4180: a header line, then a line per row. A field that holds a comma,
   * a double quote, CR or LF is quoted, its quotes doubled. NULL is an empty
   * field; the empty string is {@code ""}, so the two stay apart.
   */
  CSV("\n") {
    @Override void write(Rows rows, PrintStream out) throws SQLException {
      csv(rows, out, Long.MAX_VALUE);
    }
  };

  /**
   * Writes at most {@code limit} rows of {@code rows} as {@link #CSV}, a line (one
   * {@code print}) per row: followed rows ({@code mnestic follow}) are written as they come.
   */
  static void csv(Rows rows, PrintStream out, long limit) throws SQLException {
    final String[] labels = rows.labels();
    final int n = labels.length;
    final StringBuilder b = new StringBuilder();
    appendRecord(b, labels);
    out.print(b);
    final String[] fields = new String[n];
    for (long written = 0; written < limit && rows.next(); written++) {
      for (int i = 0; i < n; i++) {
        fields[i] = rows.text(i);
      }
      b.setLength(0);
      appendRecord(b, fields);
      out.print(b);
    }
  }

  private static void appendRecord(StringBuilder b, String[] fields) {
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      final String field = fields[i];
      if (field == null) {
        continue;
      }
      if (field.isEmpty() || field.chars().anyMatch(c -> c == ',' || c == '"' || c == '\r' || c == '\n')) {
        b.append('"').append(field.replace("\"", "\"\"")).append('"');
      } else {
        b.append(field);
      }
    }
    b.append('\n');
  }

  /** What is written between two result sets of one run. */
  final String separator;

  ResultFormat(String separator) {
    this.separator = separator;
  }

  /** Writes the rest of {@code rows}. */
  abstract void write(Rows rows, PrintStream out) throws SQLException;

  /** The format that {@code --format NAME} names, in any case. */
  static ResultFormat of(String name) throws UsageException {
    for (ResultFormat format : values()) {
      if (format.name().equals(name.toUpperCase(Locale.ROOT))) {
        return format;
      }
    }
    throw new UsageException("unknown format '" + name + "'; use table, json or csv");
  }

  /** {@code text} with control characters escaped and backslashes doubled. */
  static String escaped(String text) {
    final StringBuilder b = new StringBuilder(text.length());
    text.codePoints().forEach(c -> {
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (Character.isISOControl(c)) {
            b.append(String.format("\\u%04x", c));
          } else {
            b.appendCodePoint(c);
          }
        }
      }
    });
    return b.toString();
  }

  /**
   * The columns a terminal gives {@code text} (without control characters): two for an East
   * Asian wide or fullwidth character (Unicode's East_Asian_Width W and F, which Java does
   * not expose: their blocks), none for a combining mark or a zero-width format character,
   * one for any other.
   */
  static int width(String text) {
    return text.codePoints().map(c -> {
      final int type = Character.getType(c);
      if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK
          || type == Character.FORMAT) {
        return 0;
      }
      return isWide(c) ? 2 : 1;
    }).sum();
  }

  private static boolean isWide(int c) {
    return c >= 0x1100 && c <= 0x115F // Hangul Jamo initials
        || c >= 0x2E80 && c <= 0x303E // CJK radicals, punctuation
        || c >= 0x3041 && c <= 0x33FF // kana, CJK compatibility
        || c >= 0x3400 && c <= 0x4DBF // CJK extension A
        || c >= 0x4E00 && c <= 0x9FFF // CJK unified ideographs
        || c >= 0xA000 && c <= 0xA4CF // Yi
        || c >= 0xAC00 && c <= 0xD7A3 // Hangul syllables
        || c >= 0xF900 && c <= 0xFAFF // CJK compatibility ideographs
        || c >= 0xFE30 && c <= 0xFE4F // CJK compatibility forms
        || c >= 0xFF00 && c <= 0xFF60 // fullwidth forms
        || c >= 0xFFE0 && c <= 0xFFE6
        || c >= 0x1F300 && c <= 0x1F64F // pictographs, emoticons
        || c >= 0x1F900 && c <= 0x1F9FF
        || c >= 0x20000 && c <= 0x3FFFD; // CJK extensions B and later
  }
}
