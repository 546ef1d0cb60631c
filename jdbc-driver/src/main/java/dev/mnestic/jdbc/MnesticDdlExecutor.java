package dev.mnestic.jdbc;

import dev.mnestic.sql.SqlCreateStandingQuery;
import dev.mnestic.sql.SqlDropStandingQuery;
import dev.mnestic.store.StoreDdlExecutor;

import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlDropTable;

/**
 * How a mnestic connection runs DDL, as Calcite's preparation hands it over
 * ({@link MnesticParserFactory#getDdlExecutor()}): CREATE and DROP STANDING QUERY on the
 * connection's standing queries ({@link StandingStatements}), the rest on the store
 * ({@link StoreDdlExecutor}), a DROP TABLE refused first while standing queries read the table.
 */
final class MnesticDdlExecutor implements DdlExecutor {
  static final MnesticDdlExecutor INSTANCE = new MnesticDdlExecutor();

  private MnesticDdlExecutor() {
  }

  @Override public void executeDdl(CalcitePrepare.Context context, SqlNode node) {
    final StandingStatements standing = StandingStatements.of(context);
    if (node instanceof SqlCreateStandingQuery create) {
      standing.execute(create);
    } else if (node instanceof SqlDropStandingQuery drop) {
      standing.execute(drop);
    } else {
      if (node instanceof SqlDropTable drop) {
        standing.refuseDependedOn(context, drop);
      }
      StoreDdlExecutor.INSTANCE.executeDdl(context, node);
    }
  }
}
