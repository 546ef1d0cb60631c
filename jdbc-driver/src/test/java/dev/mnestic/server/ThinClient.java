package dev.mnestic.server;

import dev.mnestic.remote.RemoteDriver;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/** mnestic's thin client ({@link RemoteDriver}) connecting to a server the test started. */
final class ThinClient {
  private ThinClient() {
  }

  /** A thin-client connection to {@code server}. */
  static Connection connect(MnesticServer server) throws SQLException {
    return connect(server, new Properties());
  }

  /** A thin-client connection to {@code server} with the connection properties {@code info}. */
  static Connection connect(MnesticServer server, Properties info) throws SQLException {
    return new RemoteDriver().connect(
        server.jdbcUrl().replace("jdbc:avatica:remote:", RemoteDriver.PREFIX), info);
  }
}
