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
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs {@link Main} as its own process, as {@code bin/mnestic} does, to check
 * what a shell sees: standard output, standard error and exit status.
 *
 * <p>The child JVM gets this JVM's class path rather than the shaded jar,
 * which Maven builds only after the tests run. {@code bin/mnestic} itself is
 * not run here: it would start a Maven build inside the Maven build.
 */
class ProcessTest {
  private static final long TIMEOUT_SECONDS = 60;

  @TempDir Path dir;

  /** Output and exit status of one process. */
  private record Run(int status, String out, String err) {
  }

  private ProcessBuilder mnestic(String... args) {
    final List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        Main.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).directory(dir.toFile());
  }

  private Run run(String... args) throws IOException, InterruptedException {
    final Path out = dir.resolve("out.txt");
    final Path err = dir.resolve("err.txt");
    final Process process = mnestic(args)
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS), "mnestic did not finish");
    return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test void sqlAsJson() throws Exception {
    assertEquals(new Run(0, "{\"headers\":[\"x\"],\"rows\":[[1]]}\n", ""),
        run("sql", "--format", "json", "SELECT 1 AS x"));
  }

  @Test void utf8Output() throws Exception {
    assertEquals(new Run(0, "s\n\u00e9\u4e2d\n", ""), run("sql", "SELECT U&'\\00e9\\4e2d' AS s"));
  }

  @Test void exitStatuses() throws Exception {
    final Run failed = run("sql", "SELECT * FORM t");
    assertEquals(1, failed.status());
    assertTrue(failed.err().contains("at line 1, column 15"), failed.err());
    final Run usage = run("sql", "--format", "xml", "SELECT 1");
    assertEquals(2, usage.status());
    assertTrue(usage.err().contains("--help"), usage.err());
    assertEquals(0, run("--help").status());
  }

  /** Starts {@code serve} with credentials, then queries it through the Avatica thin driver. */
  @Test void serve() throws Exception {
    final Process server = mnestic("serve", "--port", "0", "--user", "ana", "--password", "secret",
        "--db", dir.resolve("store").toString())
        .redirectError(dir.resolve("serve-err.txt").toFile()).start();
    try {
      final BufferedReader out = new BufferedReader(
          new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      final String url = CompletableFuture.supplyAsync(() -> readLine(out))
          .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      assertTrue(url != null, () -> "serve printed no URL: " + readString(dir.resolve("serve-err.txt")));
      assertTrue(url.matches("jdbc:avatica:remote:url=http://127\\.0\\.0\\.1:\\d+;"
          + "serialization=protobuf;authentication=BASIC"), url);

      final Properties credentials = new Properties();
      credentials.setProperty("avatica_user", "ana");
      credentials.setProperty("avatica_password", "secret");
      try (Connection connection = DriverManager.getConnection(url, credentials);
           Statement statement = connection.createStatement()) {
        statement.execute("CREATE TABLE t (x INT)");
        statement.execute("INSERT INTO t VALUES 42");
        try (ResultSet rs = statement.executeQuery("SELECT x FROM t")) {
          assertTrue(rs.next());
          assertEquals(42, rs.getInt(1));
        }
      }
      credentials.setProperty("avatica_password", "wrong");
      assertThrows(RuntimeException.class, () -> query(url, credentials));
    } finally {
      server.destroy();
      server.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
  }

  /**
   * A store another process holds: the second process says which store, its lock file and when
   * the holder last wrote it, not HSQLDB's dump of the lock file's state.
   */
  @Test void aStoreInUseSaysSo() throws Exception {
    final Path store = dir.resolve("store");
    final Process server = mnestic("serve", "--port", "0", "--db", store.toString())
        .redirectError(dir.resolve("serve-err.txt").toFile()).start();
    try {
      final BufferedReader out = new BufferedReader(
          new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      assertTrue(CompletableFuture.supplyAsync(() -> readLine(out))
          .get(TIMEOUT_SECONDS, TimeUnit.SECONDS) != null, "serve printed no URL");
      final Run held = run("sql", "--db", store.toString(), "SELECT 1");
      assertEquals(1, held.status());
      assertTrue(held.err().matches("Error: file store " + Pattern.quote(store.toString())
          + " is in use by another process: its lock file " + Pattern.quote(
              store.resolve("store.lck").toString()) + " was last written at"
          + " \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d by the process holding the store \\(a mnestic"
          + " serve, sql or run, or a program or tool with the embedded driver\\), which rewrites"
          + " it every 10 s while it runs; stop that process, or connect through its server"
          + " \\(mnestic serve\\)\n"), held.err());
    } finally {
      server.destroy();
      server.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
  }

  /**
   * SIGTERM stops {@code serve} within 5 s while statements run (#13, point 4): they are
   * cancelled, the store is closed, and the next process opens it.
   */
  @Test void serveStopsOnSigtermWhileStatementsRun() throws Exception {
    final Path store = dir.resolve("store");
    final Process server = mnestic("serve", "--port", "0", "--max-statements", "2",
        "--db", store.toString())
        .redirectError(dir.resolve("serve-err.txt").toFile()).start();
    try {
      final BufferedReader out = new BufferedReader(
          new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      final String url = CompletableFuture.supplyAsync(() -> readLine(out))
          .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      assertTrue(url != null, () -> "serve printed no URL: " + readString(dir.resolve("serve-err.txt")));
      final Properties datalog = new Properties();
      datalog.setProperty("lang", "datalog");
      final List<CompletableFuture<Void>> runs = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        final Connection c = DriverManager.getConnection(url, datalog);
        runs.add(CompletableFuture.runAsync(() -> {
          // Again while refused for the limit: the probe below may hold a slot for a moment.
          while (true) {
            try (Statement s = c.createStatement()) {
              s.executeQuery("p[n] := n = 0\np[m] := p[n], k in int_range(1000), m = n + 1\n"
                  + "?[n] := p[n]").close();
              return;
            } catch (SQLException e) {
              if (!"53000".equals(e.getSQLState())) {
                throw new IllegalStateException(e);
              }
            }
          }
        }));
      }
      // Both slots taken: a third statement is refused for the limit.
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
      while (true) {
        try (Connection c = DriverManager.getConnection(url)) {
          c.createStatement().executeQuery("SELECT 1").close();
        } catch (SQLException e) {
          if ("53000".equals(e.getSQLState())) {
            break;
          }
          throw e;
        }
        assertTrue(System.nanoTime() < deadline, "the statements never ran");
        Thread.sleep(100);
      }
      final long start = System.nanoTime();
      server.destroy();
      assertTrue(server.waitFor(5, TimeUnit.SECONDS), "serve still running 5 s after SIGTERM");
      final double seconds = (System.nanoTime() - start) / 1e9;
      assertTrue(seconds < 5, "stopped after " + seconds + " s");
      for (CompletableFuture<Void> run : runs) {
        assertThrows(ExecutionException.class, () -> run.get(TIMEOUT_SECONDS, TimeUnit.SECONDS),
            "a statement cancelled by the stop fails");
      }
    } finally {
      server.destroyForcibly();
      server.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
    assertEquals(0, run("sql", "--db", store.toString(), "SELECT 1 AS x").status());
  }

  private static String readLine(BufferedReader reader) {
    try {
      return reader.readLine();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String readString(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void query(String url, Properties properties) {
    try (Connection connection = DriverManager.getConnection(url, properties);
         Statement statement = connection.createStatement()) {
      statement.executeQuery("SELECT 1").close();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
