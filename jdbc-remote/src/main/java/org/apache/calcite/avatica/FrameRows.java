package org.apache.calcite.avatica;

import org.apache.calcite.avatica.remote.TypedValue;

import java.sql.SQLException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The rows of a result the thin client reads from the server's frames, fetching the next frame
 * only when a row is wanted and the frames fetched have none left. Avatica's own
 * ({@code MetaImpl}'s fetch iterator) fetches the next frame as soon as it hands out a frame's
 * last row, so a result whose rows come slowly (a followed standing query's, one as each window
 * closes, the server answering with the rows ready) reached its reader a row late: each row only
 * once the next one was there. As Avatica's, it skips empty frames and recovers a statement the
 * server lost ({@code resetStatement}, {@code syncResults}); a later result of an execution
 * ({@link #later}) cannot be recovered so: it fails.
 */
public final class FrameRows implements Iterator<Object> {
  private final Meta meta;
  private final AvaticaStatement statement;
  /** The server's id of a later result ({@link #later}); null for the statement's own. */
  private final Meta.StatementHandle result;
  private final QueryState state;
  private final int fetchSize;
  private Meta.Frame frame;
  private Iterator<Object> rows;
  /** How many rows were handed out: where the next fetch starts. */
  private long offset;

  private FrameRows(Meta meta, AvaticaStatement statement, Meta.StatementHandle result,
      QueryState state, Meta.Frame firstFrame) {
    this.meta = meta;
    this.statement = statement;
    this.result = result;
    this.state = state;
    int size;
    try {
      size = statement.getFetchSize();
    } catch (SQLException e) {
      size = AvaticaStatement.DEFAULT_FETCH_SIZE;
    }
    this.fetchSize = size;
    this.frame = firstFrame != null ? firstFrame : Meta.Frame.MORE;
    this.rows = frame.rows.iterator();
  }

  /**
   * The rows of the result of statement {@code handle} of {@code connection}, whose
   * {@code meta} fetches its frames after {@code firstFrame}: as {@code MetaImpl.createIterable}
   * makes them (its {@code parameterValues} unused), read by {@link FrameRows}.
   */
  public static Iterable<Object> of(Meta meta, AvaticaConnection connection,
      Meta.StatementHandle handle, QueryState state, List<TypedValue> parameterValues,
      Meta.Frame firstFrame) {
    if (firstFrame != null && firstFrame.done) {
      return firstFrame.rows;
    }
    final AvaticaStatement statement;
    try {
      statement = connection.lookupStatement(handle);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return () -> new FrameRows(meta, statement, null, state, firstFrame);
  }

  /**
   * The rows of a result after the first of {@code statement}'s execution, which the server
   * holds under the statement id of {@code result}: the rows of {@code firstFrame}, then those
   * fetched by that id.
   */
  public static Iterable<Object> later(Meta meta, AvaticaStatement statement,
      Meta.StatementHandle result, Meta.Frame firstFrame) {
    if (firstFrame != null && firstFrame.done) {
      return firstFrame.rows;
    }
    return () -> new FrameRows(meta, statement, result, null, firstFrame);
  }

  @Override public boolean hasNext() {
    while (!rows.hasNext()) {
      if (frame == null || frame.done) {
        return false;
      }
      try {
        frame = meta.fetch(result != null ? result : statement.handle, offset, fetchSize);
      } catch (NoSuchStatementException | MissingResultsException e) {
        if (result != null) {
          throw new IllegalStateException("the server no longer holds this result of the"
              + " statement (it was closed, executed again or idle too long)", e);
        }
        if (e instanceof NoSuchStatementException) {
          statement.resetStatement();
          continue;
        }
        try {
          if (!statement.syncResults(state, offset)) {
            frame = null;
            return false;
          }
        } catch (NoSuchStatementException lost) {
          statement.resetStatement();
        }
        continue;
      }
      if (frame == null) {
        return false;
      }
      rows = frame.rows.iterator();
    }
    return true;
  }

  @Override public Object next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    offset++;
    return rows.next();
  }
}
