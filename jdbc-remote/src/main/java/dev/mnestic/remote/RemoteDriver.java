package dev.mnestic.remote;

import org.apache.calcite.avatica.ConnectStringParser;
import org.apache.calcite.avatica.MnesticRemoteFactory;

import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * The thin client of {@code mnestic serve}, {@code jdbc:mnestic:remote:}: Avatica's remote
 * driver with mnestic's objects ({@link MnesticRemoteFactory}: true metadata, a cancel and a
 * query timeout that reach the server), the settings the server needs made for the caller, and every bad URL refused with
 * an {@link SQLException} (SQLSTATE 08001) naming what was wrong.
 *
 * <p>URL: {@code jdbc:mnestic:remote:url=http://HOST:PORT[;key=value]...} (the URL
 * {@code mnestic serve} prints, {@code https://} with TLS); the keys may also be connection
 * properties. Keys:
 * <ul>
 *   <li>{@code url}: the server, {@code http://} or {@code https://} with a host;
 *   <li>{@code user} and {@code password} (SQL tools' login fields; {@code avatica_user} and
 *       {@code avatica_password}, Avatica's names, are the same): HTTP BASIC authentication, as
 *       {@code mnestic serve --user --password} requires;
 *   <li>{@code truststore}, {@code truststore_password}: a trust store holding the server's
 *       certificate (HTTPS);
 *   <li>{@code lang}, {@code statementTimeout} and {@code followLateness}: sent to the server,
 *       which checks them (see the embedded driver);
 *   <li>{@code serialization} ({@code protobuf} only, the default: the server speaks nothing
 *       else) and {@code authentication} ({@code BASIC} only, implied by a user), as Avatica's
 *       URLs spell them, so the URL {@code mnestic serve} prints works after
 *       {@code jdbc:mnestic:remote:} too.
 * </ul>
 *
 * <p>This class needs only Avatica's client: {@code mnestic-jdbc-remote-VERSION-all.jar} holds
 * it with Avatica's client and what that needs, the one jar a SQL tool loads to reach a server.
 */
public final class RemoteDriver implements Driver {
  public static final String PREFIX = "jdbc:mnestic:remote:";

  /** Keys Avatica's client reads itself, never sent to the server. */
  private static final Set<String> CLIENT = Set.of("url", "user", "password", "avatica_user",
      "avatica_password", "truststore", "truststore_password", "serialization", "authentication");
  /** Keys the server reads (sent with the connection's properties). */
  private static final Set<String> SERVER = Set.of("lang", "statementTimeout", "followLateness");

  static {
    try {
      DriverManager.registerDriver(new RemoteDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Avatica's remote driver with mnestic's metadata, cancel and query timeout. */
  private final MnesticRemoteFactory.Driver avatica = new MnesticRemoteFactory.Driver();

  @Override public boolean acceptsURL(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  @Override public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    final Properties given = new Properties();
    if (info != null) {
      given.putAll(info);
    }
    final Properties parsed;
    try {
      parsed = ConnectStringParser.parse(url.substring(PREFIX.length()), given);
    } catch (SQLException e) {
      throw refused("cannot parse " + url + ": " + e.getMessage());
    }
    final Properties client = new Properties();
    for (String key : parsed.stringPropertyNames()) {
      if (!CLIENT.contains(key) && !SERVER.contains(key)) {
        throw refused("connection property '" + key + "' is not accepted; " + PREFIX
            + " accepts " + String.join(", ", new TreeSet<>(CLIENT)) + ", "
            + String.join(", ", new TreeSet<>(SERVER)));
      }
      if (SERVER.contains(key) || key.startsWith("truststore")) {
        client.setProperty(key, parsed.getProperty(key));
      }
    }
    final String server = parsed.getProperty("url");
    client.setProperty("url", checkUrl(server));
    final String serialization = parsed.getProperty("serialization", "protobuf");
    if (!serialization.equalsIgnoreCase("protobuf")) {
      throw refused("serialization must be protobuf, the only one mnestic serve speaks; was '"
          + serialization + "'");
    }
    client.setProperty("serialization", "protobuf");
    final String user = either(parsed, "user", "avatica_user");
    final String password = either(parsed, "password", "avatica_password");
    final String authentication = parsed.getProperty("authentication");
    if (authentication != null && !authentication.equalsIgnoreCase("BASIC")) {
      throw refused("authentication must be BASIC, mnestic serve's; was '" + authentication + "'");
    }
    if (user != null && !user.isEmpty()) {
      client.setProperty("authentication", "BASIC");
      client.setProperty("avatica_user", user);
      client.setProperty("avatica_password", password == null ? "" : password);
    } else if (authentication != null) {
      throw refused("authentication=BASIC needs a user and a password");
    }
    try {
      return avatica.connect(org.apache.calcite.avatica.remote.Driver.CONNECT_STRING_PREFIX,
          client);
    } catch (RuntimeException e) {
      // Avatica's client reports HTTP and transport failures unchecked.
      final String message = String.valueOf(e.getMessage());
      if (message.contains("HTTP/401")) {
        throw new SQLException("server " + server + " refused the credentials"
            + (user == null ? " (none were given: set user and password)" : " of user " + user),
            "28000", e);
      }
      throw new SQLException("cannot connect to " + server + ": " + message, "08001", e);
    }
  }

  /** The server URL {@code url}, checked: http or https, with a host. */
  private static String checkUrl(String url) throws SQLException {
    if (url == null || url.isEmpty()) {
      throw refused("missing url: expected " + PREFIX + "url=http://HOST:PORT, as mnestic serve"
          + " prints it after jdbc:avatica:remote:");
    }
    try {
      final URI uri = new URI(url);
      if (!List.of("http", "https").contains(String.valueOf(uri.getScheme()).toLowerCase())
          || uri.getHost() == null) {
        throw refused("bad url '" + url + "': expected http://HOST:PORT or https://HOST:PORT");
      }
    } catch (URISyntaxException e) {
      throw refused("bad url '" + url + "': " + e.getMessage());
    }
    return url;
  }

  /** The value of {@code name}, or of {@code alias}; both given must agree. */
  private static String either(Properties p, String name, String alias) throws SQLException {
    final String a = p.getProperty(name);
    final String b = p.getProperty(alias);
    if (a != null && b != null && !a.equals(b)) {
      throw refused(name + " and " + alias + " disagree; give one of them");
    }
    return a != null ? a : b;
  }

  private static SQLException refused(String message) {
    return new SQLException(message, "08001");
  }

  @Override public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[] {
        new DriverPropertyInfo("user", info == null ? null : info.getProperty("user")),
        new DriverPropertyInfo("password", null),
        new DriverPropertyInfo("lang", info == null ? null : info.getProperty("lang")),
    };
  }

  @Override public int getMajorVersion() {
    return avatica.getMajorVersion();
  }

  @Override public int getMinorVersion() {
    return avatica.getMinorVersion();
  }

  @Override public boolean jdbcCompliant() {
    return false;
  }

  @Override public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("no java.util.logging here");
  }
}
