package org.apache.calcite.avatica;

import dev.mnestic.jdbc.MnesticDatabaseMetaData;

import java.sql.SQLException;
import java.util.Properties;

/**
 * Avatica's JDBC objects for a thin client of {@code mnestic serve}, with mnestic's
 * {@link MnesticDatabaseMetaData} (Avatica's own tells of a read-only engine, upper-casing
 * names, named "Avatica", whatever the server is). A thin-client driver names this class as its
 * factory. In Avatica's package because its JDBC 4.1 factory is package-private.
 */
public class MnesticThinClientFactory extends AvaticaJdbc41Factory {
  /**
   * Avatica's connection, refusing an isolation level the store does not provide here: the
   * protocol would carry {@code TRANSACTION_NONE} (0) to the server as no level at all.
   */
  @Override public AvaticaConnection newConnection(UnregisteredDriver driver,
      AvaticaFactory factory, String url, Properties info) {
    return new AvaticaConnection(driver, factory, url, info) {
      @Override public void setTransactionIsolation(int level) throws SQLException {
        if (!MnesticDatabaseMetaData.isProvided(level)) {
          throw MnesticDatabaseMetaData.notProvided(level);
        }
        super.setTransactionIsolation(level);
      }
    };
  }

  @Override public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(
      AvaticaConnection connection) {
    return new MnesticDatabaseMetaData(connection);
  }
}
