package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;

import org.apache.calcite.avatica.remote.LocalService;
import org.apache.calcite.avatica.remote.Service.RpcMetadataResponse;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.security.ConstraintMapping;
import org.eclipse.jetty.security.ConstraintSecurityHandler;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.ServerAuthException;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.security.authentication.BasicAuthenticator;
import org.eclipse.jetty.server.Authentication;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.handler.HandlerList;
import org.eclipse.jetty.util.security.Constraint;
import org.eclipse.jetty.util.security.Credential;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The remote server: Avatica's protobuf protocol over HTTP (Jetty) in front
 * of the embedded engine, so that the Avatica thin client
 * ({@code jdbc:avatica:remote:url=http://HOST:PORT;serialization=protobuf}),
 * and SQL tools such as DBeaver through it, reach one store.
 *
 * <p>Each client connection is its own {@code jdbc:mnestic:} connection: its
 * own session and transaction on the shared store. A client may set only
 * the connection properties {@code lang} and {@code statementTimeout} (see
 * {@link ClientMeta}). A client connection idle for 10 minutes, or
 * {@link Builder#idleTimeout}, is closed (rolling back its transaction); a
 * client that goes away while its statement runs has the statement cancelled
 * within about a second ({@link ClientWatch}).
 *
 * <p>Safety: the server binds loopback unless told otherwise, and refuses
 * any other address without credentials; credentials live in memory only;
 * {@link Builder#tls} serves HTTPS; requests that are not Avatica's get
 * HTTP 400, unauthenticated ones 401, neither with server internals.
 * {@link #close} cancels running statements and stops within seconds.
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
  /** How long a client connection may stay idle unless {@link Builder#idleTimeout} says otherwise. */
  static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);
  /** How long {@link #close} lets cancelled requests finish their answers. */
  private static final Duration STOP_GRACE = Duration.ofSeconds(2);

  private final String host;
  private final int requestedPort;
  private final String db;
  private final String user;
  private final String password;
  private final Duration idleTimeout;
  private final Path tlsCert;
  private final Path tlsKey;
  private final int statementTimeout;
  private final int maxStatements;
  private final long statementMemory;
  /** The directory clients' scripts may read files under (its real path), or none. */
  private final Path allowRead;
  /** The port of Prometheus remote write; -1: none. */
  private final int remoteWritePort;

  private Server jetty;
  private ServerConnector connector;
  private ClientMeta meta;
  private ClientWatch clients;
  private Connection keeper;
  private ServerConnector remoteWriteConnector;
  private RemoteWrite remoteWrite;
  private PromQlApi promQlApi;

  private MnesticServer(Builder b) {
    this.host = b.host;
    this.requestedPort = b.port;
    this.db = b.db != null ? b.db : "mem:server-" + UUID.randomUUID();
    this.user = b.user;
    this.password = b.password;
    this.idleTimeout = b.idleTimeout;
    this.tlsCert = b.tlsCert;
    this.tlsKey = b.tlsKey;
    this.statementTimeout = b.statementTimeout;
    this.maxStatements = b.maxStatements;
    this.statementMemory = b.statementMemory;
    this.allowRead = b.allowRead;
    this.remoteWritePort = b.remoteWritePort;
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  /** Opens the store and starts listening. */
  public void start() throws SQLException, IOException {
    if (jetty != null) {
      throw new IllegalStateException("server already started");
    }
    final String url = Driver.CONNECT_STRING_PREFIX + Driver.DB + "=" + db;
    // Holds the store open (an in-memory store lives while a session does)
    // and fails early if the store cannot be opened.
    keeper = new Driver().connect(url, new Properties());
    if (remoteWritePort >= 0) {
      RemoteWrite.prepareTable(keeper);
    }
    final Properties cacheProperties = new Properties();
    final Duration idle = idleTimeout != null ? idleTimeout : DEFAULT_IDLE_TIMEOUT;
    for (String cache : List.of("connectioncache", "statementcache")) {
      cacheProperties.setProperty("avatica." + cache + ".expiryduration",
          Long.toString(idle.toMillis()));
      cacheProperties.setProperty("avatica." + cache + ".expiryunit", "MILLISECONDS");
    }
    DriverManager.registerDriver(new Driver());
    meta = new ClientMeta(url, cacheProperties, statementTimeout, statementMemory,
        maxStatements, allowRead == null ? "none" : allowRead.toString());
    final LocalService service = new LocalService(meta);
    clients = new ClientWatch(meta::cancelWorkOf, meta::tick);

    jetty = new Server(new QueuedThreadPool(200, 8));
    final HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    connector = connector(http, requestedPort);
    final ProtobufEndpoint endpoint = new ProtobufEndpoint(service, meta, clients);
    final Handler handler;
    if (remoteWritePort >= 0) {
      // Its own port: a request there reaches the appends and the standing PromQL queries'
      // answers and nothing else, and an operator may open that port (to Prometheus and its
      // tools) and not the SQL one.
      remoteWriteConnector = connector(http, remoteWritePort);
      remoteWrite = new RemoteWrite(url);
      remoteWrite.serve(remoteWriteConnector);
      promQlApi = new PromQlApi(url);
      promQlApi.serve(remoteWriteConnector);
      handler = new HandlerList(promQlApi, remoteWrite, endpoint);
    } else {
      handler = endpoint;
    }
    jetty.setHandler(user != null ? authenticated(handler) : handler);
    jetty.setErrorHandler(new TerseErrors());
    jetty.setStopTimeout(STOP_GRACE.toMillis());
    try {
      jetty.start();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot start the HTTP server: " + e.getMessage(), e);
    }
    service.setRpcMetadata(new RpcMetadataResponse(host + ":" + port()));
  }

  private ServerConnector connector(HttpConfiguration http, int port) throws IOException {
    final ServerConnector c = tlsCert == null
        ? new ServerConnector(jetty, new HttpConnectionFactory(http))
        : new ServerConnector(jetty, sslContextFactory(), new HttpConnectionFactory(http));
    c.setHost(host);
    c.setPort(port);
    c.setIdleTimeout(60_000);
    jetty.addConnector(c);
    return c;
  }

  private SslContextFactory.Server sslContextFactory() throws IOException {
    final SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setKeyStore(PemKeyStore.load(tlsCert, tlsKey));
    ssl.setKeyStorePassword(new String(PemKeyStore.PASSWORD));
    return ssl;
  }

  /** BASIC authentication against the one user, whose password stays in memory. */
  private ConstraintSecurityHandler authenticated(Handler endpoint) {
    final UserStore users = new UserStore();
    users.addUser(user, Credential.getCredential(password), new String[] {ROLE});
    final HashLoginService login = new HashLoginService("mnestic");
    login.setUserStore(users);
    final Constraint constraint = new Constraint(Constraint.__BASIC_AUTH, ROLE);
    constraint.setAuthenticate(true);
    final ConstraintMapping mapping = new ConstraintMapping();
    mapping.setConstraint(constraint);
    mapping.setPathSpec("/*");
    final ConstraintSecurityHandler security = new ConstraintSecurityHandler();
    security.setAuthenticator(new StrictBasicAuthenticator());
    security.setLoginService(login);
    security.setConstraintMappings(new ConstraintMapping[] {mapping});
    security.setHandler(endpoint);
    return security;
  }

  /**
   * Jetty's BASIC authenticator, except that an {@code Authorization} header
   * it cannot decode gets HTTP 400 (Jetty's own throws, which answered 500
   * with a stack trace).
   */
  private static final class StrictBasicAuthenticator extends BasicAuthenticator {
    @Override public Authentication validateRequest(ServletRequest req, ServletResponse res,
        boolean mandatory) throws ServerAuthException {
      try {
        return super.validateRequest(req, res, mandatory);
      } catch (IllegalArgumentException e) {
        try {
          ((HttpServletResponse) res).sendError(HttpServletResponse.SC_BAD_REQUEST,
              "malformed Authorization header");
        } catch (IOException io) {
          throw new ServerAuthException(io);
        }
        return Authentication.SEND_FAILURE;
      }
    }
  }

  /** Error pages of one line: the status and its reason, never a stack trace or a version. */
  private static final class TerseErrors extends ErrorHandler {
    @Override protected void generateAcceptableResponse(org.eclipse.jetty.server.Request base,
        HttpServletRequest request, HttpServletResponse response, int code, String message)
        throws IOException {
      base.setHandled(true);
      response.setContentType("text/plain;charset=utf-8");
      response.getOutputStream().write((code + " " + HttpStatus.getMessage(code) + "\n")
          .getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The port listened on (the one chosen, when the builder asked for 0). */
  public int port() {
    if (jetty == null) {
      throw new IllegalStateException("server not started");
    }
    return connector.getLocalPort();
  }

  /** The URL Prometheus's {@code remote_write} sends to, or null when not serving it. */
  public String remoteWriteUrl() {
    if (remoteWriteConnector == null) {
      return null;
    }
    final String h = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
    return (tlsCert != null ? "https" : "http") + "://" + (h.contains(":") ? "[" + h + "]" : h)
        + ":" + remoteWriteConnector.getLocalPort() + RemoteWrite.PATH;
  }

  /** The URL a client (the Avatica thin driver, DBeaver) connects with. */
  public String jdbcUrl() {
    final String h = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
    return "jdbc:avatica:remote:url=" + (tlsCert != null ? "https" : "http") + "://"
        + (h.contains(":") ? "[" + h + "]" : h)
        + ":" + port() + ";serialization=protobuf"
        + (user != null ? ";authentication=BASIC" : "");
  }

  /** The store the server serves, as the {@code db} connection property names it. */
  public String db() {
    return db;
  }

  /** Blocks until the server stops. */
  public void join() throws InterruptedException {
    jetty.join();
  }

  /**
   * Stops: cancels the running statements (their clients get an error),
   * stops listening, closes every client connection (rolling back what was
   * not committed) and the store.
   */
  @Override public void close() throws SQLException, IOException {
    try {
      if (meta != null) {
        meta.stop();
      }
      if (jetty != null) {
        jetty.stop();
      }
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("stopping the HTTP server failed: " + e.getMessage(), e);
    } finally {
      try {
        if (meta != null) {
          meta.closeAll();
        }
        if (remoteWrite != null) {
          remoteWrite.close();
          promQlApi.close();
        }
      } finally {
        try {
          if (clients != null) {
            clients.close();
          }
        } finally {
          if (keeper != null) {
            keeper.close();
          }
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
    private Path tlsCert;
    private Path tlsKey;
    private int statementTimeout;
    private int maxStatements;
    private long statementMemory;
    private Path allowRead;
    private int remoteWritePort = -1;

    private Builder() {
    }

    /**
     * Address to bind; loopback unless told otherwise. Any other address
     * needs {@link #credentials}: {@link #build} refuses it without.
     */
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

    /** Requires HTTP BASIC authentication with these credentials, kept in memory only. */
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

    /**
     * Closes client connections (and statements) idle this long, rolling back what they had
     * not committed; by default 10 minutes, as Avatica's own server. The thin client then
     * gets SQLSTATE 08003 at its next use of the connection. A statement executing is not idle.
     */
    public Builder idleTimeout(Duration idleTimeout) {
      if (idleTimeout.isNegative() || idleTimeout.isZero()) {
        throw new IllegalArgumentException("idle timeout must be positive, was " + idleTimeout);
      }
      this.idleTimeout = idleTimeout;
      return this;
    }

    /**
     * Serves HTTPS with this certificate chain and private key, PEM files as
     * {@code openssl} writes them (the key unencrypted PKCS#8); they are read
     * when the server starts and kept in memory.
     */
    public Builder tls(Path certificateChain, Path privateKey) {
      for (Path file : List.of(certificateChain, privateKey)) {
        if (!Files.isReadable(file)) {
          throw new IllegalArgumentException("cannot read the TLS file " + file);
        }
      }
      this.tlsCert = certificateChain;
      this.tlsKey = privateKey;
      return this;
    }

    /**
     * The longest a statement may run, in seconds; a client's
     * {@code statementTimeout} may only lower it. By default: no limit.
     */
    public Builder statementTimeout(int seconds) {
      if (seconds <= 0) {
        throw new IllegalArgumentException(
            "statement timeout must be a positive number of seconds, was " + seconds);
      }
      this.statementTimeout = seconds;
      return this;
    }

    /** The most statements executing at once, over all clients; by default: no limit. */
    public Builder maxStatements(int count) {
      if (count <= 0) {
        throw new IllegalArgumentException("max statements must be positive, was " + count);
      }
      this.maxStatements = count;
      return this;
    }

    /**
     * The most heap one statement may hold, in bytes (the embedded
     * connection property {@value Driver#STATEMENT_MEMORY}); by default: no
     * limit.
     */
    public Builder statementMemory(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("statement memory must be positive, was " + bytes);
      }
      this.statementMemory = bytes;
      return this;
    }

    /**
     * Lets clients' CozoScript readers ({@code CsvReader}, {@code JsonReader}) read the files
     * under {@code directory} (judged after {@code ..} and symbolic links are resolved); by
     * default they read none.
     *
     * @throws IllegalArgumentException if {@code directory} is not a directory
     */
    public Builder allowRead(Path directory) {
      try {
        final Path real = directory.toRealPath();
        if (!Files.isDirectory(real)) {
          throw new IllegalArgumentException("--allow-read needs a directory, was " + directory);
        }
        this.allowRead = real;
      } catch (IOException e) {
        throw new IllegalArgumentException("--allow-read needs a directory, was " + directory
            + " (" + e.getMessage() + ")", e);
      }
      return this;
    }

    /**
     * Also accepts Prometheus remote write 1.0 on this port (0 picks a free one), at
     * {@code /api/v1/write}, appending samples to the table {@code prometheus_samples}
     * (created if missing); same host, TLS and credentials as the JDBC port.
     */
    public Builder remoteWritePort(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("remote write port must be 0 to 65535, was " + port);
      }
      this.remoteWritePort = port;
      return this;
    }

    /**
     * The server, after checking that an address other than loopback comes
     * with credentials.
     */
    public MnesticServer build() {
      if (user == null && !loopback(host)) {
        throw new IllegalArgumentException("host " + host + " is not a loopback address:"
            + " serving other machines needs authentication (credentials, mnestic serve"
            + " --user and --password)");
      }
      return new MnesticServer(this);
    }

    /** Whether every address the name stands for is a loopback one. */
    private static boolean loopback(String host) {
      try {
        for (InetAddress address : InetAddress.getAllByName(host)) {
          if (!address.isLoopbackAddress()) {
            return false;
          }
        }
        return true;
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("unknown host " + host, e);
      }
    }
  }
}
