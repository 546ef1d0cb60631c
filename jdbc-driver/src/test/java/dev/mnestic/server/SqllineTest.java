package dev.mnestic.server;

import dev.mnestic.remote.RemoteDriver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import sqlline.SqlLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * sqlline 1.12.0, a SQL shell nobody on this project wrote, scripted as a user would type: connect,
 * create and fill a table, {@code !tables}, {@code !columns}, a query and a failing query, over
 * the embedded URL and over a server that requires a user ({@code -n}/{@code -p}, the standard
 * {@code user}/{@code password} properties, through {@code jdbc:mnestic:remote:}).
 */
class SqllineTest {
  private static final String SCRIPT = """
      CREATE TABLE emp (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL);
      INSERT INTO emp VALUES (1, 'ana'), (2, 'bo');
      !tables
      !columns %s
      SELECT name FROM emp ORDER BY id;
      SELECT * FROM nosuch;
      !quit
      """;

  @TempDir Path dir;

  /** sqlline's output and error output of {@link #SCRIPT} on {@code url}. */
  private static String[] run(String driver, String url, String user, String password,
      String columns) throws Exception {
    final SqlLine sqlline = new SqlLine();
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    sqlline.setOutputStream(out);
    sqlline.setErrorStream(err);
    final SqlLine.Status status = sqlline.begin(new String[] {"-d", driver, "-u", url,
        "-n", user, "-p", password, "--outputformat=csv", "--color=false", "--showWarnings=false",
        "--maxWidth=300", "--connectInteractionMode=notAskCredentials"},
        new ByteArrayInputStream(SCRIPT.formatted(columns).getBytes(StandardCharsets.UTF_8)),
        false);
    // A script read from input ends OK at !quit, whatever its statements did.
    assertEquals(SqlLine.Status.OK, status, out + "\n" + err);
    return new String[] {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
  }

  private static void assertSession(String[] run) {
    final String out = run[0];
    final String err = run[1];
    final List<String> lines = out.lines().toList();
    // !tables: the store's table, in its schema, as a TABLE
    assertTrue(lines.stream().anyMatch(l -> l.matches("'[^']*','PUBLIC','emp','TABLE',.*")), out);
    // !columns emp: both columns, with their types and nullability
    assertTrue(lines.stream().anyMatch(l -> l.matches("'[^']*','PUBLIC','emp','id','4','INTEGER',.*")),
        out);
    assertTrue(lines.stream().anyMatch(l -> l.matches(
        "'[^']*','PUBLIC','emp','name','12','VARCHAR(\\(20\\))?',.*")), out);
    // the query's rows
    // the header line: after terminal escapes and the prompt sqlline writes before its output
    final int header = IntStream.range(0, lines.size())
        .filter(i -> lines.get(i).endsWith("'name'")).findFirst().orElse(-1);
    assertTrue(header >= 0, out);
    assertEquals(List.of("'ana'", "'bo'"), lines.subList(header + 1, header + 3), out);
    // the failing query: its message, no Java stack trace
    assertTrue(err.contains("Object 'nosuch' not found"), err);
    assertTrue(!err.contains("\tat ") && !err.contains("Exception:"), err);
  }

  @Test void embedded() throws Exception {
    assertSession(run("dev.mnestic.jdbc.Driver", "jdbc:mnestic:db=" + dir.resolve("store"),
        "", "", "emp"));
  }

  @Test void overTheServer() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).credentials("ana", "secret")
        .build()) {
      server.start();
      // "!columns emp" finds emp: the thin client tells sqlline names keep their case
      assertSession(run(RemoteDriver.class.getName(),
          RemoteDriver.PREFIX + "url=http://127.0.0.1:" + server.port(), "ana", "secret",
          "emp"));
    }
  }
}
