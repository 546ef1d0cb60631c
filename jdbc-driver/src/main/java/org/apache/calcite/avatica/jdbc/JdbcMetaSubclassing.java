package org.apache.calcite.avatica.jdbc;

import org.apache.calcite.avatica.AvaticaUtils;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.avatica.util.DateTimeUtils;

import com.google.common.base.Optional;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * mnestic's one class inside Avatica's server package: a {@link JdbcMeta}
 * keeps each client statement's JDBC statement in a package-private field
 * of {@link StatementInfo}, and the server must reach it to cancel the
 * statement's work, register the metadata result sets it returns, read
 * the rows of later frames as it reads a result's first, and send a frame of
 * the rows ready ({@link #frameRows}) when waiting for more would hold the
 * request (a followed standing query's rows come as its windows close).
 *
 * <p>An execution with several results (a CozoScript's {@code %return a, b}: the embedded
 * statement's {@code getMoreResults}) answers with all of them: the first under the client's
 * statement id, each later one under a statement id of its own ({@link #laterResults}), whose
 * frames the client fetches by that id. They are closed with the statement's next execution or
 * its close.
 */
public abstract class JdbcMetaSubclassing extends JdbcMeta {
  /** The ids of the results after the first of each statement's last execution, by its id. */
  private final Map<Integer, List<Integer>> later = new ConcurrentHashMap<>();

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
      // a later result has no statement of its own, and is no followed standing query
      final int rows = info.statement == null ? fetchMaxRowCount
          : frameRows(info.statement, fetchMaxRowCount);
      if (rows == 0 && fetchMaxRowCount != 0) {
        return new Frame(offset, false, List.of());
      }
      // Read before the frame: a frame that reaches the end closes the result set.
      final ResultSetMetaData metaData = rs.getMetaData();
      return fetched(JdbcResultSet.frame(info, rs, offset, rows,
          DateTimeUtils.calendar(), Optional.absent()), metaData);
    } catch (SQLException e) {
      throw propagate(e);
    }
  }

  /**
   * As JdbcMeta's, but the first frame holds {@link #frameRows} rows (JdbcMeta's reads the rows
   * asked for, waiting for each).
   */
  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql,
      long maxRowCount, int maxRowsInFirstFrame, PrepareCallback callback)
      throws NoSuchStatementException {
    final StatementInfo info = getStatementCache().getIfPresent(h.id);
    if (info == null) {
      throw new NoSuchStatementException(h);
    }
    try {
      closeResults(h.id, info);
      setMaxRows(info.statement, maxRowCount);
      info.statement.execute(sql);
      info.setResultSet(info.statement.getResultSet());
      if (info.getResultSet() == null) {
        return new ExecuteResult(List.of(JdbcResultSet.count(h.connectionId, h.id,
            AvaticaUtils.getLargeUpdateCount(info.statement))));
      }
      final List<ResultSet> more = laterResults(info.statement);
      final List<MetaResultSet> results = new ArrayList<>(List.of(firstFrame(h, info,
          maxRowsInFirstFrame, signature(info.getResultSet().getMetaData()))));
      results.addAll(register(h, more, maxRowsInFirstFrame));
      return new ExecuteResult(results);
    } catch (SQLException e) {
      throw propagate(e);
    }
  }

  /**
   * As JdbcMeta's for the server's own (Avatica) prepared statements, but the first frame holds
   * {@link #frameRows} rows.
   */
  @Override public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    final StatementInfo info = getStatementCache().getIfPresent(h.id);
    if (info == null) {
      throw new NoSuchStatementException(h);
    }
    try {
      closeResults(h.id, info);
      if (parameterValues != null && MetaImpl.checkParameterValueHasNull(parameterValues)) {
        throw new SQLException("exception while executing query: unbound parameter");
      }
      final PreparedStatement statement = (PreparedStatement) info.statement;
      for (int i = 0; parameterValues != null && i < parameterValues.size(); i++) {
        statement.setObject(i + 1, parameterValues.get(i).toJdbc(calendar));
      }
      if (!statement.execute()) {
        return new ExecuteResult(List.of(JdbcResultSet.count(h.connectionId, h.id,
            statement.getUpdateCount())));
      }
      info.setResultSet(statement.getResultSet());
      if (info.getResultSet() == null) {
        return new ExecuteResult(List.of(JdbcResultSet.empty(h.connectionId, h.id,
            h.signature)));
      }
      final List<ResultSet> more = laterResults(statement);
      final List<MetaResultSet> results = new ArrayList<>(List.of(firstFrame(h, info,
          maxRowsInFirstFrame, resultSignature(h.signature, info.getResultSet()))));
      results.addAll(register(h, more, maxRowsInFirstFrame));
      return new ExecuteResult(results);
    } catch (SQLException e) {
      throw propagate(e);
    }
  }

  /**
   * The signature of {@code rs}'s rows: the prepared one, unless the result's columns differ
   * from it (a CozoScript whose columns are known only once it ran, such as an imperative
   * script's: its prepared signature has none, and the client read rows of no columns).
   */
  private static Signature resultSignature(Signature prepared, ResultSet rs)
      throws SQLException {
    final ResultSetMetaData columns = rs.getMetaData();
    boolean same = prepared != null && prepared.columns.size() == columns.getColumnCount();
    for (int i = 0; same && i < prepared.columns.size(); i++) {
      same = prepared.columns.get(i).label.equals(columns.getColumnLabel(i + 1));
    }
    return same ? prepared : signature(columns);
  }

  /**
   * The results of {@code statement}'s execution after its first, which stays open
   * ({@code KEEP_CURRENT_RESULT}): taken before any frame is read, a frame that reaches the end
   * of a result closing it.
   */
  private static List<ResultSet> laterResults(Statement statement) throws SQLException {
    final List<ResultSet> more = new ArrayList<>();
    while (statement.getMoreResults(Statement.KEEP_CURRENT_RESULT)) {
      more.add(statement.getResultSet());
    }
    return more;
  }

  /**
   * {@code more}, the results after the first of statement {@code h}'s execution, each
   * registered under a statement id of its own with its first frame of {@code maxRows} rows.
   */
  private List<MetaResultSet> register(StatementHandle h, List<ResultSet> more, int maxRows)
      throws SQLException {
    final List<MetaResultSet> results = new ArrayList<>();
    final List<Integer> ids = new ArrayList<>();
    for (ResultSet rs : more) {
      final int id = getStatementIdGenerator().getAndIncrement();
      final StatementInfo info = new StatementInfo(null);
      info.setResultSet(rs);
      getStatementCache().put(id, info);
      ids.add(id);
      results.add(JdbcResultSet.create(h.connectionId, id, rs, maxRows,
          signature(rs.getMetaData())));
    }
    if (!ids.isEmpty()) {
      later.put(h.id, ids);
    }
    return results;
  }

  /**
   * Closes the results of statement {@code id}'s last execution: its first, which
   * {@link #laterResults} kept open (the statement no longer closes it when it executes again),
   * and the later ones (the statement cache's removal closes each).
   */
  private void closeResults(int id, StatementInfo info) throws SQLException {
    if (info.getResultSet() != null) {
      info.getResultSet().close();
    }
    final List<Integer> ids = later.remove(id);
    if (ids != null) {
      getStatementCache().invalidateAll(ids);
    }
  }

  /** As JdbcMeta's, closing the statement's later results too ({@link #closeResults}). */
  @Override public void closeStatement(StatementHandle h) {
    final StatementInfo info = getStatementCache().getIfPresent(h.id);
    if (info != null) {
      try {
        closeResults(h.id, info);
      } catch (SQLException e) {
        throw propagate(e);
      }
    }
    super.closeStatement(h);
  }

  /**
   * A result's first frame, of {@link #frameRows} of the {@code maxRows} asked for; none ready
   * yet gives an empty frame that is not the last, and the client fetches the rest.
   */
  private MetaResultSet firstFrame(StatementHandle h, StatementInfo info, int maxRows,
      Signature signature) throws SQLException {
    final int rows = frameRows(info.statement, maxRows);
    if (rows == 0 && maxRows != 0) {
      return new JdbcResultSet(h.connectionId, h.id, true, signature,
          new Frame(0, false, List.of()));
    }
    return JdbcResultSet.create(h.connectionId, h.id, info.getResultSet(), rows, signature);
  }

  /**
   * How many rows a frame of {@code statement}'s result reads, of the {@code requested} (a
   * negative number: a default frame's); 0 (of a positive number, or a negative) sends a frame
   * of no rows that is not the last. JdbcMeta reads them all, waiting for each.
   */
  protected int frameRows(Statement statement, int requested) throws SQLException {
    return requested;
  }

  /** {@code frame}, rows of a result with columns {@code metaData}, as the client gets them. */
  protected abstract Frame fetched(Frame frame, ResultSetMetaData metaData) throws SQLException;
}
