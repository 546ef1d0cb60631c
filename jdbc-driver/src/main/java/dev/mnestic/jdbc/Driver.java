package dev.mnestic.jdbc;

import dev.mnestic.standing.Dashboard;
import dev.mnestic.store.Session;
import dev.mnestic.store.StoreLocation;
import dev.mnestic.type.MnesticTypeSystem;

import org.apache.calcite.avatica.AvaticaConnection;
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
import java.util.Properties;

/**
 * The embedded JDBC driver, {@code jdbc:mnestic:}, built on Calcite's.
 *
 * <p>URL: {@code jdbc:mnestic:[key=value[;key=value]...]}. Keys:
 * <ul>
 *   <li>{@code db}: absent for a private in-memory store, {@code mem:NAME} for
 *       an in-memory store shared within this JVM, otherwise the directory of a
 *       file store, created on first use;
 *   <li>{@code lang}: {@code datalog} to run CozoScript scripts instead of SQL;
 *   <li>{@code progress}: {@code stderr} to show a progress line on this
 *       process's standard error while a script runs longer than a second
 *       (for a terminal; {@code mnestic run} sets it when stderr is one);
 *   <li>any of Calcite's connection properties. mnestic's defaults:
 *       identifiers match case-insensitively and keep the case they were
 *       written in; the parser is mnestic's dialect; string literals of
 *       different lengths in one column make a VARCHAR; SQL conformance is
 *       Calcite's LENIENT (so {@code %}, {@code LIMIT}, GROUP BY aliases work).
 * </ul>
 *
 * <p>Each connection is a {@link Session} on the store: its own HSQLDB
 * connection and transaction. Auto-commit is on by default.
 */
public final class Driver extends org.apache.calcite.jdbc.Driver {
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

  static {
    MnesticConnectionFactory.failures = SqlFailures::of;
    new Driver().register();
  }

  public Driver() {
    super(null);
  }

  @Override public CalcitePrepare createPrepare() {
    return new MnesticPrepare();
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

  @Override public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    final Properties withDefaults = new Properties();
    withDefaults.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "false");
    withDefaults.setProperty(CalciteConnectionProperty.UNQUOTED_CASING.camelName(), "UNCHANGED");
    withDefaults.setProperty(CalciteConnectionProperty.QUOTED_CASING.camelName(), "UNCHANGED");
    withDefaults.setProperty(CalciteConnectionProperty.PARSER_FACTORY.camelName(),
        MnesticParserFactory.class.getName() + "#INSTANCE");
    withDefaults.setProperty(CalciteConnectionProperty.CONFORMANCE.camelName(), "LENIENT");
    withDefaults.setProperty(CalciteConnectionProperty.TYPE_SYSTEM.camelName(),
        MnesticTypeSystem.class.getName() + "#INSTANCE");
    if (info != null) {
      withDefaults.putAll(info);
    }
    return super.connect(url, withDefaults);
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
        final Session session = Session.open(location);
        session.attachTo(calciteConnection.getRootSchema());
        Dashboard.attachTo(calciteConnection.getRootSchema(),
            MnesticParserFactory.parserConfig(calciteConnection.config()));
        connection.setSchema(Session.SCHEMA);
        calcite.onConnectionInit(connection);
      }

      @Override public void onConnectionClose(AvaticaConnection connection) {
        PlanCache.close((CalciteConnection) connection);
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
