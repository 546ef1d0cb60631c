package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;

import org.apache.calcite.avatica.jdbc.JdbcMeta;
import org.apache.calcite.avatica.remote.Driver.Serialization;
import org.apache.calcite.avatica.server.HttpServer;
import org.apache.calcite.avatica.server.ServerCustomizer;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

/**
 * The remote server: an Avatica {@link HttpServer} (protobuf over HTTP) in
 * front of the embedded engine, so that the Avatica thin client
 * ({@code jdbc:avatica:remote:url=http://HOST:PORT;serialization=protobuf}),
 * and SQL tools such as DBeaver through it, reach one store.
 *
 * <p>Each client connection is its own {@code jdbc:mnestic:} connection: its
 * own session and transaction on the shared store. Client connections idle
 * for any length of time are kept unless {@link Builder#idleTimeout} says
 * otherwise.
 *
 * <pre>{@code
 * try (MnesticServer server = MnesticServer.newBuilder()
 *     .port(0)
 *     .credentials("ana", "secret")
 *     .build()) {
 *   server.start();
 *   String url = server.jdbcUrl();
 * }
 * }</pre>
 */
public final class MnesticServer implements AutoCloseable {
  /** Role every authenticated user has. */
  private static final String ROLE = "mnestic";
  /** "Never" for Avatica's connection cache, which wants a duration. */
  private static final Duration NEVER = Duration.ofDays(100_000);

  private final String host;
  private final int requestedPort;
  private final String db;
  private final String user;
  private final String password;
  private final Duration idleTimeout;

  private HttpServer httpServer;
  private Connection keeper;
  private Path realm;

  private MnesticServer(Builder b) {
    this.host = b.host;
    this.requestedPort = b.port;
    this.db = b.db != null ? b.db : "mem:server-" + UUID.randomUUID();
    this.user = b.user;
    this.password = b.password;
    this.idleTimeout = b.idleTimeout;
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  /** Opens the store and starts listening. */
  public void start() throws SQLException, IOException {
    if (httpServer != null) {
      throw new IllegalStateException("server already started");
    }
    final String url = Driver.CONNECT_STRING_PREFIX + Driver.DB + "=" + db;
    // Holds the store open (an in-memory store lives while a session does)
    // and fails early if the store cannot be opened.
    keeper = new Driver().connect(url, new Properties());
    final Properties metaProperties = new Properties();
    final Duration idle = idleTimeout != null ? idleTimeout : NEVER;
    for (String cache : List.of("connectioncache", "statementcache")) {
      metaProperties.setProperty("avatica." + cache + ".expiryduration",
          Long.toString(idle.toMillis()));
      metaProperties.setProperty("avatica." + cache + ".expiryunit", "MILLISECONDS");
    }
    DriverManager.registerDriver(new Driver());
    final JdbcMeta meta = new JdbcMeta(url, metaProperties);
    final HttpServer.Builder<Server> builder = HttpServer.Builder.<Server>newBuilder()
        .withHandler(new SqlStateService(meta), Serialization.PROTOBUF)
        .withPort(requestedPort)
        .withServerCustomizers(List.<ServerCustomizer<Server>>of(this::bind), Server.class);
    if (user != null) {
      realm = Files.createTempFile("mnestic-realm", ".properties",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(realm, user + ": MD5:" + md5(password) + "," + ROLE + "\n",
          StandardCharsets.UTF_8);
      builder.withBasicAuthentication(realm.toString(), new String[] {ROLE});
    }
    httpServer = builder.build();
    httpServer.start();
  }

  private void bind(Server server) {
    for (Connector connector : server.getConnectors()) {
      ((ServerConnector) connector).setHost(host);
    }
  }

  private static String md5(String password) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
          .digest(password.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The port listened on (the one chosen, when the builder asked for 0). */
  public int port() {
    if (httpServer == null) {
      throw new IllegalStateException("server not started");
    }
    return httpServer.getPort();
  }

  /** The URL a client (the Avatica thin driver, DBeaver) connects with. */
  public String jdbcUrl() {
    final String h = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
    return "jdbc:avatica:remote:url=http://" + (h.contains(":") ? "[" + h + "]" : h)
        + ":" + port() + ";serialization=protobuf"
        + (user != null ? ";authentication=BASIC" : "");
  }

  /** The store the server serves, as the {@code db} connection property names it. */
  public String db() {
    return db;
  }

  /** Blocks until the server stops. */
  public void join() throws InterruptedException {
    httpServer.join();
  }

  @Override public void close() throws SQLException, IOException {
    try {
      if (httpServer != null) {
        httpServer.stop();
      }
    } finally {
      try {
        if (keeper != null) {
          keeper.close();
        }
      } finally {
        if (realm != null) {
          Files.deleteIfExists(realm);
        }
      }
    }
  }

  /** Configures a {@link MnesticServer}; each setter checks its value at once. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port = 8765;
    private String db;
    private String user;
    private String password;
    private Duration idleTimeout;

    private Builder() {
    }

    /** Address to bind; loopback unless told otherwise. */
    public Builder host(String host) {
      if (host == null || host.isBlank()) {
        throw new IllegalArgumentException("host must not be empty");
      }
      this.host = host;
      return this;
    }

    /** Port to listen on; 0 picks a free one. */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be 0 to 65535, was " + port);
      }
      this.port = port;
      return this;
    }

    /** The store, as the {@code db} property of {@code jdbc:mnestic:} names it; default: in memory. */
    public Builder db(String db) {
      this.db = db;
      return this;
    }

    /** Requires HTTP BASIC authentication with these credentials. */
    public Builder credentials(String user, String password) {
      if (user == null || user.isEmpty() || user.matches(".*[:,\\s].*")) {
        throw new IllegalArgumentException(
            "user must be non-empty without ':', ',' or white space");
      }
      if (password == null || password.isEmpty()) {
        throw new IllegalArgumentException("password must not be empty");
      }
      this.user = user;
      this.password = password;
      return this;
    }

    /** Closes client connections idle this long; by default they are never closed. */
    public Builder idleTimeout(Duration idleTimeout) {
      if (idleTimeout.isNegative() || idleTimeout.isZero()) {
        throw new IllegalArgumentException("idle timeout must be positive, was " + idleTimeout);
      }
      this.idleTimeout = idleTimeout;
      return this;
    }

    public MnesticServer build() {
      return new MnesticServer(this);
    }
  }
}
