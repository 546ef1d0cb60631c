package dev.mnestic.planner.physical;

/** α^log or α^phys of an edge: satisfied, or not with the reason. */
public record Feasibility(String rejection) {
  public static final Feasibility OK = new Feasibility(null);

  public static Feasibility of(String rejection) {
    return rejection == null ? OK : new Feasibility(rejection);
  }

  public boolean ok() {
    return rejection == null;
  }

  @Override public String toString() {
    return ok() ? "ok" : rejection;
  }
}
