package dev.mnestic.cli;

import dev.mnestic.cli.MainTest.Run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.ZoneId;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.List;
import java.util.Random;
import java.util.TimeZone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #16 (fast ingest): {@code mnestic import --csv FILE TABLE}, run in this JVM:
 * header mapping, conversions to the table's types, quoting, and bad
 * lines named by line and column with nothing of the file stored.
 */
class CsvImportTest {
  private static Run run(String stdin, String... args) {
    return MainTest.runWithInput(stdin, args);
  }

  private static String sql(String db, String sql) {
    final Run run = run("", "sql", "--db", db, "--format", "csv", sql);
    assertEquals(0, run.status(), run.err());
    return run.out();
  }

  /**
   * Oracle test: a TIMESTAMP's text read digit by digit ({@code CsvImport.timestamp}, in a
   * zone of fixed offset) is the instant {@code Timestamp.valueOf} makes of it, computed here as
   * it computes it (a Gregorian calendar's fields in the zone), with every length of fraction.
   */
  @Test void aTimestampIsTheInstantTimestampValueOfReads() {
    final Random random = new Random(16);
    for (String id : new String[] {"UTC", "Etc/GMT+5", "Etc/GMT-14"}) {
      final TimeZone zone = TimeZone.getTimeZone(id);
      for (int k = 0; k < 20_000; k++) {
        final int year = 1583 + random.nextInt(600);
        final int month = 1 + random.nextInt(12);
        final int day = 1 + random.nextInt(28);
        final int hour = random.nextInt(24);
        final int minute = random.nextInt(60);
        final int second = random.nextInt(60);
        final int digits = random.nextInt(10);
        final String fraction = digits == 0 ? ""
            : "." + String.format("%09d", random.nextInt(1_000_000_000)).substring(0, digits);
        final String text = String.format("%04d-%02d-%02d%s%02d:%02d:%02d%s", year, month, day,
            random.nextInt(4) == 0 ? "T" : " ", hour, minute, second, fraction);
        final Calendar calendar = new GregorianCalendar(zone);
        calendar.clear();
        calendar.set(year, month - 1, day, hour, minute, second);
        final Timestamp read = CsvImport.timestamp(text, ZoneId.of(id).getRules());
        assertEquals(calendar.getTimeInMillis() / 1000, Math.floorDiv(read.getTime(), 1000),
            id + " " + text);
        assertEquals(digits == 0 ? 0 : Integer.parseInt((fraction.substring(1) + "00000000")
            .substring(0, 9)), read.getNanos(), text);
      }
    }
    // not the usual form, or before 1583: as Timestamp.valueOf reads it, in this JVM's zone
    for (String text : new String[] {"2024-1-5 1:02:03", "1500-03-01 00:00:00.5"}) {
      assertEquals(Timestamp.valueOf(text),
          CsvImport.timestamp(text, ZoneId.systemDefault().getRules()));
    }
  }

  @Test void loadsConvertsAndMapsTheHeader(@TempDir Path dir) throws IOException {
    final String db = dir.resolve("store").toString();
    sql(db, "CREATE TABLE m (ts TIMESTAMP(3) NOT NULL, host VARCHAR(20) DEFAULT 'none',"
        + " v DOUBLE, n INT, d DECIMAL(6,2), dt DATE, ok BOOLEAN, bin VARBINARY(4))");
    final Path csv = dir.resolve("m.csv");
    Files.writeString(csv, """
        V,ts,N,d,dt,ok,bin
        1.5,2024-01-31 12:00:00.25,7,1.25,2024-02-29,true,0aff
        -2e3,2024-01-31T12:00:01,,0.5,,FALSE,
        ,2024-01-31 12:00:02,-3,,1999-12-31,,00
        """);
    assertEquals(new Run(0, "", ""), run("", "import", "--db", db, "--csv", csv.toString(), "m"));
    assertEquals("""
        ts,host,v,n,d,dt,ok,bin
        2024-01-31 12:00:00.25,none,1.5,7,1.25,2024-02-29,true,0aff
        2024-01-31 12:00:01,none,-2000.0,,0.50,,false,
        2024-01-31 12:00:02,none,,-3,,1999-12-31,,00
        """, sql(db, "SELECT * FROM m ORDER BY ts"));
    // quoted fields (a comma, a quote, a line break), CRLF, no header, from standard input
    sql(db, "CREATE TABLE note (id INT PRIMARY KEY, body VARCHAR(40))");
    assertEquals(new Run(0, "", ""), run("1,\"a, \"\"b\"\"\"\r\n2,\"two\nlines\"\r\n3,\"\"\r\n4,\n",
        "import", "--db", db, "--no-header", "--csv", "-", "note"));
    assertEquals("id,body\n1,\"a, \"\"b\"\"\"\n2,\"two\nlines\"\n3,\"\"\n4,\n",
        sql(db, "SELECT * FROM note ORDER BY id"));
    assertEquals("n\n1\n", sql(db, "SELECT COUNT(*) AS n FROM note WHERE body = ''"));
  }

  /**
   * Each bad line stops the import, the file's rows before it in an earlier batch of the
   * driver (65,536 rows) included; an in-memory store, kept open by a connection of the test.
   */
  @Test void aBadLineIsNamedAndNothingIsStored(@TempDir Path dir)
      throws IOException, SQLException {
    final String db = "mem:csv-import-test";
    try (Connection holder = DriverManager.getConnection("jdbc:mnestic:db=" + db)) {
      badLines(dir, db);
    }
  }

  private static void badLines(Path dir, String db) throws IOException {
    sql(db, "CREATE TABLE m (ts TIMESTAMP NOT NULL, host VARCHAR(8), v DOUBLE,"
        + " PRIMARY KEY (ts, host))");
    sql(db, "INSERT INTO m VALUES (TIMESTAMP '2024-01-01 00:00:00', 'kept', 1)");
    final StringBuilder good = new StringBuilder("ts,host,v\n");
    for (int i = 0; i < 70_000; i++) {
      good.append(String.format("2024-01-02 00:00:00.%03d", i % 1000)).append(",h").append(i / 1000)
          .append(',').append(i).append('\n');
    }
    final String[][] bad = {
      {"2024-01-03 00:00:00,h,abc", "line 70002, column 3 (v): 'abc' is not a DOUBLE"},
      {"2024-13-03 00:00:00,h,1", "line 70002, column 1 (ts): '2024-13-03 00:00:00' is not a"
          + " TIMESTAMP"},
      {"2024-01-03 00:00:00,h", "line 70002: expected 3 fields, found 2"},
      {"2024-01-03 00:00:00,\"h,1", "line 70002: a quoted field is not closed"},
      {",h,1", "line 70002: integrity constraint violation: NOT NULL"},
      {"2024-01-03 00:00:00,toolonghost,1", "line 70002: data exception: string data,"
          + " right truncation"},
      {"2024-01-01 00:00:00,kept,2", "line 70002: integrity constraint violation: unique"},
    };
    for (String[] line : bad) {
      final Path csv = dir.resolve("bad.csv");
      Files.writeString(csv, good + line[0] + "\n2024-01-04 00:00:00,h,1\n");
      final Run run = run("", "import", "--db", db, "--csv", csv.toString(), "m");
      assertEquals(1, run.status(), run.toString());
      assertTrue(run.err().startsWith("Error: " + csv + ", " + line[1]), run.err());
      assertTrue(run.err().contains("nothing was imported"), run.err());
      assertEquals("n\n1\n", sql(db, "SELECT COUNT(*) AS n FROM m"));
    }
    final Run unknown = run("ts,hots\n", "import", "--db", db, "--csv", "-", "m");
    assertEquals(1, unknown.status());
    assertTrue(unknown.err().startsWith("Error: -, line 1, column 2: table m has no column 'hots';"
        + " its columns: ts, host, v"), unknown.err());
    final Run usage = run("", "import", "--db", db, "--csv", "only-one-operand.csv");
    assertEquals(2, usage.status());
    assertTrue(usage.err().startsWith("Error: --csv expects FILE.csv and TABLE, got 1 argument"),
        usage.err());
    Files.writeString(dir.resolve("good.csv"), good);
    assertEquals(new Run(0, "", ""),
        run("", "import", "--db", db, "--csv", dir.resolve("good.csv").toString(), "m"));
    assertEquals("n\n70001\n", sql(db, "SELECT COUNT(*) AS n FROM m"));
  }

  /**
   * Oracle test: the byte reader ({@code CsvImport.Records}), with buffers of 1 to 9 bytes
   * (every field and line break across a refill) and its own, reads every record, its fields
   * (NULL, quoted, doubled quotes, commas and LF, CR or CRLF inside quotes), its line and its
   * errors as a reference reader of the text as characters does.
   */
  @Test void recordsAreWhatAReferenceReaderReads() throws IOException {
    final Random random = new Random(1605);
    final String[] pieces = {"a", "b1", "héllo", "中", ",", "\"", "\"\"", "\r", "\n", "\r\n",
        " ", "2024-01-31 12:00:00.5", "-1.5e3"};
    for (int k = 0; k < 3000; k++) {
      final StringBuilder text = new StringBuilder();
      final int records = random.nextInt(5);
      for (int r = 0; r < records; r++) {
        final int fields = 1 + random.nextInt(4);
        for (int f = 0; f < fields; f++) {
          if (f > 0) {
            text.append(',');
          }
          final boolean quote = random.nextInt(3) == 0;
          final StringBuilder field = new StringBuilder();
          for (int n = random.nextInt(4); n > 0; n--) {
            field.append(pieces[random.nextInt(pieces.length)]);
          }
          if (quote) {
            text.append('"').append(field.toString().replace("\"", "\"\"")).append('"');
            if (random.nextInt(40) == 0) {
              text.append('x'); // text after the closing quote
            }
          } else {
            // unquoted: no separator or line break, a quote only inside
            text.append(field.toString().replaceAll("[,\r\n]", "").replaceAll("^\"+", ""));
          }
        }
        if (r < records - 1 || random.nextBoolean()) {
          text.append(new String[] {"\n", "\r\n", "\r"}[random.nextInt(3)]);
        }
      }
      if (random.nextInt(40) == 0) {
        text.append("\"unclosed");
      }
      final String expected = reference(text.toString());
      for (int size : new int[] {1, 2, 3, 5, 9, 1 << 20}) {
        assertEquals(expected, read(text.toString(), size), "buffer " + size + " of "
            + text.toString().replace("\r", "\\r").replace("\n", "\\n"));
      }
    }
  }

  /** The records {@code CsvImport.Records} reads, as {@link #reference} writes them. */
  private static String read(String text, int size) throws IOException {
    final CsvImport.Records records = new CsvImport.Records(
        new java.io.ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), size);
    final StringBuilder out = new StringBuilder();
    try {
      while (records.next()) {
        out.append(records.line).append(": ").append(records.list()).append('\n');
      }
    } catch (CsvImport.BadLine e) {
      out.append(e.getMessage());
    }
    return out.toString();
  }

  /**
   * The records of {@code text} as RFC 4180 reads them, character by character: each record's
   * first line and fields (null: an empty unquoted field), one a line, or the error at the end.
   */
  private static String reference(String text) {
    final StringBuilder out = new StringBuilder();
    int line = 1;
    int i = 0;
    final int n = text.length();
    while (i < n) {
      final List<String> fields = new java.util.ArrayList<>();
      int breaks = 0;
      while (true) {
        if (i < n && text.charAt(i) == '"') {
          final StringBuilder field = new StringBuilder();
          i++;
          while (true) {
            if (i >= n) {
              return out + "line " + line + ": a quoted field is not closed";
            }
            final char c = text.charAt(i);
            if (c == '"' && i + 1 < n && text.charAt(i + 1) == '"') {
              field.append('"');
              i += 2;
            } else if (c == '"') {
              i++;
              break;
            } else if (c == '\r' || c == '\n') {
              field.append('\n');
              i += c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n' ? 2 : 1;
              breaks++;
            } else {
              field.append(c);
              i++;
            }
          }
          fields.add(field.toString());
          if (i < n && ",\r\n".indexOf(text.charAt(i)) < 0) {
            return out + "line " + (line + breaks) + ", column " + fields.size()
                + ": text after a quoted field's closing quote";
          }
        } else {
          int j = i;
          while (j < n && ",\r\n".indexOf(text.charAt(j)) < 0) {
            j++;
          }
          fields.add(j == i ? null : text.substring(i, j));
          i = j;
        }
        if (i < n && text.charAt(i) == ',') {
          i++;
          continue;
        }
        break;
      }
      if (i < n) {
        i += text.charAt(i) == '\r' && i + 1 < n && text.charAt(i + 1) == '\n' ? 2 : 1;
      }
      out.append(line).append(": ").append(fields).append('\n');
      line += 1 + breaks;
    }
    return out.toString();
  }

  /**
   * Oracle test: a number read from a field's bytes is the one {@code Double.parseDouble} and
   * {@code Long.parseLong} read from its text, where the fast reading takes it (else NaN,
   * {@code Long.MIN_VALUE}, and the text's reading is used).
   */
  @Test void numbersFromBytesAreWhatParseReads() {
    final Random random = new Random(1606);
    int fast = 0;
    for (int k = 0; k < 200_000; k++) {
      final StringBuilder t = new StringBuilder();
      if (random.nextInt(4) == 0) {
        t.append(random.nextBoolean() ? '-' : '+');
      }
      for (int d = random.nextInt(20); d > 0; d--) {
        t.append((char) ('0' + random.nextInt(10)));
      }
      if (random.nextBoolean()) {
        t.append('.');
        for (int d = random.nextInt(25); d > 0; d--) {
          t.append((char) ('0' + (random.nextInt(3) == 0 ? 0 : random.nextInt(10))));
        }
      }
      if (random.nextInt(20) == 0) {
        t.append(new String[] {"e3", " ", "x", "d", "."}[random.nextInt(5)]);
      }
      final String text = t.toString();
      final byte[] b = ("," + text + ",").getBytes(StandardCharsets.UTF_8);
      final double d = CsvImport.plainDouble(b, 1, b.length - 1);
      if (!Double.isNaN(d)) {
        fast++;
        assertEquals(Double.doubleToRawLongBits(Double.parseDouble(text)),
            Double.doubleToRawLongBits(d), text);
      }
      final long v = CsvImport.plainLong(b, 1, b.length - 1);
      if (v != Long.MIN_VALUE) {
        assertEquals(Long.parseLong(text), v, text);
      } else {
        assertTrue(text.length() > 18 || !text.matches("[-+]?[0-9]+"), text);
      }
    }
    assertTrue(fast > 50_000, "the fast reading took " + fast);
  }

  /**
   * Oracle test: {@code import --csv} into a metric table of an in-memory store (appended to
   * its segment, straight from the file's fields) stores what the same import stores in a
   * file store (HSQLDB's INSERT): random rows with NULLs, quoted text, spaces past a VARCHAR's
   * length, every form of number and time; a bad line past the driver's first batch (NULL
   * into NOT NULL, a string too long, a field that does not convert) is named by its line,
   * and nothing of the file is stored.
   */
  @Test void aSegmentTableLoadsWhatHsqldbInsertLoads(@TempDir Path dir)
      throws IOException, SQLException {
    final String mem = "mem:csv-segment-test";
    final String file = dir.resolve("oracle").toString();
    final String table = "CREATE TABLE m (ts TIMESTAMP(3) NOT NULL, host VARCHAR(6),"
        + " v DOUBLE, n BIGINT, k INT, ok BOOLEAN)";
    final Random random = new Random(1607);
    final StringBuilder good = new StringBuilder("ts,host,v,n,k,ok\n");
    for (int i = 0; i < 70_000; i++) {
      good.append(String.format("2024-%02d-%02d%s%02d:%02d:%02d%s", 1 + random.nextInt(12),
          1 + random.nextInt(28), random.nextBoolean() ? " " : "T", random.nextInt(24),
          random.nextInt(60), random.nextInt(60),
          new String[] {"", ".5", ".25", ".125", ".1234"}[random.nextInt(5)]));
      good.append(',').append(new String[] {"", "h" + random.nextInt(50), "\"a,b\"",
          "\"q\"\"\"", "\"\"", "ab    "}[random.nextInt(6)]);
      good.append(',').append(new String[] {"", Double.toString(random.nextGaussian() * 1e3),
          Integer.toString(random.nextInt()), "1e-3", " 2.5", "-0.0", "NaN",
          "0.1234567890123456789"}[random.nextInt(8)]);
      good.append(',').append(random.nextInt(9) == 0 ? ""
          : Long.toString(random.nextLong() >> random.nextInt(64)));
      good.append(',').append(random.nextInt(9) == 0 ? "" : Integer.toString(random.nextInt()));
      good.append(',').append(new String[] {"", "true", "FALSE"}[random.nextInt(3)]);
      good.append(random.nextBoolean() ? "\n" : "\r\n");
    }
    final Path csv = dir.resolve("m.csv");
    final String[][] bad = {
      {",h,1,1,1,true", "line 70002: integrity constraint violation: NOT NULL"},
      {"2024-01-03 00:00:00,toolong,1,1,1,true", "line 70002: data exception: string data,"
          + " right truncation"},
      {"2024-01-03 00:00:00,h,1,1,3000000000,true", "line 70002, column 5 (k): '3000000000'"
          + " is not a INTEGER"},
    };
    try (Connection holder = DriverManager.getConnection("jdbc:mnestic:db=" + mem)) {
      final long before = dev.mnestic.store.Session.of(
          holder.unwrap(org.apache.calcite.jdbc.CalciteConnection.class).getRootSchema())
          .segmentRows();
      for (String db : new String[] {mem, file}) {
        sql(db, table);
        // bad lines into the segment (HSQLDB's INSERT meets them in aBadLineIsNamed...)
        for (String[] line : db.equals(mem) ? bad : new String[0][]) {
          Files.writeString(csv, good + line[0] + "\n2024-01-04 00:00:00,h,1,1,1,true\n");
          final Run run = run("", "import", "--db", db, "--csv", csv.toString(), "m");
          assertEquals(1, run.status(), run.toString());
          assertTrue(run.err().startsWith("Error: " + csv + ", " + line[1]), run.err());
          assertEquals("n\n0\n", sql(db, "SELECT COUNT(*) AS n FROM m"));
        }
        Files.writeString(csv, good);
        assertEquals(new Run(0, "", ""), run("", "import", "--db", db, "--csv", csv.toString(),
            "m"));
      }
      final long appended = dev.mnestic.store.Session.of(
          holder.unwrap(org.apache.calcite.jdbc.CalciteConnection.class).getRootSchema())
          .segmentRows() - before;
      // the good file once, and each bad file's rows of its first batch (65,536), undone
      assertEquals(70_000 + 3 * 65_536, appended);
      final String all = "SELECT * FROM m ORDER BY ts, host, v, n, k, ok";
      assertEquals(sql(file, all), sql(mem, all));
      assertEquals("n\n70000\n", sql(mem, "SELECT COUNT(*) AS n FROM m"));
    }
  }
}
