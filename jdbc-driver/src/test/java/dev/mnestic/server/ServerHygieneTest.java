package dev.mnestic.server;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13, point 8: what the server exposes beyond the SQL it
 * runs. Real servers on free loopback ports; raw HTTP over a socket where
 * the thin client would not send the request.
 */
class ServerHygieneTest {
  private static final String PASSWORD = "s3cret-" + System.nanoTime();

  @Test void nonLoopbackHostNeedsCredentials() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MnesticServer.newBuilder().host("0.0.0.0").build());
    assertTrue(e.getMessage().contains("0.0.0.0") && e.getMessage().contains("--user"),
        e.getMessage());
    MnesticServer.newBuilder().host("0.0.0.0").credentials("ana", "pw").build();
    MnesticServer.newBuilder().host("localhost").build();
    MnesticServer.newBuilder().host("::1").build();
  }

  /** One raw HTTP exchange: the status code and the body. */
  private record Reply(int status, String body) {
  }

  private static Reply exchange(int port, String method, List<String> headers, byte[] body)
      throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(10_000);
      final StringBuilder head = new StringBuilder(method + " / HTTP/1.1\r\nHost: localhost\r\n"
          + "Connection: close\r\nContent-Type: application/octet-stream\r\n"
          + "Content-Length: " + body.length + "\r\n");
      headers.forEach(h -> head.append(h).append("\r\n"));
      final OutputStream out = socket.getOutputStream();
      out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      final InputStream in = socket.getInputStream();
      final String reply = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
      final int status = Integer.parseInt(reply.substring(9, 12));
      return new Reply(status, reply);
    }
  }

  private static String basic(String userAndPassword) {
    return "Authorization: Basic " + Base64.getEncoder()
        .encodeToString(userAndPassword.getBytes(StandardCharsets.UTF_8));
  }

  /** The reply names no Java class, stack frame, server software or version. */
  private static void assertNoInternals(Reply reply) {
    final String lower = reply.body().toLowerCase(Locale.ROOT);
    for (String leak : List.of("exception", "\tat ", "jetty", "org.", "java.", "calcite",
        "server:")) {
      assertFalse(lower.contains(leak), "'" + leak + "' in " + reply.body());
    }
  }

  @Test void malformedRequestsGet400Or401WithoutInternals() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0)
        .credentials("ana", PASSWORD).build()) {
      server.start();
      final int port = server.port();
      final byte[] garbage = "\u0000\u00ff not protobuf".getBytes(StandardCharsets.ISO_8859_1);
      final String right = basic("ana:" + PASSWORD);
      final List<Object[]> cases = List.of(
          new Object[] {"POST", List.of("Authorization: Basic !!!not-base64!!!"), 400},
          new Object[] {"POST", List.of("Authorization: Basic ===="), 400},
          new Object[] {"POST", List.of(basic("no colon at all")), 401},
          new Object[] {"POST", List.of(basic("ana:wrong")), 401},
          new Object[] {"POST", List.of("Authorization: Basic"), 401},
          new Object[] {"POST", List.of("Authorization: Bearer abc"), 401},
          new Object[] {"POST", List.of("Authorization: \u00e9\u00e9"), 401},
          new Object[] {"POST", List.of(), 401},
          new Object[] {"GET", List.of(right), 400},
          new Object[] {"POST", List.of(right), 400});
      for (Object[] c : cases) {
        @SuppressWarnings("unchecked")
        final Reply reply = exchange(port, (String) c[0], (List<String>) c[1], garbage);
        assertEquals(c[2], reply.status(), c[0] + " " + c[1] + ": " + reply.body());
        assertNoInternals(reply);
      }
    }
  }

  /**
   * A failed statement reaches the thin client with the SQLSTATE the
   * embedded driver gives (the first among its causes; HY000 when none has
   * one), without the server's stack trace.
   */
  @Test void remoteErrorsCarryTheEmbeddedSqlState() throws Exception {
    try (MnesticServer server = MnesticServer.newBuilder().port(0).build()) {
      server.start();
      final String embeddedUrl = "jdbc:mnestic:db=" + server.db();
      for (String sql : List.of("INSERT INTO k VALUES (1)", "SELECT * FROM nowhere",
          "SELECT 1 / 0 FROM k")) {
        try (Connection remote = DriverManager.getConnection(server.jdbcUrl());
             Connection embedded = DriverManager.getConnection(embeddedUrl)) {
          remote.createStatement().execute("CREATE TABLE IF NOT EXISTS k (id INT PRIMARY KEY)");
          remote.createStatement().execute("DELETE FROM k");
          remote.createStatement().execute("INSERT INTO k VALUES (1)");
          final SQLException local = assertThrows(SQLException.class,
              () -> run(embedded, sql), sql);
          final SQLException far = assertThrows(SQLException.class, () -> run(remote, sql), sql);
          assertEquals(sqlState(local), far.getSQLState(), sql + ": " + far.getMessage());
          assertFalse(far.getMessage().contains("\tat "), far.getMessage());
        }
      }
    }
  }

  private static String sqlState(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && s.getSQLState() != null) {
        return s.getSQLState();
      }
    }
    return "HY000";
  }

  private static void run(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      if (s.execute(sql)) {
        try (ResultSet rs = s.getResultSet()) {
          while (rs.next()) {
            rs.getObject(1);
          }
        }
      }
    }
  }

  /** The password is held in memory: starting a secured server writes no file holding it. */
  @Test void credentialsAreNotWrittenToDisk() throws Exception {
    final Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    final Set<Path> before = listing(tmp);
    try (MnesticServer server = MnesticServer.newBuilder().port(0)
        .credentials("ana", PASSWORD).build()) {
      server.start();
      final Set<Path> created = new HashSet<>(listing(tmp));
      created.removeAll(before);
      for (Path file : created) {
        if (Files.isRegularFile(file)) {
          assertFalse(Files.readString(file, StandardCharsets.ISO_8859_1).contains("ana"),
              file.toString());
        }
      }
      final Properties right = new Properties();
      right.setProperty("avatica_user", "ana");
      right.setProperty("avatica_password", PASSWORD);
      try (Connection c = DriverManager.getConnection(server.jdbcUrl(), right);
           ResultSet rs = c.createStatement().executeQuery("SELECT 6 * 7")) {
        rs.next();
        assertEquals(42, rs.getInt(1));
      }
    }
  }

  private static Set<Path> listing(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.collect(Collectors.toSet());
    }
  }

  /**
   * HTTPS from PEM files made by the {@code openssl} CLI; the thin client
   * connects with a trust store holding the certificate, and not without.
   */
  @Test void servesHttpsFromPemFiles(@TempDir Path dir) throws Exception {
    final Path cert = dir.resolve("cert.pem");
    final Path key = dir.resolve("key.pem");
    final Process openssl;
    try {
      openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
          "-keyout", key.toString(), "-out", cert.toString(), "-days", "2",
          "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost")
          .redirectErrorStream(true).start();
    } catch (IOException e) {
      Assumptions.abort("no openssl CLI: " + e.getMessage());
      return;
    }
    final String log = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(openssl.waitFor(60, TimeUnit.SECONDS) && openssl.exitValue() == 0, log);

    final Path trust = dir.resolve("trust.p12");
    final KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    try (InputStream in = Files.newInputStream(cert)) {
      store.setCertificateEntry("mnestic",
          CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    try (OutputStream out = Files.newOutputStream(trust)) {
      store.store(out, "trustpw".toCharArray());
    }

    try (MnesticServer server = MnesticServer.newBuilder().port(0)
        .credentials("ana", PASSWORD).tls(cert, key).build()) {
      server.start();
      assertTrue(server.jdbcUrl().startsWith("jdbc:avatica:remote:url=https://127.0.0.1:"),
          server.jdbcUrl());
      final Properties info = new Properties();
      info.setProperty("avatica_user", "ana");
      info.setProperty("avatica_password", PASSWORD);
      info.setProperty("truststore", trust.toString());
      info.setProperty("truststore_password", "trustpw");
      try (Connection c = DriverManager.getConnection(server.jdbcUrl(), info);
           ResultSet rs = c.createStatement().executeQuery("SELECT 40 + 2")) {
        rs.next();
        assertEquals(42, rs.getInt(1));
      }
      final Properties untrusting = new Properties();
      untrusting.setProperty("avatica_user", "ana");
      untrusting.setProperty("avatica_password", PASSWORD);
      assertThrows(Exception.class, () -> {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), untrusting)) {
          c.createStatement().executeQuery("SELECT 1").close();
        }
      });
    }
  }

  @Test void badPemFilesFailTheStartNamingTheFile(@TempDir Path dir) throws Exception {
    final Path cert = Files.writeString(dir.resolve("cert.pem"), "not a certificate\n");
    final Path key = Files.writeString(dir.resolve("key.pem"), "-----BEGIN RSA PRIVATE KEY-----\n");
    try (MnesticServer server = MnesticServer.newBuilder().port(0).tls(cert, key).build()) {
      final IOException e = assertThrows(IOException.class, server::start);
      assertTrue(e.getMessage().contains("--tls-cert " + cert), e.getMessage());
    }
  }
}
