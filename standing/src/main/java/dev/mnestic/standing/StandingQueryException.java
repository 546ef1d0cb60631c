package dev.mnestic.standing;

import org.apache.calcite.sql.parser.SqlParserPos;

/** A standing query that cannot be planned, naming the place in its SQL text. */
public final class StandingQueryException extends RuntimeException {
  public StandingQueryException(SqlParserPos pos, String message) {
    super("At line " + pos.getLineNum() + ", column " + pos.getColumnNum() + ": " + message);
  }

  /** Stored standing query {@code d} no longer lowers, as {@code cause} says. */
  StandingQueryException(StandingCatalog.Definition d, StandingQueryException cause) {
    super("standing query " + d.name() + " cannot be read: " + cause.getMessage()
        + " (of its definition: " + d.sql() + ")", cause);
  }
}
