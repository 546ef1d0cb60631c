package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which files a script's readers ({@code CsvReader}, {@code JsonReader}) read: over a real
 * server through the thin client, none unless the server allows a directory
 * ({@code mnestic serve --allow-read DIR}), then only files under it, never {@code ../} out
 * of it; a client cannot widen it. An embedded connection's {@code allowRead} narrows what it
 * reads the same way.
 */
class ReadPolicyRemoteTest {
  /**
   * The file outside the allowed directory holds this number; a refusal must not show it (a
   * number no temporary directory's name holds by chance, as "42" did).
   */
  private static final String SECRET = "-918273645";

  @TempDir Path tmp;

  private static Properties datalog() {
    final Properties info = new Properties();
    info.setProperty("lang", "datalog");
    return info;
  }

  private static String csv(Path file) {
    return "?[x] <~ CsvReader(types: ['Int'], url: '" + file + "')";
  }

  private static String first(Statement s, String script) throws SQLException {
    try (ResultSet rs = s.executeQuery(script)) {
      assertTrue(rs.next());
      return String.valueOf(rs.getObject(1));
    }
  }

  private Path allowed() throws Exception {
    final Path dir = Files.createDirectory(tmp.resolve("allowed"));
    Files.writeString(dir.resolve("in.csv"), "x\n7\n");
    Files.writeString(tmp.resolve("secret.csv"), "x\n" + SECRET + "\n");
    return dir;
  }

  @Test void aServerReadsNoFileUnlessAllowed() throws Exception {
    final Path dir = allowed();
    try (MnesticServer server = MnesticServer.newBuilder().port(0).build()) {
      server.start();
      try (Connection c = ThinClient.connect(server, datalog()); Statement s = c.createStatement()) {
        final SQLException refused = assertThrows(SQLException.class,
            () -> s.executeQuery(csv(dir.resolve("in.csv"))));
        assertTrue(refused.getMessage().contains("mnestic::read_not_allowed"),
            refused.getMessage());
        assertTrue(refused.getMessage().contains("--allow-read"), refused.getMessage());
      }
      // nor may a client allow itself
      final Properties widen = datalog();
      widen.setProperty(Driver.ALLOW_READ, tmp.toString());
      final SQLException property = assertThrows(SQLException.class,
          () -> ThinClient.connect(server, widen).createStatement().executeQuery("?[x] := x = 1"));
      assertTrue(property.getMessage().contains("allowRead"), property.getMessage());
    }
  }

  @Test void anAllowedDirectoryAndNothingOutsideIt() throws Exception {
    final Path dir = allowed();
    try (MnesticServer server = MnesticServer.newBuilder().port(0).allowRead(dir).build()) {
      server.start();
      try (Connection c = ThinClient.connect(server, datalog()); Statement s = c.createStatement()) {
        assertEquals("7", first(s, csv(dir.resolve("in.csv"))));
        assertEquals("7", first(s, csv(dir.resolve("in.csv")).replace("url: '", "url: 'file://")));
        for (Path outside : new Path[] {dir.resolve("../secret.csv"), tmp.resolve("secret.csv")}) {
          final SQLException refused = assertThrows(SQLException.class,
              () -> s.executeQuery(csv(outside)), outside.toString());
          assertTrue(refused.getMessage().contains("mnestic::read_not_allowed"),
              refused.getMessage());
          assertFalse(refused.getMessage().contains(SECRET), refused.getMessage());
        }
      }
    }
  }

  @Test void anEmbeddedConnectionReadsWhatItsPropertyAllows() throws Exception {
    final Path dir = allowed();
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:", datalog());
        Statement s = c.createStatement()) {
      assertEquals(SECRET, first(s, csv(tmp.resolve("secret.csv"))));
    }
    final Properties narrowed = datalog();
    narrowed.setProperty(Driver.ALLOW_READ, dir.toString());
    try (Connection c = DriverManager.getConnection("jdbc:mnestic:", narrowed);
        Statement s = c.createStatement()) {
      assertEquals("7", first(s, csv(dir.resolve("in.csv"))));
      final SQLException refused = assertThrows(SQLException.class,
          () -> s.executeQuery(csv(dir.resolve("../secret.csv"))));
      assertTrue(refused.getMessage().contains("mnestic::read_not_allowed"), refused.getMessage());
    }
  }
}
