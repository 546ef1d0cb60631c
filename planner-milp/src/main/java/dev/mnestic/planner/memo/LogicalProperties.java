package dev.mnestic.planner.memo;

/** p^log = (θ, window layout) of a candidate: part of the candidate, not of its group. */
public record LogicalProperties(Parameters parameters, WindowLayout windowLayout) {
  @Override public String toString() {
    return parameters + ", " + windowLayout;
  }
}
