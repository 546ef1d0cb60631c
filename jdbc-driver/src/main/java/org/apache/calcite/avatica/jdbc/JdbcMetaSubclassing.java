package org.apache.calcite.avatica.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * mnestic's one class inside Avatica's server package: a {@link JdbcMeta}
 * keeps each client statement's JDBC statement in a package-private field
 * of {@link StatementInfo}, and the server must reach it to cancel the
 * statement's work, and register the metadata result sets it returns.
 */
public abstract class JdbcMetaSubclassing extends JdbcMeta {
  protected JdbcMetaSubclassing(String url, Properties info) throws SQLException {
    super(url, info);
  }

  /**
   * {@code rs}, a result set of the connection {@code ch}'s {@code DatabaseMetaData}, as
   * JdbcMeta returns its own (registered, so the client fetches the rest of it).
   */
  protected final MetaResultSet metaResultSet(ConnectionHandle ch, ResultSet rs)
      throws SQLException {
    final int id = getStatementIdGenerator().getAndIncrement();
    final StatementInfo info = new StatementInfo(rs.getStatement());
    info.setResultSet(rs);
    getStatementCache().put(id, info);
    return JdbcResultSet.create(ch.id, id, rs);
  }

  /** The JDBC statement behind a client's statement id, or null when it is closed or expired. */
  protected final Statement statement(int id) {
    final StatementInfo info = getStatementCache().getIfPresent(id);
    return info != null ? info.statement : null;
  }
}
