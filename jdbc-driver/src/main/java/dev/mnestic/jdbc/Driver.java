package dev.mnestic.jdbc;

import dev.mnestic.datalog.fixed.ReadPolicy;
import dev.mnestic.remote.RemoteDriver;
import dev.mnestic.sql.StandingQueries;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreLocation;
import dev.mnestic.type.MnesticTypeSystem;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.ConnectStringParser;
import org.apache.calcite.avatica.DriverVersion;
import org.apache.calcite.avatica.Handler;
import org.apache.calcite.avatica.HandlerImpl;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.MnesticConnectionFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The embedded JDBC driver, {@code jdbc:mnestic:}, built on Calcite's.
 *
 * <p>URL: {@code jdbc:mnestic:[key=value[;key=value]...]}. Keys:
 * <ul>
 *   <li>{@code db}: absent for a private in-memory store, {@code mem:NAME} for
 *       an in-memory store shared within this JVM, {@code file:DIRECTORY} or a
 *       path for the directory of a file store, created on first use (any other
 *       scheme is refused);
 *   <li>{@code lang}: {@code datalog} to run CozoScript scripts instead of SQL;
 *   <li>{@code statementTimeout}: seconds each statement of the connection may run, planning
 *       and code generation included (0, the default: no limit); a statement's
 *       {@code setQueryTimeout} may lower it, not raise it. Past it the statement stops
 *       (SQLSTATE HYT00), as at {@code Statement.cancel} (57014);
 *   <li>{@code statementMemory}: bytes of heap each statement may hold (0, the default: no
 *       limit); past it the statement stops with SQLSTATE 53200, as does the statement
 *       allocating the most when the heap is nearly full (what is counted:
 *       {@link dev.mnestic.runtime.RunningStatement});
 *   <li>{@code progress}: {@code stderr} to show a progress line on this
 *       process's standard error while a script runs longer than a second
 *       (for a terminal; {@code mnestic run} sets it when stderr is one);
 *   <li>{@value #STATEMENT_TIMEOUT} and {@value #STATEMENT_MEMORY}: limits
 *       of each statement (see there);
 *   <li>Calcite's {@code caseSensitive}, {@code unquotedCasing},
 *       {@code quotedCasing} and {@code conformance}. mnestic's defaults:
 *       identifiers match case-insensitively and keep the case they were
 *       written in; the parser is mnestic's dialect; string literals of
 *       different lengths in one column make a VARCHAR; SQL conformance is
 *       Calcite's LENIENT (so {@code %}, {@code LIMIT}, GROUP BY aliases work), with
 *       checked arithmetic (an INTEGER or BIGINT result out of range fails with 22003);
 *   <li>{@code user} and {@code password}, ignored.
 * </ul>
 * {@code jdbc:mnestic:remote:url=http://HOST:PORT...} connects to a server instead, through
 * {@link RemoteDriver}.
 *
 * <p>Any other property (Calcite's {@code model}, {@code schemaFactory},
 * {@code fun}, ...: ways to load code or open files outside the store) is
 * refused with SQLSTATE 08001.
 *
 * <p>Each connection is a {@link Session} on the store: its own HSQLDB
 * connection and transaction. Auto-commit is on by default.
 */
public final class Driver extends org.apache.calcite.jdbc.Driver
    implements MnesticConnectionFactory.Failures {
  public static final String CONNECT_STRING_PREFIX = "jdbc:mnestic:";

  /** Connection property naming the store; see {@link StoreLocation#parse}. */
  public static final String DB = "db";

  /** Connection property choosing the statement language: {@code sql} (default) or {@value #DATALOG}. */
  public static final String LANG = "lang";

  /** Connection property: {@value #STDERR} shows long scripts' progress on standard error. */
  public static final String PROGRESS = "progress";

  /** {@code progress=stderr}. */
  public static final String STDERR = "stderr";

  /** {@code lang=datalog}: statements are CozoScript scripts; a result set is the entry rule's rows. */
  public static final String DATALOG = "datalog";

  /** Connection property: the longest a statement may run, in seconds (0 or absent: no limit); {@code setQueryTimeout} may only lower it. */
  public static final String STATEMENT_TIMEOUT = "statementTimeout";

  /** Connection property: the most heap, in bytes, one statement may hold (0 or absent: no limit); past it the statement fails with SQLSTATE 53200. */
  public static final String STATEMENT_MEMORY = "statementMemory";

  /**
   * Connection property: the allowed lateness of a followed standing query's rows
   * ({@code SELECT STREAM * FROM name}), in milliseconds, 0 to a day: a window closes, and its
   * row is given, when the wall clock passes its end plus this; rows committed later for it are
   * counted by pull reads only. Default {@value #DEFAULT_FOLLOW_LATENESS}.
   */
  public static final String FOLLOW_LATENESS = "followLateness";

  /**
   * Connection property: which files a CozoScript script's readers ({@code CsvReader},
   * {@code JsonReader}) may read: only those under this directory (judged after {@code ..}
   * and symbolic links are resolved), or none ({@code none}); absent: every file the JVM's
   * user can read. A server sets it for its clients ({@code mnestic serve --allow-read}).
   */
  public static final String ALLOW_READ = "allowRead";

  /** {@value #FOLLOW_LATENESS} when the connection does not set it: 5 seconds. */
  public static final long DEFAULT_FOLLOW_LATENESS = 5000;

  /**
   * Connection properties {@code user} and {@code password}: accepted and
   * ignored (the store has no users), since SQL tools always send them.
   */
  private static final Set<String> IGNORED = Set.of("user", "password");

  /**
   * mnestic's defaults of Calcite's connection properties. A caller may
   * change the ones that choose no code ({@link #PLAIN_CALCITE}); the others
   * only restated with these values.
   */
  private static final Map<String, String> CALCITE_DEFAULTS = Map.of(
      CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false",
      CalciteConnectionProperty.UNQUOTED_CASING.camelName(), "UNCHANGED",
      CalciteConnectionProperty.QUOTED_CASING.camelName(), "UNCHANGED",
      CalciteConnectionProperty.CONFORMANCE.camelName(), "LENIENT",
      CalciteConnectionProperty.PARSER_FACTORY.camelName(),
      MnesticParserFactory.class.getName() + "#INSTANCE",
      CalciteConnectionProperty.TYPE_SYSTEM.camelName(),
      MnesticTypeSystem.class.getName() + "#INSTANCE");

  /** The Calcite properties of {@link #CALCITE_DEFAULTS} a caller may set to any value. */
  private static final Set<String> PLAIN_CALCITE = Set.of(
      CalciteConnectionProperty.CASE_SENSITIVE.camelName(),
      CalciteConnectionProperty.UNQUOTED_CASING.camelName(),
      CalciteConnectionProperty.QUOTED_CASING.camelName(),
      CalciteConnectionProperty.CONFORMANCE.camelName());

  /** mnestic's own connection properties. */
  private static final Set<String> MNESTIC = Set.of(
      DB, LANG, PROGRESS, STATEMENT_TIMEOUT, STATEMENT_MEMORY, FOLLOW_LATENESS, ALLOW_READ);

  /** {@code jdbc:mnestic:remote:} URLs, which this driver hands to the thin client. */
  private static final RemoteDriver REMOTE = new RemoteDriver();

  static {
    new Driver().register();
  }

  /** The driver of SQL connections, registered with {@code DriverManager}. */
  public Driver() {
    this(MnesticPrepare::new);
  }

  /** A driver whose connections prepare statements with {@code prepare}'s. */
  private Driver(Supplier<CalcitePrepare> prepare) {
    super(prepare);
  }

  /**
   * Connects {@code lang=datalog} connections: as this driver's, but their statements are
   * CozoScript scripts ({@link DatalogPrepare}).
   */
  private static final Driver DATALOG_CONNECTIONS = new Driver(DatalogPrepare::new);

  /** mnestic's version ({@code mnestic --version}), as the driver and the server report it. */
  public static String version() {
    return MnesticVersion.VERSION;
  }

  /**
   * The standing queries of the driver's connections, and {@code mnestic plan}: the standing
   * jar's when it is on the class path, else ones that fail saying to add it.
   */
  public static StandingQueries standingQueries() {
    return Standing.queries();
  }

  /**
   * The {@value #FOLLOW_LATENESS} of connection {@code properties}, in milliseconds.
   *
   * @throws IllegalArgumentException naming the property and its bad value
   */
  public static long followLateness(Properties properties) {
    final String value = properties.getProperty(FOLLOW_LATENESS);
    if (value == null || value.isBlank()) {
      return DEFAULT_FOLLOW_LATENESS;
    }
    try {
      final long millis = Long.parseLong(value.trim());
      if (millis >= 0 && millis <= 86_400_000) {
        return millis;
      }
    } catch (NumberFormatException e) {
      // the message below says what is expected
    }
    throw new IllegalArgumentException(FOLLOW_LATENESS + " must be a whole number of"
        + " milliseconds from 0 to 86400000 (a day), not '" + value + "'");
  }

  /** A failure as a caller of this driver's connections sees it ({@link SqlFailures}). */
  @Override public SQLException of(Throwable cause) {
    return SqlFailures.of(cause);
  }

  /** Calcite's JDBC objects, with failures of {@code prepareStatement} given their SQLSTATE. */
  @Override protected String getFactoryClassName(JdbcVersion jdbcVersion) {
    return MnesticConnectionFactory.class.getName();
  }

  @Override protected String getConnectStringPrefix() {
    return CONNECT_STRING_PREFIX;
  }

  @Override protected DriverVersion createDriverVersion() {
    return MnesticVersion.driverVersion();
  }

  /**
   * The files a connection's scripts may read, as its {@value #ALLOW_READ} says.
   *
   * @throws IllegalArgumentException naming the property and its bad value
   */
  public static ReadPolicy readPolicy(Properties properties) {
    final String value = properties.getProperty(ALLOW_READ);
    if (value == null) {
      return ReadPolicy.ANY;
    }
    try {
      return ReadPolicy.parse(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(ALLOW_READ + " must be none or a directory: "
          + e.getMessage(), e);
    }
  }

  @Override public Connection connect(String url, Properties info) throws SQLException {
    if (REMOTE.acceptsURL(url)) {
      return REMOTE.connect(url, info);
    }
    if (!acceptsURL(url)) {
      return null;
    }
    // "jdbc:mnestic:;lang=datalog", as HSQLDB's URLs put ';' before their keys, means the same
    final String keys = url.substring(CONNECT_STRING_PREFIX.length()).replaceFirst("^;", "");
    final Properties given;
    try {
      given = ConnectStringParser.parse(keys, info);
    } catch (SQLException e) {
      throw new SQLException("bad URL " + url + ": " + e.getMessage(), "08001", e);
    }
    checkAllowed(given);
    final Properties withDefaults = new Properties();
    withDefaults.putAll(CALCITE_DEFAULTS);
    for (String key : given.stringPropertyNames()) {
      if (!IGNORED.contains(key)) {
        withDefaults.setProperty(key, given.getProperty(key));
      }
    }
    // The statement language chooses the connection's preparation, once.
    return (DATALOG.equalsIgnoreCase(withDefaults.getProperty(LANG)) ? DATALOG_CONNECTIONS : this)
        .open(url, withDefaults);
  }

  /** Calcite's connection of {@code url}, {@code properties} checked and completed. */
  private Connection open(String url, Properties properties) throws SQLException {
    return super.connect(url, properties);
  }

  /**
   * Refuses every connection property but mnestic's own, {@code user} and
   * {@code password}, and Calcite's that choose no code; Calcite's others
   * (a {@code model}, a {@code schemaFactory}, {@code fun}, ...) would let
   * whoever writes the URL load classes or open files outside the store.
   * Names are compared exactly: Calcite would also read {@code MODEL} or
   * {@code schema_factory}, and those are refused too.
   */
  private static void checkAllowed(Properties given) throws SQLException {
    for (Object key : given.keySet()) {
      if (!(key instanceof String)) {
        throw refused(String.valueOf(key));
      }
    }
    for (String name : given.stringPropertyNames()) {
      final String value = given.getProperty(name);
      if (name.equals(LANG) && !value.equalsIgnoreCase("sql") && !value.equalsIgnoreCase(DATALOG)) {
        throw new SQLException("connection property lang must be sql or datalog, was '" + value
            + "'", "08001");
      }
      if (name.equals(DB) && value.isEmpty()) {
        throw new SQLException("connection property db needs a value: a directory or mem:NAME"
            + " (leave it out for a private in-memory store)", "08001");
      }
      if (MNESTIC.contains(name) || IGNORED.contains(name) || PLAIN_CALCITE.contains(name)) {
        continue;
      }
      if (CALCITE_DEFAULTS.containsKey(name)) {
        if (CALCITE_DEFAULTS.get(name).equals(value)) {
          continue;
        }
        throw new SQLException("connection property '" + name + "' may only be "
            + CALCITE_DEFAULTS.get(name) + ", mnestic's own; it was '" + value + "'", "08001");
      }
      throw refused(name);
    }
  }

  private static SQLException refused(String name) {
    return new SQLException("connection property '" + name + "' is not accepted; "
        + "jdbc:mnestic: accepts " + String.join(", ", new TreeSet<>(MNESTIC)) + ", "
        + String.join(", ", new TreeSet<>(PLAIN_CALCITE)) + " (and user, password, ignored)",
        "08001");
  }

  @Override protected Handler createHandler() {
    final Handler calcite = super.createHandler();
    return new HandlerImpl() {
      @Override public void onConnectionInit(AvaticaConnection connection)
          throws SQLException {
        final CalciteConnection calciteConnection = (CalciteConnection) connection;
        final StoreLocation location;
        try {
          location = StoreLocation.parse(calciteConnection.getProperties().getProperty(DB));
        } catch (IllegalArgumentException e) {
          throw new SQLException("bad db property: " + e.getMessage(), "08001", e);
        }
        try {
          MnesticMeta.limits(calciteConnection.getProperties());
          followLateness(calciteConnection.getProperties());
          readPolicy(calciteConnection.getProperties());
        } catch (IllegalArgumentException e) {
          throw new SQLException("bad connection property: " + e.getMessage(), "08001", e);
        }
        final Session session = Session.open(location);
        session.attachTo(calciteConnection.getRootSchema());
        session.runTriggersWith((s, table, removes, added, removed) ->
            HostExtensions.fireTriggers(calciteConnection, table, removes, added, removed));
        Standing.queries().attachTo(calciteConnection.getRootSchema(),
            MnesticParserFactory.parserConfig(calciteConnection.config()));
        connection.setSchema(Session.SCHEMA);
        calcite.onConnectionInit(connection);
      }

      @Override public void onConnectionClose(AvaticaConnection connection) {
        PlanCache.close((CalciteConnection) connection);
        HostExtensions.close((CalciteConnection) connection);
        try {
          Session.of(((CalciteConnection) connection).getRootSchema()).close();
        } catch (SQLException e) {
          throw new IllegalStateException("closing the store session failed", e);
        }
      }
    };
  }

  @Override public Meta createMeta(AvaticaConnection connection) {
    return MnesticMeta.create(connection);
  }
}
