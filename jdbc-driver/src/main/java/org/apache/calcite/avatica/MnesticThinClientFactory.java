package org.apache.calcite.avatica;

import dev.mnestic.jdbc.MnesticDatabaseMetaData;

import org.apache.calcite.avatica.remote.MetaDataOperation;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

/**
 * Avatica's JDBC objects for a thin client of {@code mnestic serve}, with mnestic's
 * {@link MnesticDatabaseMetaData} (Avatica's own tells of a read-only engine, upper-casing
 * names, named "Avatica", whatever the server is). A thin-client driver names this class as its
 * factory. In Avatica's package because its JDBC 4.1 factory is package-private.
 */
public class MnesticThinClientFactory extends AvaticaJdbc41Factory {
  @Override public AvaticaConnection newConnection(UnregisteredDriver driver,
      AvaticaFactory factory, String url, Properties info) {
    return new ThinConnection(driver, factory, url, info);
  }

  /**
   * Avatica's connection, refusing an isolation level the store does not provide here (the
   * protocol would carry {@code TRANSACTION_NONE}, 0, to the server as no level at all), and
   * reaching the server's metadata calls Avatica's protocol has no request for.
   */
  public static final class ThinConnection extends AvaticaConnection {
    ThinConnection(UnregisteredDriver driver, AvaticaFactory factory, String url,
        Properties info) {
      super(driver, factory, url, info);
    }

    @Override public void setTransactionIsolation(int level) throws SQLException {
      if (!MnesticDatabaseMetaData.isProvided(level)) {
        throw MnesticDatabaseMetaData.notProvided(level);
      }
      super.setTransactionIsolation(level);
    }

    /**
     * The result of the server connection's {@code DatabaseMetaData} call {@code call} (one of
     * {@link MnesticDatabaseMetaData#SERVER_CALLS}) with a schema, a name and an optional
     * further argument, sent as a {@code getTables} request whose first table type names the
     * call, which mnestic's server answers so.
     */
    public ResultSet serverMetadata(String call, String schema, String name, String argument)
        throws SQLException {
      final List<String> types = argument == null ? List.of(call) : List.of(call, argument);
      return createResultSet(meta.getTables(handle, null, Meta.Pat.of(schema),
              Meta.Pat.of(name), types),
          new QueryState(MetaDataOperation.GET_TABLES, null, schema, name,
              types.toArray(new String[0])));
    }
  }

  @Override public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(
      AvaticaConnection connection) {
    return new MnesticDatabaseMetaData(connection);
  }
}
