package dev.mnestic.jdbc;

import dev.mnestic.datalog.error.DatalogException;
import dev.mnestic.runtime.DeepStack;

import java.lang.reflect.Type;

/**
 * The preparation of a {@code lang=datalog} connection, chosen when it connects: a statement's
 * text is a CozoScript script, prepared by the Datalog front end (its parameters and the entry
 * rule's headers, {@link DatalogSignature#prepare}) on a {@link DeepStack} thread; what has no
 * text (a queryable of Calcite's metadata) is prepared as on an SQL connection.
 */
final class DatalogPrepare extends MnesticPrepare {
  @Override public <T> CalciteSignature<T> prepareSql(Context context, Query<T> query,
      Type elementType, long maxRowCount) {
    if (query.sql == null) {
      return super.prepareSql(context, query, elementType, maxRowCount);
    }
    return DeepStack.call(() -> {
      try {
        @SuppressWarnings("unchecked")
        final CalciteSignature<T> script = (CalciteSignature<T>) (CalciteSignature<?>)
            DatalogSignature.prepare(query.sql);
        return script;
      } catch (DatalogException e) {
        throw new IllegalStateException(e.render(query.sql), e);
      }
    });
  }
}
