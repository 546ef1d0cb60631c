package dev.mnestic.remote;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;
import org.apache.calcite.avatica.Meta.DatabaseProperty;
import org.apache.calcite.avatica.MnesticRemoteFactory;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Collectors;

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
   * The {@code DatabaseMetaData} calls Avatica's protocol has no request for (Avatica's client
   * answers each with no rows, whatever the server has): a thin client sends each as a
   * {@code getTables} request whose table types are {@value #CALL} and the call's name, then
   * its arguments ({@link #request}), and mnestic's server answers it with its embedded
   * connection's call ({@link #serverCall}, {@link #arguments}).
   */
  public static final List<String> SERVER_CALLS = List.of("getPrimaryKeys", "getIndexInfo",
      "getImportedKeys", "getExportedKeys", "getCrossReference", "getBestRowIdentifier",
      "getVersionColumns", "getPseudoColumns", "getFunctions", "getFunctionColumns",
      "getProcedures", "getProcedureColumns", "getSuperTables", "getSuperTypes", "getUDTs",
      "getAttributes", "getTablePrivileges", "getColumnPrivileges",
      "getClientInfoProperties");
  /** What the first table type of a server call's request starts with. */
  public static final String CALL = "mnestic:";
  /** An argument that is null, in a server call's request; any other is "=" and its text. */
  private static final String NULL = "-";

  /**
   * The table types of the request for the server's call {@code call} (one of
   * {@link #SERVER_CALLS}) with {@code arguments} (strings, booleans, ints, int arrays, nulls).
   */
  public static List<String> request(String call, Object... arguments) {
    final List<String> types = new ArrayList<>();
    types.add(CALL + call);
    for (Object a : arguments) {
      types.add(a == null ? NULL : "=" + (a instanceof int[] ints
          ? Arrays.stream(ints).mapToObj(Integer::toString).collect(Collectors.joining(","))
          : a));
    }
    return types;
  }

  /**
   * The {@code DatabaseMetaData} method the table types {@code types} of a {@code getTables}
   * request ask for ({@link #request}), or null when they are table types.
   */
  public static Method serverCall(List<String> types) {
    if (types == null || types.isEmpty() || !types.get(0).startsWith(CALL)
        || !SERVER_CALLS.contains(types.get(0).substring(CALL.length()))) {
      return null;
    }
    final String name = types.get(0).substring(CALL.length());
    for (Method m : DatabaseMetaData.class.getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == types.size() - 1) {
        return m;
      }
    }
    throw new IllegalArgumentException(name + " takes no " + (types.size() - 1)
        + " arguments");
  }

  /** The arguments of {@code method} that {@code types}, its request's, carry. */
  public static Object[] arguments(Method method, List<String> types) {
    final Class<?>[] classes = method.getParameterTypes();
    final Object[] arguments = new Object[classes.length];
    for (int i = 0; i < classes.length; i++) {
      final String a = types.get(i + 1);
      final String text = a.substring(1);
      arguments[i] = a.equals(NULL) ? null
          : classes[i] == boolean.class ? Boolean.parseBoolean(text)
          : classes[i] == int.class ? Integer.parseInt(text)
          : classes[i] == int[].class ? (text.isEmpty() ? new int[0]
              : Arrays.stream(text.split(",")).mapToInt(Integer::parseInt).toArray())
          : text;
    }
    return arguments;
  }

  /**
   * The server's answer to {@code call} with {@code arguments} for a thin client, else
   * {@code embedded}'s, the embedded connection's, whose Meta answers all.
   */
  private ResultSet call(Embedded embedded, String call, Object... arguments)
      throws SQLException {
    return connection instanceof MnesticRemoteFactory.ThinConnection thin
        ? thin.serverMetadata(request(call, arguments)) : embedded.get();
  }

  /** A call of Avatica's own {@code DatabaseMetaData}. */
  private interface Embedded {
    ResultSet get() throws SQLException;
  }

  @Override public ResultSet getPrimaryKeys(String catalog, String schema, String table)
      throws SQLException {
    return call(() -> super.getPrimaryKeys(catalog, schema, table), "getPrimaryKeys",
        catalog, schema, table);
  }

  @Override public ResultSet getIndexInfo(String catalog, String schema, String table,
      boolean unique, boolean approximate) throws SQLException {
    return call(() -> super.getIndexInfo(catalog, schema, table, unique, approximate),
        "getIndexInfo", catalog, schema, table, unique, approximate);
  }

  @Override public ResultSet getImportedKeys(String catalog, String schema, String table)
      throws SQLException {
    return call(() -> super.getImportedKeys(catalog, schema, table), "getImportedKeys",
        catalog, schema, table);
  }

  @Override public ResultSet getExportedKeys(String catalog, String schema, String table)
      throws SQLException {
    return call(() -> super.getExportedKeys(catalog, schema, table), "getExportedKeys",
        catalog, schema, table);
  }

  @Override public ResultSet getCrossReference(String parentCatalog, String parentSchema,
      String parentTable, String foreignCatalog, String foreignSchema, String foreignTable)
      throws SQLException {
    return call(() -> super.getCrossReference(parentCatalog, parentSchema, parentTable,
            foreignCatalog, foreignSchema, foreignTable), "getCrossReference", parentCatalog,
        parentSchema, parentTable, foreignCatalog, foreignSchema, foreignTable);
  }

  @Override public ResultSet getBestRowIdentifier(String catalog, String schema, String table,
      int scope, boolean nullable) throws SQLException {
    return call(() -> super.getBestRowIdentifier(catalog, schema, table, scope, nullable),
        "getBestRowIdentifier", catalog, schema, table, scope, nullable);
  }

  @Override public ResultSet getVersionColumns(String catalog, String schema, String table)
      throws SQLException {
    return call(() -> super.getVersionColumns(catalog, schema, table), "getVersionColumns",
        catalog, schema, table);
  }

  @Override public ResultSet getPseudoColumns(String catalog, String schemaPattern,
      String tableNamePattern, String columnNamePattern) throws SQLException {
    return call(() -> super.getPseudoColumns(catalog, schemaPattern, tableNamePattern,
        columnNamePattern), "getPseudoColumns", catalog, schemaPattern, tableNamePattern,
        columnNamePattern);
  }

  @Override public ResultSet getFunctions(String catalog, String schemaPattern,
      String functionNamePattern) throws SQLException {
    return call(() -> super.getFunctions(catalog, schemaPattern, functionNamePattern),
        "getFunctions", catalog, schemaPattern, functionNamePattern);
  }

  @Override public ResultSet getFunctionColumns(String catalog, String schemaPattern,
      String functionNamePattern, String columnNamePattern) throws SQLException {
    return call(() -> super.getFunctionColumns(catalog, schemaPattern, functionNamePattern,
        columnNamePattern), "getFunctionColumns", catalog, schemaPattern, functionNamePattern,
        columnNamePattern);
  }

  @Override public ResultSet getProcedures(String catalog, String schemaPattern,
      String procedureNamePattern) throws SQLException {
    return call(() -> super.getProcedures(catalog, schemaPattern, procedureNamePattern),
        "getProcedures", catalog, schemaPattern, procedureNamePattern);
  }

  @Override public ResultSet getProcedureColumns(String catalog, String schemaPattern,
      String procedureNamePattern, String columnNamePattern) throws SQLException {
    return call(() -> super.getProcedureColumns(catalog, schemaPattern, procedureNamePattern,
        columnNamePattern), "getProcedureColumns", catalog, schemaPattern,
        procedureNamePattern, columnNamePattern);
  }

  @Override public ResultSet getSuperTables(String catalog, String schemaPattern,
      String tableNamePattern) throws SQLException {
    return call(() -> super.getSuperTables(catalog, schemaPattern, tableNamePattern),
        "getSuperTables", catalog, schemaPattern, tableNamePattern);
  }

  @Override public ResultSet getSuperTypes(String catalog, String schemaPattern,
      String typeNamePattern) throws SQLException {
    return call(() -> super.getSuperTypes(catalog, schemaPattern, typeNamePattern),
        "getSuperTypes", catalog, schemaPattern, typeNamePattern);
  }

  @Override public ResultSet getUDTs(String catalog, String schemaPattern,
      String typeNamePattern, int[] types) throws SQLException {
    return call(() -> super.getUDTs(catalog, schemaPattern, typeNamePattern, types),
        "getUDTs", catalog, schemaPattern, typeNamePattern, types);
  }

  @Override public ResultSet getAttributes(String catalog, String schemaPattern,
      String typeNamePattern, String attributeNamePattern) throws SQLException {
    return call(() -> super.getAttributes(catalog, schemaPattern, typeNamePattern,
        attributeNamePattern), "getAttributes", catalog, schemaPattern, typeNamePattern,
        attributeNamePattern);
  }

  @Override public ResultSet getTablePrivileges(String catalog, String schemaPattern,
      String tableNamePattern) throws SQLException {
    return call(() -> super.getTablePrivileges(catalog, schemaPattern, tableNamePattern),
        "getTablePrivileges", catalog, schemaPattern, tableNamePattern);
  }

  @Override public ResultSet getColumnPrivileges(String catalog, String schema, String table,
      String columnNamePattern) throws SQLException {
    return call(() -> super.getColumnPrivileges(catalog, schema, table, columnNamePattern),
        "getColumnPrivileges", catalog, schema, table, columnNamePattern);
  }

  @Override public ResultSet getClientInfoProperties() throws SQLException {
    return call(super::getClientInfoProperties, "getClientInfoProperties");
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
