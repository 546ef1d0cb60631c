package dev.mnestic.sql.validate;

import org.apache.calcite.runtime.Resources;
import org.apache.calcite.runtime.Resources.BaseMessage;
import org.apache.calcite.runtime.Resources.ExInst;
import org.apache.calcite.sql.validate.SqlValidatorException;

/**
 * Validation errors of statements Calcite would let through to fail inside its converter
 * or generated code (issue 13); the validator adds the line and column.
 */
public interface StatementErrors {
  StatementErrors RESOURCE = Resources.create(StatementErrors.class);

  @BaseMessage("EXISTS takes a query in parentheses, not an expression")
  ExInst<SqlValidatorException> existsNeedsQuery();

  @BaseMessage("{0}''s interval must be positive, not {1}")
  ExInst<SqlValidatorException> windowIntervalNotPositive(String function, String interval);

  @BaseMessage("The types of a recursive query''s columns change in its recursive step (validated as {0}, computed as {1}); CAST the seed''s columns to the types the step gives them")
  ExInst<SqlValidatorException> recursiveTypesChange(String validated, String computed);
}
