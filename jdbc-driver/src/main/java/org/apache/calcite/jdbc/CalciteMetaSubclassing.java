package org.apache.calcite.jdbc;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.NoSuchStatementException;

/**
 * The one mnestic class inside Calcite's package: CalciteMetaImpl's
 * constructor takes the package-private CalciteConnectionImpl, so a subclass
 * outside this package cannot name its argument type. Calcite itself casts
 * every connection's Meta to CalciteMetaImpl, so mnestic's Meta must be one.
 */
public abstract class CalciteMetaSubclassing extends CalciteMetaImpl {
  protected CalciteMetaSubclassing(AvaticaConnection connection) {
    super((CalciteConnectionImpl) connection,
        CalciteMetaTableFactoryImpl.INSTANCE,
        CalciteMetaColumnFactoryImpl.INSTANCE);
  }

  /** The signature a statement was prepared with (Calcite keeps it on its server-side statement). */
  protected final Signature preparedSignature(StatementHandle h) throws NoSuchStatementException {
    return getConnection().server.getStatement(h).getSignature();
  }
}
