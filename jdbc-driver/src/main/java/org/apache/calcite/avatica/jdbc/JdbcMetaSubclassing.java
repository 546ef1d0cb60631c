package org.apache.calcite.avatica.jdbc;

import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.util.DateTimeUtils;

import com.google.common.base.Optional;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * mnestic's one class inside Avatica's server package: a {@link JdbcMeta}
 * keeps each client statement's JDBC statement in a package-private field
 * of {@link StatementInfo}, and the server must reach it to cancel the
 * statement's work, register the metadata result sets it returns, and
 * read the rows of later frames as it reads a result's first.
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

  /**
   * The next rows of a result, as {@link JdbcMeta#fetch} reads them but with the calendar its
   * first frame is read with ({@link JdbcResultSet#create}, UTC), not the server's local one,
   * so that every frame of a result encodes its dates and times alike; then passed through
   * {@link #fetched}.
   */
  @Override public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
      throws NoSuchStatementException, MissingResultsException {
    final StatementInfo info = getStatementCache().getIfPresent(h.id);
    if (info == null) {
      throw new NoSuchStatementException(h);
    }
    if (!info.isResultSetInitialized()) {
      throw new MissingResultsException(h);
    }
    final ResultSet rs = info.getResultSet();
    if (rs == null) {
      return Frame.EMPTY;
    }
    try {
      // Read before the frame: a frame that reaches the end closes the result set.
      final ResultSetMetaData metaData = rs.getMetaData();
      return fetched(JdbcResultSet.frame(info, rs, offset, fetchMaxRowCount,
          DateTimeUtils.calendar(), Optional.absent()), metaData);
    } catch (SQLException e) {
      throw propagate(e);
    }
  }

  /** {@code frame}, rows of a result with columns {@code metaData}, as the client gets them. */
  protected abstract Frame fetched(Frame frame, ResultSetMetaData metaData) throws SQLException;
}
