package org.apache.calcite.avatica.remote;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.FrameRows;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Avatica's client side of the protocol, whose result rows are read by {@link FrameRows}: a
 * frame is fetched when a row is wanted, not one row ahead; and which keeps the results after
 * the first that an execution answers with (a CozoScript's {@code %return a, b}: the server
 * sends each under a statement id of its own), for the statement's {@code getMoreResults}
 * ({@link #nextResult}), where Avatica's hands the statement the first alone. In Avatica's
 * package because its {@link RemoteMeta} is package-private.
 */
public final class MnesticRemoteMeta extends RemoteMeta {
  /** The results after the first of each statement's last execution not yet moved to, by id. */
  private final Map<Integer, Deque<MetaResultSet>> later = new ConcurrentHashMap<>();

  public MnesticRemoteMeta(AvaticaConnection connection, Service service) {
    super(connection, service);
  }

  @Override public Iterable<Object> createIterable(StatementHandle handle, QueryState state,
      Signature signature, List<TypedValue> parameterValues, Frame firstFrame) {
    return FrameRows.of(this, connection, handle, state, parameterValues, firstFrame);
  }

  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql,
      long maxRowCount, int maxRowsInFirstFrame, PrepareCallback callback)
      throws NoSuchStatementException {
    later.remove(h.id);
    return keepLater(h, super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame,
        callback));
  }

  @Override public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    later.remove(h.id);
    return keepLater(h, super.execute(h, parameterValues, maxRowsInFirstFrame));
  }

  /** {@code result}, statement {@code h}'s execution's, whose results after the first it keeps. */
  private ExecuteResult keepLater(StatementHandle h, ExecuteResult result) {
    if (result.resultSets.size() > 1) {
      later.put(h.id, new ArrayDeque<>(result.resultSets.subList(1, result.resultSets.size())));
    }
    return result;
  }

  /**
   * The next result of statement {@code h}'s last execution, after the first and those already
   * moved to; null when there is none.
   */
  public MetaResultSet nextResult(StatementHandle h) {
    final Deque<MetaResultSet> results = later.get(h.id);
    return results == null ? null : results.poll();
  }

  @Override public void closeStatement(StatementHandle h) {
    later.remove(h.id);
    super.closeStatement(h);
  }
}
