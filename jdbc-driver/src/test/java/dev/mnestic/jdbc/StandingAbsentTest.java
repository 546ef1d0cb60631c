package dev.mnestic.jdbc;

import dev.mnestic.planner.Planner;
import dev.mnestic.standing.StandingProvider;

import com.google.ortools.Loader;
import com.sun.jna.Native;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver as a tool loads its jar alone, without the standing module's: the test class path
 * less the standing module, planner-milp, OR-Tools and JNA, in a class loader of its own. SQL
 * runs; every statement needing standing queries fails with SQLSTATE 0A000 naming the jar to
 * add; {@code mnestic plan} says the same.
 */
class StandingAbsentTest {
  private static URLClassLoader driverOnly;
  private static Connection c;

  @BeforeAll static void open() throws Exception {
    final Set<Path> left = Set.of(home(StandingProvider.class), home(Planner.class),
        home(Loader.class), home(Native.class));
    final List<URL> urls = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      final Path path = Path.of(entry).toAbsolutePath();
      if (!left.contains(path)) {
        urls.add(path.toUri().toURL());
      }
    }
    driverOnly = new URLClassLoader(urls.toArray(new URL[0]),
        ClassLoader.getPlatformClassLoader());
    final Driver driver = (Driver) driverOnly.loadClass("dev.mnestic.jdbc.Driver")
        .getDeclaredConstructor().newInstance();
    c = driver.connect("jdbc:mnestic:", new Properties());
  }

  @AfterAll static void close() throws Exception {
    c.close();
    driverOnly.close();
  }

  /** The class path entry (jar or classes folder) {@code type} was loaded from. */
  private static Path home(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
        .toAbsolutePath();
  }

  @Test void theLoaderHasNoStandingQueriesNorOrTools() {
    for (String name : List.of(StandingProvider.class.getName(), Planner.class.getName(),
        Loader.class.getName())) {
      assertThrows(ClassNotFoundException.class, () -> driverOnly.loadClass(name), name);
    }
  }

  @Test void sqlRunsWithoutThem() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE requests (ts TIMESTAMP NOT NULL, latency DOUBLE)");
      s.execute("INSERT INTO requests VALUES (TIMESTAMP '2026-11-30 00:00:10', 5.0),"
          + " (TIMESTAMP '2026-11-30 00:00:20', 7.0)");
      try (ResultSet rs = s.executeQuery("SELECT SUM(latency) FROM requests")) {
        assertTrue(rs.next());
        assertEquals(12.0, rs.getDouble(1));
      }
      s.execute("DROP TABLE requests");
    }
    final List<String> schemas = new ArrayList<>();
    try (ResultSet rs = c.getMetaData().getSchemas()) {
      while (rs.next()) {
        schemas.add(rs.getString("TABLE_SCHEM"));
      }
    }
    assertEquals(List.of("PUBLIC", MnesticMeta.BUILT_IN), schemas, "no STANDING schema");
  }

  @Test void standingStatementsNameTheJarToAdd() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS r (ts TIMESTAMP NOT NULL, latency DOUBLE)");
      final String window = " FROM r GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
          + " WITHIN RANK ERROR 0.01";
      for (String sql : List.of(
          "CREATE STANDING QUERY p50 AS SELECT APPROX_QUANTILE(latency, 0.5) AS p50" + window,
          "SELECT APPROX_QUANTILE(latency, 0.5) AS p50" + window,
          "DROP STANDING QUERY p50")) {
        final SQLException e = assertThrows(SQLException.class, () -> s.execute(sql), sql);
        assertEquals("0A000", e.getSQLState(), sql);
        assertTrue(e.getMessage().contains("mnestic-standing-VERSION-addon.jar"), e.getMessage());
      }
    }
  }

  @Test void planNamesTheJarToAdd() throws Exception {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final ByteArrayOutputStream err = new ByteArrayOutputStream();
    final int status = (int) driverOnly.loadClass("dev.mnestic.cli.Main")
        .getMethod("run", String[].class, InputStream.class, PrintStream.class,
            PrintStream.class)
        .invoke(null, new String[] {"plan", "../examples/workloads/dashboard.workload"},
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(1, status);
    assertEquals("", out.toString(StandardCharsets.UTF_8));
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("Error: mnestic plan needs"
        + " standing queries"), err.toString(StandardCharsets.UTF_8));
  }
}
