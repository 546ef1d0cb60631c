package dev.mnestic.server;

import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.LocalService;

import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * Avatica's local service, with the SQLSTATE of a failed statement sent to the client: Avatica
 * sends the state only of an {@link AvaticaRuntimeException}, and the unknown state 00000 for
 * any other failure (JdbcMeta wraps the driver's SQLException in a RuntimeException). A client
 * must see, for instance, a serialization failure's 40001 to know that running its transaction
 * again may succeed.
 */
final class SqlStateService extends LocalService {
  SqlStateService(Meta meta) {
    super(meta);
  }

  @Override public ExecuteResponse apply(PrepareAndExecuteRequest request) {
    return withState(() -> super.apply(request));
  }

  @Override public ExecuteResponse apply(ExecuteRequest request) {
    return withState(() -> super.apply(request));
  }

  @Override public FetchResponse apply(FetchRequest request) {
    return withState(() -> super.apply(request));
  }

  @Override public ExecuteBatchResponse apply(PrepareAndExecuteBatchRequest request) {
    return withState(() -> super.apply(request));
  }

  @Override public ExecuteBatchResponse apply(ExecuteBatchRequest request) {
    return withState(() -> super.apply(request));
  }

  @Override public CommitResponse apply(CommitRequest request) {
    return withState(() -> super.apply(request));
  }

  @Override public RollbackResponse apply(RollbackRequest request) {
    return withState(() -> super.apply(request));
  }

  /**
   * {@code work}'s response; its failure with the SQLSTATE of the first SQLException among it
   * and its causes that has one, the message its own.
   */
  private static <T> T withState(Supplier<T> work) {
    try {
      return work.get();
    } catch (AvaticaRuntimeException e) {
      throw e;
    } catch (RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof SQLException s && s.getSQLState() != null) {
          final AvaticaRuntimeException stated = new AvaticaRuntimeException(
              e.getMessage(), s.getErrorCode(), s.getSQLState(), AvaticaSeverity.ERROR);
          stated.initCause(e);
          throw stated;
        }
      }
      throw e;
    }
  }
}
