package dev.mnestic.standing;

import org.apache.calcite.sql.parser.SqlParserPos;

/** A standing query that cannot be planned, naming the place in its SQL text. */
public final class StandingQueryException extends RuntimeException {
  public StandingQueryException(SqlParserPos pos, String message) {
    super("At line " + pos.getLineNum() + ", column " + pos.getColumnNum() + ": " + message);
  }
}
