package org.apache.calcite.avatica.remote;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.FrameRows;
import org.apache.calcite.avatica.QueryState;

import java.util.List;

/**
 * Avatica's client side of the protocol, whose result rows are read by {@link FrameRows}: a
 * frame is fetched when a row is wanted, not one row ahead. In Avatica's package because its
 * {@link RemoteMeta} is package-private.
 */
public final class MnesticRemoteMeta extends RemoteMeta {
  public MnesticRemoteMeta(AvaticaConnection connection, Service service) {
    super(connection, service);
  }

  @Override public Iterable<Object> createIterable(StatementHandle handle, QueryState state,
      Signature signature, List<TypedValue> parameterValues, Frame firstFrame) {
    return FrameRows.of(this, connection, handle, state, parameterValues, firstFrame);
  }
}
