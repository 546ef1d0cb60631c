package dev.mnestic.server;

import org.apache.calcite.avatica.MnesticThinClientFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Avatica's thin client with mnestic's metadata ({@link MnesticThinClientFactory}), as a
 * mnestic thin-client driver is built; not registered, so {@code jdbc:avatica:remote:} stays
 * Avatica's own in the other tests.
 */
final class ThinClient extends org.apache.calcite.avatica.remote.Driver {
  @Override protected String getFactoryClassName(JdbcVersion jdbcVersion) {
    return MnesticThinClientFactory.class.getName();
  }

  /** A thin-client connection to {@code server}. */
  static Connection connect(MnesticServer server) throws SQLException {
    return new ThinClient().connect(server.jdbcUrl(), new Properties());
  }
}
