package dev.mnestic.planner.select;

import java.util.Arrays;
import java.util.Locale;

/** The OR-Tools backend {@link MilpSelector} hands its models to, through MPSolver. */
public enum Solver {
  /** CP-SAT, with a worker per core: the default, and the only one that proves the large parts. */
  CP_SAT,
  /** SCIP: exact, but slower than CP-SAT on these models. */
  SCIP,
  /** COIN-OR's CBC: exact, but slower than CP-SAT on these models. */
  CBC;

  /** MPSolver's name of this backend. */
  String id() {
    return name();
  }

  /**
   * The solver named {@code name} (as {@code --solver} takes it, in any case).
   *
   * @throws IllegalArgumentException naming the solvers there are
   */
  public static Solver of(String name) {
    for (Solver s : values()) {
      if (s.name().equalsIgnoreCase(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException("the solver is one of " + String.join(", ",
        Arrays.stream(values()).map(Enum::name).toList()) + ", not " + name.toUpperCase(Locale.ROOT));
  }
}
