package dev.mnestic.remote;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;
import org.apache.calcite.avatica.Meta.DatabaseProperty;
import org.apache.calcite.avatica.MnesticRemoteFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * What mnestic is, for a connection of the embedded driver and for a thin client of
 * {@code mnestic serve} alike (here, beside the thin client, which needs nothing else) (Avatica's own answers describe neither): every value either
 * comes from the connection (read-only), from the engine's {@code DatabaseProperty} values
 * (product, version, functions; the server sends the embedded connection's), or is how the
 * engine works whichever way it is reached:
 * <ul>
 *   <li>unquoted and quoted names keep the case they were written in and match ignoring
 *       case: {@code storesMixedCase*Identifiers}, not upper case;
 *   <li>NULL sorts as the highest value: last in {@code ORDER BY x}, first in
 *       {@code ORDER BY x DESC} ({@code nullsAreSortedHigh});
 *   <li>transactions with the isolation levels of README "Transactions and isolation": READ
 *       UNCOMMITTED runs as READ COMMITTED (the default), SERIALIZABLE as REPEATABLE READ
 *       (snapshot isolation); {@code TRANSACTION_NONE} is refused. DDL commits the open
 *       transaction, as the store does.
 * </ul>
 */
public class MnesticDatabaseMetaData extends AvaticaDatabaseMetaData {
  private final AvaticaConnection connection;
  /** The engine's {@code DatabaseProperty} values, by name; read once. */
  private Properties engine;

  public MnesticDatabaseMetaData(AvaticaConnection connection) {
    super(connection);
    this.connection = connection;
  }

  /**
   * {@code DatabaseMetaData} calls Avatica's protocol has no request for; a thin client sends
   * each as a {@code getTables} request whose first table type is its name, and mnestic's
   * server answers it with its embedded connection's call.
   */
  public static final String PRIMARY_KEYS = "mnestic:getPrimaryKeys";
  public static final String INDEX_INFO = "mnestic:getIndexInfo";
  public static final String FUNCTIONS = "mnestic:getFunctions";
  public static final List<String> SERVER_CALLS = List.of(PRIMARY_KEYS, INDEX_INFO, FUNCTIONS);

  /** The thin client's connection, or null for an embedded one (whose Meta answers all). */
  private MnesticRemoteFactory.ThinConnection thin() {
    return connection instanceof MnesticRemoteFactory.ThinConnection thin ? thin : null;
  }

  @Override public ResultSet getPrimaryKeys(String catalog, String schema, String table)
      throws SQLException {
    return thin() == null ? super.getPrimaryKeys(catalog, schema, table)
        : thin().serverMetadata(PRIMARY_KEYS, schema, table, null);
  }

  @Override public ResultSet getIndexInfo(String catalog, String schema, String table,
      boolean unique, boolean approximate) throws SQLException {
    return thin() == null ? super.getIndexInfo(catalog, schema, table, unique, approximate)
        : thin().serverMetadata(INDEX_INFO, schema, table, Boolean.toString(unique));
  }

  @Override public ResultSet getFunctions(String catalog, String schemaPattern,
      String functionNamePattern) throws SQLException {
    return thin() == null ? super.getFunctions(catalog, schemaPattern, functionNamePattern)
        : thin().serverMetadata(FUNCTIONS, schemaPattern, functionNamePattern, null);
  }

  private synchronized String engine(DatabaseProperty property) {
    if (engine == null) {
      engine = getRemoteAvaticaProperties();
    }
    return engine.getProperty(property.name(), "");
  }

  private int engineInt(DatabaseProperty property) {
    final String value = engine(property);
    return value.isEmpty() ? -1 : Integer.parseInt(value);
  }

  @Override public String getDatabaseProductName() {
    return engine(DatabaseProperty.GET_DATABASE_PRODUCT_NAME);
  }

  @Override public String getDatabaseProductVersion() {
    return engine(DatabaseProperty.GET_DATABASE_PRODUCT_VERSION);
  }

  @Override public int getDatabaseMajorVersion() {
    return engineInt(DatabaseProperty.GET_DATABASE_MAJOR_VERSION);
  }

  @Override public int getDatabaseMinorVersion() {
    return engineInt(DatabaseProperty.GET_DATABASE_MINOR_VERSION);
  }

  /** Whether the connection is read-only ({@code setReadOnly}); its writes then fail with 25006. */
  @Override public boolean isReadOnly() throws SQLException {
    return connection.isReadOnly();
  }

  @Override public boolean nullsAreSortedHigh() {
    return true;
  }

  @Override public boolean nullsAreSortedLow() {
    return false;
  }

  @Override public boolean nullsAreSortedAtStart() {
    return false;
  }

  @Override public boolean nullsAreSortedAtEnd() {
    return false;
  }

  @Override public boolean storesMixedCaseIdentifiers() {
    return true;
  }

  @Override public boolean supportsMixedCaseIdentifiers() {
    return false;
  }

  @Override public boolean storesUpperCaseIdentifiers() {
    return false;
  }

  @Override public boolean storesLowerCaseIdentifiers() {
    return false;
  }

  @Override public boolean storesMixedCaseQuotedIdentifiers() {
    return true;
  }

  @Override public boolean supportsMixedCaseQuotedIdentifiers() {
    return false;
  }

  @Override public boolean storesUpperCaseQuotedIdentifiers() {
    return false;
  }

  @Override public boolean storesLowerCaseQuotedIdentifiers() {
    return false;
  }

  @Override public String getIdentifierQuoteString() {
    return "\"";
  }

  @Override public boolean supportsTransactions() {
    return true;
  }

  @Override public boolean supportsTransactionIsolationLevel(int level) {
    return isProvided(level);
  }

  /** Whether the store provides the isolation level {@code level} (see the class Javadoc). */
  public static boolean isProvided(int level) {
    return level == Connection.TRANSACTION_READ_UNCOMMITTED
        || level == Connection.TRANSACTION_READ_COMMITTED
        || level == Connection.TRANSACTION_REPEATABLE_READ
        || level == Connection.TRANSACTION_SERIALIZABLE;
  }

  /** The failure of {@code setTransactionIsolation(level)} for a level not {@link #isProvided}. */
  public static SQLException notProvided(int level) {
    return new SQLException("transaction isolation level " + level + " is not provided: the"
        + " store runs READ COMMITTED (2, the default; READ UNCOMMITTED, 1, means it too) or"
        + " snapshot isolation (REPEATABLE READ, 4, or SERIALIZABLE, 8)", "HY024");
  }

  @Override public boolean supportsDataDefinitionAndDataManipulationTransactions() {
    return false;
  }

  @Override public boolean supportsDataManipulationTransactionsOnly() {
    return true;
  }

  @Override public boolean dataDefinitionCausesTransactionCommit() {
    return true;
  }

  @Override public boolean dataDefinitionIgnoredInTransactions() {
    return false;
  }
}
