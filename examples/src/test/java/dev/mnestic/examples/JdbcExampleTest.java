package dev.mnestic.examples;

import dev.mnestic.server.MnesticServer;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Runs the JDBC example embedded and against a real server. */
class JdbcExampleTest {
  private static final String EXPECTED = "decision m2 0.9\nepisodic m3 0.7\nincident m4 0.8\n";

  @Test void runsEmbedded() throws Exception {
    assertEquals(EXPECTED, run("jdbc:mnestic:"));
  }

  @Test void runsAgainstTheServer() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).build()) {
      server.start();
      assertEquals(EXPECTED, run(server.jdbcUrl()));
    }
  }

  private static String run(String url) throws Exception {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    JdbcExample.run(url, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
