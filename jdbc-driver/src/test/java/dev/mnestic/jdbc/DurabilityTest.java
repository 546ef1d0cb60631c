package dev.mnestic.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.mnestic.jdbc.Rows.query;
import static dev.mnestic.jdbc.Rows.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A committed transaction survives the process being killed: a child JVM
 * commits rows, leaves more uncommitted, and is killed with SIGKILL; the
 * reopened store holds every committed row and no uncommitted one.
 */
class DurabilityTest {
  static final int COMMITTED = 50;

  @Test void committedRowsSurviveSigkill(@TempDir Path dir) throws Exception {
    final String db = dir.resolve("store").toString();
    final Process child = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        Child.class.getName(), db)
        .redirectErrorStream(true)
        .start();
    final List<String> output = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.equals("READY")) {
        output.add(line);
      }
      assertEquals("READY", line, "child output: " + output);
      child.destroyForcibly(); // SIGKILL on Linux
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    }
    assertEquals(137, child.exitValue(), "killed by SIGKILL");

    try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=" + db)) {
      final List<List<Object>> expected = new ArrayList<>();
      for (int i = 1; i <= COMMITTED; i++) {
        expected.add(row(i, "committed"));
      }
      assertEquals(expected, query(c, "SELECT id, state FROM ledger ORDER BY id"));
    }
  }

  /** The child: commits {@value #COMMITTED} rows one transaction each, then writes without committing. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      try (Connection c = DriverManager.getConnection("jdbc:mnestic:db=" + args[0])) {
        c.createStatement().execute(
            "CREATE TABLE ledger (id INT PRIMARY KEY, state VARCHAR(12) NOT NULL)");
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger VALUES (?, ?)")) {
          for (int i = 1; i <= COMMITTED; i++) {
            ps.setInt(1, i);
            ps.setString(2, "committed");
            ps.executeUpdate();
            c.commit();
          }
          for (int i = COMMITTED + 1; i <= COMMITTED + 20; i++) {
            ps.setInt(1, i);
            ps.setString(2, "uncommitted");
            ps.executeUpdate();
          }
        }
        c.createStatement().executeUpdate("UPDATE ledger SET state = 'changed' WHERE id <= 10");
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(120_000);
      }
    }
  }
}
