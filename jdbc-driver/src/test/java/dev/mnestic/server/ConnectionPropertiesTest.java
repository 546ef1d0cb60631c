package dev.mnestic.server;

import dev.mnestic.jdbc.Driver;

import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.BuiltInConnectionProperty;
import org.apache.calcite.avatica.remote.ProtobufTranslation;
import org.apache.calcite.avatica.remote.ProtobufTranslationImpl;
import org.apache.calcite.avatica.remote.Service;
import org.apache.calcite.config.CalciteConnectionProperty;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Test case for #13, point 1: a client names no model, schema factory, JDBC
 * URL or path. Every connection property of Calcite's and Avatica's is sent
 * to a real started server (through the real thin client where it forwards
 * the property, as a raw protobuf request where the thin client keeps it to
 * itself) and to the embedded driver, and each is refused with SQLSTATE
 * 08001, naming it.
 */
class ConnectionPropertiesTest {
  private static MnesticServer server;
  private static final ProtobufTranslation PROTOBUF = new ProtobufTranslationImpl();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path tmp;
  private static Path secret;

  @BeforeAll static void start() throws Exception {
    server = MnesticServer.newBuilder().port(0).build();
    server.start();
    secret = Files.writeString(tmp.resolve("secret.txt"), "the host's secret\n");
  }

  @AfterAll static void stop() throws Exception {
    server.close();
  }

  /**
   * An inline model whose functions are {@code java.nio.file.Files}' static
   * methods: had it been accepted, {@code SELECT "s".READ(...)} would read host files.
   */
  private static String hostFileModel() {
    return "inline:{\"version\":\"1.0\",\"defaultSchema\":\"s\",\"schemas\":[{\"name\":\"s\","
        + "\"type\":\"map\",\"functions\":[{\"name\":\"READ\",\"className\":"
        + "\"java.nio.file.Files\",\"methodName\":\"readAllLines\"},{\"name\":\"DEL\","
        + "\"className\":\"java.nio.file.Files\",\"methodName\":\"delete\"}]}]}";
  }

  /** A value for a property: the harmful one where there is one, else something plausible. */
  private static String valueFor(String name) {
    return switch (name) {
      case "model" -> hostFileModel();
      case "schemaFactory" -> "org.apache.calcite.adapter.jdbc.JdbcSchema$Factory";
      case "schemaType" -> "JDBC";
      case "fun" -> "oracle";
      case "url" -> "jdbc:hsqldb:file:" + tmp.resolve("made-by-client");
      default -> "x";
    };
  }

  private static List<String> calciteNames() {
    final List<String> names = new ArrayList<>();
    for (CalciteConnectionProperty p : CalciteConnectionProperty.values()) {
      names.add(p.camelName());
    }
    return names;
  }

  private static List<String> avaticaNames() {
    final List<String> names = new ArrayList<>();
    for (BuiltInConnectionProperty p : BuiltInConnectionProperty.values()) {
      names.add(p.camelName());
    }
    return names;
  }

  /** The SQLSTATE and message of a refused connection, as the thin client raises it. */
  private static String[] refusal(Exception e) {
    if (e instanceof SQLException s) {
      return new String[] {s.getSQLState(), s.getMessage()};
    }
    if (e instanceof AvaticaClientRuntimeException a) {
      // The thin client raises a refused OpenConnectionRequest unchecked (Avatica 1.28).
      return new String[] {a.getSqlState(), a.getMessage()};
    }
    throw new AssertionError("not a refusal: " + e, e);
  }

  /**
   * Calcite's properties through the real thin client, which forwards them
   * (all but {@code schema} and {@code timeZone}, which are Avatica's too and
   * stay with the client): each refused.
   */
  @Test void thinClientSendingAnyCalcitePropertyIsRefused() {
    for (String name : calciteNames()) {
      if (BuiltInConnectionProperty.isLocalProperty(name)) {
        continue;
      }
      final Properties info = new Properties();
      info.setProperty(name, valueFor(name));
      final Exception e = assertThrows(Exception.class, () -> {
        try (Connection c = DriverManager.getConnection(server.jdbcUrl(), info);
             ResultSet rs = c.createStatement().executeQuery("SELECT 1")) {
          rs.next();
        }
      }, name);
      final String[] refusal = refusal(e);
      assertEquals("08001", refusal[0], name + ": " + refusal[1]);
      assertTrue(refusal[1].contains("'" + name + "'"), refusal[1]);
      assertTrue(refusal[1].contains("lang"), "says what is allowed: " + refusal[1]);
      assertFalse(refusal[1].contains("secret"), refusal[1]);
    }
  }

  /**
   * Every Calcite and Avatica property, also upper-cased as Calcite would
   * read it too, in a raw OpenConnectionRequest (Avatica's thin client keeps
   * its own properties, but another client need not): each refused, and the
   * refusal carries no stack trace.
   */
  @Test void rawRequestsNamingAnyPropertyAreRefused() throws Exception {
    final List<String> names = new ArrayList<>(calciteNames());
    names.addAll(avaticaNames());
    for (String name : List.copyOf(names)) {
      names.add(name.toUpperCase(Locale.ROOT));
    }
    names.addAll(List.of("schema.jdbcUrl", "schema.directory", "db", "statementMemory",
        "progress", "hsqldb.reconfig_logging"));
    for (String name : names) {
      final Service.Response response = openConnection(Map.of(name, valueFor(name)));
      assertTrue(response instanceof Service.ErrorResponse, name + ": " + response);
      final Service.ErrorResponse error = (Service.ErrorResponse) response;
      assertEquals("08001", error.sqlState, name + ": " + error.errorMessage);
      assertTrue(error.errorMessage.contains(name), error.errorMessage);
      assertTrue(error.exceptions.isEmpty(), "no stack trace: " + error.exceptions);
    }
    assertFalse(Files.exists(tmp.resolve("made-by-client.script")));
    assertTrue(openConnection(Map.of(Driver.LANG, "datalog", "user", "u", "password", "p"))
        instanceof Service.OpenConnectionResponse, "the allowed ones open a connection");
  }

  private static Service.Response openConnection(Map<String, String> info) throws Exception {
    final String url = server.jdbcUrl().replaceFirst("^jdbc:avatica:remote:url=", "")
        .replaceFirst(";.*", "");
    final byte[] body = PROTOBUF.serializeRequest(
        new Service.OpenConnectionRequest(UUID.randomUUID().toString(), info));
    final HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    return PROTOBUF.parseResponse(response.body());
  }

  /** The same for the embedded driver: each property in the URL and in the Properties. */
  @Test void embeddedDriverRefusesEveryCalciteAndAvaticaProperty() {
    final List<String> names = new ArrayList<>(calciteNames());
    names.addAll(avaticaNames());
    for (String name : names) {
      final String value = valueFor(name);
      final boolean mnesticsOwn = (name.equals("caseSensitive") || name.equals("conformance")
          || name.equals("quotedCasing") || name.equals("unquotedCasing"));
      if (mnesticsOwn) {
        continue;
      }
      final Properties info = new Properties();
      info.setProperty(name, value);
      final SQLException inProperties = assertThrows(SQLException.class,
          () -> new Driver().connect("jdbc:mnestic:", info).close(), name);
      assertEquals("08001", inProperties.getSQLState(), inProperties.getMessage());
      assertTrue(inProperties.getMessage().contains("'" + name + "'"),
          inProperties.getMessage());
      if (!value.contains(";")) {
        final SQLException inUrl = assertThrows(SQLException.class,
            () -> new Driver().connect("jdbc:mnestic:" + name + "=" + value, null).close(),
            name);
        assertEquals("08001", inUrl.getSQLState(), inUrl.getMessage());
      }
    }
  }

  /** The properties mnestic documents still work embedded; Calcite's code-choosing ones only as mnestic sets them. */
  @Test void embeddedDriverKeepsItsDocumentedProperties() throws SQLException {
    final Properties info = new Properties();
    info.setProperty("user", "sa");
    info.setProperty("password", "");
    info.setProperty(CalciteConnectionProperty.CONFORMANCE.camelName(), "LENIENT");
    info.setProperty(Driver.STATEMENT_TIMEOUT, "30");
    try (Connection c = new Driver().connect("jdbc:mnestic:lang=datalog;caseSensitive=false",
        info); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("?[x] := x = 41 + 1")) {
      assertTrue(rs.next());
      assertEquals("42", rs.getString(1));
    }
    final Properties parser = new Properties();
    parser.setProperty(CalciteConnectionProperty.PARSER_FACTORY.camelName(),
        "org.apache.calcite.sql.parser.impl.SqlParserImpl#FACTORY");
    final SQLException e = assertThrows(SQLException.class,
        () -> new Driver().connect("jdbc:mnestic:", parser));
    assertEquals("08001", e.getSQLState());
    assertTrue(e.getMessage().contains("mnestic's own"), e.getMessage());
  }

  /**
   * {@code lang=datalog} from a thin client takes effect. Avatica 1.28's
   * thin client sends the server only the Properties given to
   * {@code getConnection}, not the ones written in its URL (CALCITE-4121),
   * so the property goes there.
   */
  @Test void langFromTheThinClientTakesEffect() throws SQLException {
    final Properties datalog = new Properties();
    datalog.setProperty(Driver.LANG, Driver.DATALOG);
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), datalog);
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("?[x, y] := x = 20, y = x * 2 + 2")) {
      assertTrue(rs.next());
      assertEquals("20", rs.getString(1));
      assertEquals("42", rs.getString(2));
    }
    final Properties bad = new Properties();
    bad.setProperty(Driver.LANG, "prolog");
    final String[] refusal = refusal(assertThrows(Exception.class,
        () -> DriverManager.getConnection(server.jdbcUrl(), bad).close()));
    assertEquals("08001", refusal[0]);
    assertTrue(refusal[1].contains("sql or datalog"), refusal[1]);
  }
}
