package dev.mnestic.jdbc;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * PostgreSQL 15 as an oracle: one throwaway cluster per test JVM, in a new
 * directory under {@code java.io.tmpdir}, started by the repository's
 * {@code bin/postgres-local} (which installs PostgreSQL 15 with apt-get
 * where it is missing) on first use, stopped and deleted when the JVM's
 * tests end. Not under {@code target/}: run as root, the server runs as
 * user postgres, which may not be let through the checkout's parent
 * directories; the temporary directory's parent is open to every user.
 *
 * <p>A test class declares {@code @ExtendWith(Postgres.Extension.class)}
 * and takes a {@code Postgres} parameter in its {@code @BeforeAll}. When
 * the cluster cannot start, the test fails with the script's message: a
 * comparison with PostgreSQL is never skipped.
 */
final class Postgres implements AutoCloseable {
  private final Path script;
  private final Path dir;
  private final String url;

  private Postgres(Path script, Path dir, String url) {
    this.script = script;
    this.dir = dir;
    this.url = url;
  }

  /** A new connection to the cluster's database {@code postgres}. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(url);
  }

  private static Postgres start() {
    Path root = Path.of("").toAbsolutePath();
    while (root != null && !Files.isExecutable(root.resolve("bin/postgres-local"))) {
      root = root.getParent();
    }
    if (root == null) {
      throw new IllegalStateException("bin/postgres-local not found above "
          + Path.of("").toAbsolutePath());
    }
    final Path script = root.resolve("bin/postgres-local");
    final Path dir;
    try {
      dir = Files.createTempDirectory("mnestic-postgres");
    } catch (IOException e) {
      throw new IllegalStateException("cannot create a directory for PostgreSQL", e);
    }
    final String url = run(script, "start", dir).strip();
    if (!url.startsWith("jdbc:postgresql:")) {
      throw new IllegalStateException(script + " start printed no JDBC URL: " + url);
    }
    return new Postgres(script, dir, url);
  }

  @Override public void close() throws IOException {
    run(script, "stop", dir);
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }

  /** Runs the script; its stdout, or an error holding its stderr. */
  private static String run(Path script, String command, Path dir) {
    try {
      final Path err = Files.createTempFile("postgres-local", ".err");
      try {
        final Process p = new ProcessBuilder(script.toString(), command, dir.toString())
            .redirectError(err.toFile()).start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
          throw new IllegalStateException("PostgreSQL 15 is needed as the oracle, but `"
              + script + " " + command + " " + dir + "` failed (exit " + p.exitValue() + "):\n"
              + Files.readString(err));
        }
        return out;
      } finally {
        Files.delete(err);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + script, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + script, e);
    }
  }

  /**
   * Gives a test the JVM's one cluster, started on first use and closed
   * (stopped) with the root extension context, after the last test class.
   */
  static final class Extension implements ParameterResolver {
    @Override public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
      return parameter.getParameter().getType() == Postgres.class;
    }

    @Override public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
      return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
          .getOrComputeIfAbsent(Postgres.class, k -> start(), Postgres.class);
    }
  }
}
