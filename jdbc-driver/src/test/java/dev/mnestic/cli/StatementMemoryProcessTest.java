package dev.mnestic.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13, point 4: in a server whose heap is small ({@value #HEAP}), a statement
 * that would fill it (a sort of 10^6 rows of a kilobyte: a gigabyte) fails alone with 53200,
 * never an OutOfMemoryError, whether it has a budget ({@code --statement-memory}) or
 * none (the heap nearly full after a collection stops the statement allocating the most);
 * statements of other connections running meanwhile keep answering correctly, and the process
 * serves on afterwards.
 */
class StatementMemoryProcessTest {
  private static final String HEAP = "-Xmx256m";
  private static final long TIMEOUT_SECONDS = 60;
  /** A gigabyte of rows, all kept by the sort. */
  private static final String FILL = "SELECT a.x, b.x, CAST(a.x + b.x AS VARCHAR(8)) || '"
      + "x".repeat(1000) + "' FROM t a, t b ORDER BY a.x + b.x DESC, 1, 2";

  @TempDir Path dir;

  /** Over the server's --statement-memory of 64 MB. */
  @Test void aStatementOverItsBudgetFailsAloneWith53200() throws Exception {
    serving(url -> fillsAlone(url, "over its budget of 64.0 MB (statementMemory)"),
        "--statement-memory", String.valueOf(64L << 20));
  }

  /** With no budget: stopped when the heap is nearly full after a collection. */
  @Test void aStatementFillingTheHeapFailsAloneWith53200() throws Exception {
    serving(url -> fillsAlone(url, "the heap was nearly full"));
  }

  /** What a test does with the URL of a server. */
  private interface Work {
    void run(String url) throws Exception;
  }

  /**
   * Runs {@code work} with a server of a {@value #HEAP} heap, started with {@code options},
   * whose store holds a table {@code t} of 1,000 rows; the server still runs after it and never
   * ran out of memory.
   */
  private void serving(Work work, String... options) throws Exception {
    final List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
        "-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "serve", "--port", "0", "--db", dir.resolve("store").toString()));
    command.addAll(List.of(options));
    final Process server = new ProcessBuilder(command)
        .redirectError(dir.resolve("serve-err.txt").toFile()).start();
    try {
      final BufferedReader out = new BufferedReader(
          new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      final String url = CompletableFuture.supplyAsync(() -> readLine(out))
          .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      assertTrue(url != null, () -> "serve printed no URL: " + err());
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (x INT PRIMARY KEY)");
        final StringBuilder rows = new StringBuilder("INSERT INTO t VALUES (0)");
        for (int i = 1; i < 1000; i++) {
          rows.append(", (").append(i).append(')');
        }
        s.execute(rows.toString());
      }
      work.run(url);
      assertTrue(server.isAlive(), err());
      assertTrue(!err().contains("OutOfMemoryError"), err());
    } finally {
      server.destroy();
      assertTrue(server.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "serve did not stop");
    }
  }

  /**
   * {@link #FILL} fails with 53200 and {@code why} while two other connections sum rows over
   * and over, always right; all three work on after.
   */
  private void fillsAlone(String url, String why) throws Exception {
    final AtomicBoolean filling = new AtomicBoolean(true);
    final List<CompletableFuture<Integer>> others = List.of(sums(url, filling),
        sums(url, filling));
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      SQLException failure = null;
      try (ResultSet rs = s.executeQuery(FILL)) {
        while (rs.next()) {
          // every row read
        }
      } catch (SQLException e) {
        failure = e;
      } finally {
        filling.set(false);
      }
      assertTrue(failure != null, "the statement filling the heap succeeded");
      assertEquals("53200", failure.getSQLState(), failure + "\n" + err());
      assertTrue(failure.getMessage().contains(why), failure.getMessage());
      for (CompletableFuture<Integer> other : others) {
        assertTrue(other.get(TIMEOUT_SECONDS, TimeUnit.SECONDS) > 0, "no sums meanwhile");
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(x) FROM t")) {
        assertTrue(rs.next());
        assertEquals(1000, rs.getLong(1));
        assertEquals(499_500, rs.getLong(2));
      }
    }
  }

  /** Sums of 100 rows on a connection of its own while {@code filling}: how many, each right. */
  private static CompletableFuture<Integer> sums(String url, AtomicBoolean filling) {
    return CompletableFuture.supplyAsync(() -> {
      int n = 0;
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        while (filling.get() || n == 0) {
          try (ResultSet rs = s.executeQuery("SELECT SUM(x) FROM t WHERE x < 100")) {
            assertTrue(rs.next());
            assertEquals(4950, rs.getLong(1));
          }
          n++;
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
      return n;
    });
  }

  private String err() {
    try {
      return Files.readString(dir.resolve("serve-err.txt"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String readLine(BufferedReader reader) {
    try {
      return reader.readLine();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
