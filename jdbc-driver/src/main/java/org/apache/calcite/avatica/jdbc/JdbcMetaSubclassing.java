package org.apache.calcite.avatica.jdbc;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * mnestic's one class inside Avatica's server package: a {@link JdbcMeta}
 * keeps each client statement's JDBC statement in a package-private field
 * of {@link StatementInfo}, and the server must reach it to cancel the
 * statement's work.
 */
public abstract class JdbcMetaSubclassing extends JdbcMeta {
  protected JdbcMetaSubclassing(String url, Properties info) throws SQLException {
    super(url, info);
  }

  /** The JDBC statement behind a client's statement id, or null when it is closed or expired. */
  protected final Statement statement(int id) {
    final StatementInfo info = getStatementCache().getIfPresent(id);
    return info != null ? info.statement : null;
  }
}
