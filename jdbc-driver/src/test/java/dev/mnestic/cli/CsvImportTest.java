package dev.mnestic.cli;

import dev.mnestic.cli.MainTest.Run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.ZoneId;
import java.util.Calendar;
import java.util.GregorianCalendar;
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
}
