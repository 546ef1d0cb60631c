package org.apache.calcite.avatica.jdbc;

import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;

import java.sql.SQLException;
import java.util.Properties;

/**
 * Avatica's JdbcMeta whose failures keep their SQLSTATE on the way to a thin client. JdbcMeta
 * wraps each SQLException of the embedded driver in a plain RuntimeException, which Avatica's
 * handler answers with SQLSTATE 00000; an {@link AvaticaRuntimeException} carries the state,
 * the error code and the message across. In Avatica's package because {@code propagate}, the
 * one place JdbcMeta turns an SQLException into what it throws, is package-private.
 */
public class StatedJdbcMeta extends JdbcMeta {
  public StatedJdbcMeta(String url, Properties info) throws SQLException {
    super(url, info);
  }

  @Override RuntimeException propagate(Throwable e) {
    if (e instanceof SQLException sql && sql.getSQLState() != null) {
      throw new AvaticaRuntimeException(String.valueOf(sql.getMessage()), sql.getErrorCode(),
          sql.getSQLState(), AvaticaSeverity.ERROR);
    }
    return super.propagate(e);
  }
}
