package dev.mnestic.sql.validate;

import org.apache.calcite.runtime.Resources;
import org.apache.calcite.runtime.Resources.BaseMessage;
import org.apache.calcite.runtime.Resources.ExInst;
import org.apache.calcite.sql.validate.SqlValidatorException;

/** Validation errors of SKYLINE OF and PARETO_MIN/MAX; the validator adds the line and column. */
public interface SkylineErrors {
  SkylineErrors RESOURCE = Resources.create(SkylineErrors.class);

  @BaseMessage("SKYLINE OF ... {0} needs a type whose values are ordered; {1} has no order")
  ExInst<SqlValidatorException> itemHasNoOrder(String direction, String type);

  @BaseMessage("Aggregate expression is illegal in SKYLINE OF of a non-aggregating SELECT")
  ExInst<SqlValidatorException> aggregateIllegalInSkyline();

  @BaseMessage("{0} takes one point, an ARRAY of numbers; got {1}")
  ExInst<SqlValidatorException> paretoOperand(String function, String type);
}
