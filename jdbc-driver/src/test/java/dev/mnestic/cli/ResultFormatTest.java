package dev.mnestic.cli;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tests {@link ResultFormat} on result sets of a real {@code jdbc:mnestic:} connection. */
class ResultFormatTest {
  private static final String SIMPLE =
      "SELECT * FROM (VALUES (1, 0.9e0, 'a,b', CAST(NULL AS INTEGER))) AS t(i, d, s, n)";
  private static final String DOUBLES =
      "SELECT 2.35e0 AS a, 1e0 AS b, 0.1e0 + 0.2e0 AS c, CAST(1.5 AS REAL) AS r, 1.50 AS dc";
  private static final String STRINGS =
      "SELECT 'say \"hi\"' AS q, 'it''s' AS a, 'two\nlines' AS nl, '' AS e, ARRAY[1, 2] AS arr";
  private static final String TYPES = "SELECT TRUE AS b, DATE '2025-07-01' AS d,"
      + " TIMESTAMP '2025-07-01 00:00:00' AS ts, TIME '12:34:56' AS t,"
      + " ARRAY['x', 'y'] AS strs, ARRAY[ARRAY[DATE '2025-01-02']] AS nested,"
      + " CAST(7 AS BIGINT) AS big";

  private static Connection connection;

  @BeforeAll static void connect() throws SQLException {
    connection = DriverManager.getConnection("jdbc:mnestic:");
  }

  @AfterAll static void close() throws SQLException {
    connection.close();
  }

  private static String format(ResultFormat format, String sql) throws SQLException {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (Statement statement = connection.createStatement();
         ResultSet rs = statement.executeQuery(sql);
         PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      format.write(Rows.of(rs), out);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test void table() throws SQLException {
    assertEquals("i    d      s      n\n"
        + "1    0.9    a,b    NULL\n", format(ResultFormat.TABLE, SIMPLE));
    assertEquals("a       b      c                      r      dc\n"
        + "2.35    1.0    0.30000000000000004    1.5    1.50\n",
        format(ResultFormat.TABLE, DOUBLES));
    // A line break inside a cell is escaped; the empty cell is 5 spaces.
    assertEquals("q           a       nl            e    arr\n"
        + "say \"hi\"    it's    two\\nlines    " + "     " + "[1,2]\n",
        format(ResultFormat.TABLE, STRINGS));
    assertEquals("b       d             ts                     t           strs         "
        + "nested              big\n"
        + "true    2025-07-01    2025-07-01 00:00:00    12:34:56    [\"x\",\"y\"]    "
        + "[[\"2025-01-02\"]]    7\n", format(ResultFormat.TABLE, TYPES));
  }

  /**
   * Test case for #14 (point 7): NULL is not the string 'NULL' nor 'null'; wide characters take
   * two columns, combining marks none; control characters and backslashes are escaped.
   */
  @Test void tableShowsNullAlignsWideTextEscapes() throws SQLException {
    assertEquals("a        b         c\n"
        + "NULL     'NULL'    null\n"
        + "部門x    e\u0301         a\\tb\\\\\n"
        + "x        ab        \\u001b\n",
        format(ResultFormat.TABLE, "SELECT * FROM (VALUES (CAST(NULL AS VARCHAR(9)), 'NULL',"
            + " 'null'), ('部門x', 'e\u0301', 'a\tb\\'), ('x', 'ab', '\u001b')) AS t(a, b, c)"));
  }

  @Test void tableWithoutRows() throws SQLException {
    assertEquals("x\n", format(ResultFormat.TABLE, "SELECT 1 AS x FROM (VALUES 1) WHERE FALSE"));
  }

  @Test void json() throws SQLException {
    assertEquals("{\"headers\":[\"i\",\"d\",\"s\",\"n\"],\"rows\":[[1,0.9,\"a,b\",null]]}\n",
        format(ResultFormat.JSON, SIMPLE));
    assertEquals("{\"headers\":[\"a\",\"b\",\"c\",\"r\",\"dc\"],"
        + "\"rows\":[[2.35,1.0,0.30000000000000004,1.5,1.50]]}\n",
        format(ResultFormat.JSON, DOUBLES));
    assertEquals("{\"headers\":[\"q\",\"a\",\"nl\",\"e\",\"arr\"],"
        + "\"rows\":[[\"say \\\"hi\\\"\",\"it's\",\"two\\nlines\",\"\",[1,2]]]}\n",
        format(ResultFormat.JSON, STRINGS));
    assertEquals("{\"headers\":[\"b\",\"d\",\"ts\",\"t\",\"strs\",\"nested\",\"big\"],"
        + "\"rows\":[[true,\"2025-07-01\",\"2025-07-01 00:00:00\",\"12:34:56\","
        + "[\"x\",\"y\"],[[\"2025-01-02\"]],7]]}\n", format(ResultFormat.JSON, TYPES));
  }

  @Test void jsonOfSeveralRowsAndNone() throws SQLException {
    assertEquals("{\"headers\":[\"x\"],\"rows\":[[1],[2],[3]]}\n",
        format(ResultFormat.JSON, "SELECT * FROM (VALUES 1, 2, 3) AS t(x) ORDER BY x"));
    assertEquals("{\"headers\":[\"x\"],\"rows\":[]}\n",
        format(ResultFormat.JSON, "SELECT 1 AS x FROM (VALUES 1) WHERE FALSE"));
  }

  @Test void csv() throws SQLException {
    assertEquals("i,d,s,n\n1,0.9,\"a,b\",\n", format(ResultFormat.CSV, SIMPLE));
    assertEquals("a,b,c,r,dc\n2.35,1.0,0.30000000000000004,1.5,1.50\n",
        format(ResultFormat.CSV, DOUBLES));
    assertEquals("q,a,nl,e,arr\n\"say \"\"hi\"\"\",it's,\"two\nlines\",\"\",\"[1,2]\"\n",
        format(ResultFormat.CSV, STRINGS));
  }

  @Test void formatNames() throws UsageException {
    assertEquals(ResultFormat.JSON, ResultFormat.of("json"));
    assertEquals(ResultFormat.CSV, ResultFormat.of("CSV"));
    assertThrows(UsageException.class, () -> ResultFormat.of("xml"));
  }
}
