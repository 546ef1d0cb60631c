package dev.mnestic.planner.memo;

import dev.mnestic.planner.workload.ErrorMetric;

import java.util.List;

/**
 * v = (e_v, p^log_v): one operator over child groups (by group id) with its logical
 * properties. {@link #requirement} gives r^log_{v,i} for each input.
 */
public record LogicalCandidate(Operator operator, List<Integer> children,
    LogicalProperties properties) {
  public LogicalCandidate {
    children = List.copyOf(children);
    if (children.size() != operator.arity()) {
      throw new IllegalArgumentException(operator + " reads " + operator.arity()
          + " groups, not " + children.size());
    }
  }

  /** r^log_{v,i}: what this candidate needs of whichever producer feeds input {@code i}. */
  public LogicalRequirements requirement(int i) {
    if (operator instanceof Operator.Merge) {
      return new LogicalRequirements(
          ParameterFloor.forMergeInto((Parameters.Fixed) properties.parameters()), null);
    }
    if (operator instanceof Operator.Divide) {
      return new LogicalRequirements(new ParameterFloor.Any(), ErrorMetric.RELATIVE_VALUE);
    }
    if (operator instanceof Operator.Answer a) {
      return new LogicalRequirements(new ParameterFloor.Any(), a.target().metric());
    }
    return LogicalRequirements.ANY;
  }

  @Override public String toString() {
    return operator.toString() + children.stream().map(c -> "G" + c).toList() + " {" + properties + "}";
  }
}
